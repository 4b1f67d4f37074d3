#pragma once
// BCube(n, k): the server-centric network of Guo et al., "BCube: a high performance, server-centric
// network architecture for modular data centers", SIGCOMM 2009, Sec. 3.1.
//
// Labelling (the routing relies on it):
// - Server (endpoint) e has the address a_k .. a_0, its base-n digits (a_0 least significant).
//   Vertices 0..n^(k+1)-1 are the servers (vertex e is endpoint e).
// - Level l (0..k) has n^k switches of n ports. The level-l switch of server a_k..a_0 is the one
//   whose address is a_k..a_{l+1} a_{l-1}..a_0 (digit l dropped); its index within the level is
//   that number read in base n. Switch vertices follow the servers, level 0 first, each level in
//   index order.
// - Port l of a server goes to its level-l switch and arrives there on port a_l, so the link on
//   port p of any vertex v is net.out_begin(v) + p.
#include <array>
#include <cstdint>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class BCubeTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevel = 31;

  BCubeTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults);

  std::uint32_t n() const { return n_; }
  std::uint32_t k() const { return k_; }
  std::uint32_t num_servers() const { return servers_; }
  std::uint32_t switches_per_level() const { return per_level_; }
  // n^i for 0 <= i <= k+1.
  std::uint64_t pow_n(std::uint32_t i) const { return pow_n_[i]; }

  // Digit l of server e's address.
  std::uint32_t digit(EndpointId e, std::uint32_t level) const {
    return static_cast<std::uint32_t>((e / pow_n_[level]) % n_);
  }
  // Index within level l of server e's level-l switch (its address with digit l dropped).
  std::uint32_t switch_index(EndpointId e, std::uint32_t level) const {
    const std::uint64_t low = e % pow_n_[level];
    return static_cast<std::uint32_t>(low + (e / pow_n_[level + 1]) * pow_n_[level]);
  }
  VertexId switch_vertex(std::uint32_t level, std::uint32_t index) const {
    return servers_ + level * per_level_ + index;
  }
  // The server on port p of switch `index` at `level` (digit l of its address is p).
  EndpointId server_on_port(std::uint32_t level, std::uint32_t index, std::uint32_t p) const {
    const std::uint64_t low = index % pow_n_[level];
    const std::uint64_t high = index / pow_n_[level];
    return static_cast<EndpointId>(low + p * pow_n_[level] + high * pow_n_[level + 1]);
  }

  std::vector<TopologyFact> facts() const override;
  std::vector<std::uint32_t> endpoint_grid() const override { return std::vector<std::uint32_t>(k_ + 1, n_); }
  std::string default_routing() const override { return "bcube"; }

 private:
  std::uint32_t n_, k_;
  std::uint32_t servers_ = 0, per_level_ = 0;
  std::array<std::uint64_t, kMaxLevel + 2> pow_n_{};
};

}  // namespace interflow::topo
