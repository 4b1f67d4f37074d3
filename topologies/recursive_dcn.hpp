#pragma once
// The recursive server-centric networks DCell, FiConn and their generalisation (INRFlow's
// "gdcficonn"): level l joins g_l copies of the level-(l-1) network (numbered 0..g_l-1) by exactly one
// server-to-server link per pair of copies. Level 0 is n servers on one n-port switch. The families
// differ only in which servers of a copy carry the level-l links and how they are paired:
//
// - DCell (Guo et al., SIGCOMM 2008, Sec. 3): every server has one link per level, so a copy of t_(l-1)
//   servers meets g_l = t_(l-1) + 1 copies; servers have k+1 ports. Pairing: rule alpha (BuildDCells) or
//   rule beta (Kliegl et al. 2010), see topologies/dcell_rules.hpp.
// - FiConn (Li et al., INFOCOM 2009, Sec. III): dual-port servers; the servers of a copy whose backup
//   port is still free are the b_(l-1) = t_(l-1) / 2^(l-1) with l-1 trailing one bits in their uid; half of
//   them (l-1 trailing ones then a zero) take a level-l link, so g_l = b_(l-1)/2 + 1. For copies i < j
//   server [i, (j-1) 2^l + 2^(l-1) - 1] is cabled to server [j, i 2^l + 2^(l-1) - 1].
//
// Labelling (the routings rely on it):
// - Server uid u (0..t_k-1) is vertex and endpoint u; inside a level-l network it lies in copy
//   (u / t_(l-1)) mod g_l with the uid u mod t_(l-1) inside that copy.
// - Switch s (0..t_k/n - 1) is vertex t_k + s; its port p goes to server s n + p.
// - Server port 0 goes to its switch. DCell rules: port l (1..k) is the level-l link. FiConn: port 1
//   (the backup port) carries the server's only level link, absent when the backup port is free.
//   The link on port p of any vertex v is net.out_begin(v) + p.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "topologies/dcell_rules.hpp"

namespace interflow::topo {

enum class DcnRule { DCellAlpha, DCellBeta, FiConn };

std::string to_string(DcnRule rule);

class RecursiveDcnTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevel = 16;  // t_k grows doubly exponentially: 2^31 servers come first

  RecursiveDcnTopology(std::string family, DcnRule rule, std::uint32_t n, std::uint32_t k,
                       const LinkDefaults& defaults);

  DcnRule rule() const { return rule_; }
  bool is_dcell() const { return rule_ != DcnRule::FiConn; }
  std::uint32_t n() const { return n_; }
  std::uint32_t k() const { return k_; }
  // Servers in a level-l network, 0 <= l <= k (t(k) is the whole network).
  std::uint32_t t(std::uint32_t level) const { return t_[level]; }
  // Copies of the level-(l-1) network in a level-l network, 1 <= l <= k.
  std::uint32_t g(std::uint32_t level) const { return g_[level]; }
  std::uint32_t num_servers() const { return t_[k_]; }
  VertexId switch_of(EndpointId u) const { return t_[k_] + u / n_; }

  // The server port that carries level-l links.
  std::uint32_t level_port(std::uint32_t level) const { return is_dcell() ? level : 1; }
  // Whether server u has a level-l link (1 <= l <= k).
  bool has_level_link(EndpointId u, std::uint32_t level) const {
    return is_dcell() || ficonn_backup_level(u % t_[level - 1]) == level;
  }
  // Uid inside copy `from` of the server whose level-l link leads to copy `to` (from != to, both < g_l).
  std::uint32_t gateway_inner(std::uint32_t from, std::uint32_t to, std::uint32_t level) const;
  // The copy that the level-l link of the server with uid `inner` inside copy `from` leads to
  // (has_level_link must hold).
  std::uint32_t link_target_copy(std::uint32_t from, std::uint32_t inner, std::uint32_t level) const;
  // The server at the other end of server u's level-l link (has_level_link(u, level) must hold).
  EndpointId level_peer(EndpointId u, std::uint32_t level) const {
    const std::uint32_t sub = t_[level - 1];
    const EndpointId base = u - u % t_[level];
    const std::uint32_t copy = (u - base) / sub;
    const std::uint32_t other = link_target_copy(copy, u % sub, level);
    return base + other * sub + gateway_inner(other, copy, level);
  }
  // FiConn: the level of a server's backup link, 1 + the trailing one bits of its uid.
  static std::uint32_t ficonn_backup_level(EndpointId u) {
    std::uint32_t level = 1;
    for (; u & 1U; u >>= 1) ++level;
    return level;
  }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return is_dcell() ? "dcell" : "ficonn"; }

 private:
  DcnRule rule_;
  std::uint32_t n_, k_;
  std::vector<std::uint32_t> t_, g_;
};

}  // namespace interflow::topo
