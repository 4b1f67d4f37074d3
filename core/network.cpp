#include "core/network.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/error.hpp"

namespace interflow {

namespace {

// The arithmetic topologies give every cable end a port below its vertex's degree, each port once:
// then each half-edge goes straight to link offset[from] + port, with no sort. Returns an empty
// vector when some half-edge has no port, a port out of range or a port already taken.
template <class HalfEdges>
std::vector<std::uint32_t> place_by_port(const HalfEdges& half, std::span<const std::uint32_t> offset) {
  std::vector<std::uint32_t> perm(half.size(), kNone);
  for (std::uint32_t i = 0; i < half.size(); ++i) {
    const auto& h = half[i];
    if (h.port == kNone || h.port >= offset[h.from + 1] - offset[h.from]) return {};
    std::uint32_t& slot = perm[offset[h.from] + h.port];
    if (slot != kNone) return {};
    slot = i;
  }
  return perm;
}

// Any other network: a counting sort by source vertex, then each vertex's out-links ordered by
// port, unnumbered ones after, in insertion order (stable).
template <class HalfEdges>
std::vector<std::uint32_t> place_sorted(const HalfEdges& half, std::span<const std::uint32_t> offset) {
  std::vector<std::uint32_t> slot(offset.begin(), offset.end() - 1);
  std::vector<std::uint32_t> perm(half.size());
  for (std::uint32_t i = 0; i < half.size(); ++i) perm[slot[half[i].from]++] = i;
  slot = {};
  for (std::size_t v = 0; v + 1 < offset.size(); ++v) {
    auto first = perm.begin() + offset[v];
    auto last = perm.begin() + offset[v + 1];
    bool numbered = false;
    for (auto it = first; it != last; ++it) numbered = numbered || half[*it].port != kNone;
    if (numbered)
      std::stable_sort(first, last, [&](std::uint32_t a, std::uint32_t b) { return half[a].port < half[b].port; });
  }
  return perm;
}

}  // namespace

void check_network_size(const std::string& what, std::uint64_t vertices, const std::string& parts,
                        std::uint64_t cables) {
  if (vertices > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(vertices) + " vertices (" + parts +
                     ") is more than 2^31, the largest network supported");
  if (2 * cables > kMaxNetworkLinks)
    throw InputError(what + ": " + std::to_string(2 * cables) +
                     " directed links is more than 4e9, the largest network supported");
}

LinkClass Network::link_class(LinkId l) const {
  const VertexId t = target_[l];
  return (kind_[t] == VertexKind::Endpoint || kind_[source(l)] == VertexKind::Endpoint) ? LinkClass::Endpoint
                                                                                        : LinkClass::Network;
}

LinkId Network::find_link(VertexId u, VertexId v) const {
  for (LinkId l = offset_[u]; l < offset_[u + 1]; ++l)
    if (target_[l] == v) return l;
  return kNone;
}

std::size_t Network::memory_bytes() const {
  return kind_.capacity() * sizeof(VertexKind) + offset_.capacity() * 4 + target_.capacity() * 4 +
         source_.capacity() * 4 + reverse_.capacity() * 4 + capacity_.capacity() * 4 + latency_.capacity() * 4 +
         up_.capacity() + endpoint_vertex_.capacity() * 4;
}

void NetworkBuilder::reserve(std::size_t vertices, std::size_t cables) {
  // Building needs the half-edges (2 per cable), the permutation and the CSR link arrays at once
  // (17 bytes a link besides the half-edges; the reverses reuse the permutation, and the sources come
  // after the half-edges are freed); refuse a network that cannot fit rather than dying of an
  // allocation failure halfway.
  const double bytes =
      static_cast<double>(vertices) * 12.0 + static_cast<double>(cables) * 2.0 * (sizeof(HalfEdge) + 17.0);
  const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (physical > 0 && bytes > 0.9 * physical)
    throw InputError("network of " + std::to_string(vertices) + " vertices and " + std::to_string(cables) +
                     " cables needs about " + std::to_string(static_cast<long long>(bytes / (1 << 30))) +
                     " GiB to build; this machine has " + std::to_string(static_cast<long long>(physical / (1 << 30))) +
                     " GiB");
  kind_.reserve(vertices);
  half_.reserve(2 * cables);
}

VertexId NetworkBuilder::add_switch() {
  kind_.push_back(VertexKind::Switch);
  return static_cast<VertexId>(kind_.size() - 1);
}

VertexId NetworkBuilder::add_switches(std::uint32_t count) {
  const auto first = static_cast<VertexId>(kind_.size());
  kind_.resize(kind_.size() + count, VertexKind::Switch);
  return first;
}

EndpointId NetworkBuilder::add_endpoint_vertex(VertexId* vertex) {
  kind_.push_back(VertexKind::Endpoint);
  const auto v = static_cast<VertexId>(kind_.size() - 1);
  if (vertex) *vertex = v;
  endpoint_vertex_.push_back(v);
  return static_cast<EndpointId>(endpoint_vertex_.size() - 1);
}

EndpointId NetworkBuilder::add_direct_endpoint(VertexId router) {
  endpoint_vertex_.push_back(router);
  ++direct_endpoints_;
  return static_cast<EndpointId>(endpoint_vertex_.size() - 1);
}

void NetworkBuilder::add_vertices_of(const Network& net) {
  if (!kind_.empty()) throw std::logic_error("add_vertices_of: the builder already has vertices");
  kind_ = net.kind_;
  endpoint_vertex_ = net.endpoint_vertex_;
  direct_endpoints_ = 0;
  for (const VertexId v : endpoint_vertex_) direct_endpoints_ += kind_[v] == VertexKind::Switch;
  endpoints_forward_ = net.endpoints_forward_;
}

void NetworkBuilder::add_cable(VertexId u, VertexId v, double gbps, double latency_ns, std::uint32_t port_u,
                               std::uint32_t port_v) {
  if (u >= kind_.size() || v >= kind_.size()) throw std::logic_error("add_cable: vertex out of range");
  if (u == v) throw std::logic_error("add_cable: self-loop");
  const bool endpoint_link = kind_[u] == VertexKind::Endpoint || kind_[v] == VertexKind::Endpoint;
  if (gbps < 0) gbps = endpoint_link ? defaults_.endpoint_gbps : defaults_.switch_gbps;
  const double class_latency = endpoint_link ? defaults_.endpoint_latency_ns : defaults_.switch_latency_ns;
  if (latency_ns < 0) latency_ns = class_latency;
  if (static_cast<float>(latency_ns) != static_cast<float>(class_latency)) latency_varies_ = true;
  if (half_.size() + 2 > 0xfffffff0ULL) throw InputError("network too large: more than 4 billion links");
  half_.push_back({u, v, port_u, static_cast<float>(gbps), static_cast<float>(latency_ns)});
  half_.push_back({v, u, port_v, static_cast<float>(gbps), static_cast<float>(latency_ns)});
}

Network NetworkBuilder::build() {
  Network net;
  const std::uint32_t n = num_vertices();
  // Out-degrees, then each vertex's out-links placed by port (insertion order among unnumbered ones).
  net.offset_.assign(n + 1, 0);
  for (const auto& h : half_) ++net.offset_[h.from + 1];
  std::partial_sum(net.offset_.begin(), net.offset_.end(), net.offset_.begin());
  // perm[i]: which half-edge becomes link i.
  std::vector<std::uint32_t> perm = place_by_port(half_, net.offset_);
  if (perm.empty()) perm = place_sorted(half_, net.offset_);
  const std::size_t m = perm.size();
  net.target_.resize(m);
  net.capacity_.resize(m);
  if (latency_varies_) net.latency_.resize(m);
  net.class_latency_[static_cast<int>(LinkClass::Endpoint)] = static_cast<float>(defaults_.endpoint_latency_ns);
  net.class_latency_[static_cast<int>(LinkClass::Network)] = static_cast<float>(defaults_.switch_latency_ns);
  net.up_.assign(m, 1);
  using Range = tbb::blocked_range<std::size_t>;
  tbb::parallel_for(Range(0, m, 1 << 16), [&](const Range& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const HalfEdge& h = half_[perm[i]];
      net.target_[i] = h.to;
      net.capacity_[i] = h.gbps;
      if (latency_varies_) net.latency_[i] = h.latency;
    }
  });
  half_.clear();
  half_.shrink_to_fit();
  // Half-edges 2c and 2c+1 are the two directions of cable c: the links they became reverse each
  // other. The reverses are written over perm, and the link index (link_of) and the sources are only
  // allocated once the half-edges are freed, so that none of it raises the peak memory of building.
  std::vector<LinkId> link_of(m);
  for (std::size_t i = 0; i < m; ++i) link_of[perm[i]] = static_cast<LinkId>(i);
  for (std::size_t c = 0; c < m; c += 2) {
    perm[link_of[c]] = link_of[c + 1];
    perm[link_of[c + 1]] = link_of[c];
  }
  net.reverse_ = std::move(perm);
  link_of = {};
  net.source_.resize(m);
  tbb::parallel_for(Range(0, n, 1 << 14), [&](const Range& r) {
    for (std::size_t v = r.begin(); v < r.end(); ++v)
      std::fill(net.source_.begin() + net.offset_[v], net.source_.begin() + net.offset_[v + 1],
                static_cast<VertexId>(v));
  });
  net.kind_ = std::move(kind_);
  net.endpoint_vertex_ = std::move(endpoint_vertex_);
  net.num_switches_ = static_cast<std::uint32_t>(std::count(net.kind_.begin(), net.kind_.end(), VertexKind::Switch));
  net.direct_ = direct_endpoints_ > 0;
  net.endpoints_forward_ = endpoints_forward_;
  return net;
}

}  // namespace interflow
