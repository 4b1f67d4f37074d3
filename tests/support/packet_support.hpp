#pragma once
// Helpers shared by the packet engine's tests: a network routed for the packet engine, every ordered
// endpoint pair as it indexes them.
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "engine/packet/fabric.hpp"
#include "engine/packet/packet_sim.hpp"
#include "tests/support/test_support.hpp"

namespace interflow::test {

// Every ordered endpoint pair, self pairs included (unrouted): flow s * n + d.
inline FlowSet every_pair(std::uint32_t n) {
  FlowSet flows;
  for (EndpointId s = 0; s < n; ++s)
    for (EndpointId d = 0; d < n; ++d) flows.add(s, d);
  return flows;
}

// A topology and routing through the registries, every pair routed, and its channels.
struct PacketFixture {
  std::unique_ptr<Topology> topology;
  std::unique_ptr<Routing> routing;
  PathTable paths;
  std::unique_ptr<packet::Fabric> fabric;
  std::unique_ptr<packet::ChannelRoutes> routes;

  PacketFixture(const std::string& topo, const std::string& route) {
    topology = build_topology(topo);
    routing = build_routing(route, *topology);
    paths = test::route(*routing, topology->network(), every_pair(topology->network().num_endpoints()));
    fabric = std::make_unique<packet::Fabric>(topology->network(), packet::ClockConfig{});
    routes = std::make_unique<packet::ChannelRoutes>(*fabric, paths);
  }
  std::uint32_t n() const { return fabric->num_nics(); }

  struct Lone {
    packet::Cycle latency;
    std::uint64_t central_crossings;
  };
  // One message alone in the network, in packets of `mtu` bytes: its latency and its packets that
  // crossed a central buffer (opa); the run conserves and drains.
  Lone lone(const packet::RouterConfig& r, const packet::VcScheme& scheme, EndpointId src, EndpointId dst,
            std::uint64_t bytes, std::uint32_t mtu) const {
    packet::NicConfig nic;
    nic.mtu_bytes = {mtu};
    packet::PacketSim sim(*fabric, paths, *routes, scheme, r, nic, 1);
    packet::Cycle delivered = 0;
    sim.on_delivery = [&](std::uint64_t, packet::Cycle t) { delivered = t; };
    sim.send({src, dst, bytes, 0}, 10);
    sim.run_until(0);
    sim.check_invariants();
    CHECK(sim.messages_in_system() == 0);
    return {delivered - 10, sim.stats().central_crossings};
  }

  // Ring tags for a 1-D torus of k routers numbered around the ring: dimension 0, and the link
  // between router k-1 and router 0 (either way) wraps.
  packet::VcScheme ring_dateline(std::uint32_t k) const {
    packet::VcScheme scheme;
    scheme.kind = packet::VcSchemeKind::Dateline;
    scheme.classes = 2;
    scheme.dimension.assign(fabric->num_channels(), kNone);
    scheme.wraps.assign(fabric->num_channels(), 0);
    const Network& net = topology->network();
    for (packet::ChannelId c = 0; c < fabric->num_channels(); ++c) {
      const LinkId l = fabric->link(c);
      if (l == kNone) continue;
      scheme.dimension[c] = 0;
      const VertexId a = net.source(l), b = net.target(l);
      scheme.wraps[c] = (a == k - 1 && b == 0) || (a == 0 && b == k - 1);
    }
    return scheme;
  }

  // The closed form of a lone one-packet message's latency in cycles: the NIC delay, every channel's
  // latency, the router pipeline and crossbar at every router crossed, and the serialization of the
  // packet's other flits.
  packet::Cycle zero_load(EndpointId src, EndpointId dst, std::uint32_t flits, const packet::RouterConfig& r) const {
    std::vector<packet::ChannelId> route;
    fabric->route(paths, paths.first_var(src * n() + dst), src, dst, route);
    packet::Cycle t = r.nic_delay + (flits - 1);
    for (const packet::ChannelId c : route) t += fabric->latency(c);
    return t + (route.size() - 1) * (r.pipeline() + r.xbar_delay);
  }
};

// Two service levels of random uniform traffic: each NIC, each cycle of [0, cycles), sends with
// probability `p` a message of bytes0 (SL 0) or bytes1 (SL 1), either SL with even odds.
inline void offer_two_sls(packet::PacketSim& sim, std::uint32_t n, packet::Cycle cycles, double p,
                          std::uint64_t bytes0, std::uint64_t bytes1, std::uint64_t seed) {
  Rng rng(seed);
  for (packet::Cycle t = 0; t < cycles; ++t)
    for (EndpointId src = 0; src < n; ++src)
      if (rng.uniform() < p) {
        const auto dst = static_cast<EndpointId>((src + 1 + rng.below(n - 1)) % n);
        const std::uint32_t sl = rng.uniform() < 0.5 ? 0 : 1;
        sim.send({src, dst, sl == 0 ? bytes0 : bytes1, sl}, t);
      }
}

// Runs to `busy` (packets must still be in the network then), then drains: conservation checked at
// both points, no deadlock, nothing left.
inline void run_and_drain(packet::PacketSim& sim, packet::Cycle busy) {
  sim.run_until(busy);
  sim.check_invariants();
  CHECK(sim.packets_in_network() > 0);
  sim.run_until(0);
  sim.check_invariants();
  CHECK_FALSE(sim.stats().stalled);
  CHECK(sim.messages_in_system() == 0);
}

}  // namespace interflow::test
