// The dynamic engine against closed forms: a single flow (latency + size / capacity), flows finishing
// together on a dumbbell, the textbook schedule of staggered flows on a shared link, a parking lot,
// dependencies; the incremental re-solve against a solve from scratch after every batch; the first
// completion against the static engine's max-min rates; malformed workloads.
#include "tests/support/run_support.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <tbb/global_control.h>

#include "core/error.hpp"
#include "core/random.hpp"
#include "engine/flow/static_engine.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::flow;
using maxmin::ClassPolicy;

namespace {

std::string fixture(const std::string& name) { return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/" + name; }

TransportResult run(const Topology& topology, const std::string& routing, const FlowWorkload& w, bool verify = true,
                  const ClassPolicy& policy = {}) {
  auto r = test::build_routing(routing, topology);
  flow::FlowTransportOptions o;
  o.verify = verify;
  o.policy = policy;
  TransportResult result = test::run_flows(topology.network(), *r, w, o);
  CHECK(result.max_verify_error < 1e-9);
  return result;
}

constexpr double kMB = 1e6;

}  // namespace

TEST_CASE("dynamic: a single flow is delivered after its path latency plus size over capacity") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 2, kMB, 0.5);  // e0 -> e2 across the 10 Gbit/s cable (500 ns), access links 100 ns each
  const TransportResult r = run(*t, "bfs", w);
  CHECK(r.state[0] == FlowState::Delivered);
  CHECK(r.start_s[0] == approx(0.5));
  CHECK(r.transfer_end_s[0] == approx(0.5 + 8e6 / 10e9).epsilon(1e-12));
  CHECK(r.latency_s[0] == approx(700e-9));
  CHECK(r.finish_s[0] == approx(0.5 + 8e6 / 10e9 + 700e-9).epsilon(1e-12));
  CHECK(r.makespan_s == approx(r.finish_s[0]));
  // The bottleneck cable carried the whole megabyte and was busy for the transfer.
  const Network& net = t->network();
  const LinkId cable = net.find_link(net.target(net.out_begin(net.endpoint_vertex(0))),
                                     net.target(net.out_begin(net.endpoint_vertex(2))));
  CHECK(r.link_bytes[cable] == approx(kMB));
  CHECK(r.link_busy_s[cable] == approx(8e6 / 10e9));
}

// --router-delay-ns: the path latency gains the delay at every switch (s0 and s1 on the dumbbell);
// the transfer is unchanged.
TEST_CASE("dynamic: a router delay adds to the path latency once per switch") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  auto r = test::build_routing("bfs", *t);
  FlowWorkload w;
  w.add(0, 2, kMB, 0.5);
  flow::FlowTransportOptions o;
  o.router_delay_s = 30e-9;
  const TransportResult d = test::run_flows(t->network(), *r, w, o);
  CHECK(d.latency_s[0] == approx(700e-9 + 2 * 30e-9).epsilon(1e-6).scale(0));  // a float
  CHECK(d.transfer_end_s[0] == approx(0.5 + 8e6 / 10e9).epsilon(1e-12));
  CHECK(d.finish_s[0] == approx(0.5 + 8e6 / 10e9 + 760e-9).epsilon(1e-12));
}

TEST_CASE("dynamic: equal flows sharing the dumbbell cable finish together") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(1, 3, kMB, 0);
  w.add(0, 3, kMB, 0);
  w.add(4, 5, kMB, 0);  // the unrelated pair: its 25 Gbit/s access link alone
  const TransportResult r = run(*t, "bfs", w);
  for (FlowId f = 0; f < 3; ++f) CHECK(r.transfer_end_s[f] == approx(3 * 8e6 / 10e9).epsilon(1e-12));
  CHECK(r.transfer_end_s[3] == approx(8e6 / 25e9).epsilon(1e-12));
}

TEST_CASE("dynamic: a flow arriving on a busy link gets the textbook piecewise schedule") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  // A (1 MB) alone from 0, B (1 MB) from t1 on the same 10 Gbit/s cable: A sends C t1 alone, then both
  // get C/2 until A ends at t1 + 2 (S - C t1) / C; B ends t1 later, alone.
  const double c = 10e9, s = 8e6, t1 = 200e-6;
  FlowWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(1, 3, kMB, t1);
  const TransportResult r = run(*t, "bfs", w);
  const double a_end = t1 + 2 * (s - c * t1) / c;
  CHECK(r.transfer_end_s[0] == approx(a_end).epsilon(1e-12));
  CHECK(r.transfer_end_s[1] == approx(a_end + t1).epsilon(1e-12));
  CHECK(r.batches == 4);  // start A, start B, end A, end B
}

TEST_CASE("dynamic: a parking lot shares every hop half and half") {
  auto t = test::build_topology("graph:file=" + fixture("parking_lot.ifg"));
  FlowWorkload w;
  w.add(0, 3, kMB, 0);  // the long flow over three 1 Gbit/s hops
  w.add(0, 1, kMB, 0);
  w.add(1, 2, kMB, 0);
  w.add(2, 3, kMB, 0);
  const TransportResult r = run(*t, "bfs", w);
  for (FlowId f = 0; f < 4; ++f) CHECK(r.transfer_end_s[f] == approx(2 * 8e6 / 1e9).epsilon(1e-12));
}

// INRFlow Fig. 1 (Navaridas et al. 2019, §3.1) on the dumbbell cable C: three App flows (class 0) and one I/O flow
// (class 1), 1 MB each, all from time 0. With S = 8 Mbit:
//   NP: four flows at C/4, all done at 4S/C;
//   BA 50/50: App flows C/6 each, I/O C/2 until 2S/C; then the App flows alone at C/3, done at 4S/C;
//   FP: App flows C/3 each, done at 3S/C, I/O waits and then takes all of C, done at 4S/C.
TEST_CASE("dynamic: the class policies NP BA and FP reproduce INRFlow Fig. 1") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  for (EndpointId s : {0, 1, 0}) w.add(s, 2, kMB, 0);
  w.add(1, 3, kMB, 0);
  w.service_class = {0, 0, 0, 1};
  const double unit = 8e6 / 10e9;  // S / C
  const TransportResult np = run(*t, "bfs", w, true, test::class_policy("np", {}, {}, 2));
  for (FlowId f = 0; f < 4; ++f) CHECK(np.transfer_end_s[f] == approx(4 * unit).epsilon(1e-9));
  const TransportResult ba = run(*t, "bfs", w, true, test::class_policy("ba", {0.5, 0.5}, {}, 2));
  CHECK(ba.transfer_end_s[3] == approx(2 * unit).epsilon(1e-9));
  for (FlowId f = 0; f < 3; ++f) CHECK(ba.transfer_end_s[f] == approx(4 * unit).epsilon(1e-9));
  const TransportResult fp = run(*t, "bfs", w, true, test::class_policy("fp", {}, {}, 2));
  for (FlowId f = 0; f < 3; ++f) CHECK(fp.transfer_end_s[f] == approx(3 * unit).epsilon(1e-9));
  CHECK(fp.transfer_end_s[3] == approx(4 * unit).epsilon(1e-9));
  // Priorities can be given in any order: the I/O class first.
  const TransportResult io_first = run(*t, "bfs", w, true, test::class_policy("fp", {}, {1, 0}, 2));
  CHECK(io_first.transfer_end_s[3] == approx(unit).epsilon(1e-9));
  for (FlowId f = 0; f < 3; ++f) CHECK(io_first.transfer_end_s[f] == approx(4 * unit).epsilon(1e-9));
}

