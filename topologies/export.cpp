#include "topologies/export.hpp"

namespace interflow::topo {

namespace {

// Calls fn(u, v, link) once per cable: from the lower vertex id (parallel cables each once).
template <class Fn>
void for_each_cable(const Network& net, Fn fn) {
  for (VertexId u = 0; u < net.num_vertices(); ++u)
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l)
      if (net.target(l) > u) fn(u, net.target(l), l);
}

}  // namespace

void write_graphml(const Network& net, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
      << "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"
      << "  <key id=\"gbps\" for=\"edge\" attr.name=\"capacity_gbps\" attr.type=\"double\"/>\n"
      << "  <key id=\"ns\" for=\"edge\" attr.name=\"latency_ns\" attr.type=\"double\"/>\n"
      << "  <graph id=\"interflow\" edgedefault=\"undirected\">\n";
  // A direct network hosts endpoints on routers: mark those "router" so the loader can rebuild it.
  std::vector<bool> hosts(net.num_vertices(), false);
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) hosts[net.endpoint_vertex(e)] = true;
  for (VertexId v = 0; v < net.num_vertices(); ++v) {
    const char* kind = net.kind(v) == VertexKind::Endpoint ? "endpoint" : hosts[v] ? "router" : "switch";
    out << "    <node id=\"n" << v << "\"><data key=\"kind\">" << kind << "</data></node>\n";
  }
  for_each_cable(net, [&](VertexId u, VertexId v, LinkId l) {
    out << "    <edge source=\"n" << u << "\" target=\"n" << v << "\"><data key=\"gbps\">" << net.capacity_gbps(l)
        << "</data><data key=\"ns\">" << net.latency_ns(l) << "</data></edge>\n";
  });
  out << "  </graph>\n</graphml>\n";
}

void write_edge_list(const Network& net, std::ostream& out) {
  for_each_cable(net, [&](VertexId u, VertexId v, LinkId) { out << u << ' ' << v << '\n'; });
}

}  // namespace interflow::topo
