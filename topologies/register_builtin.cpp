#include "topologies/registry.hpp"

namespace interflow::topo {

void register_builtin(TopologyRegistry& registry) {
  register_torus(registry);
}

}  // namespace interflow::topo