// A NIC that sends one message at a time per class (nic_fifo, as the packet engine's NICs do), in the
// order the messages start. On e4's own 25 Gbit/s link, A and B (1 MB each, from 0) and D (from 10 us)
// go one after another: A ends at S/C4, B at 2S/C4, D at 3S/C4, each keeping its start time (its wait
// counts in its completion). Shared max-min (the default), A and B run together.
// Head-of-line: e0's X to e2 shares the 10 Gbit/s cable with e1's Z (5 Gbit/s each, done at 2S/C);
// e0's Y to e1 (on the same switch) waits for X and then has e0's 100 Gbit/s alone: 2S/C + S/100G. Shared,
// Y runs beside X at 95 Gbit/s. A message of another class has a queue of its own.
TEST_CASE("dynamic: a FIFO NIC sends its messages one after another per class") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  auto r = test::build_routing("bfs", *t);
  const double s = 8e6, c4 = 25e9, cable = 10e9;
  FlowWorkload w;
  w.add(4, 5, kMB, 0);     // A
  w.add(4, 0, kMB, 0);     // B
  w.add(4, 5, kMB, 1e-5);  // D
  w.add(0, 2, kMB, 0);     // X
  w.add(1, 3, kMB, 0);     // Z
  w.add(0, 1, kMB, 0);     // Y, behind X
  w.add(0, 1, kMB, 0);     // E: class 1, not behind X
  w.service_class = {0, 0, 0, 0, 0, 0, 1};
  flow::FlowTransportOptions o;
  o.verify = true;
  o.nic_fifo = true;
  o.policy = test::class_policy("np", {}, {}, 2);
  const TransportResult fifo = test::run_flows(t->network(), *r, w, o);
  CHECK(fifo.max_verify_error < 1e-9);
  CHECK(fifo.transfer_end_s[0] == approx(s / c4).epsilon(1e-12));
  CHECK(fifo.transfer_end_s[1] == approx(2 * s / c4).epsilon(1e-12));
  CHECK(fifo.transfer_end_s[2] == approx(3 * s / c4).epsilon(1e-12));
  CHECK(fifo.start_s[1] == 0);
  CHECK(fifo.start_s[2] == approx(1e-5));
  // X and Z share the cable; Y waits behind X; E (class 1) shares e0's link with X from the start:
  // 95 Gbit/s while X has 5, so E is done at S / 95G.
  CHECK(fifo.transfer_end_s[3] == approx(2 * s / cable).epsilon(1e-9));
  CHECK(fifo.transfer_end_s[6] == approx(s / 95e9).epsilon(1e-9));
  CHECK(fifo.transfer_end_s[5] == approx(2 * s / cable + s / 100e9).epsilon(1e-9));
  CHECK(fifo.start_s[5] == 0);
  o.nic_fifo = false;
  const TransportResult fair = test::run_flows(t->network(), *r, w, o);
  CHECK(fair.transfer_end_s[0] == approx(fair.transfer_end_s[1]).epsilon(1e-12));
  CHECK(fair.transfer_end_s[5] < s / 45e9);  // beside X, sharing e0's link with E
}

// Mubarak et al. 2019, §II: a high-priority class with a bandwidth cap. Two flows of class 0 (priority 0, cap 25 %)
// and one of class 1 (priority 1, no cap) on the cable: class 0 gets its cap, C/8 per flow, class 1 the
// remaining 3C/4 and is done at 4S/3C; class 0 has then sent S/6 per flow and, alone on the link, takes
// it all (above its cap, nobody else wants it): C/2 per flow, done at 4S/3C + (5S/6)/(C/2) = 3S/C.
// Under FP the same class 0 would finish at 2S/C.
TEST_CASE("dynamic: a capped priority class keeps its cap while others want the link and all of it otherwise") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(1, 2, kMB, 0);
  w.add(0, 3, kMB, 0);
  w.service_class = {0, 0, 1};
  const double unit = 8e6 / 10e9;
  const TransportResult q = run(*t, "bfs", w, true, test::class_policy("qos", {0.25, 1.0}, {0, 1}, 2));
  CHECK(q.transfer_end_s[2] == approx(4 * unit / 3).epsilon(1e-9));
  CHECK(q.transfer_end_s[0] == approx(3 * unit).epsilon(1e-9));
  CHECK(q.transfer_end_s[1] == approx(3 * unit).epsilon(1e-9));
  const TransportResult fp = run(*t, "bfs", w, true, test::class_policy("fp", {}, {}, 2));
  CHECK(fp.transfer_end_s[0] == approx(2 * unit).epsilon(1e-9));
  // A flow of a class the policy does not define is refused.
  w.service_class = {0, 0, 2};
  CHECK_THROWS_AS(run(*t, "bfs", w, true, test::class_policy("fp", {}, {}, 2)), InputError);
}

TEST_CASE("dynamic: class policy specifications are checked") {
  CHECK_THROWS_AS(test::class_policy("ba", {0.6, 0.6}, {}, 2), InputError);
  CHECK_THROWS_AS(test::class_policy("ba", {0.5}, {}, 2), InputError);
  CHECK_THROWS_AS(test::class_policy("qos", {0.5, 1.0}, {0}, 2), InputError);
  CHECK_THROWS_AS(test::class_policy("qos", {0.0, 1.0}, {0, 1}, 2), InputError);
  CHECK_THROWS_AS(test::class_policy("np", {0.5}, {}, 1), InputError);
  CHECK_THROWS_AS(test::class_policy("wfq", {}, {}, 1), InputError);
  CHECK(test::class_policy("fp", {}, {}, 3).classes.size() == 3);
  CHECK(test::class_policy("np", {}, {}, 3).plain());
}

TEST_CASE("dynamic: a flow waits for the delivery of the flows listed after it") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 2, kMB, 0);
  w.add(2, 0, kMB, 0);  // must wait for flow 0's last bit
  w.after_offsets = {0, 0, 1};
  w.after = {0};
  const TransportResult r = run(*t, "bfs", w);
  CHECK(r.start_s[1] == approx(r.finish_s[0]));
  CHECK(r.transfer_end_s[1] == approx(r.finish_s[0] + 8e6 / 10e9).epsilon(1e-12));
}

TEST_CASE("dynamic: results come back in the caller's flow order when flows start out of order") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  const Network& net = t->network();
  FlowWorkload w;
  w.add(0, 2, kMB, 1.0);  // starts last
  w.add(1, 3, kMB, 0.0);
  w.add(2, 0, kMB, 0.0);  // waits for flow 0
  w.after_offsets = {0, 0, 0, 1};
  w.after = {0};
  const TransportResult r = run(*t, "bfs", w);
  CHECK(r.start_s[0] == approx(1.0));
  CHECK(r.start_s[1] == approx(0.0));
  CHECK(r.start_s[2] == approx(r.finish_s[0]));
  for (FlowId f = 0; f < 3; ++f) {
    REQUIRE(r.paths.end_var(f) - r.paths.first_var(f) == 1);
    CHECK(net.source(r.paths.links(r.paths.first_var(f)).front()) == net.endpoint_vertex(w.flows.src[f]));
    CHECK(r.transfer_end_s[f] - r.start_s[f] == approx(8e6 / 10e9).epsilon(1e-9));  // each alone
  }
}

