// The packet engine: zero-load latency against its closed form on a line, a ring and a tree;
// deadlock detection by the channel dependency graph; conservation and a complete drain after a run
// at full load; accepted throughput equal to offered below saturation.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "engine/packet/packet_sim.hpp"
#include "tests/support/packet_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

using Setup = test::PacketFixture;

Cycle zero_load(const Setup& s, EndpointId src, EndpointId dst, std::uint32_t flits, const RouterConfig& r) {
  return s.zero_load(src, dst, flits, r);
}

// The latency of one message alone in the network.
Cycle measured(const Setup& s, EndpointId src, EndpointId dst, std::uint64_t bytes, const RouterConfig& r,
               const VcScheme& scheme) {
  return s.lone(r, scheme, src, dst, bytes, static_cast<std::uint32_t>(bytes)).latency;
}

VcScheme ring_dateline(const Setup& s, std::uint32_t k) { return s.ring_dateline(k); }

// Uniform random traffic, Bernoulli at `load` flits per cycle per NIC, for `cycles` cycles.
void offer_uniform(PacketSim& sim, std::uint32_t n, double load, std::uint32_t flits, Cycle from, Cycle cycles,
                   std::uint32_t flit_bytes, std::uint64_t seed) {
  Rng rng(seed);
  const double p = load / flits;
  for (Cycle t = from; t < from + cycles; ++t)
    for (EndpointId s = 0; s < n; ++s)
      if (rng.uniform() < p) {
        EndpointId d = static_cast<EndpointId>(rng.below(n - 1));
        if (d >= s) ++d;
        sim.send({s, d, std::uint64_t{flits} * flit_bytes, 0}, t);
      }
}

// A vct switch of `vcs` VCs of `flits` flits each.
void set_vct(RouterConfig& r, std::uint32_t vcs, std::uint32_t flits) {
  r.vcs = vcs;
  r.input = BufferShape::split(vcs, flits);
}

}  // namespace

TEST_CASE("packet: zero-load latency equals its closed form on a line and a ring and a tree") {
  RouterConfig r;
  set_vct(r, 2, 16);
  for (std::uint32_t flits : {1u, 4u}) {
    INFO(flits << " flits");
    const Setup line("mesh:dims=5", "dor");
    CHECK(measured(line, 0, 4, flits * 64, r, VcScheme{}) == zero_load(line, 0, 4, flits, r));
    CHECK(measured(line, 3, 1, flits * 64, r, VcScheme{}) == zero_load(line, 3, 1, flits, r));
    const Setup ring("torus:dims=8", "dor");
    const VcScheme dateline = ring_dateline(ring, 8);
    CHECK(measured(ring, 6, 1, flits * 64, r, dateline) == zero_load(ring, 6, 1, flits, r));  // across the wrap
    CHECK(measured(ring, 1, 3, flits * 64, r, dateline) == zero_load(ring, 1, 3, flits, r));
    const Setup tree("fattree:k=2,n=3", "dmodk");
    CHECK(measured(tree, 0, 7, flits * 64, r, VcScheme{}) == zero_load(tree, 0, 7, flits, r));
    CHECK(measured(tree, 2, 3, flits * 64, r, VcScheme{}) == zero_load(tree, 2, 3, flits, r));
  }
  // The closed form by hand for the line, 1 flit: clock 5.12 ns (64 B at 100 Gb/s), 100 ns = 20
  // cycles per channel; 0 -> 4 crosses injection, 4 links and ejection (6 channels) and 5 routers.
  const Setup line("mesh:dims=5", "dor");
  CHECK(zero_load(line, 0, 4, 1, r) == 1 + 6 * 20 + 5 * 4);
}

