// Trace readers and the application driver: hand-made GOAL, VEF and INRFlow fixtures
// (tests/fixtures/traces) timed on the star by hand, round trips from pseudo-applications through
// the writers, and malformed input.
#include "workloads/traces.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "tests/support/run_support.hpp"
#include "tests/support/app_support.hpp"
#include "workloads/inrflow_workload.hpp"

using namespace interflow;
using namespace interflow::workloads;
using test::error_of;

namespace {

std::string fixture(const std::string& name) {
  return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/traces/" + name;
}

// Runs application specs on the star (8 endpoints, 10 Gbit/s, 100 ns links): a 1000-byte message
// alone takes 0.8 us to leave and is delivered 0.2 us later.
drivers::RunResult run_on_star(const std::vector<std::string>& specs, double cpu_scale = 1) {
  static const auto t = test::build_topology(test::star_topology());
  static const auto routing = test::build_routing("bfs", *t);
  std::vector<Application> apps;
  workloads::EndpointPool pool(8);
  for (std::size_t a = 0; a < specs.size(); ++a) {
    workloads::AppSettings s;
    s.endpoint_gbps = 10;
    apps.push_back(workloads::make_application(test::app_registries().apps, Spec::parse(specs[a], "test"),
                                               static_cast<std::uint32_t>(a), pool, s));
  }
  test::RunOptions o;
  o.driver.cpu_scale = cpu_scale;
  o.flow.verify = true;
  return test::run_apps(t->network(), *routing, apps, o);
}

constexpr double us = 1e-6;

// A temporary file with `text`, removed at the end of the scope.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const std::string& text) : path("/tmp/interflow_test_" + name) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

TEST_CASE("traces: a GOAL token ring passes the token round with 1 us of computation per hop") {
  const drivers::RunResult r = run_on_star({"goal:file=" + fixture("token_ring.goal")});
  REQUIRE(r.blocked.empty());
  // Hops: 0 -> 1 delivered at 1.0; 1 computes to 2.0, delivered at 3.0; 2 -> 3 at 5.0; 3 -> 0 at 7.0.
  CHECK(r.apps[0].runtime_s() == approx(7.0 * us));
  CHECK(r.task_finish_s[0] == approx(7.0 * us));
  CHECK(r.task_finish_s[1] == approx(2.8 * us));  // its send has left at 2.0 + 0.8
  CHECK(r.task_finish_s[2] == approx(4.8 * us));
  CHECK(r.task_finish_s[3] == approx(6.8 * us));
  CHECK(r.apps[0].messages == 4);
  CHECK(r.apps[0].compute_s == approx(3.0 * us));
  CHECK(r.flows.max_verify_error < 1e-9);
}

TEST_CASE("traces: GOAL calcs of a rank share its CPU and scale with the CPU factor") {
  const drivers::RunResult r = run_on_star({"goal:file=" + fixture("compute_only.goal")});
  CHECK(r.task_finish_s[0] == approx(7.0 * us));  // 5 then 2
  CHECK(r.task_finish_s[1] == approx(7.0 * us));  // 3 and 4, one at a time
  CHECK(r.apps[0].messages == 0);
  const drivers::RunResult doubled = run_on_star({"goal:file=" + fixture("compute_only.goal")}, 2.0);
  CHECK(doubled.apps[0].runtime_s() == approx(14.0 * us));
  const drivers::RunResult coarse = run_on_star({"goal:file=" + fixture("compute_only.goal") + ",calc_unit=1e-6"});
  CHECK(coarse.apps[0].runtime_s() == approx(7000.0 * us));
}

TEST_CASE("traces: a GOAL irequires starts an operation with another") {
  // Both 1000-byte sends leave together and share rank 0's link: 1.6 us each, delivered at 1.8 us.
  const drivers::RunResult r = run_on_star({"goal:file=" + fixture("irequires.goal")});
  CHECK(r.task_finish_s[1] == approx(1.8 * us));
  CHECK(r.task_finish_s[2] == approx(1.8 * us));
}

TEST_CASE("traces: a deadlocked GOAL schedule is reported and does not hang") {
  const drivers::RunResult r = run_on_star({"goal:file=" + fixture("deadlock.goal")});
  REQUIRE(r.blocked.size() == 2);
  CHECK(!r.apps[0].complete);
  CHECK(r.blocked[0].task == 0);
  CHECK(r.blocked[0].op == 0);
  CHECK(r.blocked[0].reason.find("waits for rank 1 to reach the matching operation 1 (send to rank 0") !=
        std::string::npos);
}

TEST_CASE("traces: VEF send and receive dependencies with computation times") {
  // m0 0->1 at 0; m1 0->2 0.5 us after m0 has left (0.8): 1.3 to 2.1; m2 0->3 right after m1 has left:
  // 2.1 to 2.9, delivered 3.1; m3 3->0 1 us after m2 is received: 4.1, delivered 5.1.
  const drivers::RunResult r = run_on_star({"vef:file=" + fixture("chain.vef")});
  REQUIRE(r.blocked.empty());
  CHECK(r.flows.start_s[1] == approx(1.3 * us));
  CHECK(r.flows.start_s[2] == approx(2.1 * us));
  CHECK(r.flows.start_s[3] == approx(4.1 * us));
  CHECK(r.task_finish_s[0] == approx(5.1 * us));
  CHECK(r.task_finish_s[1] == approx(1.0 * us));
  CHECK(r.task_finish_s[3] == approx(4.9 * us));
  CHECK(r.apps[0].runtime_s() == approx(5.1 * us));
}

TEST_CASE("traces: a VEF allreduce among 8 ranks takes 3 exchange steps before the message after it") {
  // Recursive doubling: 3 steps of 100 kB each way on every endpoint link, 80 us + 0.2 us each; then
  // m0 (1000 bytes) leaves at 240.6 us and arrives 1 us later.
  const drivers::RunResult r = run_on_star({"vef:file=" + fixture("allreduce8.vef")});
  REQUIRE(r.blocked.empty());
  CHECK(r.apps[0].messages == 8 * 3 + 1);
  std::size_t m0 = 0;  // messages are numbered rank by rank: find the 1000-byte one
  while (r.messages.bytes[m0] != 1000) ++m0;
  CHECK(r.flows.start_s[m0] == approx(240.6 * us));
  CHECK(r.apps[0].runtime_s() == approx(241.6 * us));
  // 24 exchange messages of 80.2 us and one of 1 us.
  CHECK(r.apps[0].median_latency_s == approx(80.2 * us).epsilon(1e-6).scale(0));
  CHECK(r.apps[0].p99_latency_s == approx(80.2 * us).epsilon(1e-6).scale(0));
  CHECK(r.apps[0].mean_latency_s == approx((24 * 80.2 + 1) / 25 * us));
  const drivers::RunResult ring = run_on_star({"vef:file=" + fixture("allreduce8.vef") + ",alg=ring"});
  CHECK(ring.apps[0].messages == 8 * 14 + 1);  // reduce-scatter and allgather: 2 (n - 1) steps
}

TEST_CASE("traces: an INRFlow trace in FSIN order and swapped") {
  // FSIN: 0 -> 1 delivered at 1.0; 1 computes 1 us, 1 -> 2 delivered at 3.0.
  const drivers::RunResult fsin = run_on_star({"trc:file=" + fixture("ring.trc")});
  REQUIRE(fsin.blocked.empty());
  CHECK(fsin.apps[0].runtime_s() == approx(3.0 * us));
  // Swapped: 1 -> 0 and 2 -> 1 leave at once; rank 1 computes 1 us, then receives: all done at 1.0.
  const drivers::RunResult swapped = run_on_star({"trc:file=" + fixture("ring.trc") + ",order=swapped"});
  REQUIRE(swapped.blocked.empty());
  CHECK(swapped.apps[0].runtime_s() == approx(1.0 * us));
}

TEST_CASE("traces: a trace runs beside a synthetic application in its own class") {
  const drivers::RunResult r = run_on_star(
      {"goal:file=" + fixture("token_ring.goal") + ",class=1", "uniform_bg:tasks=4,messages=3,bytes=1e4,rate=0.5"});
  CHECK(r.blocked.empty());
  CHECK(r.apps.size() == 2);
  CHECK(r.apps[0].runtime_s() >= 7.0 * us);
  CHECK(r.messages.service_class[0] == 1);
}

TEST_CASE("traces: pseudo-applications replayed from their GOAL and VEF traces finish at the same time") {
  auto t = test::build_topology("fattree:k=4,n=3");
  auto routing = test::build_routing("ecmp", *t);
  for (const std::string spec :
       {"stencil3d:tasks=27,iters=2,compute=2e-6", "lammps:tasks=8,iters=2", "mapreduce:tasks=12,reducers=3,map=1e-6",
        "wavefront2d:tasks=16", "collective:op=alltoall,tasks=8,bytes=1e4", "nbody:tasks=6"}) {
    CAPTURE(spec);
    const Application app = test::make_app(spec, 64);
    test::RunOptions o;
    o.driver.record_operations = true;
    Application direct = app;
    direct.graph = graph_form(app);
    const drivers::RunResult run = test::run_apps(t->network(), *routing, {direct}, o);
    REQUIRE(run.blocked.empty());
    const drivers::RunResult programs = test::run_apps(t->network(), *routing, {app}, {});
    CHECK(run.apps[0].runtime_s() == approx(programs.apps[0].runtime_s()).epsilon(1e-9));
    TempFile goal("roundtrip.goal", [&] {
      std::ostringstream s;
      write_goal(direct.graph, s, {});
      return s.str();
    }());
    TempFile vef("roundtrip.vef", [&] {
      std::ostringstream s;
      write_vef(direct.graph, run.op_start_s, run.op_done_s, s, {});
      return s.str();
    }());
    for (const std::string& path : {goal.path, vef.path}) {
      CAPTURE(path);
      Application replay = direct;
      replay.graph = path == goal.path ? read_goal(path, {}) : read_vef(path, {});
      const drivers::RunResult again = test::run_apps(t->network(), *routing, {replay});
      REQUIRE(again.blocked.empty());
      CHECK(again.apps[0].runtime_s() == approx(run.apps[0].runtime_s()).epsilon(1e-9));
      CHECK(again.apps[0].messages >= run.apps[0].messages);  // VEF adds end markers to itself
      CHECK(again.apps[0].bytes == approx(run.apps[0].bytes));
    }
  }
}

TEST_CASE("traces: malformed GOAL input names the file line and what was expected") {
  const auto goal = [](const std::string& text) {
    TempFile f("bad.goal", text);
    return error_of([&] { read_goal(f.path, {}); });
  };
  CHECK(goal("").find(":0: empty file") != std::string::npos);
  CHECK(goal("ranks 2\n").find(":1: expected 'num_ranks <n>'") != std::string::npos);
  CHECK(goal("num_ranks 2\nrank 2 {\n}\n").find(":2: rank 2 is beyond num_ranks 2") != std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: send 8b to 5\n}\n").find(":3: peer rank 5") != std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: sned 8b to 1\n}\n").find(":3: expected send, recv or calc") !=
        std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: send xb to 1\n}\n").find(":3: message size 'x'") != std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n").find(":4: label 'l1' is used twice") !=
        std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: calc 5\nl1 requires l9\n}\n").find(":4: rank 0 has no label 'l9'") !=
        std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: calc 5\n").find("is not closed") != std::string::npos);
  CHECK(goal("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag\n}\n").find(":3: expected a value") != std::string::npos);
  CHECK(goal("num_ranks 1\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n").find("form a cycle") !=
        std::string::npos);
  CHECK(goal("num_ranks 4000000000\n").find(":1: the number of ranks must be between 1 and 16777216") !=
        std::string::npos);  // refused before anything is allocated per rank
  CHECK(error_of([] {
          read_goal("/nonexistent/x.goal", {});
        }).find("GOAL schedule '/nonexistent/x.goal': cannot read: No such file or directory") != std::string::npos);
}