TEST_CASE("dynamic: a phase opens when every flow of the previous phase is delivered") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 2, kMB, 0);  // phase 0: two flows sharing the 10 Gbit/s cable, delivered at 1.6 ms + 700 ns
  w.add(1, 3, kMB, 0);
  w.add(4, 5, kMB, 0);    // phase 1: waits for both
  w.add(5, 4, kMB, 0.1);  // phase 1 too, but not before its own start time
  w.add(2, 0, kMB, 0);    // phase 3 (phase 2 is empty): opens with phase 1's end
  w.phase = {0, 0, 1, 1, 3};
  const TransportResult r = run(*t, "bfs", w);
  const double phase0 = std::max(r.finish_s[0], r.finish_s[1]);
  CHECK(phase0 == approx(2 * 8e6 / 10e9 + 700e-9).epsilon(1e-9));  // the latency is a float
  CHECK(r.start_s[2] == approx(phase0));
  CHECK(r.start_s[3] == approx(0.1));
  CHECK(r.start_s[4] == approx(std::max(r.finish_s[2], r.finish_s[3])));
  FlowWorkload backwards;
  backwards.add(0, 2, kMB, 0);
  backwards.add(1, 3, kMB, 0);
  backwards.phase = {0, 1};
  backwards.after_offsets = {0, 1, 1};
  backwards.after = {1};
  auto routing = test::build_routing("bfs", *t);
  CHECK_THROWS_WITH_AS(test::run_flows(t->network(), *routing, backwards), doctest::Contains("later phase"),
                       InputError);
}

TEST_CASE("dynamic: the first flows to finish do so at the static engine's max-min rate") {
  for (const std::string spec : {"fattree:k=4,n=3", "jellyfish:N=16,k=6,r=3", "torus:dims=4x4x4"}) {
    CAPTURE(spec);
    auto t = test::build_topology(spec);
    const Network& net = t->network();
    FlowWorkload w;
    Rng rng(7);
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      EndpointId d = static_cast<EndpointId>(rng.below(net.num_endpoints() - 1));
      if (d >= e) ++d;
      w.add(e, d, kMB, 0);
    }
    auto routing = test::build_routing(t->default_routing(), *t);
    const flow::StaticResult s = flow::StaticEngine(net, *routing).run(w.flows, flow::StaticOptions{});
    const TransportResult r = test::run_flows(net, *routing, w);
    const double fastest = *std::max_element(s.flow_rate_gbps.begin(), s.flow_rate_gbps.end());
    const double first = *std::min_element(r.transfer_end_s.begin(), r.transfer_end_s.end());
    CHECK(first == approx(8e6 / (fastest * 1e9)).epsilon(1e-9));
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
      FlowWorkload w;
      Rng rng(11);
      for (int i = 0; i < 600; ++i) {
        const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
        const auto d = static_cast<EndpointId>(rng.below(net.num_endpoints()));
        w.add(s, d, (0.1 + rng.uniform()) * kMB, rng.uniform() * 2e-3);
      }
      const TransportResult r = run(*t, routing == "default" ? t->default_routing() : routing, w, true);
      CHECK(r.max_verify_error < 1e-9);
      for (FlowId f = 0; f < w.size(); ++f) REQUIRE(r.state[f] != FlowState::Blocked);
    }
  }
}

TEST_CASE("dynamic: ECMP splits more than 2^30 apart are solved whole and counted") {
  // On a mesh of width W and height 2, the flow from the corner (0, 0) to (W - 1, 1) has W paths:
  // each vertex of the bottom row splits between right and up, so the path up at the last column
  // carries 2^-(W-1), against the flow to (1, 0) with its one path of weight 1. W = 33 puts the
  // weights 2^32 apart, beyond what the incremental rules are tested for (2^30), so every update is
  // a solve of all active flows; W = 9 (2^8) is not.
  for (const int width : {9, 33}) {
    CAPTURE(width);
    auto t = test::build_topology("mesh:dims=" + std::to_string(width) + "x2");
    const Network& net = t->network();
    FlowWorkload w;
    for (EndpointId d = 1; d < net.num_endpoints(); ++d) w.add(0, d, kMB * (1 + d % 3), 1e-6 * (d % 5));
    const TransportResult r = run(*t, "ecmp", w, true);
    CHECK(r.max_verify_error < 1e-9);
    CHECK(r.state[0] == FlowState::Delivered);
    // Rates do change in those solves, and are counted as such.
    CHECK(r.changed_vars >= w.size());
    if (width == 33) CHECK(r.spread_solves == r.batches);
    if (width == 9) CHECK(r.spread_solves == 0);
  }
  // Every update solved whole (--full-resolve) counts its changed rates too.
  auto t = test::build_topology("mesh:dims=9x2");
  FlowWorkload w;
  for (EndpointId d = 1; d < t->network().num_endpoints(); ++d) w.add(0, d, kMB, 0);
  auto routing = test::build_routing("ecmp", *t);
  flow::FlowTransportOptions o;
  o.incremental = false;
  const TransportResult whole = test::run_flows(t->network(), *routing, w, o);
  CHECK(whole.changed_vars >= w.size());
  CHECK(whole.spread_solves == 0);
}

TEST_CASE("dynamic: under every class policy incremental re-solves equal the policy solved from scratch") {
  auto t = test::build_topology("fattree:k=4,n=3");
  const Network& net = t->network();
  FlowWorkload w;
  Rng rng(5);
  for (int i = 0; i < 400; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    const auto d = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    w.add(s, d, (0.1 + rng.uniform()) * kMB, rng.uniform() * 1e-3);
    w.service_class.push_back(static_cast<std::uint32_t>(rng.below(3)));
  }
  for (const ClassPolicy& policy : {test::class_policy("fp", {}, {}, 3), test::class_policy("ba", {0.5, 0.3, 0.2}, {}, 3),
                                    test::class_policy("qos", {0.3, 1.0, 0.5}, {0, 1, 1}, 3)}) {
    CAPTURE(policy.name);
    auto r = test::build_routing("ecmp", *t);
    flow::FlowTransportOptions o;
    o.verify = true;
    o.policy = policy;
    const TransportResult result = test::run_flows(net, *r, w, o);
    CHECK(result.max_verify_error < 1e-6);
    for (FlowId f = 0; f < w.size(); ++f) REQUIRE(result.state[f] != FlowState::Blocked);
  }
}

TEST_CASE("dynamic: malformed workloads are refused naming the problem") {
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  auto routing = test::build_routing("bfs", *t);
  const auto engine_run = [&](const FlowWorkload& w) { return test::run_flows(t->network(), *routing, w); };
  FlowWorkload negative;
  negative.add(0, 2, -1, 0);
  CHECK_THROWS_WITH_AS(engine_run(negative), doctest::Contains("size"), InputError);
  FlowWorkload beyond;
  beyond.add(0, 99, 1, 0);
  CHECK_THROWS_WITH_AS(engine_run(beyond), doctest::Contains("endpoint"), InputError);
  FlowWorkload cycle;
  cycle.add(0, 2, 1, 0);
  cycle.add(2, 0, 1, 0);
  cycle.after_offsets = {0, 1, 2};
  cycle.after = {1, 0};
  CHECK_THROWS_WITH_AS(engine_run(cycle), doctest::Contains("cycle"), InputError);
}

TEST_CASE("dynamic: the time series carries exactly the bytes delivered") {
  // The aggregate rate averaged over each bin, times the bin, summed: every byte once, whatever the
  // bins' boundaries (a segment starting on a boundary once lost the rest of its bin).
  auto t = test::build_topology("fattree:k=4,n=3");
  const Network& net = t->network();
  FlowWorkload w;
  Rng rng(3);
  double bytes = 0;
  for (int i = 0; i < 500; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    auto d = static_cast<EndpointId>(rng.below(net.num_endpoints() - 1));
    if (d >= s) ++d;
    w.add(s, d, (0.1 + rng.uniform()) * kMB, i < 250 ? 0.0 : rng.uniform() * 1e-3);
    bytes += w.bytes.back();
  }
  for (const std::uint32_t bins : {1u, 7u, 200u, 5000u}) {
    CAPTURE(bins);
    auto routing = test::build_routing("ecmp", *t);
    flow::FlowTransportOptions o;
    o.series_bins = bins;
    const TransportResult r = test::run_flows(net, *routing, w, o);
    double carried = 0;
    for (double gbps : r.series_gbps) carried += gbps * 1e9 / 8 * r.bin_s;
    CHECK(carried == approx(bytes).epsilon(1e-9));
  }
}