TEST_CASE("packet: the channel dependency graph finds the ring's cycle and the dateline breaks it") {
  const Setup ring("torus:dims=8", "dor");
  CHECK_FALSE(dependency_cycle(*ring.fabric, *ring.routes, VcScheme{}).empty());
  CHECK(dependency_cycle(*ring.fabric, *ring.routes, ring_dateline(ring, 8)).empty());
  VcScheme hops;
  hops.kind = VcSchemeKind::Hops;
  hops.classes = 5;  // at most 4 router-to-router hops on an 8-ring, minimal
  CHECK(dependency_cycle(*ring.fabric, *ring.routes, hops).empty());
  const Setup tree("fattree:k=4,n=2", "dmodk");
  CHECK(dependency_cycle(*tree.fabric, *tree.routes, VcScheme{}).empty());
}

TEST_CASE("packet: a full-load run conserves packets and credits and drains completely") {
  RouterConfig r;
  set_vct(r, 4, 8);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"torus:dims=8", "dor"}, {"fattree:k=4,n=2", "dmodk"}, {"torus:dims=4x4", "dor"}};
  for (const auto& [topo, route] : cases) {
    INFO(topo);
    const Setup s(topo, route);
    VcScheme scheme;
    if (topo == "torus:dims=8") scheme = ring_dateline(s, 8);
    if (topo == "torus:dims=4x4") {
      scheme.kind = VcSchemeKind::Hops;  // at most 4 network hops
      scheme.classes = 4;
    }
    REQUIRE(dependency_cycle(*s.fabric, *s.routes, scheme).empty());
    for (std::uint32_t flits : {1u, 4u}) {
      NicConfig nic;
      nic.mtu_bytes = {flits * 64};
      nic.injection_queue_bytes = 4096;
      PacketSim sim(*s.fabric, s.paths, *s.routes, scheme, r, nic, 7);
      offer_uniform(sim, s.n(), 1.0, flits, 0, 2000, 64, 3);
      sim.run_until(1000);
      sim.check_invariants();  // mid-run: queues, credits and packets add up
      CHECK(sim.packets_in_network() > 0);
      sim.run_until(0);  // drain
      sim.check_invariants();
      CHECK(sim.messages_in_system() == 0);
      CHECK(sim.packets_in_network() == 0);
      for (ChannelId c = 0; c < s.fabric->num_channels(); ++c) CHECK(sim.stats().channel_peak[c] <= r.input.size);
    }
  }
}

TEST_CASE("packet: below saturation the accepted throughput equals the offered load") {
  RouterConfig r;
  const Setup s("fattree:k=4,n=2", "dmodk");
  NicConfig nic;
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 3);
  const Cycle warmup = 1000, window = 20000;
  sim.set_window(warmup, warmup + window);
  offer_uniform(sim, s.n(), 0.3, 1, 0, warmup + window, 64, 11);
  sim.run_until(0);
  sim.check_invariants();
  const SlStats& sl = sim.stats().sl[0];
  CHECK(sl.delivered_messages == sl.generated_messages);  // every measured message delivered
  const double offered = static_cast<double>(sl.generated_flits) / window / s.n();
  const double accepted = static_cast<double>(sl.window_delivered_flits) / window / s.n();
  CHECK(offered == approx(0.3).epsilon(0.03));
  CHECK(accepted == approx(offered).epsilon(0.02));
  // Mean latency a little above zero load (some contention), far from saturation.
  const double mean = sl.latency_sum / static_cast<double>(sl.delivered_messages);
  CHECK(mean >= static_cast<double>(zero_load(s, 0, 15, 1, r)) * 0.5);
  CHECK(mean < 400);
}

