#include "topologies/xgft.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

constexpr std::uint32_t kMaxArity = 1 << 16;
constexpr std::uint64_t kSpanCap = 1ULL << 40;

std::string list(const std::vector<std::uint32_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

XgftTopology::XgftTopology(std::string family, std::vector<std::uint32_t> m, std::vector<std::uint32_t> w,
                           std::vector<std::uint32_t> c, const LinkDefaults& defaults)
    : Topology(std::move(family)),
      h_(static_cast<std::uint32_t>(m.size())),
      m_(std::move(m)),
      w_(std::move(w)),
      c_(std::move(c)) {
  const std::string what = this->family() + " h=" + std::to_string(h_) + ", m=" + list(m_) + ", w=" + list(w_) +
                           (c_.empty() ? "" : ", c=" + list(c_));
  if (h_ < 1 || h_ > kMaxHeight)
    throw InputError(what + ": h (levels of switches) must be 1.." + std::to_string(kMaxHeight));
  if (w_.size() != h_) throw InputError(what + ": w needs h = " + std::to_string(h_) + " entries, one per level");
  if (c_.empty()) c_.assign(h_, 1);
  if (c_.size() != h_) throw InputError(what + ": c needs h = " + std::to_string(h_) + " entries, one per level");
  for (std::uint32_t i = 0; i < h_; ++i)
    if (m_[i] < 1 || w_[i] < 1 || c_[i] < 1 || m_[i] > kMaxArity || w_[i] > kMaxArity || c_[i] > kMaxArity)
      throw InputError(what + ": every entry of m, w and c must be 1..65536");

  m_span_.assign(h_ + 1, 1);
  w_span_.assign(h_ + 1, 1);
  up_span_.assign(h_ + 1, 1);
  for (std::uint32_t l = 1; l <= h_; ++l) {
    m_span_[l] = m_span_[l - 1] * m_[l - 1];
    w_span_[l] = w_span_[l - 1] * w_[l - 1];
    up_span_[l] = std::min(kSpanCap, up_span_[l - 1] * w_[l - 1] * c_[l - 1]);
    if (m_span_[l] > kMaxNetworkVertices || w_span_[l] > kMaxNetworkVertices)
      throw InputError(what + ": prod m_i or prod w_i exceeds 2^31, the largest network supported");
  }
  const std::uint64_t endpoints = m_span_[h_];
  if (endpoints < 2) throw InputError(what + ": the tree needs at least 2 endpoints (prod m_i >= 2)");
  std::uint64_t vertices = 0, cables = 0;
  level_first_.assign(h_ + 2, 0);
  for (std::uint32_t l = 0; l <= h_; ++l) {
    level_first_[l] = static_cast<std::uint32_t>(std::min(vertices, kMaxNetworkVertices));
    const std::uint64_t size = endpoints / m_span_[l] * w_span_[l];  // prod_{i>l} m_i * prod_{i<=l} w_i
    vertices += size;
    if (l < h_) cables += size * w_[l] * c_[l];
    if (vertices > kMaxNetworkVertices)
      throw InputError(what + ": more than 2^31 vertices (endpoints plus switches), the largest network supported");
    if (2 * cables > kMaxNetworkLinks)
      throw InputError(what + ": more than 4e9 directed links, the largest network supported");
  }
  level_first_[h_ + 1] = static_cast<std::uint32_t>(vertices);

  NetworkBuilder b(defaults);
  b.reserve(vertices, cables);
  for (std::uint64_t e = 0; e < endpoints; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(vertices - endpoints));
  for (std::uint32_t l = 0; l < h_; ++l) {
    const std::uint32_t mult = c_[l];
    for (std::uint32_t i = 0; i < level_size(l); ++i) {
      const std::uint32_t arrival = child_digit(l, i) * mult;
      for (std::uint32_t q = 0; q < up_choices(l); ++q)
        b.add_cable(vertex(l, i), vertex(l + 1, parent_index(l, i, q / mult)), -1, -1, down_ports(l) + q,
                    arrival + q % mult);
    }
  }
  net_ = b.build();
}

std::uint32_t XgftTopology::level_of(VertexId v) const {
  const auto it = std::upper_bound(level_first_.begin(), level_first_.end(), v);
  return static_cast<std::uint32_t>(it - level_first_.begin()) - 1;
}

std::uint32_t XgftTopology::lca_level(EndpointId s, EndpointId d) const {
  for (std::uint32_t i = h_; i >= 1; --i)
    if (endpoint_digit(s, i) != endpoint_digit(d, i)) return i;
  return 0;
}

std::vector<TopologyFact> XgftTopology::facts() const {
  std::uint32_t top = 0;  // highest level whose arity m_l lets two endpoints differ there
  for (std::uint32_t l = 1; l <= h_; ++l)
    if (m_[l - 1] >= 2) top = l;
  return {{"diameter_links", 2.0 * top,
           "longest shortest path between endpoints, in links: up to the highest level l with m_l >= 2 (h when "
           "every m_l >= 2) and down again"}};
}

void register_xgft(TopologyRegistry& registry) {
  auto params = [] {
    ParamSpec c = dims_param("c", "",
                             "optional parallel cables between a level-(l-1) node and each of its parents at level l, "
                             "one entry per level, e.g. 1x2x2 (default: 1 everywhere)",
                             1);
    c.optional = true;
    return std::vector<ParamSpec>{
        int_param("h", "3", "levels of switches (the tree's height)", 1, XgftTopology::kMaxHeight),
        dims_param("m", "4x4x4", "down arities m_1x..xm_h: children of a level-l switch (m_1 endpoints per leaf)", 1),
        dims_param("w", "1x4x4",
                   "up arities w_1x..xw_h: parents of a level-(l-1) node (w_1 > 1 gives multi-homed endpoints)", 1),
        c};
  };
  auto make = [](const char* family) {
    return [family](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
      const auto h = static_cast<std::size_t>(p.get_int("h"));
      auto m = p.get_dims("m");
      auto w = p.get_dims("w");
      const auto c = p.has("c") ? p.get_dims("c") : std::vector<std::uint32_t>{};
      if (m.size() != h) p.fail("m", "needs h = " + std::to_string(h) + " entries, one per level");
      if (w.size() != h) p.fail("w", "needs h = " + std::to_string(h) + " entries, one per level");
      if (!c.empty() && c.size() != h) p.fail("c", "needs h = " + std::to_string(h) + " entries, one per level");
      return std::make_unique<XgftTopology>(family, std::move(m), std::move(w), c, defaults);
    };
  };
  const std::string construction =
      " Level l (0 = endpoints, h = top) has prod_{i>l} m_i * prod_{i<=l} w_i nodes; a level-l switch has m_l "
      "children and, below the top, w_{l+1} parents, with c_l parallel cables to each child. Labelling: a "
      "level-l node has digits at positions 1..h, base w_i at positions <= l and base m_i above; its index in the "
      "level is that mixed-radix number (position 1 least significant), so endpoint e is level-0 node e. Parent "
      "j of a node at level l replaces digit l+1 by j; child a of a level-l switch replaces digit l by a. "
      "Vertices: endpoints 0..E-1, then levels 1..h in index order. Ports: a level-l switch has down ports "
      "a*c_l + t (child a, cable t), then up ports m_l c_l + j*c_{l+1} + t; an endpoint has up ports j*c_1 + t. "
      "The k-ary n-tree is XGFT(n; k,..,k; 1,k,..,k) and the k:k'-ary n-tree XGFT(n; k,..,k; 1,k',..,k'). "
      "Diameter 2h links when every m_l >= 2. Routings: xgftdmodk (default), xgftsmodk, xgftrandom.";
  registry.add({"xgft", "extended generalized fat tree XGFT(h; m_1..m_h; w_1..w_h) with optional parallel cables",
                params(), make("xgft"),
                "Öhring, Ibel, Das, Kumar, 'On generalized fat trees', IPPS 1995, section 2." + construction,
                "xgft:h=3,m=4x4x2,w=2x2x2"});
  registry.add({"gtree", "INRFlow's generalised tree: the XGFT with per-level down/up arities and cable multiplicities",
                params(), make("gtree"),
                "INRFlow's generalised tree (Navaridas et al. 2019, section 3.2), built as the extended generalized "
                "fat tree of Öhring et al., IPPS 1995: the same family and parameters as `xgft` (h levels, down "
                "arities m, up arities w, parallel cables c)." +
                    construction,
                "gtree:h=3,m=4x4x4,w=1x2x2,c=1x2x1"});
}

}  // namespace interflow::topo
