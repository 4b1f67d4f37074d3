#pragma once
// DPillar(n,k) (Liao, Yin, Gao, "DPillar: scalable dual-port server interconnection for data center
// networks", ICCCN 2010; Liao, Yin, Yin, Gao, Computer Networks 56(8), 2012): a server-centric network
// of dual-port servers and n-port switches. Servers forward traffic; switches only connect servers.
//
// k server columns H_0..H_{k-1} and k switch columns S_0..S_{k-1} alternate around a ring
// (H_0, S_0, H_1, S_1, .., H_{k-1}, S_{k-1}, back to H_0). Every server column holds m^k servers,
// m = n/2, labelled by k base-m digits v_{k-1}..v_0; every switch column holds m^(k-1) switches.
// The switch of S_i for the labels that agree on every digit but digit i connects the m servers of
// H_i and the m servers of H_{i+1 mod k} with those labels (the m values of digit i on each side).
//
// Numbering (routings compute link ids from it):
// - Server vertices first, and they are the endpoints: server (column c, label x) is vertex
//   c * m^k + x, with x = sum v_i m^i.
// - Switch vertices follow: m^k * k + i * m^(k-1) + r, r = the label without digit i
//   (x mod m^i + (x / m^(i+1)) * m^i).
// - Server port 0 goes to its switch in S_c (towards H_{c+1}, "clockwise"), port 1 to its switch
//   in S_{c-1} (towards H_{c-1}). Switch port p < m is the server of H_i with digit i = p; port m + p
//   the server of H_{i+1} with digit i = p.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class DPillarTopology : public Topology {
 public:
  DPillarTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults);

  std::uint32_t n() const { return n_; }
  std::uint32_t k() const { return k_; }
  std::uint32_t m() const { return n_ / 2; }
  std::uint32_t servers_per_column() const { return per_column_; }
  std::uint64_t pow_m(std::uint32_t i) const { return pow_m_[i]; }

  std::uint32_t column_of(VertexId server) const { return server / per_column_; }
  std::uint32_t label_of(VertexId server) const { return server % per_column_; }
  std::uint32_t digit(std::uint32_t label, std::uint32_t i) const {
    return static_cast<std::uint32_t>((label / pow_m_[i]) % m());
  }
  VertexId server(std::uint32_t column, std::uint32_t label) const { return column * per_column_ + label; }
  VertexId switch_vertex(std::uint32_t column, std::uint32_t label) const;

  // Longest shortest path between servers, in server hops (switch crossings; 2 links each).
  std::uint32_t diameter_hops() const;

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "dpillar"; }

 private:
  std::uint32_t n_, k_;
  std::uint32_t per_column_ = 0;
  std::vector<std::uint64_t> pow_m_;
};

}  // namespace interflow::topo
