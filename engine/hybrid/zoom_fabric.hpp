#pragma once
// The packet level of a hybrid run (manual/hybrid.md "The boundary"): one network holding every
// zoomed router, the links between them, and a boundary endpoint for each way into a region.
//
// Boundary endpoints. Every cable with one end in a region and the other outside (a flow-level
// switch or an endpoint of an indirect network) becomes a boundary endpoint attached to its zoomed
// router by a cable of the same rate and latency: its injection channel stands for the ingress link
// and its ejection channel for the egress link. An endpoint hosted by a zoomed router (a direct
// network such as a torus) becomes a boundary endpoint too, attached by a cable at the endpoint rate
// and latency: the local port the packet engine gives such an endpoint (engine/packet/fabric.hpp).
// Packets therefore enter a region exactly where the full network's packets would and leave it onto
// the egress link, whose far end (a sink that always accepts) stands for the flow level.
//
// A crossing of a route (region.hpp) becomes a segment: the boundary endpoint it enters by (its
// ingress link's, or its hosted source's), the channels of the inner links it takes, and the boundary
// endpoint it leaves by (its egress link's, or its hosted destination's). Its channels are those the
// full packet network's packet would cross there, so the same switch model sees the same ports.
//
// Order. The zoom network keeps the full network's order where the packet engine's arbiters see it:
// vertices come in the full network's order (a boundary endpoint at its outside vertex's place, one
// per cable in that vertex's port order) and a zoomed router's links keep their full ports (its local
// ports after them). So a router sees its inputs and outputs in the same order as in the full packet
// network, and round-robin arbitration breaks ties alike: with every router zoomed, the hybrid run is
// the packet run (tests/engine/hybrid_transport.cpp).
//
// Correctness. Each zoomed router, inner link and boundary cable appears once, and every cable is
// found again at the rank of its port among its vertex's ports; a cable not found where it was put is
// an internal error.
#include <cstdint>
#include <span>
#include <vector>

#include "core/network.hpp"
#include "engine/hybrid/region.hpp"
#include "engine/packet/fabric.hpp"

namespace interflow::hybrid {

class ZoomNetwork {
 public:
  // `local`: the rate and latency of a hosted endpoint's local port (the run's endpoint defaults).
  // Both are kept by reference (the hybrid transport owns them).
  ZoomNetwork(const Network& net, const RegionMap& map, const LinkDefaults& local);
  ZoomNetwork(const Network&, const RegionMap&&, const LinkDefaults&) = delete;

  const Network& network() const { return zoom_; }
  const RegionMap& regions() const { return map_; }
  // The zoom network's link for a link inner to a region (kNone for other links).
  LinkId inner(LinkId full) const { return inner_[full]; }
  // The boundary endpoint of the cable of a link into or out of a region (kNone for other links).
  EndpointId boundary(LinkId full) const { return boundary_[full]; }
  // The boundary endpoint of an endpoint hosted by a zoomed router (kNone otherwise).
  EndpointId hosted(EndpointId full) const { return hosted_[full]; }
  // What a boundary endpoint stands for: the full network's ingress link (kNone for a hosted endpoint)
  // or the hosted endpoint (kNone for a cable).
  LinkId ingress_of(EndpointId b) const { return ingress_of_[b]; }
  EndpointId endpoint_of(EndpointId b) const { return endpoint_of_[b]; }
  // The zoom network's vertex of a zoomed router, and back.
  VertexId vertex(VertexId full) const { return vertex_[full]; }
  // (kNone for a boundary endpoint's vertex)
  VertexId full_vertex(VertexId zoom) const { return zoom < full_vertex_.size() ? full_vertex_[zoom] : kNone; }

  // The channels (of `fabric`, built over network()) of crossing `c` of a route from endpoint src to
  // endpoint dst given by its links; a route with no links (both endpoints hosted by one zoomed router)
  // takes `c` = {region, 0, 0} and gives the two local ports.
  void segment(const packet::Fabric& fabric, std::span<const LinkId> route, const Crossing& c, EndpointId src,
               EndpointId dst, std::vector<packet::ChannelId>& out) const;

 private:
  struct Pending {  // a cable of the zoom network: the full link u -> v (kNone: a local port), its ports
    LinkId from_u;
    VertexId u, v;
    std::uint32_t port_u, port_v;
  };
  void add_vertices(NetworkBuilder& b, std::vector<VertexId>& boundary_vertex);
  void map_links(const std::vector<Pending>& cables);

  const Network& net_;
  const RegionMap& map_;
  Network zoom_;
  std::vector<LinkId> inner_;
  std::vector<EndpointId> boundary_, hosted_, endpoint_of_;
  std::vector<LinkId> ingress_of_;
  std::vector<VertexId> vertex_, full_vertex_;  // full -> zoom; zoom -> full (routers only)
  std::vector<VertexId> routers_;               // the zoomed routers, ascending
};

}  // namespace interflow::hybrid
