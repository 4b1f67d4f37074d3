#pragma once
// Routing on trunks (topologies/trunks.hpp: T parallel cables between adjacent switches, used
// independently). The rule, the same for every routing: the routing computes its paths on the trunked
// topology's base (one cable per trunk), exactly as with trunks = 1, with its own link arithmetic; then
// each path of split s that crosses a trunk becomes T paths of split s / T, path j taking cable j of
// every trunk it crosses. A path crossing no trunk (two endpoints of one switch) stays one path.
//
// Why spread evenly rather than pin a flow to one cable by a hash: in Cano-Cano et al. 2024 (section
// 5.2) the ports of a trunk "work independently, i.e. the ports transmit different packets traveling in
// the same torus direction", so the packets of one flow use all T cables. At flow level the fluid limit
// of that is the even split: a trunk of T cables then behaves exactly as one link of T times the
// capacity, for any traffic (the weighted max-min problem splits into T identical copies, one per cable
// index, whose symmetric solution is the trunks = 1 one scaled by T), and a lone flow gets T cables' rate.
// A hash would pin each flow to one cable (1/T of its trunk for a lone flow) and make throughput depend on
// hash collisions. The packet engine draws one path of a flow per message by weight, so the messages of a
// flow use the T cables independently and evenly, each keeping its cable index along its path.
//
// Failures are per cable: a base link is up while one cable of its trunk works, and path j then takes
// the (j mod u)-th working cable of a trunk with u working cables. Cost: up to T times the base
// routing's path memory (checked against --max-path-memory).
#include <memory>

#include "routing/registry.hpp"

namespace interflow::routing {

// The routing `spec` for `topology`: the registry's own product, or, on a trunked topology, that routing
// built for the base and spread over the trunks as above. Every routing is made through this.
std::unique_ptr<Routing> create_routing(const RoutingRegistry& registry, const Spec& spec, const Topology& topology);

}  // namespace interflow::routing
