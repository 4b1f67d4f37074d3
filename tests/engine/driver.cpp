// Tasks running programs against closed forms on a star (every message limited by its two endpoint
// links of C = 10 Gbit/s, path latency L = 200 ns): a token ring with computation (critical path), an
// early message waiting as a pending notification, non-blocking all-to-all exchanges, the CPU scale
// factor, the per-task limit of messages in flight, deadlocks reported with who waits for what.
#include "tests/support/run_support.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

std::string fixture(const std::string& name) { return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/" + name; }

constexpr double kC = 10e9, kL = 200e-9;

Application app_of(ProgramBuilder& b, std::uint32_t first_endpoint = 0) {
  Application a;
  a.placement.resize(b.tasks());
  std::iota(a.placement.begin(), a.placement.end(), first_endpoint);
  a.program = b.build();
  return a;
}

drivers::RunResult run(std::vector<Application> apps, test::RunOptions o = {}) {
  auto t = test::build_topology("graph:file=" + fixture("star.ifg"));
  auto r = test::build_routing("bfs", *t);
  o.flow.verify = true;
  drivers::RunResult result = test::run_apps(t->network(), *r, apps, o);
  CHECK(result.flows.max_verify_error < 1e-9);
  return result;
}

}  // namespace

TEST_CASE("tasks: a token ring with computation takes N times compute plus transfer plus latency") {
  const std::uint32_t n = 8;
  const double bytes = 1e5, c = 50e-6, transfer = 8 * bytes / kC;
  ProgramBuilder b(n);
  b.compute(0, c);
  b.send(0, 1, bytes, 7);
  b.recv(0, n - 1, bytes, 7);
  for (std::uint32_t i = 1; i < n; ++i) {
    b.recv(i, i - 1, bytes, 7);
    b.compute(i, c);
    b.send(i, (i + 1) % n, bytes, 7);
  }
  const drivers::RunResult r = run({app_of(b)});
  REQUIRE(r.blocked.empty());
  const double hop = c + transfer + kL;
  // Task i > 0 ends when its send's last bit has left: i hops after the start, plus its compute and transfer.
  for (std::uint32_t i = 1; i < n; ++i)
    CHECK(r.task_finish_s[i] == approx(i * hop + c + transfer).epsilon(1e-9));
  CHECK(r.task_finish_s[0] == approx(n * hop).epsilon(1e-9));
  CHECK(r.apps[0].runtime_s() == approx(n * hop).epsilon(1e-9));
  CHECK(r.apps[0].messages == n);
  CHECK(r.apps[0].compute_s == approx(n * c));
  CHECK(r.apps[0].max_latency_s == approx(transfer + kL).epsilon(1e-9));
}

TEST_CASE("tasks: a message that arrives before its receive waits as a pending notification") {
  ProgramBuilder b(2);
  b.send(0, 1, 1e6, 1);
  b.compute(1, 5e-3);  // far longer than the transfer
  b.recv(1, 0, 1e6, 1);
  const drivers::RunResult r = run({app_of(b)});
  REQUIRE(r.blocked.empty());
  CHECK(r.task_finish_s[0] == approx(8e6 / kC).epsilon(1e-9));
  CHECK(r.task_finish_s[1] == approx(5e-3).epsilon(1e-12));  // no wait at the receive
  CHECK(r.unreceived_messages == 0);
}

TEST_CASE("tasks: non-blocking all-to-all exchanges share each endpoint link") {
  // Four tasks each isend to the three others and irecv from them: three flows share every sender's
  // (and receiver's) link at C/3, so everything is delivered at 3 x transfer + L.
  const std::uint32_t n = 4;
  const double bytes = 1e6, transfer = 8 * bytes / kC;
  ProgramBuilder b(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = 0; j < n; ++j)
      if (j != i) b.irecv(i, j, bytes, 3);
    for (std::uint32_t j = 0; j < n; ++j)
      if (j != i) b.isend(i, j, bytes, 3);
    b.wait(i);
  }
  const drivers::RunResult r = run({app_of(b)});
  REQUIRE(r.blocked.empty());
  for (std::uint32_t i = 0; i < n; ++i) CHECK(r.task_finish_s[i] == approx(3 * transfer + kL).epsilon(1e-9));
}