TEST_CASE("traces: malformed VEF input names the file line and what was expected") {
  const auto vef = [](const std::string& text) {
    TempFile f("bad.vef", text);
    return error_of([&] { read_vef(f.path, {}); });
  };
  CHECK(vef("VEF 2 1 1 0 0\n").find(":1: expected the header's flag") != std::string::npos);
  CHECK(vef("VFE 2 1 1 0 0 TRUE\n").find(":1: expected the header") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC1 0 1\n").find(":2: expected communicator line C0") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0\n").find(":2: C0 must list every one") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0 1\n1 0 1 8 0 0 0\n").find(":3: message id 1 out of order") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0 1\n0 0 2 8 0 0 0\n").find(":3: rank 2 is beyond nranks 2") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0 1\n0 0 1 8 9 0 0\n").find(":3: dependency type 9") != std::string::npos);
  CHECK(vef("VEF 2 2 1 0 0 TRUE\nC0 0 1\n0 0 1 8 1 0 1\n").find(":3: depends on message 1, which does not come") !=
        std::string::npos);
  CHECK(vef("VEF 2 2 1 0 0 TRUE\nC0 0 1\n0 0 1 8 0 0 0\n1 0 1 8 1 0 0\n").find(":4: rank 0 depends on the receive") !=
        std::string::npos);
  CHECK(vef("VEF 2 2 1 0 0 TRUE\nC0 0 1\n0 0 1 8 0 0 0\n").find("the header says num_msgs 2") != std::string::npos);
  CHECK(vef("VEF 2 0 1 1 2 TRUE\nC0 0 1\nG0 0 2 0 8 8 0 0 0\n").find("has lines for 1 of its 2 members") !=
        std::string::npos);
  CHECK(vef("VEF 2 0 1 1 2 TRUE\nC0 0 1\nG0 0 42 0 8 8 0 0 0\n").find(":3: collective operation code 42") !=
        std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0 1\n0 0 1 8 0 0 0 7\n").find(":3: unexpected '7'") != std::string::npos);
  CHECK(vef("VEF 2 1 1 0 0 TRUE\nC0 0 1\n0 0 1 -8 0 0 0\n").find(":3: size '-8'") != std::string::npos);
  CHECK(vef("VEF 2 0 1 2 2 TRUE\nC0 0 1\nG1 0 2 0 8 8 0 0 0\n").find(":3: collective G1 before G0") !=
        std::string::npos);
  // Counts in the header are bounds, not sizes to allocate.
  CHECK(vef("VEF 4000000000 1 1 0 0 TRUE\n").find(":1: nranks must be between 1 and") != std::string::npos);
  CHECK(vef("VEF 2 1 99999999999 0 0 TRUE\nC0 0 1\n").find(":2: the file ends before communicator C1") !=
        std::string::npos);
}