TEST_CASE("dynamic: no flow starts before its start time and the batching window is relative") {
  // Flow 1 is due half a picosecond after flow 0's transfer ends, flow 3 a tenth of a picosecond
  // after flow 2 starts, at one nanosecond: each starts exactly at its own time (a window of 1 ps
  // below t = 1 s started them early with the events before them). Flows 4 and 5, equal and started
  // together, end in one batch.
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  const double end0 = 8e6 / 10e9;  // flow 0 alone on the 10 Gbit/s cable
  w.add(0, 2, kMB, 0);
  w.add(1, 3, kMB, end0 + 0.5e-12);
  w.add(4, 5, 1e3, 1e-9);
  w.add(5, 4, 1e3, 1e-9 + 1e-13);
  const TransportResult r = run(*t, "bfs", w);
  for (FlowId f = 0; f < 4; ++f) {
    INFO("flow " << f);
    CHECK(r.state[f] == FlowState::Delivered);
    CHECK(r.start_s[f] == w.start_s[f]);
  }
  CHECK(r.transfer_end_s[0] == approx(end0).epsilon(1e-12));
  CHECK(r.transfer_end_s[0] < r.start_s[1]);
}

TEST_CASE("dynamic: a batch tolerance ends nearby transfers together and reports how early") {
  // Two transfers on disjoint 100 Gbit/s paths (e0 -> e1 through s0, e2 -> e3 through s1), the second
  // 1e-7 longer. Batched exactly they end in two batches; with a tolerance of 1e-6 in one, the second
  // ending 8e-5 s * 1e-7 early, without its last 0.1 byte (no link carries more than its capacity).
  auto t = test::build_topology("graph:file=" + fixture("dumbbell.ifg"));
  FlowWorkload w;
  w.add(0, 1, kMB, 0);
  w.add(2, 3, kMB * (1 + 1e-7), 0);
  const double end0 = 8e6 / 100e9, end1 = end0 * (1 + 1e-7);
  const auto routing = test::build_routing("bfs", *t);
  const Network& net = t->network();
  const LinkId into_e3 = net.find_link(net.target(net.out_begin(net.endpoint_vertex(3))), net.endpoint_vertex(3));

  const TransportResult exact = test::run_flows(net, *routing, w);
  CHECK(exact.batches == 3);  // the start, then each end
  CHECK(exact.transfer_end_s[1] == approx(end1).epsilon(1e-12));
  CHECK(exact.ended_early == 0);
  CHECK(exact.max_early_s == 0);

  flow::FlowTransportOptions o;
  o.batch_tolerance = 1e-6;
  const TransportResult batched = test::run_flows(net, *routing, w, o);
  CHECK(batched.batches == 2);
  CHECK(batched.batch_tolerance == 1e-6);
  CHECK(batched.transfer_end_s[0] == approx(end0).epsilon(1e-12));
  CHECK(batched.transfer_end_s[1] == batched.transfer_end_s[0]);
  CHECK(batched.ended_early == 1);
  CHECK(batched.max_early_s == approx(end1 - end0).epsilon(1e-6));
  CHECK(batched.max_early_relative == approx((end1 - end0) / end1).epsilon(1e-6));
  CHECK(batched.early_bytes_cut == approx(kMB * 1e-7).epsilon(1e-6));
  CHECK(batched.link_bytes[into_e3] == approx(kMB).epsilon(1e-12));
  CHECK(exact.link_bytes[into_e3] == approx(kMB * (1 + 1e-7)).epsilon(1e-12));
  // A tolerance smaller than the gap changes nothing.
  o.batch_tolerance = 1e-8;
  const TransportResult narrow = test::run_flows(net, *routing, w, o);
  CHECK(narrow.batches == 3);
  CHECK(narrow.ended_early == 0);
  CHECK(narrow.transfer_end_s[1] == exact.transfer_end_s[1]);
}

TEST_CASE("dynamic: the profile accounts for every batch and its steps fit in the simulation time") {
  auto t = test::build_topology("fattree:k=4,n=3");
  const auto routing = test::build_routing("dmodk", *t);
  FlowWorkload w;
  Rng rng(5);
  for (int i = 0; i < 400; ++i) {
    const auto src = static_cast<EndpointId>(rng.below(16)), dst = static_cast<EndpointId>(rng.below(16));
    w.add(src, dst, 1e4 * static_cast<double>(1 + rng.below(100)), 1e-6 * static_cast<double>(rng.below(200)));
  }
  const TransportResult plain = test::run_flows(t->network(), *routing, w);
  CHECK(!plain.profile.on);
  CHECK(plain.profile.solved_log2.empty());
  flow::FlowTransportOptions o;
  o.profile = true;
  const TransportResult profiled = test::run_flows(t->network(), *routing, w, o);
  const TransportProfile& p = profiled.profile;
  CHECK(p.on);
  CHECK(profiled.makespan_s == plain.makespan_s);  // profiling changes no result
  CHECK(profiled.batches == plain.batches);
  std::uint64_t batches = 0;
  for (std::uint64_t b : p.solved_log2) batches += b;
  CHECK(batches == profiled.batches);
  CHECK(p.max_solved > 0);
  CHECK(static_cast<double>(p.max_solved) * static_cast<double>(profiled.batches) >=
        static_cast<double>(profiled.solved_vars));
  CHECK(p.max_changed <= p.max_solved);
  CHECK(p.heap_updates > 0);
  CHECK(p.solve_s > 0);
  CHECK(p.solve_s == profiled.solve_seconds);  // every batch timed: the sampled estimate is exact
  CHECK(p.solve_s + p.rates_s + p.heap_s + p.ends_s + p.starts_s <= profiled.simulate_seconds);
}

namespace {

// An open-loop workload with flows out of start order, self flows, empty flows and three classes.
FlowWorkload open_loop_workload(const Network& net, std::uint64_t seed, int flows) {
  FlowWorkload w;
  Rng rng(seed);
  for (int i = 0; i < flows; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    const auto d = rng.below(20) == 0 ? s : static_cast<EndpointId>(rng.below(net.num_endpoints()));
    w.add(s, d, rng.below(25) == 0 ? 0.0 : (0.1 + rng.uniform()) * kMB, rng.uniform() * 2e-3);
    w.service_class.push_back(static_cast<std::uint32_t>(rng.below(3)));
  }
  return w;
}

// The same run held (the application driver, every flow routed first) and streamed (run_open_loop,
// each flow routed as it starts, in a slot while in transfer): flow by flow the same.
void check_streamed_equals_held(const Network& net, const Routing& routing, const FlowWorkload& w,
                                const ClassPolicy& policy) {
  flow::FlowTransportOptions o;
  o.policy = policy;
  const TransportResult held = test::run_flows(net, routing, w, o);
  o.stream = true;
  o.verify = true;
  flow::FlowTransport transport(net, routing, o);
  const TransportResult streamed = drivers::run_open_loop(net, transport, w);
  REQUIRE(transport.streamed());
  CHECK(streamed.max_verify_error < 1e-6);
  CHECK(streamed.paths.num_flows() == 0);  // no path kept
  CHECK(streamed.num_path_vars() == held.num_path_vars());
  CHECK(streamed.batches == held.batches);
  CHECK(streamed.events + 1 == held.events);  // the driver also counts its one application's arrival
  CHECK(streamed.makespan_s == approx(held.makespan_s).epsilon(1e-9));
  for (FlowId f = 0; f < w.size(); ++f) {
    CAPTURE(f);
    REQUIRE(streamed.state[f] == held.state[f]);
    REQUIRE(streamed.vars_of(f) == held.vars_of(f));
    REQUIRE(streamed.start_s[f] == held.start_s[f]);
    REQUIRE(streamed.latency_s[f] == held.latency_s[f]);
    REQUIRE(streamed.transfer_end_s[f] == approx(held.transfer_end_s[f]).epsilon(1e-9));
    REQUIRE(streamed.finish_s[f] == approx(held.finish_s[f]).epsilon(1e-9));
  }
  for (LinkId l = 0; l < net.num_links(); ++l) {
    CAPTURE(l);
    REQUIRE(streamed.link_bytes[l] == approx(held.link_bytes[l]).epsilon(1e-9).scale(1));
    REQUIRE(streamed.link_busy_s[l] == approx(held.link_busy_s[l]).epsilon(1e-9).scale(1e-12));
  }
  REQUIRE(streamed.series_gbps.size() == held.series_gbps.size());
  for (std::size_t i = 0; i < held.series_gbps.size(); ++i)
    REQUIRE(streamed.series_gbps[i] == approx(held.series_gbps[i]).epsilon(1e-9).scale(1));
  CHECK(transport.slots() < w.size() / 2);  // a slot serves many flows in turn
}

}  // namespace

