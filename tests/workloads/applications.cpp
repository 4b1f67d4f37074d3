// Pseudo-application kernels: message counts and sizes from closed forms, disjoint placements, the
// grid factorisation, and every kernel running to completion on a small fat tree without deadlock.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "tests/support/run_support.hpp"
#include "tests/support/app_support.hpp"

using namespace interflow;
using namespace interflow::workloads;

namespace {

struct Counts {
  std::uint64_t sends = 0, recvs = 0;
  std::set<double> sizes;
};

Counts count(const Program& p) {
  Counts c;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (is_send(p.kind[i])) {
      ++c.sends;
      c.sizes.insert(p.value[i]);
    }
    if (is_receive(p.kind[i])) ++c.recvs;
  }
  return c;
}

// One spec of every kernel (several for kernels with distinct modes), sized for a 16-endpoint fat tree.
const std::vector<std::string>& every_kernel() {
  static const std::vector<std::string> specs{"stencil2d:tasks=16,iters=2",
                                              "stencil3d:tasks=27,iters=2,periodic=false",
                                              "wavefront2d:tasks=16",
                                              "wavefront3d:tasks=27,iters=2",
                                              "nbody:tasks=9",
                                              "mapreduce:tasks=20,reducers=4",
                                              "graph:tasks=32,iters=3",
                                              "dcntraffic:tasks=32,flows=5",
                                              "pattern:pattern=randperm,phase_size=8,tasks=32",
                                              "pattern:pattern=alltoall,tasks=16",
                                              "collective:op=allreduce,tasks=13,iters=2",
                                              "collective:op=alltoall,alg=linear,tasks=8,bytes=1000",
                                              "collective:op=bcast,root=3,tasks=10,collective_class=0",
                                              "collective:op=barrier,tasks=16",
                                              "lammps:tasks=27,iters=2",
                                              "lammps:tasks=8,iters=3,allreduce_every=2,collective_class=1",
                                              "nekbone:tasks=27,iters=2",
                                              "nekbone:tasks=8,iters=2,neighbours=6",
                                              "nn3d:tasks=64,iters=2",
                                              "uniform_bg:tasks=16,messages=5,bytes=1e5,rate=0.3",
                                              "permutation_bg:tasks=16,messages=6,bytes=1e5,switch_bytes=2e5,rate=0.5"};
  return specs;
}

}  // namespace

TEST_CASE("applications: the most balanced grid of tasks") {
  ParamSet none;
  CHECK(grid_dims(16, 2, {}, none) == std::vector<std::uint32_t>{4, 4});
  CHECK(grid_dims(12, 3, {}, none) == std::vector<std::uint32_t>{3, 2, 2});
  CHECK(grid_dims(64, 3, {}, none) == std::vector<std::uint32_t>{4, 4, 4});
  CHECK(grid_dims(7, 2, {}, none) == std::vector<std::uint32_t>{7, 1});
  CHECK_THROWS_AS(test::make_app("stencil2d:tasks=16,dims=4x5"), InputError);
}

TEST_CASE("applications: stencil wavefront and n-body message counts follow the grid") {
  // Periodic 4x4: 4 neighbours each; 2 iterations.
  Counts c = count(test::make_app("stencil2d:tasks=16,iters=2,bytes=100").program);
  CHECK(c.sends == 2 * 16 * 4);
  CHECK(c.recvs == c.sends);
  // Non-periodic 2x2x2: 3 neighbours each.
  c = count(test::make_app("stencil3d:tasks=8,iters=1,periodic=false").program);
  CHECK(c.sends == 8 * 3);
  // A 4x4 sweep: (X-1)Y + X(Y-1) = 24 messages per sweep.
  c = count(test::make_app("wavefront2d:tasks=16,iters=3").program);
  CHECK(c.sends == 3 * 24);
  // 4x3x2 sweep: 3*3*2 + 4*2*2 + 4*3*1 = 46.
  c = count(test::make_app("wavefront3d:tasks=24,dims=4x3x2").program);
  CHECK(c.sends == 10 * 46);
  c = count(test::make_app("nbody:tasks=5,iters=2").program);
  CHECK(c.sends == 2 * 5 * 4);
}

