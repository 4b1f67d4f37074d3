#pragma once
// Topology 'graph': a network read from a file. The interflow text format (.ifg, see
// manual/graph-format.md) names endpoints and switches itself; the igraph formats (edge list,
// GraphML, GML, Pajek) give an undirected multigraph whose vertices become endpoints and switches
// by an EndpointRule.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/topology.hpp"

namespace interflow::topo {

enum class GraphFormat { Interflow, EdgeList, GraphML, Gml, Pajek };

// How the vertices of an igraph-format graph become endpoints and switches.
enum class EndpointRule {
  Auto,       // Attribute for GraphML/GML, All for edge lists and Pajek
  Attribute,  // vertex attribute `kind`: endpoint | switch | router (a switch hosting one endpoint)
  All,        // every vertex is a router hosting one endpoint (a direct network)
  Leaves,     // vertices of degree 1 are endpoints, the others switches
  PerSwitch,  // every vertex is a switch with `c` endpoints attached on new links
};

struct GraphFileOptions {
  std::string file;
  GraphFormat format = GraphFormat::Interflow;
  EndpointRule endpoints = EndpointRule::Auto;
  std::uint32_t per_switch = 1;  // `c`, for EndpointRule::PerSwitch
  bool forward = false;          // endpoints may forward traffic (server-centric graphs)
};

const char* format_name(GraphFormat format);
// `format` is a format name or "auto" (then the file's extension decides). InputError if neither fits.
GraphFormat resolve_graph_format(const std::string& file, const std::string& format);

// A network keeps capacities and latencies as floats, so a value must be finite and fit one: a
// capacity in 1.2e-38..3.4e38 Gbit/s (smaller would round to 0), a latency in 0..3.4e38 ns.
inline bool capacity_fits(double gbps) {
  return std::isfinite(gbps) && gbps >= std::numeric_limits<float>::min() && gbps <= std::numeric_limits<float>::max();
}
inline bool latency_fits(double ns) { return std::isfinite(ns) && ns >= 0 && ns <= std::numeric_limits<float>::max(); }

// Readers; every problem with the file is an InputError naming it.
Network read_interflow_graph(const GraphFileOptions& options, const LinkDefaults& defaults);
Network read_igraph_graph(const GraphFileOptions& options, const LinkDefaults& defaults);

class GraphFileTopology : public Topology {
 public:
  GraphFileTopology(GraphFileOptions options, const LinkDefaults& defaults);
  const GraphFileOptions& options() const { return options_; }
  std::string default_routing() const override { return "bfs"; }

 private:
  GraphFileOptions options_;
};

}  // namespace interflow::topo
