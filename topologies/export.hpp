#pragma once
// Writes a network so users can inspect it with their own tools. GraphML carries the vertex kind
// ("endpoint"/"switch") and each cable's capacity and latency, and reads back with the graph
// loader (topology 'graph'); the edge list is "u v" per cable, vertices numbered from 0.
#include <ostream>

#include "core/network.hpp"

namespace interflow::topo {

void write_graphml(const Network& net, std::ostream& out);
void write_edge_list(const Network& net, std::ostream& out);

}  // namespace interflow::topo
