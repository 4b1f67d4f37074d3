// The Markov-chain application model: a deterministic matrix walks a fixed path and its program runs
// in the closed-form time; a random matrix visits its states as often as its stationary distribution
// says (computed here independently, by power iteration); bad matrices are refused by name.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "tests/support/app_support.hpp"
#include "tests/support/approx.hpp"
#include "tests/support/run_support.hpp"
#include "workloads/markov.hpp"

using namespace interflow;
using namespace interflow::workloads;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("interflow-markov-" + name);
  std::ofstream(path) << text;
  return path.string();
}

// Init -> Comp -> Comm -> Read -> Write -> End, each with probability 1.
const char* kFixedPath =
    "# a fixed path of states\n"
    "init  0 1 0 0 0 0\n"
    "comp  0 0 1 0 0 0\n"
    "comm  0 0 0 1 0 0\n"
    "read  0 0 0 0 1 0\n"
    "write 0 0 0 0 0 1\n";

using S = MarkovState;

}  // namespace

TEST_CASE("markov: a deterministic matrix walks its one path") {
  const MarkovMatrix m = read_markov_matrix(write_file("fixed", kFixedPath));
  Rng rng(7);
  CHECK(markov_trajectory(m, rng, 100) == std::vector<S>{S::Init, S::Comp, S::Comm, S::Read, S::Write, S::End});
}

// On the star (10 Gbit/s, 100 ns links; a path between two endpoints is 2 links, 200 ns), two tasks
// on endpoints 0 and 1 and their data on endpoints 2 and 3; 1.25e6 bytes take 1 ms on a link:
//   Comp   1 ms (constant 1/lambda)                                      ends at 1 ms
//   Comm   0 <-> 1 (shift), 1 ms; the receive completes on delivery      2 ms + 0.2 us
//   Read   0-byte request delivered after 0.2 us, then 1 ms and 0.2 us   3 ms + 0.6 us
//   Write  the task goes on when its last bit has left                   4 ms + 0.6 us
//   End    result written back; its data rank receives it 0.2 us later  5 ms + 0.8 us
TEST_CASE("markov: a fixed path of states runs in its closed-form time") {
  const std::string matrix = write_file("fixed-run", kFixedPath);
  Application app = test::make_app("markov:tasks=2,matrix=" + matrix +
                                   ",comp=constant,lambda=1000,comm=shift,comm_bytes=1.25e6,read_bytes=1.25e6,"
                                   "write_bytes=1.25e6,result_bytes=1.25e6");
  REQUIRE(app.data_ranks == 2);
  REQUIRE(app.tasks() == 4);
  CHECK(app.placement[2] == kNone);
  app.placement[2] = 2;
  app.placement[3] = 3;
  const auto topo = test::build_topology(test::star_topology());
  const auto routing = test::build_routing("bfs", *topo);
  const drivers::RunResult r = test::run_apps(topo->network(), *routing, {app});
  REQUIRE(r.apps[0].complete);
  CHECK(r.apps[0].runtime_s() == approx(5e-3 + 0.8e-6));
  // The same Comm phase as an application kernel's program (the phased pattern, one phase), and the
  // pattern with its parameter given: the same time.
  for (const std::string comm : {"comm_app=pattern:pattern=shift;bytes=1.25e6", "comm=shift:s=1"}) {
    INFO(comm);
    Application same = test::make_app("markov:tasks=2,matrix=" + matrix + ",comp=constant,lambda=1000," + comm +
                                      ",comm_bytes=1.25e6,read_bytes=1.25e6,write_bytes=1.25e6,result_bytes=1.25e6");
    same.placement[2] = 2;
    same.placement[3] = 3;
    const drivers::RunResult s = test::run_apps(topo->network(), *routing, {same});
    REQUIRE(s.apps[0].complete);
    CHECK(s.apps[0].runtime_s() == approx(5e-3 + 0.8e-6));
  }
  CHECK(test::error_of([&] { test::make_app("markov:tasks=2,comm_app=markov"); }).find("comm_app") !=
        std::string::npos);
  CHECK(test::error_of([&] { test::make_app("markov:tasks=2,comm_app=nosuch"); }).find("nosuch") != std::string::npos);
  // Storage messages travel in class 1, the Comm messages in the application's class 0.
  std::uint32_t io = 0;
  for (std::size_t m = 0; m < r.messages.size(); ++m) io += r.messages.class_of(static_cast<MessageId>(m)) == 1;
  CHECK(io == 2 * 4);  // per task: the read request, the data read, the write and the result
}

// A random matrix with every entry positive; the chain restarted at Init after End is an ergodic
// chain whose stationary distribution pi (pi P' = pi, P' = P with End's row sent to Init) gives how
// often each state is visited over many trajectories.
TEST_CASE("markov: a random matrix visits its states as its stationary distribution says") {
  Rng draw(2026);
  MarkovMatrix m;
  for (std::size_t a = 0; a + 1 < kMarkovStates; ++a) {
    double sum = 0;
    for (std::size_t b = 0; b < kMarkovStates; ++b) sum += m.p[a][b] = 0.05 + draw.uniform();
    for (std::size_t b = 0; b < kMarkovStates; ++b) m.p[a][b] /= sum;
  }
  check_markov(m, "random matrix");
  // pi by power iteration on P'.
  std::array<double, kMarkovStates> pi{}, next{};
  pi.fill(1.0 / kMarkovStates);
  for (int it = 0; it < 2000; ++it) {
    next.fill(0);
    for (std::size_t a = 0; a < kMarkovStates; ++a)
      for (std::size_t b = 0; b < kMarkovStates; ++b)
        next[b] += pi[a] * (a + 1 == kMarkovStates ? (b == 0 ? 1.0 : 0.0) : m.p[a][b]);
    pi = next;
  }
  std::array<double, kMarkovStates> visits{};
  double steps = 0;
  Rng rng(11);
  while (steps < 2e6)
    for (S s : markov_trajectory(m, rng, 1000)) {
      visits[static_cast<std::size_t>(s)] += 1;
      steps += 1;
    }
  for (std::size_t s = 0; s < kMarkovStates; ++s) {
    INFO("state " << markov_state_name(static_cast<S>(s)) << " pi " << pi[s]);
    CHECK(std::abs(visits[s] / steps - pi[s]) < 0.002);  // about 6 standard deviations at 2e6 steps
  }
}