TEST_CASE("packet: without the dateline a ring at full load deadlocks and the engine says so") {
  RouterConfig r;
  set_vct(r, 1, 4);
  const Setup ring("torus:dims=8", "dor");
  NicConfig nic;
  nic.mtu_bytes = {4 * 64};
  PacketSim sim(*ring.fabric, ring.paths, *ring.routes, VcScheme{}, r, nic, 5);
  sim.set_stall_limit(5000);
  offer_uniform(sim, ring.n(), 1.0, 4, 0, 3000, 64, 2);
  sim.run_until(0);
  sim.check_invariants();  // stuck, but nothing lost: every packet is still in a buffer
  CHECK(sim.stats().stalled);
  CHECK(sim.packets_in_network() > 0);
  // The same load with the dateline drains.
  set_vct(r, 2, 4);
  PacketSim safe(*ring.fabric, ring.paths, *ring.routes, ring_dateline(ring, 8), r, nic, 5);
  offer_uniform(safe, ring.n(), 1.0, 4, 0, 3000, 64, 2);
  safe.run_until(0);
  safe.check_invariants();
  CHECK_FALSE(safe.stats().stalled);
  CHECK(safe.messages_in_system() == 0);
}

namespace {

// Every hop of every route as an edge (channel x classes + class) -> (next channel, its class): the
// graph the dependency check compresses, built naively.
std::set<std::pair<std::uint64_t, std::uint64_t>> naive_dependencies(const Setup& s, const VcScheme& scheme) {
  std::set<std::pair<std::uint64_t, std::uint64_t>> edges;
  for (std::uint32_t v = 0; v < s.routes->num_routes(); ++v) {
    VcState state;
    std::uint64_t previous = kNone;
    for (const ChannelId c : s.routes->route(v)) {
      const std::uint64_t node = std::uint64_t{c} * scheme.classes + enter(scheme, state, c, s.fabric->between_routers(c));
      if (previous != kNone) edges.emplace(previous, node);
      previous = node;
    }
  }
  return edges;
}

// igraph's answer: is that graph acyclic?
bool igraph_acyclic(const std::set<std::pair<std::uint64_t, std::uint64_t>>& edges, std::uint64_t nodes) {
  igraph_vector_int_t list;
  igraph_vector_int_init(&list, 0);
  for (const auto& [a, b] : edges) {
    igraph_vector_int_push_back(&list, static_cast<igraph_integer_t>(a));
    igraph_vector_int_push_back(&list, static_cast<igraph_integer_t>(b));
  }
  igraph_t g;
  igraph_create(&g, &list, static_cast<igraph_integer_t>(nodes), IGRAPH_DIRECTED);
  igraph_bool_t dag = false;
  igraph_is_dag(&g, &dag);
  igraph_destroy(&g);
  igraph_vector_int_destroy(&list);
  return dag;
}

// The nodes of a cycle text "channel a (class x) -> channel b (class y) -> ... -> channel a".
std::vector<std::uint64_t> cycle_nodes(std::string text, std::uint32_t classes) {
  std::replace(text.begin(), text.end(), '(', ' ');
  std::replace(text.begin(), text.end(), ')', ' ');
  std::istringstream in(text);  // channel A class X -> channel B class Y -> ... -> channel A
  std::vector<std::uint64_t> nodes;
  std::string word, arrow;
  std::uint64_t channel = 0, cls = 0;
  while (in >> word >> channel && in >> word >> cls) {
    nodes.push_back(channel * classes + cls);
    in >> arrow;
  }
  return nodes;
}

}  // namespace

TEST_CASE("packet: the dependency check agrees with igraph on every hop of every route and names a real cycle") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"torus:dims=8", "dor"}, {"torus:dims=4x4", "dor"}, {"torus:dims=4x4", "ecmp"}, {"fattree:k=4,n=2", "dmodk"},
      {"dragonfly:a=4,p=2,h=2", "dfmin"}, {"jellyfish:N=16,k=6,r=4", "bfs"}};
  for (const auto& [topo, route] : cases) {
    const Setup s(topo, route);
    const BlockGrid grid = s.topology->block_grid();
    std::vector<VcScheme> schemes(1);
    if (grid.wraps) schemes.push_back(dateline_scheme(*s.fabric, s.topology->network(), grid.routers));
    for (const std::uint32_t classes : {2u, 3u, longest_route(*s.fabric, *s.routes)}) {
      VcScheme hops;
      hops.kind = VcSchemeKind::Hops;
      hops.classes = classes;
      schemes.push_back(hops);
    }
    for (const VcScheme& scheme : schemes) {
      INFO(topo << " " << route << " " << scheme.name() << " " << scheme.classes);
      const auto edges = naive_dependencies(s, scheme);
      const std::string cycle = dependency_cycle(*s.fabric, *s.routes, scheme);
      CHECK(cycle.empty() == igraph_acyclic(edges, std::uint64_t{s.fabric->num_channels()} * scheme.classes));
      if (cycle.empty()) continue;
      const std::vector<std::uint64_t> nodes = cycle_nodes(cycle, scheme.classes);
      REQUIRE(nodes.size() >= 2);
      for (std::size_t i = 0; i < nodes.size(); ++i)  // every step of the cycle, the last back to the first
        CHECK(edges.count({nodes[i], nodes[(i + 1) % nodes.size()]}) == 1);
    }
  }
}

