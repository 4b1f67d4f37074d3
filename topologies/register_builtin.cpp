#include "topologies/registry.hpp"

namespace interflow::topo {

void register_builtin(TopologyRegistry& registry) {
  register_torus(registry);
  register_graph_file(registry);
  register_trees(registry);
  register_jellyfish(registry);
  register_xgft(registry);
  register_hyperx(registry);
  register_bcube(registry);
  register_recursive_dcns(registry);
  register_dragonfly(registry);
  register_megafly(registry);
  register_slimfly(registry);
  register_hcn(registry);
  register_dpillar(registry);
}

}  // namespace interflow::topo