TEST_CASE("applications: MapReduce graph and dcntraffic message counts") {
  // 4 workers, 2 reducers: 4 inputs, W*R - R = 6 shuffle messages, 2 outputs.
  Counts c = count(test::make_app("mapreduce:tasks=5,reducers=2,input=10,shuffle=20,output=30").program);
  CHECK(c.sends == 12);
  CHECK(c.recvs == 12);
  CHECK(c.sizes == std::set<double>{10, 20, 30});
  // Reducers at random: the same counts; distinct reducers, fixed by the application's seed.
  const auto reducers_of = [](const Program& p) {
    std::set<std::uint32_t> r;
    for (std::uint32_t t = 0; t < p.tasks; ++t)
      for (std::uint64_t i = p.offsets[t]; i < p.offsets[t + 1]; ++i)
        if (is_receive(p.kind[i]) && p.value[i] == 20) r.insert(t);
    return r;
  };
  const std::string random_spec = "mapreduce:tasks=41,reducers=5,input=10,shuffle=20,output=30,reducers_at=random";
  const Program a = test::make_app(random_spec).program, b = test::make_app(random_spec, 64, 1).program;
  CHECK(count(a).sends == 40 + 40 * 5 - 5 + 5);
  CHECK(reducers_of(a).size() == 5);
  CHECK(!reducers_of(a).contains(0));
  CHECK(reducers_of(a) == reducers_of(test::make_app(random_spec).program));
  CHECK(reducers_of(a) != reducers_of(b));  // another application, another seed
  CHECK(reducers_of(test::make_app("mapreduce:tasks=41,reducers=5,shuffle=20").program) ==
        std::set<std::uint32_t>{1, 9, 17, 25, 33});
  c = count(test::make_app("graph:tasks=10,degree=3,iters=2").program);
  CHECK(c.sends == 60);
  const Program dcn = test::make_app("dcntraffic:tasks=10,flows=200").program;
  std::uint64_t longs = 0, sends = 0;
  for (std::size_t i = 0; i < dcn.size(); ++i)
    if (dcn.kind[i] == OpKind::Isend) {
      ++sends;
      CHECK(dcn.value[i] >= 1024);
      CHECK(dcn.value[i] <= 1537024);
      longs += dcn.value[i] > 16384 ? 1 : 0;
    }
  CHECK(sends == 2000);
  CHECK(longs > 300);  // 20 % of 2000 = 400 expected
  CHECK(longs < 500);
}

