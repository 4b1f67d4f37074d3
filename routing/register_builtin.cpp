#include "routing/registry.hpp"

namespace interflow::routing {

void register_builtin(RoutingRegistry& registry) {
  register_dor(registry);
}

}  // namespace interflow::routing
