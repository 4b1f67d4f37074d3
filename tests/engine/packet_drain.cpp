// Deadlock freedom at full load, row by row of the table in manual/packet.md ("Deadlock freedom"):
// for every routing and topology there, choose_scheme("auto") accepts the run with the table's
// virtual channels and the table's scheme, refuses it with one fewer, and a run with exactly that
// many virtual channels under uniform random traffic at full load (1.0 flits/cycle/NIC, packets of
// 1 and of 4 flits) drains completely: nothing stalls, nothing is left, the invariants hold and no
// input buffer ever holds more than its size. A control shows that the same load really deadlocks
// the 8x8 torus and the slim fly with one virtual channel fewer (a cyclic dependency graph).
// Every instance is the table's own: all of them are cheap enough.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/error.hpp"
#include "engine/packet/packet_sim.hpp"
#include "tests/support/packet_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

constexpr std::uint32_t kFlitBytes = 64;           // the default flit (ClockConfig{})
constexpr std::uint32_t kVcFlits = 8;              // each virtual channel's buffer
constexpr std::uint32_t kInjectionQueueFlits = 16;  // per NIC: small, so messages back up at the NICs
constexpr Cycle kOfferCycles = 600;                // cycles during which messages are generated
constexpr Cycle kStallLimit = 20000;               // cycles without progress taken for a deadlock

// The table's topology and routing, every ordered endpoint pair routed, and the routers' grid when
// it is a torus (for the dateline), as cli/packet_setup.cpp passes it.
struct Setup : test::PacketFixture {
  using PacketFixture::PacketFixture;
  std::vector<std::uint32_t> torus_dims() const {
    const BlockGrid grid = topology->block_grid();
    return grid.wraps ? grid.routers : std::vector<std::uint32_t>{};
  }
};

VcScheme choose_auto(const Setup& s, std::uint32_t vcs) {
  return choose_scheme("auto", *s.fabric, s.topology->network(), *s.routes, s.torus_dims(), vcs, "the drain test");
}

// Uniform random destinations (never the source), Bernoulli at `load` flits per cycle per NIC in
// messages of one `flits`-flit packet, generated during cycles [0, cycles).
void offer_uniform(PacketSim& sim, std::uint32_t n, double load, std::uint32_t flits, Cycle cycles, std::uint64_t seed) {
  Rng rng(seed);
  const double p = load / flits;
  for (Cycle t = 0; t < cycles; ++t)
    for (EndpointId s = 0; s < n; ++s)
      if (rng.uniform() < p) {
        auto d = static_cast<EndpointId>(rng.below(n - 1));
        if (d >= s) ++d;
        sim.send({s, d, std::uint64_t{flits} * kFlitBytes, 0}, t);
      }
}

// A vct switch of `vcs` virtual channels of kVcFlits flits each.
RouterConfig vct_switch(std::uint32_t vcs) {
  RouterConfig r;
  r.vcs = vcs;
  r.input = BufferShape::split(vcs, kVcFlits);
  return r;
}

// One SL whose messages are single packets of `flits` flits, and a small injection queue.
NicConfig small_nic(std::uint32_t flits) {
  NicConfig nic;
  nic.mtu_bytes = {flits * kFlitBytes};
  nic.injection_queue_bytes = kInjectionQueueFlits * kFlitBytes;
  return nic;
}

// Full load for kOfferCycles cycles, checked half-way, then a drain checked to the end.
void run_full_load_and_drain(const Setup& s, const VcScheme& scheme, std::uint32_t vcs, std::uint32_t flits) {
  INFO(flits << "-flit packets");
  const RouterConfig r = vct_switch(vcs);
  PacketSim sim(*s.fabric, s.paths, *s.routes, scheme, r, small_nic(flits), 7);
  sim.set_stall_limit(kStallLimit);
  offer_uniform(sim, s.n(), 1.0, flits, kOfferCycles, 3);
  sim.run_until(kOfferCycles / 2);
  sim.check_invariants();  // mid-run: queues, credits and packets add up
  CHECK(sim.packets_in_network() > 0);
  CHECK(sim.stats().credit_stalls > 0);    // packets waited for room downstream: back-pressure
  CHECK(sim.stats().app_queue_peak > 0);   // and messages waited at the NICs: the load is full
  sim.run_until(0);  // drain
  sim.check_invariants();
  CHECK_FALSE(sim.stats().stalled);
  CHECK(sim.messages_in_system() == 0);
  CHECK(sim.packets_in_network() == 0);
  std::uint32_t peak = 0;
  for (ChannelId c = 0; c < s.fabric->num_channels(); ++c) peak = std::max(peak, sim.stats().channel_peak[c]);
  CHECK(peak <= r.input.size);
}

