#pragma once
// Extended generalized fat tree XGFT(h; m_1..m_h; w_1..w_h) (Öhring, Ibel, Das, Kumar, "On generalized
// fat trees", IPPS 1995, section 2), with an optional number c_l of parallel cables between each
// child at level l-1 and each of its parents at level l. Registered as `xgft` and as `gtree`
// (INRFlow's generalised tree, the same construction).
//
// Levels 0 (endpoints) .. h (top). A level-l node has m_l children (l >= 1) and w_{l+1} parents
// (l < h); level l has prod_{i>l} m_i * prod_{i<=l} w_i nodes, so there are prod m_i endpoints.
// Labelling (routings rely on it):
// - A level-l node has digits at positions 1..h: positions <= l are base w_i (chosen on the way up),
//   positions > l base m_i. Its index in the level is that mixed-radix number, position 1 least
//   significant; endpoint e's digits are its base-(m_1, m_2, ..) digits, so level-0 index = e.
// - Parent j (0..w_{l+1}-1) of a level-l node: digit l+1 replaced by j. Child a (0..m_l-1) of a
//   level-l node: digit l replaced by a.
// - Vertices: endpoints 0..E-1 (vertex e is endpoint e), then levels 1..h in index order.
// - Out-links of a level-l node: down ports a*c_l + t (child a, parallel cable t), l >= 1; then up
//   ports base + q, q = j*c_{l+1} + t < w_{l+1} c_{l+1}, base = m_l c_l (0 for an endpoint). A child's
//   up port q arrives on its parent's down port (child digit l+1)*c_{l+1} + (q mod c_{l+1}).
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class XgftTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxHeight = 31;

  // m, w, c: h entries each for levels 1..h (m[0] is m_1).
  XgftTopology(std::string family, std::vector<std::uint32_t> m, std::vector<std::uint32_t> w,
               std::vector<std::uint32_t> c, const LinkDefaults& defaults);

  std::uint32_t height() const { return h_; }
  std::uint32_t m(std::uint32_t level) const { return m_[level - 1]; }  // 1 <= level <= h
  std::uint32_t w(std::uint32_t level) const { return w_[level - 1]; }
  std::uint32_t c(std::uint32_t level) const { return c_[level - 1]; }
  std::uint32_t num_endpoints() const { return level_first_[1]; }
  std::uint32_t level_size(std::uint32_t level) const { return level_first_[level + 1] - level_first_[level]; }
  VertexId vertex(std::uint32_t level, std::uint32_t index) const { return level_first_[level] + index; }
  std::uint32_t level_of(VertexId v) const;

  // Up ports of a level-l node (w_{l+1} c_{l+1}; 0 at the top) and where they start.
  std::uint32_t up_choices(std::uint32_t level) const { return level < h_ ? w_[level] * c_[level] : 0; }
  std::uint32_t down_ports(std::uint32_t level) const { return level == 0 ? 0 : m_[level - 1] * c_[level - 1]; }
  // prod_{i<=l} w_i c_i (saturated at 2^40): divisor for the mod-k choice of the up port at level l.
  std::uint64_t up_span(std::uint32_t level) const { return up_span_[level]; }

  // Digit i (1..h) of endpoint e in base (m_1, m_2, ..).
  std::uint32_t endpoint_digit(EndpointId e, std::uint32_t i) const {
    return static_cast<std::uint32_t>((e / m_span_[i - 1]) % m_[i - 1]);
  }
  // Level of the lowest common ancestors of endpoints s and d: the highest digit where they differ.
  std::uint32_t lca_level(EndpointId s, EndpointId d) const;
  std::uint32_t parent_index(std::uint32_t level, std::uint32_t index, std::uint32_t j) const {
    const std::uint64_t span = w_span_[level];
    const std::uint64_t high = index / span / m_[level];
    return static_cast<std::uint32_t>(index % span + span * j + span * w_[level] * high);
  }
  std::uint32_t child_index(std::uint32_t level, std::uint32_t index, std::uint32_t a) const {
    const std::uint64_t span = w_span_[level - 1];
    const std::uint64_t high = index / (span * w_[level - 1]);
    return static_cast<std::uint32_t>(index % span + span * a + span * m_[level - 1] * high);
  }
  std::uint32_t child_digit(std::uint32_t level, std::uint32_t index) const {
    return static_cast<std::uint32_t>((index / w_span_[level]) % m_[level]);
  }

  std::vector<std::uint32_t> endpoint_grid() const override { return m_; }
  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "xgftdmodk"; }

 private:
  std::uint32_t h_;
  std::vector<std::uint32_t> m_, w_, c_;
  std::vector<std::uint64_t> m_span_, w_span_, up_span_;  // prod_{i<=l} m_i, w_i, w_i c_i for l = 0..h
  std::vector<std::uint32_t> level_first_;                // h+2 entries: first vertex of each level, then the end
};

}  // namespace interflow::topo