TEST_CASE("tasks: the CPU scale factor multiplies computation") {
  ProgramBuilder b(1);
  b.compute(0, 1e-3);
  b.delay(0, 1e-3);  // a fixed delay is not scaled
  test::RunOptions o;
  o.driver.cpu_scale = 2.5;
  const drivers::RunResult r = run({app_of(b)}, o);
  CHECK(r.task_finish_s[0] == approx(3.5e-3));
  CHECK(r.task_compute_s[0] == approx(2.5e-3));
}

TEST_CASE("tasks: a limit of one message in flight per task serialises its isends") {
  // Task 0 isends to tasks 1, 2 and 3. Without a limit the three share its link and are all delivered
  // at 3T + L; with one in flight at a time, message k is delivered at kT + L.
  const double bytes = 1e6, transfer = 8 * bytes / kC;
  const auto program = [&] {
    ProgramBuilder b(4);
    for (std::uint32_t j = 1; j < 4; ++j) {
      b.isend(0, j, bytes, 0);
      b.recv(j, 0, bytes, 0);
    }
    b.wait(0);
    return app_of(b);
  };
  const drivers::RunResult free = run({program()});
  for (FlowId m = 0; m < 3; ++m) CHECK(free.flows.finish_s[m] == approx(3 * transfer + kL).epsilon(1e-9));
  test::RunOptions o;
  o.driver.max_in_flight = 1;
  const drivers::RunResult limited = run({program()}, o);
  for (FlowId m = 0; m < 3; ++m)
    CHECK(limited.flows.finish_s[m] == approx((m + 1) * transfer + kL).epsilon(1e-9));
  CHECK(limited.task_finish_s[0] == approx(3 * transfer).epsilon(1e-9));
}

TEST_CASE("tasks: a deadlocked program ends with a report of who waits for what") {
  ProgramBuilder b(3);
  b.recv(0, 1, 100, 0);  // 0 and 1 each wait for the other first
  b.send(0, 1, 100, 0);
  b.recv(1, 0, 100, 0);
  b.send(1, 0, 100, 0);
  b.recv(2, 0, 64, 9);  // nobody ever sends this
  const drivers::RunResult r = run({app_of(b)});
  REQUIRE(r.blocked.size() == 3);
  CHECK(r.blocked[0].task == 0);
  CHECK(r.blocked[0].op == 0);
  CHECK(r.blocked[0].reason.find("waits for rank 1 to reach the matching operation 1 (send") != std::string::npos);
  CHECK(r.blocked[2].reason.find("never sends") != std::string::npos);
  CHECK_FALSE(r.apps[0].complete);
  // A task left with an irecv outstanding at the end of its program is reported too.
  ProgramBuilder c(2);
  c.irecv(0, 1, 10, 0);
  const drivers::RunResult r2 = run({app_of(c)});
  REQUIRE(r2.blocked.size() == 1);
  CHECK(r2.blocked[0].reason.find("never sends") != std::string::npos);
}

TEST_CASE("tasks: applications arrive at their own time on their own endpoints") {
  ProgramBuilder a(2), b(2);
  a.send(0, 1, 1e6, 0);
  a.recv(1, 0, 1e6, 0);
  b.send(0, 1, 1e6, 0);
  b.recv(1, 0, 1e6, 0);
  Application first = app_of(a), second = app_of(b, 2);
  second.arrival_s = 1e-3;
  const drivers::RunResult r = run({first, second});
  const double one = 8e6 / kC + kL;
  CHECK(r.apps[0].end_s == approx(one).epsilon(1e-9));
  CHECK(r.apps[1].start_s == approx(1e-3));
  CHECK(r.apps[1].runtime_s() == approx(one).epsilon(1e-9));
  CHECK(r.task_offset == std::vector<std::uint32_t>{0, 2, 4});
}

TEST_CASE("tasks: inconsistent applications are refused") {
  ProgramBuilder b(2);
  b.send(0, 1, 10, 0);
  Application a = app_of(b);
  a.placement.pop_back();
  CHECK_THROWS_AS(run({a}), InputError);
  a.placement = {0, 99};
  CHECK_THROWS_AS(run({a}), InputError);
  ProgramBuilder bad(2);
  bad.send(0, 5, 10, 0);
  CHECK_THROWS_AS(bad.build(), InputError);
}
