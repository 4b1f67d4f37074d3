#include "engine/hybrid/zoom_fabric.hpp"

#include <algorithm>
#include <stdexcept>

namespace interflow::hybrid {

ZoomNetwork::ZoomNetwork(const Network& net, const RegionMap& map, const LinkDefaults& local)
    : net_(net), map_(map) {
  NetworkBuilder b(local);
  vertex_.assign(net.num_vertices(), kNone);
  inner_.assign(net.num_links(), kNone);
  boundary_.assign(net.num_links(), kNone);
  hosted_.assign(net.num_endpoints(), kNone);
  std::vector<VertexId> boundary_vertex;  // per boundary endpoint
  add_vertices(b, boundary_vertex);
  // Cables with the full network's ports at the zoomed routers (local ports after them), so that
  // each router sees its inputs and outputs in the same order as in the full network.
  std::vector<Pending> cables;
  std::vector<std::uint32_t> hosted_count(net.num_vertices(), 0);
  for (VertexId r : routers_)
    for (LinkId l = net.out_begin(r); l < net.out_end(r); ++l) {
      if (!net.up(l)) continue;
      const VertexId t = net.target(l);
      const LinkId back = net.reverse(l);
      if (map.region_of[t] != kNone) {  // inner: added once, from its lower link id
        if (l < back) cables.push_back({l, vertex_[r], vertex_[t], l - net.out_begin(r), back - net.out_begin(t)});
      } else {  // boundary: from its endpoint vertex (port 0) into the router
        cables.push_back({back, boundary_vertex[boundary_[l]], vertex_[r], 0, l - net.out_begin(r)});
      }
    }
  for (EndpointId e = 0; e < net.num_endpoints(); ++e)
    if (hosted_[e] != kNone) {
      const VertexId r = net.endpoint_vertex(e);
      cables.push_back({kNone, boundary_vertex[hosted_[e]], vertex_[r], 0, net.degree(r) + hosted_count[r]++});
    }
  for (const Pending& c : cables) {
    const bool is_local = c.from_u == kNone;
    b.add_cable(c.u, c.v, is_local ? local.endpoint_gbps : net.capacity_gbps(c.from_u),
                is_local ? local.endpoint_latency_ns : net.latency_ns(c.from_u), c.port_u, c.port_v);
  }
  zoom_ = b.build();
  map_links(cables);
}

// Vertices in the full network's order: a zoomed router becomes a switch, and an outside vertex one
// boundary endpoint per cable into a region, in its port order (so inputs keep their order at every
// router); the endpoints hosted by zoomed routers come last, as the packet engine's local ports do.
void ZoomNetwork::add_vertices(NetworkBuilder& b, std::vector<VertexId>& boundary_vertex) {
  for (VertexId v = 0; v < net_.num_vertices(); ++v) {
    if (map_.region_of[v] != kNone) {
      vertex_[v] = b.add_switch();
      routers_.push_back(v);
      full_vertex_.resize(vertex_[v] + 1, kNone);
      full_vertex_[vertex_[v]] = v;
      continue;
    }
    for (LinkId l = net_.out_begin(v); l < net_.out_end(v); ++l) {
      if (!net_.up(l) || map_.region_of[net_.target(l)] == kNone) continue;
      VertexId x = 0;
      const EndpointId id = b.add_endpoint_vertex(&x);
      boundary_[l] = boundary_[net_.reverse(l)] = id;
      boundary_vertex.push_back(x);
      ingress_of_.push_back(l);
      endpoint_of_.push_back(kNone);
    }
  }
  for (EndpointId e = 0; e < net_.num_endpoints(); ++e) {
    const VertexId v = net_.endpoint_vertex(e);
    if (net_.kind(v) != VertexKind::Switch || map_.region_of[v] == kNone) continue;
    VertexId x = 0;
    hosted_[e] = b.add_endpoint_vertex(&x);
    boundary_vertex.push_back(x);
    ingress_of_.push_back(kNone);
    endpoint_of_.push_back(e);
  }
}

// Each direction at its own rate, and the inner links' map: a vertex's links are ordered by port, so
// a cable's link at a vertex is at the rank of its port among that vertex's ports.
void ZoomNetwork::map_links(const std::vector<Pending>& cables) {
  std::vector<std::vector<std::uint32_t>> ports(zoom_.num_vertices());
  for (const Pending& c : cables) {
    ports[c.u].push_back(c.port_u);
    ports[c.v].push_back(c.port_v);
  }
  for (auto& p : ports) std::sort(p.begin(), p.end());
  const auto at = [&](VertexId x, std::uint32_t port) {
    return zoom_.out_begin(x) +
           static_cast<LinkId>(std::lower_bound(ports[x].begin(), ports[x].end(), port) - ports[x].begin());
  };
  for (const Pending& c : cables) {
    const LinkId there = at(c.u, c.port_u), back = at(c.v, c.port_v);
    if (zoom_.target(there) != c.v || zoom_.target(back) != c.u)
      throw std::logic_error("ZoomNetwork: a cable is not at the port it was given");
    if (c.from_u == kNone) continue;
    zoom_.set_capacity(there, net_.capacity_gbps(c.from_u));
    zoom_.set_capacity(back, net_.capacity_gbps(net_.reverse(c.from_u)));
    if (boundary_[c.from_u] == kNone) {
      inner_[c.from_u] = there;
      inner_[net_.reverse(c.from_u)] = back;
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
