#pragma once
// DCell(n, k): the recursive server-centric network of Guo et al., "DCell: a scalable and
// fault-tolerant network structure for data centers", SIGCOMM 2008, Sec. 3.
//
// Sizes: t_0 = n, g_l = t_(l-1) + 1, t_l = g_l t_(l-1). DCell_0 is n servers on one n-port
// mini-switch; DCell_l is g_l copies of DCell_(l-1), copy i and copy j (i < j) joined by one level-l
// link between server [i, j-1] and server [j, i] (the paper's BuildDCells).
//
// Labelling (the routing relies on it):
// - Server (endpoint) uid u is its number 0..t_k-1; within DCell_l it lies in copy (u / t_(l-1)) mod
//   g_l and has the uid u mod t_(l-1) inside that copy. Vertex u is server u.
// - Mini-switch s (0..t_k/n - 1) is vertex t_k + s and connects servers s n .. s n + n-1 on its
//   ports 0..n-1.
// - Server port 0 goes to its mini-switch, port l (1..k) is its level-l link (every server has
//   exactly one per level). The link on port p of any vertex v is net.out_begin(v) + p.
#include <cstdint>
#include <vector>

#include "engine/topology.hpp"

namespace interflow::topo {

class DCellTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevel = 8;  // t_k grows doubly exponentially: k <= 4 already fills 2^31

  DCellTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults);

  std::uint32_t n() const { return n_; }
  std::uint32_t k() const { return k_; }
  // Servers in a DCell_l, 0 <= l <= k (t_k is the whole network).
  std::uint32_t t(std::uint32_t level) const { return t_[level]; }
  // Copies of DCell_(l-1) in a DCell_l, 1 <= l <= k.
  std::uint32_t g(std::uint32_t level) const { return t_[level - 1] + 1; }
  std::uint32_t num_servers() const { return t_[k_]; }
  VertexId switch_of(EndpointId u) const { return t_[k_] + u / n_; }

  // The server at the other end of server u's level-l link (1 <= l <= k).
  EndpointId level_peer(EndpointId u, std::uint32_t level) const {
    const std::uint32_t sub = t_[level - 1];
    const std::uint32_t base = u - u % t_[level];
    const std::uint32_t copy = (u % t_[level]) / sub;
    const std::uint32_t inner = u % sub;
    // [i, j-1] <-> [j, i] for i < j: inner < copy means this server is [j, i] with j = copy, i = inner.
    if (inner < copy) return base + inner * sub + (copy - 1);
    return base + (inner + 1) * sub + copy;
  }
  // The server of copy `from` whose level-l link leads to copy `to` (from != to) of the same DCell_l,
  // as a uid inside copy `from`.
  static std::uint32_t gateway_inner(std::uint32_t from, std::uint32_t to) { return to < from ? to : to - 1; }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "dcell"; }

 private:
  std::uint32_t n_, k_;
  std::vector<std::uint32_t> t_;
};

}  // namespace interflow::topo