TEST_CASE("dynamic: an open-loop run streamed equals the held run flow by flow") {
  // Routings that route each flow alone (per flow: single and multipath, with random streams).
  const std::pair<std::string, std::string> cases[] = {
      {"fattree:k=4,n=3", "dmodk"},        {"fattree:k=4,n=3", "updown"},        {"fattree:k=4,n=3", "random-up"},
      {"fattree:k=4,n=3", "treevaliant"},  {"torus:dims=4x4x4", "dor"},          {"dragonfly:a=4,p=2,h=2", "dfmin"},
      {"dragonfly:a=4,p=2,h=2", "dfvaliant"}};
  for (const auto& [spec, routing] : cases) {
    CAPTURE(spec);
    CAPTURE(routing);
    auto t = test::build_topology(spec);
    auto r = test::build_routing(routing, *t);
    const FlowWorkload w = open_loop_workload(t->network(), 17, 500);
    check_streamed_equals_held(t->network(), *r, w, test::class_policy("np", {}, {}, 3));
  }
  auto t = test::build_topology("fattree:k=4,n=3");
  auto r = test::build_routing("updown", *t);
  const FlowWorkload w = open_loop_workload(t->network(), 29, 400);
  for (const ClassPolicy& policy : {test::class_policy("fp", {}, {1, 0, 1}, 3),
                                    test::class_policy("ba", {0.5, 0.3, 0.2}, {}, 3),
                                    test::class_policy("qos", {0.3, 1.0, 0.5}, {0, 1, 1}, 3)}) {
    CAPTURE(policy.name);
    check_streamed_equals_held(t->network(), *r, w, policy);
  }
}

TEST_CASE("dynamic: a streamed run holds only the flows in transfer") {
  // One flow after another (each ends before the next starts): one slot serves them all.
  auto t = test::build_topology("fattree:k=4,n=3");
  auto r = test::build_routing("dmodk", *t);
  FlowWorkload w;
  for (int i = 0; i < 300; ++i) w.add(static_cast<EndpointId>(i % 16), static_cast<EndpointId>((i + 5) % 16), 1e3, i * 1e-3);
  flow::FlowTransportOptions o;
  o.stream = true;
  flow::FlowTransport transport(t->network(), *r, o);
  const TransportResult result = drivers::run_open_loop(t->network(), transport, w);
  REQUIRE(transport.streamed());
  CHECK(drivers::worth_streaming(w));
  CHECK(transport.slots() == 1);
  for (FlowId f = 0; f < w.size(); ++f) REQUIRE(result.state[f] == FlowState::Delivered);
  // A FIFO NIC needs every flow held: the transport does not stream, and the run is the same.
  o.nic_fifo = true;
  flow::FlowTransport fifo(t->network(), *r, o);
  const TransportResult held = drivers::run_open_loop(t->network(), fifo, w);
  CHECK(!fifo.streamed());
  for (FlowId f = 0; f < w.size(); ++f) REQUIRE(held.finish_s[f] == approx(result.finish_s[f]).epsilon(1e-12));
  // Flows that all start together are all in transfer at once: not worth streaming.
  FlowWorkload burst = w;
  burst.start_s.assign(w.size(), 0.0);
  CHECK(!drivers::worth_streaming(burst));
  // Dependencies are not open-loop.
  w.after_offsets.assign(w.size() + 1, 0);
  w.after_offsets.back() = 1;
  w.after.push_back(0);
  CHECK_THROWS_AS(drivers::run_open_loop(t->network(), transport, w), InputError);
}

namespace {

// Records what run_open_loop hands over: the ranges, and each message's flow and results when handed.
struct RecordingStream : drivers::ResultStream {
  bool began = false;
  std::size_t next = 0;  // the first message not handed yet
  bool contiguous = true;
  std::vector<FlowId> flow;
  std::vector<double> finish, start;
  std::vector<FlowState> state;
  std::vector<std::uint32_t> vars;
  std::size_t throw_at = ~std::size_t{0};
  void begin() override { began = true; }
  void write(const FlowWorkload&, const TransportResult& r, std::span<const FlowId> order, std::size_t first,
             std::size_t last) override {
    contiguous = contiguous && first == next && last > first;
    next = last;
    if (last > throw_at) throw OutputError("disk full (a test)");
    for (std::size_t m = first; m < last; ++m) {
      flow.push_back(order.empty() ? static_cast<FlowId>(m) : order[m]);
      finish.push_back(r.finish_s[m]);
      start.push_back(r.start_s[m]);
      state.push_back(r.state[m]);
      vars.push_back(r.vars_of(static_cast<MessageId>(m)));
    }
  }
};

}  // namespace

TEST_CASE("dynamic: an open-loop run hands every flow's final results to its stream once and in start order") {
  auto t = test::build_topology("fattree:k=4,n=3");
  auto r = test::build_routing("updown", *t);
  // Out of start order, self and empty flows, three classes; long enough for many handovers, and
  // spread over 2 s so that few are in transfer at once (the held run solves them all).
  FlowWorkload w = open_loop_workload(t->network(), 41, 20000);
  for (double& start : w.start_s) start *= 1000;
  for (const bool stream : {true, false})  // streamed and held transports alike
  for (const std::size_t threads : {1, 2}) {  // -j 1: the simulation writes each chunk itself
    CAPTURE(stream);
    CAPTURE(threads);
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    flow::FlowTransportOptions o;
    o.policy = test::class_policy("np", {}, {}, 3);
    o.stream = stream;
    flow::FlowTransport transport(t->network(), *r, o);
    RecordingStream rec;
    const TransportResult result = drivers::run_open_loop(t->network(), transport, w, nullptr, &rec);
    CHECK(transport.streamed() == stream);
    CHECK(rec.began);
    CHECK(rec.contiguous);
    REQUIRE(rec.flow.size() == w.size());
    std::vector<std::uint8_t> seen(w.size(), 0);
    for (std::size_t i = 0; i < rec.flow.size(); ++i) {
      const FlowId f = rec.flow[i];
      CAPTURE(f);
      REQUIRE(seen[f] == 0);  // once
      seen[f] = 1;
      if (i > 0) REQUIRE(std::make_pair(w.start_s[rec.flow[i - 1]], rec.flow[i - 1]) < std::make_pair(w.start_s[f], f));
      // What was handed during the run is the run's final result.
      REQUIRE(rec.state[i] == result.state[f]);
      REQUIRE(rec.start[i] == result.start_s[f]);
      REQUIRE(rec.finish[i] == result.finish_s[f]);
      REQUIRE(rec.vars[i] == result.vars_of(f));
    }
  }
}

