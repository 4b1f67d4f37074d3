#pragma once
// Jellyfish (Singla, Hong, Popa, Godfrey, "Jellyfish: networking data centers randomly", NSDI 2012,
// §3): N switches of k ports; r ports of each switch form a random r-regular graph among the
// switches and the other p = k - r ports host servers.
//
// Numbering (documented in the registry entry): endpoint vertices 0..N*p-1 (vertex e is endpoint e),
// endpoint e on switch e / p at that switch's port e % p; switch vertices follow, switch s is vertex
// N*p + s. A switch's out-links are its p endpoint ports, then its r switch links in ascending order
// of the neighbour switch.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

// A simple connected r-regular graph on n vertices as an edge list (u < v), drawn from `seed` with the
// Jellyfish incremental procedure plus its edge-swap fix-up, and joined into one component by swaps.
// Throws InputError when the degree sequence is impossible (n*r odd, r >= n, r = 1 with n > 2).
std::vector<std::pair<std::uint32_t, std::uint32_t>> random_regular_graph(std::uint32_t n, std::uint32_t r,
                                                                          std::uint64_t seed, const std::string& what);

class JellyfishTopology : public Topology {
 public:
  JellyfishTopology(std::uint32_t switches, std::uint32_t ports, std::uint32_t switch_ports, std::uint64_t seed,
                    const LinkDefaults& defaults);

  std::uint32_t num_switches() const { return n_; }
  std::uint32_t switch_degree() const { return r_; }
  std::uint32_t endpoints_per_switch() const { return p_; }
  VertexId switch_vertex(std::uint32_t s) const { return n_ * p_ + s; }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "bfs"; }

 private:
  std::uint32_t n_, r_, p_;
};

}  // namespace interflow::topo
