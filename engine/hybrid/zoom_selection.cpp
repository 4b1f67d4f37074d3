#include "engine/hybrid/zoom_selection.hpp"

#include <algorithm>
#include <deque>

namespace interflow::hybrid {

void register_zoom_selections(ZoomSelectionRegistry& registry) {
  register_zoom_ids(registry);
  register_zoom_tree_level(registry);
  register_zoom_group(registry);
  register_zoom_hottest(registry);
  register_zoom_congestion_tree(registry);
  register_zoom_class_paths(registry);
  register_zoom_all(registry);
}

std::vector<double> routed_bytes(const ZoomContext& c) {
  std::vector<double> bytes(c.net.num_links(), 0.0);
  for (FlowId f = 0; f < c.paths.num_flows(); ++f) {
    double total = 0;
    for (std::uint32_t v = c.paths.first_var(f); v < c.paths.end_var(f); ++v) total += c.paths.split(v);
    if (!(total > 0)) continue;
    for (std::uint32_t v = c.paths.first_var(f); v < c.paths.end_var(f); ++v)
      for (LinkId l : c.paths.links(v)) bytes[l] += c.messages.bytes[f] * c.paths.split(v) / total;
  }
  return bytes;
}

std::vector<double> link_heat(const ZoomContext& c) {
  std::vector<double> heat = routed_bytes(c);
  for (LinkId l = 0; l < c.net.num_links(); ++l) heat[l] /= std::max(1e-30, c.net.capacity_gbps(l));
  return heat;
}

std::vector<std::uint32_t> endpoint_distance(const Network& net) {
  std::vector<std::uint32_t> d(net.num_vertices(), kNone);
  std::deque<VertexId> queue;
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
    const VertexId v = net.endpoint_vertex(e);
    if (d[v] == kNone) {
      d[v] = 0;
      queue.push_back(v);
    }
  }
  while (!queue.empty()) {
    const VertexId v = queue.front();
    queue.pop_front();
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
      if (net.up(l) && d[net.target(l)] == kNone) {
        d[net.target(l)] = d[v] + 1;
        queue.push_back(net.target(l));
      }
  }
  return d;
}

}  // namespace interflow::hybrid
