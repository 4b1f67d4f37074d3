#include "routing/registry.hpp"

namespace interflow::routing {

void register_builtin(RoutingRegistry& registry) {
  register_dor(registry);
  register_bfs(registry);
  register_tree_routing(registry);
}

}  // namespace interflow::routing
