#include "topologies/registry.hpp"

namespace interflow::topo {

void register_builtin(TopologyRegistry& registry) {
  register_torus(registry);
  register_graph_file(registry);
  register_trees(registry);
}

}  // namespace interflow::topo
