#pragma once
// The network: endpoints (servers) and switches joined by cables, stored as CSR. Every cable is two
// directed links; a link's id is its position in the CSR arrays, so the out-links of vertex v are
// the ids offset[v] .. offset[v+1]-1, in the port order the topology chose. Each link also stores its
// source and its reverse (the other direction of its cable), so both are O(1) lookups on hot paths
// (credits return over the reverse link); they cost 8 bytes per link. Latencies are stored per link
// only when some link's differs from its class's default: most networks have one latency per class,
// and 4 bytes per link (32 MiB of a million-endpoint fat tree) would hold two values.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace interflow {

// The largest network supported: vertex ids and CSR offsets are 32-bit. Topologies check their
// sizes against these before allocating anything.
inline constexpr std::uint64_t kMaxNetworkVertices = 1ULL << 31;
inline constexpr std::uint64_t kMaxNetworkLinks = 4'000'000'000ULL;

// Throws an InputError "<what>: <vertices> vertices (<parts>) is more than 2^31, ..." or the same for
// 2 * cables directed links when a network of that size would exceed the limits above.
void check_network_size(const std::string& what, std::uint64_t vertices, const std::string& parts,
                        std::uint64_t cables);

enum class VertexKind : std::uint8_t {
  Endpoint,  // a server with its own link(s) to the network
  Switch,    // a switch or router; may also host endpoints directly (direct networks)
};

// Link classes, used for capacity defaults and for reporting.
enum class LinkClass : std::uint8_t {
  Endpoint,  // touches an endpoint vertex (injection/ejection link)
  Network,   // switch-to-switch (or router-to-router)
};

// Default link properties, set by the user (--endpoint-gbps, --switch-gbps, ...).
struct LinkDefaults {
  double endpoint_gbps = 100.0;
  double switch_gbps = 100.0;
  double endpoint_latency_ns = 100.0;
  double switch_latency_ns = 100.0;
};

class Network {
 public:
  std::uint32_t num_vertices() const { return static_cast<std::uint32_t>(kind_.size()); }
  std::uint32_t num_links() const { return static_cast<std::uint32_t>(target_.size()); }
  std::uint32_t num_cables() const { return num_links() / 2; }
  std::uint32_t num_endpoints() const { return static_cast<std::uint32_t>(endpoint_vertex_.size()); }
  std::uint32_t num_switches() const { return num_switches_; }

  VertexKind kind(VertexId v) const { return kind_[v]; }
  // The vertex where an endpoint's traffic enters and leaves the network. In a direct network
  // (INRFlow's torus) this is a switch/router vertex: the endpoint has no link of its own.
  VertexId endpoint_vertex(EndpointId e) const { return endpoint_vertex_[e]; }
  bool direct() const { return direct_; }
  // Whether endpoints may forward traffic that is not theirs (server-centric networks).
  bool endpoints_forward() const { return endpoints_forward_; }

  LinkId out_begin(VertexId v) const { return offset_[v]; }
  LinkId out_end(VertexId v) const { return offset_[v + 1]; }
  std::uint32_t degree(VertexId v) const { return offset_[v + 1] - offset_[v]; }
  VertexId target(LinkId l) const { return target_[l]; }
  VertexId source(LinkId l) const { return source_[l]; }
  double capacity_gbps(LinkId l) const { return capacity_[l]; }
  float latency_ns(LinkId l) const {
    return latency_.empty() ? class_latency_[static_cast<int>(link_class(l))] : latency_[l];
  }
  bool up(LinkId l) const { return up_[l] != 0; }
  bool all_up() const { return links_down_ == 0; }  // no link is down (no failure applied)
  LinkClass link_class(LinkId l) const;

  // The first link u->v (lowest port), or kNone.
  LinkId find_link(VertexId u, VertexId v) const;
  // The other direction of the same cable: of parallel cables between two vertices, the one that
  // was added to the builder together with l, whatever ports the two directions occupy.
  LinkId reverse(LinkId l) const { return reverse_[l]; }

  void set_up(LinkId l, bool is_up) {
    if ((up_[l] != 0) != is_up) links_down_ += is_up ? -1 : 1;
    up_[l] = is_up ? 1 : 0;
  }
  void set_capacity(LinkId l, double gbps) { capacity_[l] = static_cast<float>(gbps); }

  std::span<const std::uint32_t> offsets() const { return offset_; }
  std::span<const VertexId> targets() const { return target_; }
  std::span<const float> capacities() const { return capacity_; }
  std::span<const std::uint8_t> link_states() const { return up_; }  // 1 = up
  std::size_t memory_bytes() const;

 private:
  friend class NetworkBuilder;
  std::vector<VertexKind> kind_;
  std::vector<std::uint32_t> offset_;  // size V+1
  std::vector<VertexId> target_;
  std::vector<VertexId> source_;
  std::vector<LinkId> reverse_;
  std::vector<float> capacity_;  // Gbit/s
  std::vector<float> latency_;   // ns; empty when every link has its class's default
  float class_latency_[2] = {0, 0};  // ns, by LinkClass, when latency_ is empty
  std::vector<std::uint8_t> up_;
  std::int64_t links_down_ = 0;  // kept by set_up()
  std::vector<VertexId> endpoint_vertex_;
  std::uint32_t num_switches_ = 0;
  bool direct_ = false;
  bool endpoints_forward_ = false;
};

// Collects vertices and cables, then lays them out as CSR. A cable may name the port it occupies at
// each end; the out-links of a vertex are ordered by port, unnumbered ones after numbered ones in
// insertion order. Topologies that compute link ids arithmetically give dense ports 0..degree-1.
class NetworkBuilder {
 public:
  explicit NetworkBuilder(LinkDefaults defaults = {}) : defaults_(defaults) {}

  void reserve(std::size_t vertices, std::size_t cables);
  VertexId add_switch();
  VertexId add_switches(std::uint32_t count);  // returns the first id
  // A server vertex that is one endpoint; endpoints are numbered in creation order.
  EndpointId add_endpoint_vertex(VertexId* vertex = nullptr);
  // An endpoint hosted directly by an existing switch/router vertex (direct network).
  EndpointId add_direct_endpoint(VertexId router);
  void set_endpoints_forward(bool forward) { endpoints_forward_ = forward; }
  // Every vertex of `net`, in its order, with its endpoints numbered as there and whether endpoints
  // forward, but no cable: the start of a network derived from another (topologies/trunks.hpp).
  void add_vertices_of(const Network& net);

  // A cable u<->v. Capacity/latency < 0 take the defaults for the link class. port_u/port_v order
  // the out-links of u and v (kNone: after all numbered ports, in insertion order).
  void add_cable(VertexId u, VertexId v, double gbps = -1, double latency_ns = -1, std::uint32_t port_u = kNone,
                 std::uint32_t port_v = kNone);

  std::uint32_t num_vertices() const { return static_cast<std::uint32_t>(kind_.size()); }
  const LinkDefaults& defaults() const { return defaults_; }
  Network build();

 private:
  struct HalfEdge {
    VertexId from, to;
    std::uint32_t port;  // kNone: unnumbered, ordered by insertion after numbered ports
    float gbps, latency;
  };
  LinkDefaults defaults_;
  std::vector<VertexKind> kind_;
  std::vector<VertexId> endpoint_vertex_;
  std::vector<HalfEdge> half_;
  bool latency_varies_ = false;  // some cable's latency differs from its class's default
  std::uint32_t direct_endpoints_ = 0;
  bool endpoints_forward_ = false;
};

}  // namespace interflow
