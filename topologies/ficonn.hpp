#pragma once
// FiConn(n, k): the dual-port server-centric network of Li et al., "FiConn: using backup port for
// server interconnection in data centers", INFOCOM 2009, Sec. III.
//
// Sizes: N_0 = n (even), b_(l-1) = N_(l-1) / 2^(l-1) servers of a FiConn_(l-1) have a free backup
// port, g_l = b_(l-1) / 2 + 1 = N_(l-1) / 2^l + 1, N_l = g_l N_(l-1). FiConn_0 is n servers on one
// n-port switch; FiConn_l joins g_l copies of FiConn_(l-1), copy i and copy j (i < j) by one level-l
// link between server [i, (j-1) 2^l + 2^(l-1) - 1] and server [j, i 2^l + 2^(l-1) - 1] (the
// paper's construction algorithm).
//
// Labelling (the routing relies on it):
// - Server (endpoint) uid u is its number 0..N_k-1; within FiConn_l it lies in copy (u / N_(l-1))
//   mod g_l with uid u mod N_(l-1) inside that copy. Vertex u is server u.
// - Switch s (0..N_k/n - 1) is vertex N_k + s and connects servers s n .. s n + n-1 on ports 0..n-1.
// - Server port 0 goes to its switch; port 1 (the backup port) carries the server's level-l link,
//   where l = 1 + (number of trailing one bits of u); servers with l > k keep it free.
//   The link on port p of any vertex v is net.out_begin(v) + p.
#include <cstdint>
#include <vector>

#include "engine/topology.hpp"

namespace interflow::topo {

class FiConnTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevel = 16;

  FiConnTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults);

  std::uint32_t n() const { return n_; }
  std::uint32_t k() const { return k_; }
  // Servers in a FiConn_l, 0 <= l <= k (N_k is the whole network).
  std::uint32_t size(std::uint32_t level) const { return size_[level]; }
  // Copies of FiConn_(l-1) in a FiConn_l, 1 <= l <= k.
  std::uint32_t g(std::uint32_t level) const { return (size_[level - 1] >> level) + 1; }
  std::uint32_t num_servers() const { return size_[k_]; }
  VertexId switch_of(EndpointId u) const { return size_[k_] + u / n_; }

  // Level of server u's backup link: 1 + trailing one bits of u; above k the backup port is free.
  static std::uint32_t backup_level(EndpointId u) {
    std::uint32_t level = 1;
    for (; u & 1U; u >>= 1) ++level;
    return level;
  }
  // Uid inside copy `from` of the server whose level-l link leads to copy `to` (from != to).
  static std::uint32_t gateway_inner(std::uint32_t from, std::uint32_t to, std::uint32_t level) {
    const std::uint32_t slot = to < from ? to : to - 1;
    return (slot << level) + (1U << (level - 1)) - 1;
  }
  // The server at the other end of server u's backup link (backup_level(u) <= k).
  EndpointId backup_peer(EndpointId u) const {
    const std::uint32_t level = backup_level(u);
    const std::uint32_t sub = size_[level - 1];
    const EndpointId base = u - u % size_[level];
    const std::uint32_t copy = (u - base) / sub;
    const std::uint32_t slot = (u % sub) >> level;  // the other copy, in gateway_inner's compact form
    const std::uint32_t other = slot < copy ? slot : slot + 1;
    return base + other * sub + gateway_inner(other, copy, level);
  }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "ficonn"; }

 private:
  std::uint32_t n_, k_;
  std::vector<std::uint32_t> size_;
};

}  // namespace interflow::topo