TEST_CASE("packet: the scheme is chosen per routing and topology and refused when it cannot be safe") {
  const Setup torus("torus:dims=4x4", "dor");
  const VcScheme d = dateline_scheme(*torus.fabric, torus.topology->network(), {4, 4});
  // 4x4 torus: 16 routers x 4 links, a quarter of them wrap-around (2 per ring direction pair per ring).
  std::uint32_t wraps = 0, network = 0;
  for (ChannelId c = 0; c < torus.fabric->num_channels(); ++c) {
    wraps += d.wraps[c];
    network += d.dimension[c] != kNone;
  }
  CHECK(network == 64);
  CHECK(wraps == 16);  // 8 rings, each with its wrap-around cable, both ways
  CHECK(choose_scheme("auto", *torus.fabric, torus.topology->network(), *torus.routes, {4, 4}, 2, "dor on a torus")
            .kind == VcSchemeKind::Dateline);
  const std::string refused = test::error_of([&] {
    choose_scheme("auto", *torus.fabric, torus.topology->network(), *torus.routes, {4, 4}, 1, "dor on torus:dims=4x4");
  });
  CHECK(refused.find("dor on torus:dims=4x4 could deadlock with 1 virtual channel") != std::string::npos);
  CHECK(refused.find("dateline needs 2") != std::string::npos);
  const Setup tree("fattree:k=4,n=2", "dmodk");
  CHECK(choose_scheme("auto", *tree.fabric, tree.topology->network(), *tree.routes, {}, 1, "dmodk").kind ==
        VcSchemeKind::Single);
  CHECK(longest_route(*torus.fabric, *torus.routes) == 4);  // up to 4 router-to-router hops: classes 0..3
}

namespace {

// The ib switch: `vls` VLs, port buffers of `flits` flits each way with `min` flits reserved per
// VL, and the output scheduler `scheduler` (a spec of the output-scheduler registry).
RouterConfig ib_switch(std::uint32_t vls, std::uint32_t flits, std::uint32_t min, const std::string& scheduler) {
  static OutputSchedulerRegistry registry("output-scheduler");
  if (registry.entries().empty()) register_output_schedulers(registry);
  RouterConfig r;
  r.vcs = vls;
  r.input = r.output = BufferShape{flits, min, flits};
  r.scheduler = [scheduler](const SchedulerContext& c) {
    return registry.create(Spec::parse(scheduler, "scheduler"), c);
  };
  return r;
}

}  // namespace