TEST_CASE("dynamic: a result stream that fails ends the open-loop run with its error") {
  auto t = test::build_topology("fattree:k=4,n=3");
  auto r = test::build_routing("dmodk", *t);
  FlowWorkload w = open_loop_workload(t->network(), 43, 20000);
  for (double& start : w.start_s) start *= 1000;
  flow::FlowTransportOptions o;
  o.policy = test::class_policy("np", {}, {}, 3);
  o.stream = true;
  for (const std::size_t threads : {1, 2}) {  // written by the simulation itself, or by the writer thread
    CAPTURE(threads);
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    flow::FlowTransport fresh(t->network(), *r, o);
    RecordingStream rec;
    rec.throw_at = 5000;
    CHECK_THROWS_WITH_AS(drivers::run_open_loop(t->network(), fresh, w, nullptr, &rec), "disk full (a test)",
                         OutputError);
  }
  // A run that fails while the stream writes: its error, and the writer stopped (no hang, no abort).
  o.max_path_bytes = 2000;  // a few flows' paths: exceeded once enough are in transfer at once
  flow::FlowTransport small(t->network(), *r, o);
  RecordingStream quiet;
  const FlowWorkload dense = open_loop_workload(t->network(), 43, 20000);  // flows over 2 ms
  CHECK_THROWS_AS(drivers::run_open_loop(t->network(), small, dense, nullptr, &quiet), InputError);
  CHECK(quiet.began);
}

namespace {

// An incast (every endpoint into endpoint 0, the ends one by one) and 300 random pairs with random
// sizes and starts, each flow in one of three classes.
FlowWorkload incast_and_pairs(const Network& net, std::uint64_t seed) {
  Rng rng(seed);
  FlowWorkload w;
  for (EndpointId s = 1; s < net.num_endpoints(); ++s) w.add(s, 0, (1 + 0.01 * s) * kMB, 0);
  for (int i = 0; i < 300; ++i) {
    const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    const auto d = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    w.add(s, d, (0.1 + rng.uniform()) * kMB, rng.uniform() * 1e-3);
  }
  for (FlowId f = 0; f < w.size(); ++f) w.service_class.push_back(static_cast<std::uint32_t>(rng.below(3)));
  return w;
}

// Each class policy over three classes: alike, strict priority, guaranteed shares, caps and priorities.
std::vector<ClassPolicy> every_policy() {
  return {test::class_policy("np", {}, {}, 3), test::class_policy("fp", {}, {}, 3),
          test::class_policy("ba", {0.5, 0.3, 0.2}, {}, 3),
          test::class_policy("qos", {0.3, 1.0, 0.5}, {0, 1, 1}, 3)};
}

// Two runs of one workload agree up to rounding: states, transfer ends, link bytes and the series.
void check_same_run(const Network& net, const FlowWorkload& w, const TransportResult& a, const TransportResult& b) {
  for (FlowId f = 0; f < w.size(); ++f) {
    CAPTURE(f);
    REQUIRE(a.state[f] == b.state[f]);
    if (std::isnan(b.transfer_end_s[f]))  // never ended (a transfer left at rate 0)
      REQUIRE(std::isnan(a.transfer_end_s[f]));
    else
      REQUIRE(a.transfer_end_s[f] == approx(b.transfer_end_s[f]).epsilon(1e-9));
  }
  for (LinkId l = 0; l < net.num_links(); ++l) REQUIRE(a.link_bytes[l] == approx(b.link_bytes[l]).epsilon(1e-9).scale(1));
  REQUIRE(a.series_gbps.size() == b.series_gbps.size());
  for (std::size_t i = 0; i < a.series_gbps.size(); ++i)
    REQUIRE(a.series_gbps[i] == approx(b.series_gbps[i]).epsilon(1e-9).scale(1e-6));
}

// --rate-solver auto with both rules forced: to groups after 37 batches, back to variables after 23
// more, to groups again after 37, and so on; the run equals the variable solver's (ends, link bytes,
// series), its rates checked against a solve from scratch after every batch.
void check_back_and_forth(const Network& net, const Routing& r, const FlowWorkload& w, flow::FlowTransportOptions o,
                          const TransportResult& variables) {
  o.solver = maxmin::SolverKind::automatic;
  o.group_switch = flow::GroupSwitch::Settings::always(37);
  o.back_switch = flow::GroupSwitch::Settings::always(23);  // back at each window's end
  o.verify = true;
  flow::FlowTransport transport(net, r, o);
  const TransportResult run = drivers::run_flows(net, transport, w);
  CHECK(transport.streamed() == o.stream);
  CHECK(run.groups_from_batch == 37);
  CHECK(run.solver_switches >= 2 * (variables.batches / 60));
  CHECK(run.batches_over_groups > 0);
  CHECK(run.batches_over_groups < run.batches);
  CHECK(run.max_verify_error <= 1e-6);
  check_same_run(net, w, run, variables);
}

}  // namespace

TEST_CASE("dynamic: the solver over bottleneck groups gives the variable solver's transfer ends") {
  // An incast and random pairs under every class policy and over ECMP's multiple paths: the rates are
  // checked against a solve from scratch after every batch, and the transfer ends equal those of the
  // variable solver.
  auto t = test::build_topology("fattree:k=4,n=3");
  const Network& net = t->network();
  const FlowWorkload w = incast_and_pairs(net, 11);
  for (const ClassPolicy& policy : every_policy()) {
    for (const char* routing : {"dmodk", "ecmp"}) {
      CAPTURE(policy.name);
      CAPTURE(routing);
      auto r = test::build_routing(routing, *t);
      flow::FlowTransportOptions o;
      o.policy = policy;
      o.verify = true;
      const TransportResult variables = test::run_flows(net, *r, w, o);
      o.solver = maxmin::SolverKind::groups;
      const TransportResult groups = test::run_flows(net, *r, w, o);
      // (Under fp both solvers differ from the policy solved from scratch by up to 2e-7 here, as in
      // the class test above; the groups add nothing to it.)
      CHECK(groups.max_verify_error <= std::max(1e-9, 2 * variables.max_verify_error));
      CHECK(groups.rate_solver == "groups");
      CHECK(variables.rate_solver == "variables");
      CHECK(groups.batches == variables.batches);
      // Every transfer followed by a clock: its group's (one path, no cap below 1) or its mix's.
      std::uint64_t single = 0, multi = 0;
      for (FlowId f = 0; f < w.size(); ++f)
        if (w.flows.src[f] != w.flows.dst[f]) ++(variables.vars_of(f) == 1 ? single : multi);
      if (std::string(routing) == "ecmp") CHECK(multi > 100);
      CHECK(variables.group_clocked + variables.mix_clocked == 0);
      const bool capped = std::string(policy.name) == "ba" || std::string(policy.name) == "qos";
      CHECK(groups.group_clocked == (capped ? 0 : single));
      CHECK(groups.mix_clocked == (capped ? single + multi : multi));
      // Also what the links carried and the time series, for the flows followed by clocks.
      check_same_run(net, w, groups, variables);
      // With a batch tolerance, the same transfers end early by as much.
      o.verify = false;
      o.batch_tolerance = 1e-4;
      const TransportResult groups_early = test::run_flows(net, *r, w, o);
      o.solver = maxmin::SolverKind::variables;
      const TransportResult variables_early = test::run_flows(net, *r, w, o);
      CHECK(groups_early.ended_early == variables_early.ended_early);
      CHECK(groups_early.early_bytes_cut == approx(variables_early.early_bytes_cut).epsilon(1e-6).scale(1));
    }
  }
}

