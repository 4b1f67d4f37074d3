# The workloads of the dynamic benchmarks, sourced by bench/dynamic.sh and bench/compare-dynamic.sh.
# label|arguments
runs=(
  "16-ary 3-tree, 1e6 x 1 MB, Poisson 10 %|-t fattree:k=16,n=3 -p uniform:flows_per_endpoint=244 -b 1e6 --arrival poisson --load 0.1"
  "16-ary 3-tree, 1e5 x 1 MB, Poisson 20 %|-t fattree:k=16,n=3 -p uniform:flows_per_endpoint=24 -b 1e6 --arrival poisson --load 0.2"
  "all-to-all 1024 (32-ary 2-tree), 1 MB|-t fattree:k=32,n=2 -p alltoall -b 1e6"
  "all-to-all 4096 (16-ary 3-tree), 1 MB|-t fattree:k=16,n=3 -p alltoall -b 1e6"
  "contended: 16k jellyfish, 32768 x 1 MB together|-t jellyfish:N=2048,k=16,r=8 -r bfs -p uniform:flows_per_endpoint=2 -b 1e6"
  "contended: stencil3d 2048 + graph 2048 tasks, 16-ary 3-tree|-t fattree:k=16,n=3 -a stencil3d:tasks=2048,iters=10,bytes=131072 -a graph:tasks=2048,placement=random,class=1,iters=10,degree=8,bytes=1e6"
)