// One routing of a row of the table: `auto` picks `kind` with `vcs` virtual channels and refuses
// one fewer; the run with `vcs` drains at full load with packets of 1 and of 4 flits.
void check_row(const std::string& topology, const std::string& routing, VcSchemeKind kind, std::uint32_t vcs) {
  INFO(routing << " on " << topology << " with " << vcs << " virtual channel(s)");
  const Setup s(topology, routing);
  const VcScheme scheme = choose_auto(s, vcs);
  VcScheme expected;
  expected.kind = kind;
  CHECK(scheme.name() == expected.name());
  if (vcs > 1) CHECK_THROWS_AS(choose_auto(s, vcs - 1), InputError);
  for (const std::uint32_t flits : {1u, 4u}) run_full_load_and_drain(s, scheme, vcs, flits);
}

// The control: `scheme` leaves a cycle in the routes' dependency graph, and the same full load
// (4-flit packets) really deadlocks: the engine stops with packets stuck, conserving them.
void check_deadlocks(const std::string& topology, const std::string& routing, const VcScheme& scheme) {
  INFO(routing << " on " << topology << " with the " << scheme.name() << " scheme of " << scheme.classes << " class(es)");
  const Setup s(topology, routing);
  REQUIRE_FALSE(dependency_cycle(*s.fabric, *s.routes, scheme).empty());
  PacketSim sim(*s.fabric, s.paths, *s.routes, scheme, vct_switch(scheme.classes), small_nic(4), 7);
  sim.set_stall_limit(kStallLimit);
  offer_uniform(sim, s.n(), 1.0, 4, kOfferCycles, 3);
  sim.run_until(0);
  sim.check_invariants();  // stuck, but nothing lost
  CHECK(sim.stats().stalled);
  CHECK(sim.packets_in_network() > 0);
}

VcScheme hop_classes(std::uint32_t classes) {
  VcScheme scheme;
  scheme.kind = VcSchemeKind::Hops;
  scheme.classes = classes;
  return scheme;
}

}  // namespace

TEST_CASE("packet drain: an 8x8 torus with dor and bfs on the dateline and ecmp on hop classes") {
  check_row("torus:dims=8x8", "dor", VcSchemeKind::Dateline, 2);
  check_row("torus:dims=8x8", "bfs", VcSchemeKind::Dateline, 2);
  check_row("torus:dims=8x8", "ecmp", VcSchemeKind::Hops, 8);
}

TEST_CASE("packet drain: an 8x8 mesh with dor on one virtual channel") {
  check_row("mesh:dims=8x8", "dor", VcSchemeKind::Single, 1);
}

TEST_CASE("packet drain: a 4-ary 3-tree with every up-down routing on one virtual channel") {
  for (const std::string routing : {"dmodk", "random-up", "bfs", "treevaliant"})
    check_row("fattree:k=4,n=3", routing, VcSchemeKind::Single, 1);
}

TEST_CASE("packet drain: a 4x4 torus of double trunks with dor on the dateline") {
  check_row("torus:dims=4x4,trunks=2", "dor", VcSchemeKind::Dateline, 2);
  // With one endpoint per router the doubled links never fill; with four they do.
  check_row("torus:dims=4x4,c=4,trunks=2", "dor", VcSchemeKind::Dateline, 2);
}

TEST_CASE("packet drain: a thin tree with dmodk on one virtual channel") {
  check_row("thintree:k=4,kp=2,n=3", "dmodk", VcSchemeKind::Single, 1);
}

TEST_CASE("packet drain: a 4x4 HyperX with hxdor and hxminadaptive on one virtual channel") {
  check_row("hyperx:S=4x4", "hxdor", VcSchemeKind::Single, 1);
  check_row("hyperx:S=4x4", "hxminadaptive", VcSchemeKind::Single, 1);
}

TEST_CASE("packet drain: a megafly with mfmin on one virtual channel") {
  check_row("megafly:leaves=4,spines=4,p=4,h=2,g=9", "mfmin", VcSchemeKind::Single, 1);
}

TEST_CASE("packet drain: a dragonfly with dfmin and dfvaliant on hop classes") {
  check_row("dragonfly:a=4,p=2,h=2", "dfmin", VcSchemeKind::Hops, 3);
  check_row("dragonfly:a=4,p=2,h=2", "dfvaliant", VcSchemeKind::Hops, 5);
}

TEST_CASE("packet drain: a slim fly with sfmin on hop classes") {
  check_row("slimfly:q=5", "sfmin", VcSchemeKind::Hops, 2);
}

TEST_CASE("packet drain: a jellyfish with bfs on hop classes") {
  check_row("jellyfish:N=32,k=8,r=6", "bfs", VcSchemeKind::Hops, 3);
}

TEST_CASE("packet drain: with one virtual channel fewer the same load deadlocks the 8x8 torus and the slim fly") {
  check_deadlocks("torus:dims=8x8", "dor", VcScheme{});  // one class: no dateline
  check_deadlocks("slimfly:q=5", "sfmin", hop_classes(1));  // both router hops in one class
}