TEST_CASE("dynamic: the default switching rule hands an incast to groups and leaves random pairs on variables") {
  // 600 flows of staggered sizes into one endpoint: every end re-levels the rest at one level (600
  // batches, each grouped), so the first window of 64 decides. Random pairs of the same count do not.
  auto t = test::build_topology("fattree:k=8,n=3");
  const Network& net = t->network();
  auto r = test::build_routing("dmodk", *t);
  FlowWorkload incast, pairs;
  Rng rng(5);
  for (int i = 0; i < 600; ++i) {
    incast.add(static_cast<EndpointId>(1 + i % (net.num_endpoints() - 1)), 0, (1 + 0.001 * i) * kMB, 0);
    const auto s = static_cast<EndpointId>(rng.below(net.num_endpoints()));
    pairs.add(s, static_cast<EndpointId>((s + 1 + rng.below(net.num_endpoints() - 1)) % net.num_endpoints()),
              (0.1 + rng.uniform()) * kMB, rng.uniform() * 1e-3);
  }
  flow::FlowTransportOptions o;
  o.solver = maxmin::SolverKind::automatic;
  const TransportResult grouped = test::run_flows(net, *r, incast, o);
  CHECK(grouped.groups_from_batch == 64);
  CHECK(grouped.group_clocked > 500);
  // Over ECMP's paths (weights of 1/k: a level read back as rate / weight is rounded), the same.
  auto ecmp = test::build_routing("ecmp", *t);
  const TransportResult mixed = test::run_flows(net, *ecmp, incast, o);
  CHECK(mixed.groups_from_batch == 64);
  CHECK(mixed.mix_clocked > 500);
  const TransportResult unswitched = test::run_flows(net, *r, pairs, o);
  CHECK(unswitched.batches > 64 * 4);
  CHECK(unswitched.groups_from_s < 0);
  CHECK(unswitched.group_clocked == 0);
  CHECK(unswitched.solver_switches == 0);
  CHECK(unswitched.batches_over_groups == 0);
  CHECK(grouped.solver_switches == 1);  // the incast to its end: over groups
  CHECK(grouped.batches_over_groups == grouped.batches - 64);
  // The incast, then the random pairs once it is over: to groups at batch 64, and back to variables
  // within a few windows of the pairs (their changes have levels of their own).
  FlowWorkload both = incast;
  for (FlowId f = 0; f < pairs.size(); ++f)
    both.add(pairs.flows.src[f], pairs.flows.dst[f], pairs.bytes[f], 1.0 + pairs.start_s[f]);
  const TransportResult there_and_back = test::run_flows(net, *r, both, o);
  CHECK(there_and_back.groups_from_batch == 64);
  CHECK(there_and_back.solver_switches == 2);
  CHECK(there_and_back.batches_over_groups < 600 + 64 * 4);
  o.solver = maxmin::SolverKind::variables;
  const TransportResult variables = test::run_flows(net, *r, incast, o);
  for (FlowId f = 0; f < incast.size(); ++f)
    REQUIRE(grouped.transfer_end_s[f] == approx(variables.transfer_end_s[f]).epsilon(1e-9));
  const TransportResult both_variables = test::run_flows(net, *r, both, o);
  check_same_run(net, both, there_and_back, both_variables);
  // Streamed (open-loop, flows routed as they start), the same rule; with --full-resolve, never: the
  // rule's window is met at once and the run stays over variables.
  o.solver = maxmin::SolverKind::automatic;
  FlowWorkload staggered = incast;  // (flows that all start at once are held, not streamed)
  staggered.start_s.back() = 1e-6;
  o.stream = true;
  flow::FlowTransport streamed(net, *r, o);
  const TransportResult streamed_run = drivers::run_flows(net, streamed, staggered);
  CHECK(streamed.streamed());
  CHECK(streamed_run.groups_from_batch == 64);
  CHECK(streamed_run.group_clocked > 500);
  o.stream = false;
  o.incremental = false;  // --full-resolve
  o.group_switch = flow::GroupSwitch::Settings::always(1);
  const TransportResult full = test::run_flows(net, *r, incast, o);
  CHECK(full.groups_from_s < 0);
  CHECK(full.group_clocked + full.mix_clocked == 0);
  for (FlowId f = 0; f < incast.size(); ++f)
    REQUIRE(full.transfer_end_s[f] == approx(variables.transfer_end_s[f]).epsilon(1e-9));
}

TEST_CASE("dynamic: the default switching rule hands an open-loop hot spot to groups while its arrivals go on") {
  // 2,000 flows of 1 MB arriving at random over 10 ms, half of them into endpoint 0 (eight times what
  // its link drains: the backlog grows to hundreds), half between random pairs (lightly loaded).
  // Only the hot spot's arrivals (a third of the batches) re-level its backlog, at one level; the
  // sums of a window see that long before the arrivals end (engine/flow/group_switch.hpp); the rule
  // before counted the batches that each moved many rates and wanted three quarters of a window.
  auto t = test::build_topology("fattree:k=8,n=3");
  const Network& net = t->network();
  auto r = test::build_routing("dmodk", *t);
  FlowWorkload w;
  Rng rng(41);
  constexpr double kArrivals = 0.01;
  for (int i = 0; i < 2000; ++i) {
    const auto s = static_cast<EndpointId>(1 + rng.below(net.num_endpoints() - 1));
    // (the other half: an offset of 1 to n - 2 from s, so never s)
    const auto d = i % 2 == 0 ? EndpointId{0}
                              : static_cast<EndpointId>((s + 1 + rng.below(net.num_endpoints() - 2)) % net.num_endpoints());
    w.add(s, d, kMB, rng.uniform() * kArrivals);
  }
  flow::FlowTransportOptions o;
  const TransportResult variables = test::run_flows(net, *r, w, o);
  o.solver = maxmin::SolverKind::automatic;
  for (const bool stream : {false, true}) {
    CAPTURE(stream);
    o.stream = stream;
    flow::FlowTransport transport(net, *r, o);
    const TransportResult run = drivers::run_flows(net, transport, w);
    CHECK(transport.streamed() == stream);
    CHECK(run.groups_from_s > 0);
    CHECK(run.groups_from_s < 0.75 * kArrivals);
    CHECK(run.solver_switches == 1);
    CHECK(run.group_clocked > 500);
    check_same_run(net, w, run, variables);
  }
}

