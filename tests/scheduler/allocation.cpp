// Allocation policies on real topologies and task mapping in the network-aware runner.
#include "scheduler/allocation.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "core/error.hpp"
#include "scheduler/network_aware.hpp"
#include "tests/support/app_support.hpp"
#include "tests/support/run_support.hpp"
#include "tests/support/scheduler_support.hpp"

using namespace interflow;
using namespace interflow::scheduler;

namespace {

NodeAllocator allocator(std::uint32_t nodes, const std::string& spec, std::uint64_t seed,
                        const Topology* topology = nullptr) {
  const AllocationContext ctx = topology ? allocation_context_of(*topology) : AllocationContext{};
  return NodeAllocator(nodes, test::allocation(spec, ctx), seed, ctx.network);
}

}  // namespace

TEST_CASE("allocation: consecutive takes the first free nodes and random distinct free ones") {
  NodeAllocator c = allocator(16, "consecutive", 1);
  std::vector<std::uint32_t> a, b;
  c.take(3, a);
  CHECK(a == std::vector<std::uint32_t>{0, 1, 2});
  c.take(2, b);
  CHECK(b == std::vector<std::uint32_t>{3, 4});
  c.give_back(a);
  c.take(4, a);
  CHECK(a == std::vector<std::uint32_t>{0, 1, 2, 5});
  NodeAllocator r = allocator(16, "random", 1);
  r.take(10, a);
  CHECK(std::set<std::uint32_t>(a.begin(), a.end()).size() == 10);
  r.take(6, b);
  for (std::uint32_t v : b) CHECK(std::find(a.begin(), a.end(), v) == a.end());
  CHECK(r.free() == 0);
  CHECK_THROWS_AS(allocator(4, "nearest", 1), InputError);
  CHECK_THROWS_AS(allocator(4, "locality", 1), InputError);  // needs the network
}

TEST_CASE("allocation: locality fills a free leaf switch before spanning two") {
  // 4-ary 3-tree: 16 leaf switches of 4 endpoints. With nodes 0 and 1 busy, 4 nodes fit on the
  // second leaf (1 hop from its switch) rather than nodes 2, 3 plus two of another leaf.
  const auto t = test::build_topology("fattree:k=4,n=3");
  NodeAllocator alloc = allocator(64, "locality", 1, t.get());
  std::vector<std::uint32_t> first, second;
  alloc.take(2, first);
  CHECK(first == std::vector<std::uint32_t>{0, 1});
  alloc.take(4, second);
  std::sort(second.begin(), second.end());
  CHECK(second == std::vector<std::uint32_t>{4, 5, 6, 7});
}

TEST_CASE("allocation: locality on a torus takes a free sub-block") {
  // 8 nodes of an empty 4x4x4 torus: the 2x2x2 block at the origin.
  const auto t = test::build_topology("torus:dims=4x4x4");
  NodeAllocator alloc = allocator(64, "locality", 1, t.get());
  std::vector<std::uint32_t> nodes;
  alloc.take(8, nodes);
  const auto coord = [](std::uint32_t v) { return std::array<int, 3>{int(v % 4), int(v / 4 % 4), int(v / 16)}; };
  const auto dist = [&](std::uint32_t a, std::uint32_t b) {
    int d = 0;
    for (int k = 0; k < 3; ++k) {
      const int x = std::abs(coord(a)[k] - coord(b)[k]);
      d += std::min(x, 4 - x);
    }
    return d;
  };
  int diameter = 0;
  for (std::uint32_t a : nodes)
    for (std::uint32_t b : nodes) diameter = std::max(diameter, dist(a, b));
  CHECK(diameter == 3);  // a 2x2x2 cube
  std::sort(nodes.begin(), nodes.end());
  CHECK(nodes == std::vector<std::uint32_t>{0, 1, 4, 5, 16, 17, 20, 21});
  // With node 1 busy, 4 nodes: the first free 2x2x1 square in id order (origin 2, wrapping no further).
  NodeAllocator busy = allocator(64, "locality", 1, t.get());
  std::vector<std::uint32_t> one;
  busy.take(2, one);  // the first 2x1x1 block: nodes 0 and 1
  CHECK(one == std::vector<std::uint32_t>{0, 1});
  busy.take(4, nodes);
  std::sort(nodes.begin(), nodes.end());
  CHECK(nodes == std::vector<std::uint32_t>{2, 3, 6, 7});
  // A mesh does not wrap: 3 nodes in a row of a 2x2 mesh do not exist, so it falls back to the nearest.
  const auto mesh = test::build_topology("mesh:dims=2x2");
  NodeAllocator m = allocator(4, "locality", 1, mesh.get());
  m.take(3, nodes);
  CHECK(std::set<std::uint32_t>(nodes.begin(), nodes.end()).size() == 3);
}

TEST_CASE("allocation: geometric clusters are runs of consecutive free nodes") {
  NodeAllocator one = allocator(32, "geometric:mean=1", 5);  // single nodes at random
  std::vector<std::uint32_t> nodes;
  one.take(6, nodes);
  CHECK(std::set<std::uint32_t>(nodes.begin(), nodes.end()).size() == 6);
  NodeAllocator big = allocator(32, "geometric:mean=1e9", 5);  // one long cluster, cut only by the machine's end
  big.take(6, nodes);
  std::vector<std::uint32_t> sorted = nodes;
  std::sort(sorted.begin(), sorted.end());
  int runs = 1;
  for (std::size_t i = 1; i < sorted.size(); ++i) runs += sorted[i] != sorted[i - 1] + 1;
  CHECK(runs <= 2);
  CHECK_THROWS_AS(allocator(4, "geometric:mean=0.5", 1), InputError);
}

TEST_CASE("task mapping: consecutive and random and from a file") {
  const auto t = test::build_topology(test::star_topology());
  const auto routing = test::build_routing("bfs", *t);
  workloads::AppSettings settings;
  settings.endpoint_gbps = 10;
  Job j;
  j.id = 7;
  j.nodes = j.processors = 4;
  const std::vector<Job> jobs{j};
  const std::vector<std::vector<std::uint32_t>> held{{6, 1, 4, 3}};
  const auto placement = [&](const std::string& m) {
    NetworkRunner runner(t->network(), test::flow_transports(t->network(), *routing), test::app_registries().apps, settings, jobs, {"nbody:bytes=1e4"}, 8,
                         {}, test::mapping(m, jobs), 1);
    runner.start(0, {0}, held);
    return runner.applications()[0].placement;
  };
  CHECK(placement("consecutive") == std::vector<EndpointId>{1, 3, 4, 6});
  const auto shuffled = placement("random");
  CHECK(std::is_permutation(shuffled.begin(), shuffled.end(), held[0].begin()));
  const std::string path = "/tmp/interflow_test_mapping.txt";
  std::ofstream(path) << "# job 7: tasks onto the 4 nodes in reverse\n7 3 2 1 0\n";
  CHECK(placement("file:path=" + path) == std::vector<EndpointId>{6, 4, 3, 1});
  std::ofstream(path) << "7 3 2 1 1\n";
  CHECK_THROWS_WITH_AS(placement("file:path=" + path), doctest::Contains(":1: node index 1 is given twice"),
                       InputError);
  std::ofstream(path) << "8 0 1 2 3\n";
  CHECK_THROWS_WITH_AS(placement("file:path=" + path), doctest::Contains(":1: no job has id 8"), InputError);
  std::remove(path.c_str());
}
