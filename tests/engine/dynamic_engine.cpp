// The dynamic engine against closed forms: a single flow (latency + size / capacity), flows finishing
// together on a dumbbell, the textbook schedule of staggered flows on a shared link, a parking lot,
// dependencies; the incremental re-solve against a solve from scratch after every batch; the first
// completion against the static engine's max-min rates; malformed workloads.
#include "engine/dynamic_engine.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "engine/random.hpp"
#include "engine/static_engine.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

std::string fixture(const std::string& name) { return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/" + name; }

DynamicResult run(const Topology& topology, const std::string& routing, const DynamicWorkload& w, bool verify = true) {
  auto r = test::build_routing(routing, topology);
  DynamicOptions o;
  o.verify = verify;
  DynamicResult result = DynamicEngine(topology.network(), *r).run(w, o);
  CHECK(result.max_verify_error < 1e-9);
  return result;
}

constexpr double kMB = 1e6;

}  // namespace

TEST_CASE("dynamic: a single flow is delivered after its path latency plus size over capacity") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  DynamicWorkload w;
  w.add(0, 2, kMB, 0.5);  // e0 -> e2 across the 10 Gbit/s cable (500 ns), access links 100 ns each
  const DynamicResult r = run(*t, "bfs", w);
  CHECK(r.state[0] == FlowState::Delivered);
  CHECK(r.start_s[0] == doctest::Approx(0.5));
  CHECK(r.transfer_end_s[0] == doctest::Approx(0.5 + 8e6 / 10e9).epsilon(1e-12));
  CHECK(r.latency_s[0] == doctest::Approx(700e-9));
  CHECK(r.finish_s[0] == doctest::Approx(0.5 + 8e6 / 10e9 + 700e-9).epsilon(1e-12));
  CHECK(r.makespan_s == doctest::Approx(r.finish_s[0]));
  // The bottleneck cable carried the whole megabyte and was busy for the transfer.
  const Network& net = t->network();
  const LinkId cable = net.find_link(net.target(net.out_begin(net.endpoint_vertex(0))),
                                     net.target(net.out_begin(net.endpoint_vertex(2))));
  CHECK(r.link_bytes[cable] == doctest::Approx(kMB));
  CHECK(r.link_busy_s[cable] == doctest::Approx(8e6 / 10e9));
}

TEST_CASE("dynamic: equal flows sharing the dumbbell cable finish together") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  DynamicWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(1, 3, kMB, 0);
  w.add(0, 3, kMB, 0);
  w.add(4, 5, kMB, 0);  // the unrelated pair: its 25 Gbit/s access link alone
  const DynamicResult r = run(*t, "bfs", w);
  for (FlowId f = 0; f < 3; ++f) CHECK(r.transfer_end_s[f] == doctest::Approx(3 * 8e6 / 10e9).epsilon(1e-12));
  CHECK(r.transfer_end_s[3] == doctest::Approx(8e6 / 25e9).epsilon(1e-12));
}

TEST_CASE("dynamic: a flow arriving on a busy link gets the textbook piecewise schedule") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  // A (1 MB) alone from 0, B (1 MB) from t1 on the same 10 Gbit/s cable: A sends C t1 alone, then both
  // get C/2 until A ends at t1 + 2 (S - C t1) / C; B ends t1 later, alone.
  const double c = 10e9, s = 8e6, t1 = 200e-6;
  DynamicWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(1, 3, kMB, t1);
  const DynamicResult r = run(*t, "bfs", w);
  const double a_end = t1 + 2 * (s - c * t1) / c;
  CHECK(r.transfer_end_s[0] == doctest::Approx(a_end).epsilon(1e-12));
  CHECK(r.transfer_end_s[1] == doctest::Approx(a_end + t1).epsilon(1e-12));
  CHECK(r.batches == 4);  // start A, start B, end A, end B
}

TEST_CASE("dynamic: a parking lot shares every hop half and half") {
  auto t = test::build_topology("graph:file=" + fixture("parking_lot.ifg"));
  DynamicWorkload w;
  w.add(0, 3, kMB, 0);  // the long flow over three 1 Gbit/s hops
  w.add(0, 1, kMB, 0);
  w.add(1, 2, kMB, 0);
  w.add(2, 3, kMB, 0);
  const DynamicResult r = run(*t, "bfs", w);
  for (FlowId f = 0; f < 4; ++f) CHECK(r.transfer_end_s[f] == doctest::Approx(2 * 8e6 / 1e9).epsilon(1e-12));
}

TEST_CASE("dynamic: a flow waits for the delivery of the flows listed after it") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  DynamicWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(2, 0, kMB, 0);  // must wait for flow 0's last bit
  w.after_offsets = {0, 0, 1};
  w.after = {0};
  const DynamicResult r = run(*t, "bfs", w);
  CHECK(r.start_s[1] == doctest::Approx(r.finish_s[0]));
  CHECK(r.transfer_end_s[1] == doctest::Approx(r.finish_s[0] + 8e6 / 10e9).epsilon(1e-12));
}

TEST_CASE("dynamic: results come back in the caller's flow order when flows start out of order") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  const Network& net = t->network();
  DynamicWorkload w;
  w.add(0, 2, kMB, 1.0);  // starts last
  w.add(1, 3, kMB, 0.0);
  w.add(2, 0, kMB, 0.0);  // waits for flow 0
  w.after_offsets = {0, 0, 0, 1};
  w.after = {0};
  const DynamicResult r = run(*t, "bfs", w);
  CHECK(r.start_s[0] == doctest::Approx(1.0));
  CHECK(r.start_s[1] == doctest::Approx(0.0));
  CHECK(r.start_s[2] == doctest::Approx(r.finish_s[0]));
  for (FlowId f = 0; f < 3; ++f) {
    REQUIRE(r.paths.end_var(f) - r.paths.first_var(f) == 1);
    CHECK(net.source(r.paths.links(r.paths.first_var(f)).front()) == net.endpoint_vertex(w.flows.src[f]));
    CHECK(r.transfer_end_s[f] - r.start_s[f] == doctest::Approx(8e6 / 10e9).epsilon(1e-9));  // each alone
  }
}

