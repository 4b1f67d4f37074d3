// Topology 'graph': parameters, format choice by extension, and dispatch to the readers
// (graph_file_interflow.cpp for .ifg, graph_file_igraph.cpp for the igraph formats).
#include "topologies/graph_file.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "core/io.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

std::string lower_extension(const std::string& file) {
  const std::size_t slash = file.find_last_of('/');
  const std::size_t dot = file.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = file.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return ext;
}

EndpointRule rule_from_name(const std::string& name) {
  if (name == "attribute") return EndpointRule::Attribute;
  if (name == "all") return EndpointRule::All;
  if (name == "leaves") return EndpointRule::Leaves;
  if (name == "per_switch") return EndpointRule::PerSwitch;
  return EndpointRule::Auto;
}

}  // namespace

const char* format_name(GraphFormat format) {
  switch (format) {
    case GraphFormat::Interflow:
      return "interflow";
    case GraphFormat::EdgeList:
      return "edgelist";
    case GraphFormat::GraphML:
      return "graphml";
    case GraphFormat::Gml:
      return "gml";
    case GraphFormat::Pajek:
      return "pajek";
  }
  return "?";
}

GraphFormat resolve_graph_format(const std::string& file, const std::string& format) {
  for (GraphFormat f :
       {GraphFormat::Interflow, GraphFormat::EdgeList, GraphFormat::GraphML, GraphFormat::Gml, GraphFormat::Pajek})
    if (format == format_name(f)) return f;
  if (format != "auto")
    throw InputError("graph format '" + format + "': expected auto, interflow, edgelist, graphml, gml or pajek");
  check_readable(file, "graph file");  // a missing file is named as such, whatever its extension
  const std::string ext = lower_extension(file);
  if (ext == "ifg" || ext == "txt") return GraphFormat::Interflow;
  if (ext == "graphml") return GraphFormat::GraphML;
  if (ext == "gml") return GraphFormat::Gml;
  if (ext == "net") return GraphFormat::Pajek;
  if (ext == "edges" || ext == "el") return GraphFormat::EdgeList;
  throw InputError(file + ": cannot tell the graph format from the extension '" + ext +
                   "'; expected .ifg/.txt (interflow), .graphml, .gml, .net (pajek) or .edges/.el (edge list), "
                   "or give format=...");
}

GraphFileTopology::GraphFileTopology(GraphFileOptions options, const LinkDefaults& defaults)
    : Topology("graph"), options_(std::move(options)) {
  net_ = options_.format == GraphFormat::Interflow ? read_interflow_graph(options_, defaults)
                                                   : read_igraph_graph(options_, defaults);
}

void register_graph_file(TopologyRegistry& registry) {
  registry.add(
      {"graph",
       "a network read from a file: interflow text (.ifg), edge list, GraphML, GML or Pajek",
       {
           string_param("file", "", "path of the graph file"),
           choice_param("format", "auto", {"auto", "interflow", "edgelist", "graphml", "gml", "pajek"},
                        "file format; auto = by extension: .ifg/.txt interflow, .graphml, .gml, .net pajek, "
                        ".edges/.el edge list"),
           choice_param("endpoints", "auto", {"auto", "attribute", "all", "leaves", "per_switch"},
                        "which vertices of an igraph-format graph are endpoints: attribute = vertex attribute "
                        "'kind' (endpoint|switch|router); all = every vertex is a router hosting one endpoint "
                        "(direct network); leaves = degree-1 vertices; per_switch = c new endpoints on links to "
                        "every vertex; auto = attribute for GraphML/GML, all for edge list/Pajek. Not used for "
                        ".ifg files, which name their endpoints"),
           int_param("c", "1", "endpoints attached to every vertex with endpoints=per_switch", 1, 1 << 16),
           bool_param("forward", "false",
                      "endpoints may forward traffic that is not theirs (server-centric graphs); an .ifg file "
                      "can also say 'forward yes'"),
       },
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         GraphFileOptions o;
         o.file = p.get_string("file");
         if (o.file.empty()) p.fail("file", "expected the path of a graph file, got an empty string");
         o.format = resolve_graph_format(o.file, p.get_string("format"));
         o.endpoints = rule_from_name(p.get_string("endpoints"));
         o.per_switch = static_cast<std::uint32_t>(p.get_int("c"));
         o.forward = p.get_bool("forward");
         if (o.format == GraphFormat::Interflow && o.endpoints != EndpointRule::Auto)
           p.fail("endpoints", "an interflow (.ifg) file names its endpoints itself; leave endpoints=auto");
         if (p.given("c") && o.endpoints != EndpointRule::PerSwitch)
           p.fail("c", "c is only used with endpoints=per_switch");
         return std::make_unique<GraphFileTopology>(std::move(o), defaults);
       },
       "Every edge of the file is one bidirectional cable (edge direction is ignored); parallel edges are "
       "parallel cables and self-loops are rejected. The out-links of a vertex (its ports) are in the order "
       "its edges appear in the file, so routings that break ties by the lowest port prefer the earliest "
       "edge.\n\n"
       "Interflow text format (.ifg), one statement per line, '#' starts a comment:\n"
       "  endpoints <N>                        endpoints e0..e{N-1} (required, once, N >= 1)\n"
       "  switches <M>                         switches s0..s{M-1} (required, once, M >= 0)\n"
       "  link <a> <b> [gbps=<x>] [ns=<y>]     one cable between two named vertices\n"
       "  host <eI> <sJ>                       endpoint eI is the switch sJ itself (direct network)\n"
       "  forward yes|no                       endpoints forward traffic (server-centric)\n"
       "Both headers come before the first link or host line. Every endpoint has at least one link or "
       "exactly one host line, never both; a switch hosts at most one endpoint. Capacity x > 0 in Gbit/s "
       "and latency y >= 0 in ns default to the --endpoint-*/--switch-* values of the link's class. "
       "Endpoint ids are e0..e{N-1}; vertices are the switches s0..s{M-1} (ids 0..M-1) followed by the "
       "linked (not hosted) endpoints in order. See manual/graph-format.md.\n\n"
       "igraph formats (read with igraph 0.10): edge list ('u v' per line, vertices from 0), GraphML, GML "
       "and Pajek. Vertex ids keep the file's order. In GraphML and GML the edge attributes capacity_gbps "
       "and latency_ns set a cable's capacity and latency (missing: the defaults of its link class); the "
       "vertex attribute kind = endpoint | switch | router says what a vertex is, 'router' being a switch "
       "that hosts one endpoint (as `interflow topo --export` writes direct networks). Endpoints are "
       "numbered in vertex order; with per_switch, endpoint e hangs off vertex e / c.",
       "graph:file=tests/fixtures/small.ifg"});
}

}  // namespace interflow::topo
