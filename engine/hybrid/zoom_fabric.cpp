#include "engine/hybrid/zoom_fabric.hpp"

#include <stdexcept>

namespace interflow::hybrid {

ZoomNetwork::ZoomNetwork(const Network& net, const RegionMap& map, const LinkDefaults& local)
    : net_(net), map_(map) {
  NetworkBuilder b(local);
  vertex_.assign(net.num_vertices(), kNone);
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (map.region_of[v] != kNone) {
      vertex_[v] = b.add_switch();
      full_vertex_.push_back(v);
    }
  inner_.assign(net.num_links(), kNone);
  boundary_.assign(net.num_links(), kNone);
  hosted_.assign(net.num_endpoints(), kNone);
  // Cables in ascending order of their lower link id; ports numbered in the order cables reach a vertex.
  std::vector<std::uint32_t> ports;
  struct Pending {
    LinkId from_u;  // the full link u -> v
    VertexId u, v;
    std::uint32_t port_u, port_v;
  };
  std::vector<Pending> cables;
  const auto add = [&](VertexId u, VertexId v, double gbps, double ns, LinkId full) {
    if (ports.size() < b.num_vertices()) ports.resize(b.num_vertices(), 0);
    cables.push_back({full, u, v, ports[u]++, ports[v]++});
    b.add_cable(u, v, gbps, ns, cables.back().port_u, cables.back().port_v);
  };
  for (LinkId l = 0; l < net.num_links(); ++l) {
    const LinkId back = net.reverse(l);
    if (back < l || !net.up(l)) continue;
    const std::uint32_t from = map.region_of[net.source(l)], to = map.region_of[net.target(l)];
    if (from == kNone && to == kNone) continue;
    if (from != kNone && to != kNone) {
      add(vertex_[net.source(l)], vertex_[net.target(l)], net.capacity_gbps(l), net.latency_ns(l), l);
      continue;
    }
    // A boundary cable: a new endpoint vertex on the outside end.
    const LinkId in = to != kNone ? l : back;  // the direction into the region
    VertexId e = 0;
    const EndpointId id = b.add_endpoint_vertex(&e);
    boundary_[in] = boundary_[net.reverse(in)] = id;
    ingress_of_.push_back(in);
    endpoint_of_.push_back(kNone);
    add(e, vertex_[net.target(in)], net.capacity_gbps(in), net.latency_ns(in), in);
  }
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
    const VertexId v = net.endpoint_vertex(e);
    if (net.kind(v) != VertexKind::Switch || map.region_of[v] == kNone) continue;
    VertexId x = 0;
    hosted_[e] = b.add_endpoint_vertex(&x);
    ingress_of_.push_back(kNone);
    endpoint_of_.push_back(e);
    add(x, vertex_[v], local.endpoint_gbps, local.endpoint_latency_ns, kNone);
  }
  zoom_ = b.build();
  // Each direction at its own rate, and the inner links' map.
  for (const Pending& c : cables) {
    const LinkId there = zoom_.out_begin(c.u) + c.port_u, back = zoom_.out_begin(c.v) + c.port_v;
    if (zoom_.target(there) != c.v || zoom_.target(back) != c.u)
      throw std::logic_error("ZoomNetwork: a cable is not at the port it was given");
    if (c.from_u == kNone) continue;
    zoom_.set_capacity(there, net.capacity_gbps(c.from_u));
    zoom_.set_capacity(back, net.capacity_gbps(net.reverse(c.from_u)));
    if (boundary_[c.from_u] == kNone) {
      inner_[c.from_u] = there;
      inner_[net.reverse(c.from_u)] = back;
    }
  }
}

void ZoomNetwork::segment(const packet::Fabric& fabric, std::span<const LinkId> route, const Crossing& c,
                          EndpointId src, EndpointId dst, std::vector<packet::ChannelId>& out) const {
  out.clear();
  if (route.empty()) {
    out.push_back(fabric.injection(hosted_[src]));
    out.push_back(fabric.ejection(hosted_[dst]));
    return;
  }
  std::uint32_t i = c.first;
  if (map_.region_of[net_.source(route[i])] != c.region) {
    out.push_back(fabric.injection(boundary_[route[i]]));
    ++i;
  } else {
    out.push_back(fabric.injection(hosted_[src]));
  }
  for (; i <= c.last; ++i) {
    const LinkId l = route[i];
    out.push_back(map_.region_of[net_.target(l)] == c.region ? fabric.channel_of(inner_[l])
                                                              : fabric.ejection(boundary_[l]));
  }
  if (map_.region_of[net_.target(route[c.last])] == c.region) out.push_back(fabric.ejection(hosted_[dst]));
  for (packet::ChannelId ch : out)
    if (ch == kNone) throw std::logic_error("ZoomNetwork::segment: a crossing's link is not in its region");
}

}  // namespace interflow::hybrid