TEST_CASE("shared buffer: room equals a search over every state the bounds allow") {
  Rng rng(9);
  for (const BufferShape shape : {BufferShape{24, 4, 12}, BufferShape{16, 0, 16}, BufferShape::split(3, 5)}) {
    const std::uint32_t lanes = 3;
    SharedBuffers b(2, lanes, shape);
    std::vector<std::uint32_t> used(lanes, 0);
    // Independent: a state is allowed when no lane is above its maximum and the flits above the
    // lanes' reserved parts fit the pool.
    const auto allowed = [&](const std::vector<std::uint32_t>& u) {
      std::uint32_t pool = 0;
      for (const std::uint32_t x : u) {
        if (x > shape.lane_max) return false;
        pool += x > shape.lane_min ? x - shape.lane_min : 0;
      }
      return pool <= shape.size - lanes * shape.lane_min;
    };
    for (int step = 0; step < 2000; ++step) {
      const auto lane = static_cast<std::uint32_t>(rng.below(lanes));
      std::uint32_t most = 0;
      for (std::uint32_t f = 1; f <= shape.size; ++f) {
        std::vector<std::uint32_t> u = used;
        u[lane] += f;
        if (allowed(u)) most = f;
      }
      REQUIRE(b.room(1, lane) == most);
      const auto f = static_cast<std::uint32_t>(rng.below(6));
      if (rng.uniform() < 0.55) {
        if (f <= most) {
          b.take(1, lane, f);
          used[lane] += f;
        } else {
          CHECK_THROWS_AS(b.take(1, lane, f), std::logic_error);
        }
      } else if (f <= used[lane]) {
        b.give(1, lane, f);
        used[lane] -= f;
      }
      CHECK(b.used(0, lane) == 0);  // the other port is untouched
    }
  }
}

TEST_CASE("packet: the ib switch's zero-load latency equals the same closed form") {
  RouterConfig r = ib_switch(2, 64, 16, "rr");
  for (std::uint32_t flits : {1u, 4u}) {
    INFO(flits << " flits");
    const Setup line("mesh:dims=5", "dor");
    CHECK(measured(line, 0, 4, flits * 64, r, VcScheme{}) == zero_load(line, 0, 4, flits, r));
    const Setup ring("torus:dims=8", "dor");
    CHECK(measured(ring, 6, 1, flits * 64, r, ring_dateline(ring, 8)) == zero_load(ring, 6, 1, flits, r));
    const Setup tree("fattree:k=2,n=3", "dmodk");
    CHECK(measured(tree, 0, 7, flits * 64, r, VcScheme{}) == zero_load(tree, 0, 7, flits, r));
  }
}

TEST_CASE("packet: the ib switch at full load with two service levels conserves and drains") {
  const std::vector<std::pair<std::string, std::string>> cases = {{"fattree:k=4,n=2", "dmodk"},
                                                                  {"torus:dims=8", "dor"}};
  for (const auto& [topo, route] : cases) {
    for (const std::string sched : {"rr", "vlarb:high=0:4;1:1,low=1:1", "dtable:table=0:3;1:1"}) {
      INFO(topo << " " << sched);
      const Setup s(topo, route);
      const bool ring = topo == "torus:dims=8";
      const VcScheme scheme = ring ? ring_dateline(s, 8) : VcScheme{};
      RouterConfig r = ib_switch(ring ? 4 : 2, 40, 8, sched);
      r.sl2vl = {0, 1};
      NicConfig nic;
      nic.service_levels = 2;
      nic.mtu_bytes = {64, 4 * 64};
      nic.injection_queue_bytes = 4096;
      PacketSim sim(*s.fabric, s.paths, *s.routes, scheme, r, nic, 7);
      test::offer_two_sls(sim, s.n(), 1500, 0.25, 64, 512, 4);
      test::run_and_drain(sim, 800);
      for (ChannelId c = 0; c < s.fabric->num_channels(); ++c) {
        CHECK(sim.stats().channel_peak[c] <= 40);
        CHECK(sim.stats().output_peak[c] <= 40);
      }
    }
  }
}

