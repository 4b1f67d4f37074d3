#pragma once
// Megafly, also called dragonfly+ (Shpiner et al., HiPINEB 2017; Flajslik et al., ISC 2018; as
// configured in Mubarak et al., "Evaluating Quality of Service Traffic Classes on the Megafly Network",
// §IV-A and Table I). g groups; each group is a complete bipartite graph between `leaves` leaf
// routers (which host the endpoints) and `spines` spine routers (which carry the global links).
// Groups are joined all-to-all by global links, the same number m = spines*h / (g-1) per pair.
//
// Numbering (routings compute link ids from it):
// - Endpoint vertices 0..N-1, N = g*leaves*p; endpoint e hangs off leaf e / p (global leaf index)
//   on the leaf's port e mod p, through its only link (port 0).
// - Router vertices follow group by group: group G's leaf l is vertex N + G*(leaves+spines) + l,
//   its spine s is vertex N + G*(leaves+spines) + leaves + s.
// - Leaf ports: 0..p-1 endpoints, then p+s to spine s of its group.
// - Spine ports: 0..leaves-1 to leaf l of its group, then leaves+j for global port j (0..h-1).
// - Global arrangement ("consecutive", absolute): spine s of group G owns group ports t = s*h + j.
//   Port t leads to the (t / m)-th other group in increasing group order (G itself skipped), as its
//   (t mod m)-th parallel link; it arrives on the port of that group with the same copy number that
//   points back to G. Port t of G reaches H through copy c = t mod m; the m ports of G toward H are
//   o*m .. o*m+m-1 where o = H if H < G, else H-1.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class MegaflyTopology : public Topology {
 public:
  MegaflyTopology(std::uint32_t leaves, std::uint32_t spines, std::uint32_t p, std::uint32_t h, std::uint32_t g,
                  const LinkDefaults& defaults);

  std::uint32_t leaves() const { return leaves_; }
  std::uint32_t spines() const { return spines_; }
  std::uint32_t endpoints_per_leaf() const { return p_; }
  std::uint32_t global_per_spine() const { return h_; }
  std::uint32_t groups() const { return g_; }
  // Global links between every pair of groups: spines*h / (g-1).
  std::uint32_t links_per_pair() const { return m_; }
  std::uint32_t num_endpoints() const { return endpoints_; }

  std::vector<std::vector<VertexId>> switch_groups() const override {  // leaves, then spines
    std::vector<std::vector<VertexId>> groups(g_);
    for (std::uint32_t k = 0; k < g_; ++k)
      for (VertexId v = leaf_vertex(k, 0); v < leaf_vertex(k, 0) + leaves_ + spines_; ++v) groups[k].push_back(v);
    return groups;
  }
  std::uint32_t group_of(EndpointId e) const { return e / (p_ * leaves_); }
  std::uint32_t leaf_in_group(EndpointId e) const { return (e / p_) % leaves_; }
  VertexId leaf_vertex(std::uint32_t group, std::uint32_t leaf) const {
    return endpoints_ + group * (leaves_ + spines_) + leaf;
  }
  VertexId spine_vertex(std::uint32_t group, std::uint32_t spine) const {
    return endpoints_ + group * (leaves_ + spines_) + leaves_ + spine;
  }
  // Index among G's other groups of group H (H != G): H if H < G, else H-1.
  static std::uint32_t other_index(std::uint32_t group, std::uint32_t other) {
    return other < group ? other : other - 1;
  }
  // Group port of G (spine*h + j) carrying copy c of the links from G to H.
  std::uint32_t group_port_toward(std::uint32_t group, std::uint32_t other, std::uint32_t copy) const {
    return other_index(group, other) * m_ + copy;
  }
  // Link ids, computed from the dense port layout.
  LinkId injection_link(const Network& net, EndpointId e) const { return net.out_begin(e); }
  LinkId leaf_to_endpoint(const Network& net, EndpointId e) const {
    return net.out_begin(leaf_vertex(group_of(e), leaf_in_group(e))) + e % p_;
  }
  LinkId leaf_to_spine(const Network& net, std::uint32_t group, std::uint32_t leaf, std::uint32_t spine) const {
    return net.out_begin(leaf_vertex(group, leaf)) + p_ + spine;
  }
  LinkId spine_to_leaf(const Network& net, std::uint32_t group, std::uint32_t spine, std::uint32_t leaf) const {
    return net.out_begin(spine_vertex(group, spine)) + leaf;
  }
  LinkId global_link(const Network& net, std::uint32_t group, std::uint32_t group_port) const {
    return net.out_begin(spine_vertex(group, group_port / h_)) + leaves_ + group_port % h_;
  }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "mfmin"; }

 private:
  std::uint32_t leaves_, spines_, p_, h_, g_, m_ = 0;
  std::uint32_t endpoints_ = 0;
};

}  // namespace interflow::topo