TEST_CASE("applications: placements are disjoint and sized") {
  EndpointPool pool(32);
  AppSettings s;
  s.patterns = &test::app_registries().patterns;
  const auto& reg = test::app_registries().apps;
  const Application a = make_application(reg, Spec::parse("nbody:tasks=10", "t"), 0, pool, s);
  const Application b = make_application(reg, Spec::parse("nbody:tasks=12,placement=random", "t"), 1, pool, s);
  const Application c = make_application(reg, Spec::parse("nbody", "t"), 2, pool, s);  // the 10 left
  CHECK(a.placement == std::vector<EndpointId>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(c.placement.size() == 10);
  std::set<EndpointId> all(a.placement.begin(), a.placement.end());
  all.insert(b.placement.begin(), b.placement.end());
  all.insert(c.placement.begin(), c.placement.end());
  CHECK(all.size() == 32);
  CHECK_THROWS_AS(make_application(reg, Spec::parse("nbody:tasks=1", "t"), 3, pool, s), InputError);
  CHECK_THROWS_AS(test::make_app("nbody:tasks=65"), InputError);
  CHECK_THROWS_AS(test::make_app("collective:op=bcast,alg=ring,tasks=8"), InputError);
  CHECK_THROWS_AS(test::make_app("collective:op=bcast,root=8,tasks=8"), InputError);
}

TEST_CASE("applications: every kernel runs to completion on a fat tree") {
  auto t = test::build_topology("fattree:k=4,n=3");
  auto routing = test::build_routing("ecmp", *t);
  for (const std::string& spec : every_kernel()) {
    CAPTURE(spec);
    const Application app = test::make_app(spec);
    test::RunOptions o;
    o.flow.verify = true;
    const drivers::RunResult r = test::run_apps(t->network(), *routing, {app}, o);
    CHECK(r.blocked.empty());
    CHECK(r.unreceived_messages == 0);
    CHECK(r.apps[0].complete);
    CHECK(r.apps[0].runtime_s() > 0);
    CHECK(r.flows.max_verify_error < 1e-9);
  }
}

TEST_CASE("applications: a torus MapReduce incast keeps exact max-min rates") {
  // Staggered shuffles into few reducers over dimension-order paths: every end of an incast flow
  // changes the rates of the others, the case the incremental solver's layout is tuned for. After
  // every batch the rates must equal a solve from scratch.
  auto t = test::build_topology("torus:dims=4x4x4");
  auto routing = test::build_routing("dor", *t);
  for (const std::string at : {"even", "random"}) {
    CAPTURE(at);
    const Application app = test::make_app("mapreduce:tasks=64,reducers=6,reducers_at=" + at);
    test::RunOptions o;
    o.flow.verify = true;
    const drivers::RunResult r = test::run_apps(t->network(), *routing, {app}, o);
    CHECK(r.apps[0].complete);
    CHECK(r.apps[0].messages == 63 + 63 * 6 - 6 + 6);
    CHECK(r.flows.batches > 50);
    CHECK(r.flows.max_verify_error < 1e-9);
  }
}

TEST_CASE("applications: every kernel keeps its timing with its sends held in program order") {
  // A limit of messages in flight makes the graph form of a program wait for the start of each isend
  // before the task's next operation (core/op_graph.hpp append_program); with a limit no task reaches,
  // those extra dependencies must change no time.
  auto t = test::build_topology("fattree:k=4,n=3");
  auto routing = test::build_routing("ecmp", *t);
  for (const std::string& spec : every_kernel()) {
    CAPTURE(spec);
    const Application app = test::make_app(spec);
    test::RunOptions o;
    o.driver.cpu_scale = 1.5;
    const drivers::RunResult direct = test::run_apps(t->network(), *routing, {app}, o);
    o.driver.max_in_flight = 1u << 30;
    const drivers::RunResult ordered = test::run_apps(t->network(), *routing, {app}, o);
    CHECK(ordered.blocked.empty());
    CHECK(ordered.unreceived_messages == 0);
    REQUIRE(ordered.task_finish_s.size() == direct.task_finish_s.size());
    for (std::size_t k = 0; k < direct.task_finish_s.size(); ++k) {
      CAPTURE(k);
      CHECK(ordered.task_finish_s[k] == approx(direct.task_finish_s[k]).epsilon(1e-9));
      CHECK(ordered.task_compute_s[k] == approx(direct.task_compute_s[k]).epsilon(1e-12));
    }
    CHECK(ordered.apps[0].messages == direct.apps[0].messages);
    CHECK(ordered.apps[0].runtime_s() == approx(direct.apps[0].runtime_s()).epsilon(1e-9));
    CHECK(ordered.apps[0].max_latency_s == approx(direct.apps[0].max_latency_s).epsilon(1e-9));
  }
}

TEST_CASE("applications: a recursive-doubling allreduce among 8 tasks takes 3 exchange steps") {
  // On the star every exchange step sends one message each way on every endpoint link: T + L per step.
  auto t = test::build_topology(test::star_topology());
  auto routing = test::build_routing("bfs", *t);
  const Application app = test::make_app("collective:op=allreduce,alg=recdoubling,tasks=8,bytes=1e5", 8);
  const drivers::RunResult r = test::run_apps(t->network(), *routing, {app}, {});
  REQUIRE(r.blocked.empty());
  CHECK(r.apps[0].messages == 8 * 3);
  CHECK(r.apps[0].runtime_s() == approx(3 * (8e5 / 10e9 + 200e-9)).epsilon(1e-9));
}