TEST_CASE("packet: an ib output port shares a congested link by its scheduler's weights") {
  // Three NICs of one switch send to the fourth on two SLs, each far beyond what its link takes.
  // With a crossbar speedup of 2 the ejection port's output buffer fills, and its scheduler alone
  // decides the shares: 3:1 by the table weights. (With speedup 1 the input arbiters' round robin
  // over the VLs would decide, 1:1.)
  const Setup s("fattree:k=4,n=1", "dmodk");
  REQUIRE(s.n() == 4);
  // tclass: SL 0 first, capped at 75 % of the link over each 1000-cycle window: the same shares.
  for (const std::string sched : {"dtable:table=0:3;1:1", "vlarb:high=0:3;1:1", "tclass:caps=0.75;1,window-ns=5120"}) {
    INFO(sched);
    RouterConfig r = ib_switch(2, 64, 16, sched);
    r.sl2vl = {0, 1};
    r.xbar_speedup = 2;
    NicConfig nic;
    nic.service_levels = 2;
    PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 3);
    const Cycle warmup = 2000, window = 20000;
    sim.set_window(warmup, warmup + window);
    for (Cycle t = 0; t < warmup + window; ++t)
      for (EndpointId src = 1; src < 4; ++src)
        for (std::uint32_t sl = 0; sl < 2; ++sl) sim.send({src, 0, 64, sl}, t);
    sim.run_until(warmup + window);
    sim.check_invariants();
    const double sl0 = static_cast<double>(sim.stats().sl[0].window_delivered_flits) / window;
    const double sl1 = static_cast<double>(sim.stats().sl[1].window_delivered_flits) / window;
    CHECK(sl0 + sl1 == approx(1.0).epsilon(0.01));  // the link is full
    CHECK(sl0 == approx(0.75).epsilon(0.01));
    CHECK(sl1 == approx(0.25).epsilon(0.02));
  }
}

namespace {

// Accepted flits per cycle per NIC of one 8-port switch under uniform traffic at full load.
double accepted_at_full_load(RouterConfig r) {
  const Setup s("fattree:k=8,n=1", "dmodk");
  NicConfig nic;
  nic.injection_queue_bytes = 1 << 20;
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 8);
  const Cycle warmup = 2000, window = 20000;
  sim.set_window(warmup, warmup + window);
  offer_uniform(sim, s.n(), 1.0, 1, 0, warmup + window, 64, 5);
  sim.run_until(warmup + window);
  sim.check_invariants();
  sim.run_until(0);
  sim.check_invariants();
  CHECK(sim.messages_in_system() == 0);
  return static_cast<double>(sim.stats().sl[0].window_delivered_flits) / window / s.n();
}

}  // namespace

TEST_CASE("packet: one FIFO per input saturates at the head-of-line limit of Karol et al. 1987") {
  // An 8x8 input-queued switch, uniform destinations, every input always backlogged: Karol, Hluchyj
  // and Morgan (1987, Table I) give 0.6184 for N = 8 with destinations over all N outputs; ours
  // exclude the source itself (7 outputs), which relieves contention slightly.
  // Buffers of 128 flits cover the credit round trip of the 100 ns (20-cycle) links.
  RouterConfig fifo;
  fifo.vcs = 1;
  fifo.input = BufferShape::split(1, 128);
  const double hol = accepted_at_full_load(fifo);
  CHECK(hol > 0.61);
  CHECK(hol < 0.64);
  // iSLIP (McKeown 1999) over 8 VCs with three rounds takes far more than the separable allocator.
  RouterConfig vcs8 = fifo;
  vcs8.vcs = 8;
  vcs8.input = BufferShape::split(8, 64);
  const double separable = accepted_at_full_load(vcs8);
  vcs8.islip_iterations = 3;
  const double islip = accepted_at_full_load(vcs8);
  CHECK(islip > separable + 0.15);
  CHECK(islip > 0.85);
}

