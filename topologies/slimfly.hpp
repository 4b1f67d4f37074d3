#pragma once
// Slim Fly (Besta & Hoefler, "Slim Fly: a cost effective low-diameter network topology", SC 2014,
// §III-A): routers form the McKay–Miller–Širáň (MMS) graph of diameter 2 over GF(q), q = 4w + δ a
// prime power with δ in {-1, 0, 1}. Routers (0,x,y) and (1,m,c), x, y, m, c in GF(q), 2q² in all:
//   (0,x,y) ~ (0,x,y')  iff y - y' in X;   (1,m,c) ~ (1,m,c')  iff c - c' in X';
//   (0,x,y) ~ (1,m,c)   iff y = m x + c.
// With ξ a primitive element of GF(q) (GaloisField::primitive()):
//   δ = +1: X = {1, ξ², ..., ξ^(q-3)} (even powers);
//   δ = -1: X = {1, ξ², ..., ξ^(2w-2)} ∪ {ξ^(2w-1), ξ^(2w+1), ..., ξ^(4w-3)};
//   δ =  0: X = {1, ξ², ..., ξ^(q-2)};
// and X' = ξ X in every case. |X| = |X'| = (q - δ)/2, so every router has network radix
// k' = (3q - δ)/2.
//
// Numbering (routings compute link ids from it):
// - Endpoint vertices 0..N-1, N = 2q² p; endpoint e is on router e / p, at router port e mod p.
// - Router r is vertex N + r: r = x q + y for (0,x,y), r = q² + m q + c for (1,m,c).
// - Router ports: 0..p-1 endpoints; p + i (0 <= i < |X|) to the same-subgraph router whose last
//   coordinate is larger by X[i] (X'[i] in subgraph 1); p + |X| + j to the other subgraph: from
//   (0,x,y) to (1, j, y - j x), from (1,m,c) to (0, j, m j + c).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "topologies/galois_field.hpp"

namespace interflow::topo {

class SlimFlyTopology : public Topology {
 public:
  SlimFlyTopology(std::uint32_t q, std::uint32_t p, const LinkDefaults& defaults);

  // δ of q = 4w + δ (-1, 0 or 1) for a prime power q >= 3, or nothing (q of no such form).
  static std::optional<int> delta_of(std::uint32_t q);
  // ⌈k'/2⌉, the endpoints per router Besta & Hoefler suggest (§III-B) for network radix k'.
  static std::uint32_t default_endpoints(std::uint32_t q);

  std::uint32_t q() const { return q_; }
  int delta() const { return delta_; }
  std::uint32_t endpoints_per_router() const { return p_; }
  std::uint32_t num_routers() const { return 2 * q_ * q_; }
  std::uint32_t network_radix() const { return static_cast<std::uint32_t>(generators_[0].size()) + q_; }
  const GaloisField& field() const { return field_; }
  // Generator set X (subgraph 0) or X' (subgraph 1), in the order of the router ports.
  const std::vector<std::uint32_t>& generators(std::uint32_t subgraph) const { return generators_[subgraph]; }
  // Index of element d in generators(subgraph), or kNone when d is not in the set.
  std::uint32_t generator_index(std::uint32_t subgraph, std::uint32_t d) const { return position_[subgraph][d]; }

  std::uint32_t router_of(EndpointId e) const { return e / p_; }
  VertexId router_vertex(std::uint32_t r) const { return p_ * num_routers() + r; }
  std::uint32_t router_index(VertexId v) const { return v - p_ * num_routers(); }
  std::uint32_t subgraph(std::uint32_t r) const { return r < q_ * q_ ? 0 : 1; }
  std::uint32_t first_coord(std::uint32_t r) const { return (r % (q_ * q_)) / q_; }  // x or m
  std::uint32_t second_coord(std::uint32_t r) const { return r % q_; }               // y or c
  std::uint32_t router(std::uint32_t s, std::uint32_t a, std::uint32_t b) const { return s * q_ * q_ + a * q_ + b; }
  // The port of router r leading to router t, or kNone when they are not adjacent (or equal).
  std::uint32_t port_toward(std::uint32_t r, std::uint32_t t) const;

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "sfmin"; }

 private:
  std::uint32_t q_, p_;
  int delta_;
  GaloisField field_;
  std::vector<std::uint32_t> generators_[2];
  std::vector<std::uint32_t> position_[2];
};

}  // namespace interflow::topo