TEST_CASE("dynamic: transfers left at rate 0 when the run ends keep their state and bytes under every solver") {
  // The link into endpoint 0 has no capacity: the incast into it never ends (rate 0 forever) and the
  // run stops when nothing else can happen. Over groups (held and streamed, single and multiple paths,
  // and with a cap below 1) the stuck transfers sit in clocks at level 0 when the transport closes:
  // their states, every link's bytes and the series equal the variable solver's, and are finite.
  auto t = test::build_topology("fattree:k=4,n=3");
  for (LinkId l = 0; l < t->network().num_links(); ++l)
    if (t->network().target(l) == t->network().endpoint_vertex(0)) t->network().set_capacity(l, 0);
  const Network& net = t->network();
  const FlowWorkload w = incast_and_pairs(net, 29);
  for (const ClassPolicy& policy : {test::class_policy("np", {}, {}, 3), test::class_policy("qos", {0.3, 1.0, 0.5}, {0, 1, 1}, 3)})
    for (const char* routing : {"dmodk", "updown"})
      for (const bool stream : {false, true}) {
        CAPTURE(policy.name);
        CAPTURE(routing);
        CAPTURE(stream);
        auto r = test::build_routing(routing, *t);
        flow::FlowTransportOptions o;
        o.policy = policy;
        o.stream = stream;
        const TransportResult variables = test::run_flows(net, *r, w, o);
        std::uint64_t stuck = 0, into_0 = 0;
        for (FlowId f = 0; f < w.size(); ++f) {
          stuck += variables.state[f] == FlowState::Blocked;
          into_0 += w.flows.dst[f] == 0 && w.flows.src[f] != 0;
        }
        CHECK(stuck == into_0);  // every flow into endpoint 0, and only those
        CHECK(stuck >= net.num_endpoints() - 1);
        for (const maxmin::SolverKind kind : {maxmin::SolverKind::groups, maxmin::SolverKind::automatic}) {
          o.solver = kind;
          o.group_switch = flow::GroupSwitch::Settings::always(5);  // auto: to groups at batch 5
          const TransportResult run = test::run_flows(net, *r, w, o);
          CHECK(run.batches_over_groups > 0);
          for (FlowId f = 0; f < w.size(); ++f) REQUIRE(run.state[f] == variables.state[f]);
          for (LinkId l = 0; l < net.num_links(); ++l) REQUIRE(std::isfinite(run.link_bytes[l]));
          for (const double g : run.series_gbps) REQUIRE(std::isfinite(g));
          check_same_run(net, w, run, variables);
        }
      }
}

TEST_CASE("dynamic: a streamed run over bottleneck groups or handed to them midway gives the variable solver's ends") {
  // Open-loop flows routed as they start (slots and variable numbers used again): over groups from the
  // start, and switched after k batches, every transfer follows its group's or mix's clock; the ends,
  // link bytes and series equal those of the variable solver over held paths, under every class policy
  // and over multiple paths (updown, a per-flow routing: ecmp routes flows together and is held).
  auto t = test::build_topology("fattree:k=4,n=3");
  // Every 7th link at a third of its capacity: a flow's paths then run at different levels, so what
  // each path carried (the links' bytes) depends on per-path accounting, not only on the flow's total.
  for (LinkId l = 0; l < t->network().num_links(); l += 7)
    t->network().set_capacity(l, t->network().capacity_gbps(l) / 3);
  const Network& net = t->network();
  const FlowWorkload w = incast_and_pairs(net, 23);
  for (const ClassPolicy& policy : every_policy())
    for (const char* routing : {"dmodk", "updown"}) {
      CAPTURE(policy.name);
      CAPTURE(routing);
      auto r = test::build_routing(routing, *t);
      flow::FlowTransportOptions o;
      o.policy = policy;
      const TransportResult variables = test::run_flows(net, *r, w, o);
      REQUIRE(variables.batches > 300);
      o.stream = true;
      o.verify = true;
      const auto streamed_run = [&] {
        flow::FlowTransport transport(net, *r, o);
        const TransportResult run = drivers::run_flows(net, transport, w);
        REQUIRE(transport.streamed());
        CHECK(transport.slots() < w.size());  // slots were used again
        CHECK(run.max_verify_error <= 1e-6);
        CHECK(run.batches == variables.batches);
        check_same_run(net, w, run, variables);
        return run;
      };
      o.solver = maxmin::SolverKind::groups;
      const TransportResult groups = streamed_run();
      std::uint64_t transferring = 0;
      for (FlowId f = 0; f < w.size(); ++f) transferring += w.flows.src[f] != w.flows.dst[f];
      CHECK(groups.group_clocked + groups.mix_clocked == transferring);
      const bool capped = std::string(policy.name) == "ba" || std::string(policy.name) == "qos";
      if (capped) CHECK(groups.group_clocked == 0);
      if (!capped && std::string(routing) == "dmodk") CHECK(groups.mix_clocked == 0);
      if (std::string(routing) == "updown") CHECK(groups.mix_clocked > 100);
      o.solver = maxmin::SolverKind::automatic;
      for (const std::uint32_t k : {1u, 37u, 300u}) {
        CAPTURE(k);
        o.group_switch = flow::GroupSwitch::Settings::always(k);
        const TransportResult switched = streamed_run();
        CHECK(switched.groups_from_batch == k);
        CHECK(switched.group_clocked + switched.mix_clocked > 0);
      }
      check_back_and_forth(net, *r, w, o, variables);
    }
}

TEST_CASE("dynamic: a run handed to bottleneck groups midway gives the variable solver's transfer ends") {
  // --rate-solver auto with a rule forced to switch after k batches (engine/flow/group_switch.hpp): the
  // flows in transfer then join their groups' or mixes' clocks with the bits they have left, and the
  // ends, link bytes (multipath flows' paths included) and series equal the variable solver's.
  auto t = test::build_topology("fattree:k=4,n=3");
  const Network& net = t->network();
  const FlowWorkload w = incast_and_pairs(net, 17);
  for (const ClassPolicy& policy : every_policy())
    for (const char* routing : {"dmodk", "ecmp"})
      for (const bool fifo : {false, true}) {  // with NIC FIFOs, some messages wait in queues at the switch
        CAPTURE(policy.name);
        CAPTURE(routing);
        CAPTURE(fifo);
        auto r = test::build_routing(routing, *t);
        flow::FlowTransportOptions o;
        o.policy = policy;
        o.nic_fifo = fifo;
        const TransportResult variables = test::run_flows(net, *r, w, o);
        REQUIRE(variables.batches > 300);
        o.solver = maxmin::SolverKind::automatic;
        o.group_switch = flow::GroupSwitch::Settings{64, 1e9, 0};  // never met: the variable solver's run
        const TransportResult unswitched = test::run_flows(net, *r, w, o);
        CHECK(unswitched.groups_from_s < 0);
        CHECK(unswitched.rate_solver == "auto");
        for (FlowId f = 0; f < w.size(); ++f) REQUIRE(unswitched.transfer_end_s[f] == variables.transfer_end_s[f]);
        for (const std::uint32_t k : {1u, 37u, 300u}) {
          CAPTURE(k);
          o.group_switch = flow::GroupSwitch::Settings::always(k);
          o.verify = true;
          const TransportResult switched = test::run_flows(net, *r, w, o);
          CHECK(switched.groups_from_batch == k);
          CHECK(switched.groups_from_s >= 0);
          CHECK(switched.batches == variables.batches);
          CHECK(switched.group_clocked + switched.mix_clocked > 0);
          CHECK(switched.max_verify_error <= 1e-6);
          check_same_run(net, w, switched, variables);
          if (k != 37) continue;
          // With --profile (the steps timed apart) and with a batch tolerance, the same.
          o.verify = false;
          o.profile = true;
          check_same_run(net, w, test::run_flows(net, *r, w, o), variables);
          o.profile = false;
          o.batch_tolerance = 1e-4;
          const TransportResult switched_early = test::run_flows(net, *r, w, o);
          o.solver = maxmin::SolverKind::variables;
          const TransportResult variables_early = test::run_flows(net, *r, w, o);
          CHECK(switched_early.groups_from_batch == k);
          CHECK(switched_early.ended_early == variables_early.ended_early);
          CHECK(switched_early.early_bytes_cut == approx(variables_early.early_bytes_cut).epsilon(1e-6).scale(1));
          o.solver = maxmin::SolverKind::automatic;
          o.batch_tolerance = 0;
        }
        check_back_and_forth(net, *r, w, o, variables);
      }
}