TEST_CASE("markov: every built-in profile is a valid matrix whose trajectories end") {
  for (const std::string& name : markov_profile_names()) {
    INFO(name);
    const MarkovMatrix m = markov_profile(name);
    CHECK_NOTHROW(check_markov(m, name));
    Rng rng(3);
    const std::vector<S> path = markov_trajectory(m, rng, 1'000'000);
    CHECK(path.front() == S::Init);
    CHECK(path[1] == S::Comp);                  // Comp comes first after Init ...
    CHECK(path[path.size() - 2] == S::Comp);  // ... and last before End (§3.3.4)
    CHECK(path.back() == S::End);
  }
  CHECK(test::error_of([] { markov_profile("busy"); }).find("balanced") != std::string::npos);
}

TEST_CASE("markov: bad matrices are refused naming the row or the state") {
  MarkovMatrix m = markov_profile("balanced");
  m.p[2][1] = 0.7;  // Comm's row sums to 0.9
  CHECK(test::error_of([&] { check_markov(m, "M"); }) == "M: row comm sums to 0.900000; each row must sum to 1");
  m = markov_profile("compute");
  m.p[1] = {0, 0.9, 0, 0, 0, 0.1};  // Comm, Read, Write no longer reachable
  CHECK(test::error_of([&] { check_markov(m, "M"); }) == "M: state comm is unreachable from init");
  m = markov_profile("comm");
  m.p[2] = {0, 0, 1, 0, 0, 0};  // Comm loops on itself for ever
  CHECK(test::error_of([&] { check_markov(m, "M"); }).find("state comm never leads to end") != std::string::npos);
  m = markov_profile("io");
  m.p[3][1] = std::nan("");
  CHECK(test::error_of([&] { check_markov(m, "M"); }).find("row read: the probability to comp") != std::string::npos);
  // Files: the line of a row that does not sum to 1, a missing row, an unknown state.
  const std::string bad = write_file("bad", "init 0 1 0 0 0 0\ncomp 0 0 0.5 0.5 0 0.1\n");
  CHECK(test::error_of([&] { read_markov_matrix(bad); }) == bad + ":2: row comp sums to 1.100000; expected 1");
  // A state without a row is fine if the chain never visits it, refused if it does.
  const std::string short_file = write_file("short", "init 0 1 0 0 0 0\ncomp 0 0 0 0 0 1\n");
  CHECK_NOTHROW(read_markov_matrix(short_file));
  const std::string missing = write_file("missing", "init 0 1 0 0 0 0\ncomp 0 0 1 0 0 0\n");
  CHECK(test::error_of([&] { read_markov_matrix(missing); }) ==
        missing + ": row comm sums to 0.000000; each row must sum to 1");
  const std::string unknown = write_file("unknown", "sleep 0 1 0 0 0 0\n");
  CHECK(test::error_of([&] { read_markov_matrix(unknown); }).find(unknown + ":1: 'sleep' is not a state") == 0);
  CHECK(test::error_of([] { test::make_app("markov:tasks=2,matrix=/nonexistent/m.txt"); }).find("m.txt") !=
        std::string::npos);
}

TEST_CASE("markov: the cache serves its share of every read and writes go to every replica") {
  // compute profile, cache of 1/4 of the data: Init reads 2.5e5 bytes, every Read 0.75 x 1e6.
  const Application app =
      test::make_app("markov:tasks=3,profile=io,data_bytes=1e6,cache_bytes=2.5e5,read_bytes=1e6,write_bytes=2e5,"
                     "result_bytes=3e5,replicas=2");
  REQUIRE(app.data_ranks == 6);
  std::uint64_t reads = 0, writes = 0, results = 0, init = 0, other = 0;
  const Program& p = app.program;
  for (std::uint32_t d = 3; d < 9; ++d)  // what the data ranks send and receive
    for (std::uint64_t i = p.offsets[d]; i < p.offsets[d + 1]; ++i) {
      const double v = p.value[i];
      if (is_send(p.kind[i])) (v == 7.5e5 ? reads : v == 2.5e5 ? init : other) += 1;
      if (is_receive(p.kind[i]) && v != 0) (v == 2e5 ? writes : v == 3e5 ? results : other) += 1;
      if (is_send(p.kind[i]) || (is_receive(p.kind[i]) && v != 0)) CHECK(p.peer[i] == (d - 3) % 3);
    }
  CHECK(other == 0);
  CHECK(init == 3);     // one per task, from its first replica
  CHECK(results == 6);  // every task's result to both replicas
  CHECK(reads > 0);
  CHECK(writes % 6 == 0);
  CHECK(writes > 0);
}