TEST_CASE("dynamic: a phase opens when every flow of the previous phase is delivered") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  DynamicWorkload w;
  w.add(0, 2, kMB, 0);  // phase 0: two flows sharing the 10 Gbit/s cable, delivered at 1.6 ms + 700 ns
  w.add(1, 3, kMB, 0);
  w.add(4, 5, kMB, 0);    // phase 1: waits for both
  w.add(5, 4, kMB, 0.1);  // phase 1 too, but not before its own start time
  w.add(2, 0, kMB, 0);    // phase 3 (phase 2 is empty): opens with phase 1's end
  w.phase = {0, 0, 1, 1, 3};
  const DynamicResult r = run(*t, "bfs", w);
  const double phase0 = std::max(r.finish_s[0], r.finish_s[1]);
  CHECK(phase0 == doctest::Approx(2 * 8e6 / 10e9 + 700e-9).epsilon(1e-12));
  CHECK(r.start_s[2] == doctest::Approx(phase0));
  CHECK(r.start_s[3] == doctest::Approx(0.1));
  CHECK(r.start_s[4] == doctest::Approx(std::max(r.finish_s[2], r.finish_s[3])));
  DynamicWorkload backwards;
  backwards.add(0, 2, kMB, 0);
  backwards.add(1, 3, kMB, 0);
  backwards.phase = {0, 1};
  backwards.after_offsets = {0, 1, 1};
  backwards.after = {1};
  auto routing = test::build_routing("bfs", *t);
  CHECK_THROWS_WITH_AS(DynamicEngine(t->network(), *routing).run(backwards, {}), doctest::Contains("later phase"),
                       InputError);
}

TEST_CASE("dynamic: the first flows to finish do so at the static engine's max-min rate") {
  for (const std::string spec : {"fattree:k=4,n=3", "jellyfish:N=16,k=6,r=3", "torus:dims=4x4x4"}) {
    CAPTURE(spec);
    auto t = test::build_topology(spec);
    const Network& net = t->network();
    DynamicWorkload w;
    Rng rng(7);
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      EndpointId d = static_cast<EndpointId>(rng.below(net.num_endpoints() - 1));
      if (d >= e) ++d;
      w.add(e, d, kMB, 0);
    }
    auto routing = test::build_routing(t->default_routing(), *t);
    const StaticResult s = StaticEngine(net, *routing).run(w.flows, StaticOptions{});
    const DynamicResult r = DynamicEngine(net, *routing).run(w, DynamicOptions{});
    const double fastest = *std::max_element(s.flow_rate_gbps.begin(), s.flow_rate_gbps.end());
    const double first = *std::min_element(r.transfer_end_s.begin(), r.transfer_end_s.end());
    CHECK(first == doctest::Approx(8e6 / (fastest * 1e9)).epsilon(1e-9));
    // Every flow finishes no earlier than its size at its static rate (rates only rise as flows leave).
    for (FlowId f = 0; f < w.size(); ++f) CHECK(r.transfer_end_s[f] <= 8e6 / (s.flow_rate_gbps[f] * 1e9) * (1 + 1e-9));
  }
}

TEST_CASE("dynamic: incremental re-solves equal solves from scratch on random arrivals") {
  for (const std::string spec : {"fattree:k=4,n=3", "thintree:k=4,kp=2,n=3", "jellyfish:N=20,k=6,r=4",
                                 "torus:dims=4x4x4", "dragonfly:a=4,p=2,h=2"}) {
    for (const std::string routing : {"default", "ecmp", "ksp:k=3"}) {
      CAPTURE(spec);
      CAPTURE(routing);
      auto t = test::build_topology(spec);
      const Network& net = t->network();
      DynamicWorkload w;
      Rng rng(11);
      for (int i = 0; i < 600; ++i) {
        const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
        const auto d = static_cast<EndpointId>(rng.below(net.num_endpoints()));
        w.add(s, d, (0.1 + rng.uniform()) * kMB, rng.uniform() * 2e-3);
      }
      const DynamicResult r = run(*t, routing == "default" ? t->default_routing() : routing, w, true);
      CHECK(r.max_verify_error < 1e-9);
      for (FlowId f = 0; f < w.size(); ++f) REQUIRE(r.state[f] != FlowState::Blocked);
    }
  }
}

TEST_CASE("dynamic: malformed workloads are refused naming the problem") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  auto routing = test::build_routing("bfs", *t);
  const DynamicEngine engine(t->network(), *routing);
  DynamicWorkload negative;
  negative.add(0, 2, -1, 0);
  CHECK_THROWS_WITH_AS(engine.run(negative, {}), doctest::Contains("size"), InputError);
  DynamicWorkload beyond;
  beyond.add(0, 99, 1, 0);
  CHECK_THROWS_WITH_AS(engine.run(beyond, {}), doctest::Contains("endpoint"), InputError);
  DynamicWorkload cycle;
  cycle.add(0, 2, 1, 0);
  cycle.add(2, 0, 1, 0);
  cycle.after_offsets = {0, 1, 2};
  cycle.after = {1, 0};
  CHECK_THROWS_WITH_AS(engine.run(cycle, {}), doctest::Contains("cycle"), InputError);
}
