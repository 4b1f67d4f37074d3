#pragma once
// Topology 'graph': a network read from a file. The interflow text format (.ifg, see
// manual/graph-format.md) names endpoints and switches itself; the igraph formats (edge list,
// GraphML, GML, Pajek) give an undirected multigraph whose vertices become endpoints and switches
// by an EndpointRule.
#include <cstdint>
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