namespace {

// The cycle the last of `count` messages of `bytes` from endpoint 0 to endpoint 2 of a line arrives,
// all handed in at cycle 0, with one VC of 8 flits and `credit_flits` flits per credit.
Cycle stream_end(std::uint32_t count, std::uint64_t bytes, std::uint32_t credit_flits) {
  const Setup s("mesh:dims=3", "dor");
  RouterConfig r;
  set_vct(r, 1, 8);
  r.credit_flits = credit_flits;
  NicConfig nic;
  nic.mtu_bytes = {static_cast<std::uint32_t>(bytes)};
  PacketSim sim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 1);
  Cycle last = 0;
  sim.on_delivery = [&](std::uint64_t, Cycle t) { last = std::max(last, t); };
  for (std::uint32_t i = 0; i < count; ++i) sim.send({0, 2, bytes, 0}, 0);
  sim.run_until(1000);
  sim.check_invariants();  // mid-run: space taken in whole credits on both sides
  for (ChannelId c = 0; c < s.fabric->num_channels(); ++c)
    CHECK(sim.stats().channel_peak[c] % credit_flits == 0);
  sim.run_until(0);
  sim.check_invariants();
  CHECK(sim.messages_in_system() == 0);
  return last;
}

}  // namespace

TEST_CASE("packet: a credit of several flits takes buffer space in whole credits") {
  // 1-flit packets in credits of 4 flits: a VC of 8 flits holds 2 packets instead of 8, and with
  // 20-cycle links the stream is credit-bound, so it takes 4 times as long.
  const double ratio = static_cast<double>(stream_end(2000, 64, 4)) / static_cast<double>(stream_end(2000, 64, 1));
  CHECK(ratio == approx(4.0).epsilon(0.03));
  // 4-flit packets fill their credits exactly: nothing changes.
  CHECK(stream_end(500, 256, 4) == stream_end(500, 256, 1));
  // A packet must fit the space a VC reserves in whole credits.
  const Setup s("mesh:dims=3", "dor");
  RouterConfig r;
  set_vct(r, 1, 8);
  r.credit_flits = 3;
  NicConfig nic;
  nic.mtu_bytes = {7 * 64};  // 7 flits: 3 credits of 3, 9 flits > 8
  CHECK(test::error_of([&] { PacketSim(*s.fabric, s.paths, *s.routes, VcScheme{}, r, nic, 1); })
            .find("9 flits in whole credits") != std::string::npos);
}

// A held ejection (the hybrid zoom's exit to an outside router) stands for that router's input
// buffer: a paced message's packets leave it exactly flits / rate cycles apart, the packets behind
// them in the VC wait (head-of-line), and credits and conservation hold at every step.
TEST_CASE("packet: a held ejection releases paced packets at their rate and holds the packets behind them") {
  const Setup line("mesh:dims=2", "dor");
  RouterConfig r;
  set_vct(r, 1, 16);  // one VC of four 4-flit packets
  NicConfig nic;
  nic.mtu_bytes = {256};
  const auto run = [&](bool held) {
    PacketSim sim(*line.fabric, line.paths, *line.routes, VcScheme{}, r, nic, 1);
    if (held) sim.hold_ejection(1);
    sim.make_pacers(1);
    sim.set_pacer_rate(0, 0.25);  // one 4-flit packet per 16 cycles
    std::vector<Cycle> at;
    sim.on_delivery = [&](std::uint64_t, Cycle t) { at.push_back(t); };
    for (int i = 0; i < 8; ++i) sim.send({0, 1, 256, 0, kNone, 0}, 10);  // eight packets of one paced flow
    sim.send({0, 1, 256, 0}, 11);                                          // then an unpaced one
    for (Cycle t = 20; sim.messages_in_system() > 0 && t < 100000; t += 7) {
      sim.run_until(t);
      sim.check_invariants();
    }
    CHECK(sim.messages_in_system() == 0);
    return at;
  };
  const std::vector<Cycle> free = run(false), held = run(true);
  REQUIRE(free.size() == 9);
  REQUIRE(held.size() == 9);
  CHECK(held[0] == free[0]);  // the first leaves as its tail arrives
  for (std::size_t i = 1; i < 8; ++i) CHECK(held[i] - held[i - 1] == 16);
  CHECK(free[8] < held[7]);   // free, the unpaced packet arrives while the paced ones are still coming
  CHECK(held[8] > held[7]);   // held, it waits behind them
  CHECK(free[7] - free[0] < 7 * 16);
}
