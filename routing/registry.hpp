#pragma once
// The routing registry: a routing is built for a given topology (topology-specific routings check
// the family and read its metadata; generic ones only use the network).
#include "core/registry.hpp"
#include "core/routing.hpp"
#include "core/topology.hpp"

namespace interflow::routing {

using RoutingRegistry = Registry<Routing, const Topology&>;

// Registers every built-in routing. Adding a routing: one file plus one line in register_builtin.cpp.
void register_builtin(RoutingRegistry& registry);

void register_dor(RoutingRegistry& registry);
void register_bfs(RoutingRegistry& registry);
void register_ecmp(RoutingRegistry& registry);
// ksp and allpath (routing/path_enumeration.cpp).
void register_path_enumeration(RoutingRegistry& registry);
void register_tree_routing(RoutingRegistry& registry);
void register_tree_multipath(RoutingRegistry& registry);
// treevaliant (routing/tree_valiant.cpp).
void register_tree_valiant(RoutingRegistry& registry);
void register_xgft_routing(RoutingRegistry& registry);
void register_hyperx_routing(RoutingRegistry& registry);
void register_bcube_routing(RoutingRegistry& registry);
// dcell, ficonn and gdcproxy (routing/recursive_dcn_routing.cpp).
void register_recursive_dcn_routing(RoutingRegistry& registry);
void register_megafly_routing(RoutingRegistry& registry);
void register_slimfly_routing(RoutingRegistry& registry);
void register_dragonfly_routing(RoutingRegistry& registry);
void register_hcn_routing(RoutingRegistry& registry);
void register_dpillar_routing(RoutingRegistry& registry);

// Casts the topology to the family a routing needs, or throws an InputError naming both.
template <class Family>
const Family& require_family(const Topology& topology, const std::string& routing, const std::string& families) {
  if (const auto* t = dynamic_cast<const Family*>(&topology)) return *t;
  throw InputError("routing '" + routing + "' needs a " + families + " topology, not '" + topology.family() +
                   "'; generic routings such as 'bfs' work on any topology");
}

}  // namespace interflow::routing
