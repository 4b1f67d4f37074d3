#pragma once
// The topology registry: every family registers a name, a summary, its parameters and a factory
// that builds a Topology with the user's link defaults.
#include "core/network.hpp"
#include "core/registry.hpp"
#include "core/topology.hpp"

namespace interflow::topo {

using TopologyRegistry = Registry<Topology, const LinkDefaults&>;

// Registers every built-in family. Adding a family: one file plus one line here (register_builtin.cpp).
void register_builtin(TopologyRegistry& registry);

// One function per family file.
void register_torus(TopologyRegistry& registry);
void register_graph_file(TopologyRegistry& registry);
void register_trees(TopologyRegistry& registry);
void register_jellyfish(TopologyRegistry& registry);
void register_xgft(TopologyRegistry& registry);
void register_hyperx(TopologyRegistry& registry);
void register_bcube(TopologyRegistry& registry);
// dcell, ficonn and gdcficonn (topologies/recursive_dcn.cpp).
void register_recursive_dcns(TopologyRegistry& registry);
void register_dragonfly(TopologyRegistry& registry);
void register_megafly(TopologyRegistry& registry);
void register_slimfly(TopologyRegistry& registry);
void register_hcn(TopologyRegistry& registry);
void register_dpillar(TopologyRegistry& registry);

}  // namespace interflow::topo