TEST_CASE("traces: malformed INRFlow traces and mapping files name the file and line") {
  TempFile bad("bad.trc", "s 0 1 0 8\nx 0 1\n");
  CHECK(error_of([&] { read_trc(bad.path, {}); }).find(":2: expected an s, r or c line") != std::string::npos);
  TempFile huge("huge.trc", "c 3000000000 5\n");
  CHECK(error_of([&] { read_trc(huge.path, {}); }).find(":1: rank 3000000000 is beyond") != std::string::npos);
  TempFile short_line("short.trc", "s 0 1 0\n");
  CHECK(error_of([&] { read_trc(short_line.path, {}); }).find(":1: expected a size in bytes") != std::string::npos);
  TempFile map("map.txt", "3\n2 # the last\n");
  const Application app = test::make_app("goal:file=" + fixture("compute_only.goal") + ",mapping=" + map.path, 8);
  CHECK(app.placement == std::vector<EndpointId>{3, 2});
  TempFile taken("taken.txt", "3 3\n");
  CHECK(error_of([&] {
          test::make_app("nbody:tasks=2,mapping=" + taken.path, 8);
        }).find(":1: endpoint 3 is already taken") != std::string::npos);
  TempFile beyond("beyond.txt", "1\n9\n");
  CHECK(error_of([&] { test::make_app("nbody:tasks=2,mapping=" + beyond.path, 8); }).find(":2: endpoint 9 is beyond") !=
        std::string::npos);
}

