#pragma once
// Tree topologies: the k-ary n-tree (fattree; Petrini & Vanneschi, IPPS 1997) and its oversubscribed
// variant, the k:k'-ary n-tree (thintree, as in INRFlow). A fattree is a thintree with k' = k.
//
// Labelling (routings rely on it):
// - Endpoint e has base-k digits e_0 (least significant) .. e_{n-1}. Endpoint vertices are
//   0..N-1 (vertex e is endpoint e); its single link is port 0 and goes to leaf switch e / k,
//   arriving on that leaf's down port e_0.
// - Levels 0 (leaves) .. n-1 (top). A level-l switch has a label of n-1 digits w_0..w_{n-2}:
//   positions < l are base k' (chosen on the way up), positions >= l are base k. Its index within
//   the level is the mixed-radix number of its label, w_0 least significant, so leaf e / k has
//   digits w_i = e_{i+1}. Switch vertices follow the endpoints, level by level, in index order.
// - Up port j (0..k'-1) of a level-l switch goes to the level-(l+1) switch whose label has digit l
//   replaced by j, and arrives there on down port w_l. Going down, down port p of a level-m switch
//   leads to the level-(m-1) switch with digit m-1 replaced by p (at level 0: to endpoint
//   index * k + p).
// - Every switch's out-links are its down ports 0..k-1 then its up ports k..k+k'-1 (none at the
//   top), so the link on port p of switch v is net.out_begin(v) + p.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class TreeTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevels = 32;  // k >= 2 and N <= 2^31 give n <= 31

  // Builds a k:k'-ary n-tree; `family` ("fattree" or "thintree") names it in messages.
  TreeTopology(std::string family, std::uint32_t k, std::uint32_t kp, std::uint32_t n, const LinkDefaults& defaults);

  std::uint32_t k() const { return k_; }
  std::uint32_t kp() const { return kp_; }
  std::uint32_t n() const { return n_; }
  std::uint32_t num_endpoints() const { return endpoints_; }
  std::uint32_t level_size(std::uint32_t level) const { return level_first_[level + 1] - level_first_[level]; }
  // k^i and k'^i for 0 <= i <= n.
  std::uint64_t pow_k(std::uint32_t i) const { return pow_k_[i]; }
  std::uint64_t pow_kp(std::uint32_t i) const { return pow_kp_[i]; }

  VertexId switch_vertex(std::uint32_t level, std::uint32_t index) const { return level_first_[level] + index; }
  bool is_switch(VertexId v) const { return v >= endpoints_; }
  // Level of a switch vertex (kNone for an endpoint vertex) and its index within the level (switch
  // vertices only).
  std::uint32_t level_of(VertexId v) const;
  std::uint32_t index_of(VertexId v) const { return v - level_first_[level_of(v)]; }
  std::uint32_t leaf_index(EndpointId e) const { return e / k_; }
  VertexId leaf_of(EndpointId e) const { return switch_vertex(0, leaf_index(e)); }

  // Digit `pos` of the label of switch `index` at `level`.
  std::uint32_t label_digit(std::uint32_t level, std::uint32_t index, std::uint32_t pos) const;
  // The level-(l+1) switch index reached through up port j of switch `index` at level l, and the
  // down port it arrives on there (digit l of the lower label).
  std::uint32_t up_index(std::uint32_t level, std::uint32_t index, std::uint32_t j) const {
    const std::uint64_t low_span = pow_kp_[level];
    const std::uint64_t rest = index / low_span;
    return static_cast<std::uint32_t>(index % low_span + low_span * j + low_span * kp_ * (rest / k_));
  }
  std::uint32_t up_arrival_port(std::uint32_t level, std::uint32_t index) const {
    return static_cast<std::uint32_t>((index / pow_kp_[level]) % k_);
  }
  // The level-(m-1) switch index reached through down port p of switch `index` at level m >= 1.
  std::uint32_t down_index(std::uint32_t level, std::uint32_t index, std::uint32_t p) const {
    const std::uint64_t low_span = pow_kp_[level - 1];
    const std::uint64_t high = index / (low_span * kp_);
    return static_cast<std::uint32_t>(index % low_span + low_span * (p + k_ * high));
  }
  // Level of the lowest common ancestors of the leaves of s and d: 0 on the same leaf, else one
  // more than the highest leaf-label digit where they differ. A path s -> d has 2 * (lca + 1) links.
  std::uint32_t lca_level(EndpointId s, EndpointId d) const {
    std::uint32_t level = 0;
    for (std::uint64_t a = s / k_, b = d / k_; a != b; a /= k_, b /= k_) ++level;
    return level;
  }

  std::vector<std::uint32_t> endpoint_grid() const override;
  std::vector<TopologyFact> facts() const override { return facts_with_trunks(1); }
  std::vector<TopologyFact> facts_with_trunks(std::uint32_t trunks) const override;
  std::string default_routing() const override { return "dmodk"; }

 private:
  std::uint32_t k_, kp_, n_;
  std::uint32_t endpoints_ = 0;
  std::vector<std::uint32_t> level_first_;  // n+1 entries: first vertex of each level, then the end
  std::array<std::uint64_t, kMaxLevels + 1> pow_k_{}, pow_kp_{};
};

}  // namespace interflow::topo
