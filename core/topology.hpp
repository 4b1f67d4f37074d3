#pragma once
// A built topology: the network plus what routings and patterns may need to know about its shape.
// Topology families live in topologies/ and derive from this; the engine only sees the Network.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/network.hpp"

namespace interflow {

// A fact about a topology for `interflow topo` and summary.json (e.g. the closed-form bisection).
struct TopologyFact {
  std::string key;
  double value;
  std::string meaning;
};

// A grid whose neighbouring cells are neighbouring routers (a torus or a mesh): a set of endpoints
// forming a sub-block of it talks over links of its own. Dimension 0 fastest, as endpoint_grid().
struct BlockGrid {
  std::vector<std::uint32_t> dims;  // empty: the topology has no such grid
  bool wraps = false;               // each dimension is a ring (a torus)
  std::vector<std::uint32_t> routers;  // the routers' own grid (vertices 0.. in mixed radix), without
                                       // the endpoints per router that `dims` may begin with
};

class Topology {
 public:
  explicit Topology(std::string family) : family_(std::move(family)) {}
  virtual ~Topology() = default;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  const std::string& family() const { return family_; }
  Network& network() { return net_; }
  const Network& network() const { return net_; }

  // Shape of the endpoints as a grid, dimension 0 varying fastest (endpoint id in mixed radix), for
  // grid patterns such as nearest neighbour and tornado. Empty when the topology has no grid.
  virtual std::vector<std::uint32_t> endpoint_grid() const { return {}; }
  // Closed-form facts (bisection width, diameter, ...) the family knows.
  virtual std::vector<TopologyFact> facts() const { return {}; }
  // The facts of the same topology with every switch-to-switch cable made a trunk of `trunks` parallel
  // cables (topologies/trunks.hpp). Families that offer the `trunks` parameter override it (their facts()
  // is this with 1); no other family is ever asked for more than one cable.
  virtual std::vector<TopologyFact> facts_with_trunks(std::uint32_t trunks) const {
    if (trunks != 1) throw std::logic_error(family_ + " has no trunks");
    return facts();
  }
  // True when the network's automorphisms map any endpoint to any other (a torus, not a mesh): one
  // distance search then stands for all.
  virtual bool endpoints_symmetric() const { return false; }
  // The grid of neighbouring routers, for allocations that hand jobs compact sub-blocks (none by default).
  virtual BlockGrid block_grid() const { return {}; }
  // The routing used when the user names none.
  virtual std::string default_routing() const { return "bfs"; }
  // The switch vertices of each group, for families built of groups (dragonfly, megafly); empty for
  // the others (the hybrid zoom's `group` selection).
  virtual std::vector<std::vector<VertexId>> switch_groups() const { return {}; }

 protected:
  Network net_;

 private:
  std::string family_;
};

}  // namespace interflow