TEST_CASE("traces: an INRFlow workload file becomes application specs") {
  TempFile wl("workload.txt",
              "0 all2all_2 8 sequential\n"
              "1000 stencil3d_2x2x2_4096_3 8 random  # positional: dims bytes iters\n"
              "500 file_" +
                  fixture("ring.trc") +
                  " 3 sequential\n"
                  "7 mapreduce 5 random\n");
  std::vector<std::string> specs;
  for (const InrflowApp& app : read_inrflow_workload(wl.path, test::app_registries().apps, 1e-9))
    specs.push_back(app.spec());
  REQUIRE(specs.size() == 4);
  const auto prefix = [](const std::string& s) { return s.substr(0, s.find(",arrival=")); };
  CHECK(prefix(specs[0]) == "collective:op=alltoall,iters=2,tasks=8,placement=consecutive");
  CHECK(prefix(specs[1]) == "stencil3d:dims=2x2x2,bytes=4096,iters=3,tasks=8,placement=random");
  CHECK(prefix(specs[2]) == "trc:file=" + fixture("ring.trc") + ",tasks=3,placement=consecutive");
  CHECK(prefix(specs[3]) == "mapreduce:tasks=5,placement=random");
  const Spec s = Spec::parse(specs[1], "test");
  CHECK(test::app_registries().apps.validate(s).get_real("arrival") == approx(1e-6));

  const auto bad = [](const std::string& text) {
    TempFile f("bad_workload.txt", text);
    return error_of([&] { read_inrflow_workload(f.path, test::app_registries().apps, 1e-9); });
  };
  CHECK(bad("0 all2all 8 jellyfish-spread\n").find(":1: allocation 'jellyfish-spread'") != std::string::npos);
  CHECK(bad("0 warp_3 8 random\n").find(":1: unknown kernel 'warp'") != std::string::npos);
  CHECK(bad("0 all2all 8\n").find(":1: expected an allocation") != std::string::npos);
  CHECK(bad("0 nbodies_1_2 8 random\n").find(":1: INRFlow kernel nbodies") != std::string::npos);
  CHECK(bad("x all2all 8 random\n").find(":1: arrival time 'x'") != std::string::npos);
  CHECK(bad("0 stencil3d_2x2x2_lots 8 random\n").find(":1: becomes 'stencil3d:dims=2x2x2,bytes=lots") !=
        std::string::npos);
}

TEST_CASE("traces: a written GOAL schedule grows linearly with the iterations") {
  // A kernel that never blocks between its waits (no computation) once wrote every operation as
  // depending on every earlier iteration: the file grew with the square of the iterations.
  const auto goal_lines = [](int iters) {
    const Application app = test::make_app("stencil3d:tasks=8,compute=0,iters=" + std::to_string(iters), 8);
    std::ostringstream s;
    write_goal(graph_form(app), s, {});
    const std::string text = s.str();
    return static_cast<double>(std::count(text.begin(), text.end(), '\n'));
  };
  // Every iteration after the first adds the same number of lines.
  const double ten = goal_lines(10), twenty = goal_lines(20), forty = goal_lines(40);
  CHECK(forty - twenty == approx(2 * (twenty - ten)).epsilon(1e-9));
  // Every operation has a bounded number of dependencies.
  const OpGraph g = graph_form(test::make_app("stencil3d:tasks=8,compute=0,iters=40", 8));
  for (std::uint32_t i = 0; i < g.size(); ++i) CHECK(g.deps_of(i).size() <= 13);
}
