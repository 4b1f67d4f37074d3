#pragma once
// Helpers shared by the packet engine's tests: a network routed for the packet engine, every ordered
// endpoint pair as it indexes them.
#include <memory>
#include <string>

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

}  // namespace interflow::test
