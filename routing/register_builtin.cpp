#include "routing/registry.hpp"

namespace interflow::routing {

void register_builtin(RoutingRegistry& registry) {
  register_dor(registry);
  register_bfs(registry);
  register_ecmp(registry);
  register_path_enumeration(registry);
  register_tree_routing(registry);
  register_tree_multipath(registry);
  register_tree_valiant(registry);
  register_xgft_routing(registry);
  register_hyperx_routing(registry);
  register_bcube_routing(registry);
  register_recursive_dcn_routing(registry);
  register_megafly_routing(registry);
  register_slimfly_routing(registry);
  register_dragonfly_routing(registry);
  register_hcn_routing(registry);
  register_dpillar_routing(registry);
}

}  // namespace interflow::routing
