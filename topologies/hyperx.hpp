#pragma once
// HyperX (Ahn, Binkert, Davis, McLaren, Schreiber, "HyperX: topology, routing, and packaging of
// efficient large-scale networks", SC 2009, §3): routers on an L-dimensional grid S_0 x .. x S_{L-1};
// every router is joined by K parallel cables to every router that differs from it in exactly one
// coordinate, and hosts p endpoints. The flattened butterfly (Kim, Dally, Abts, ISCA 2007) is the
// HyperX with K = 1.
//
// Numbering (routings rely on it): router index = mixed-radix number of its coordinates, dimension 0
// fastest. Endpoint vertices 0..R*p-1 (vertex e is endpoint e), endpoint e on router e / p at its port
// e % p; router i is vertex R*p + i. A router's out-links: ports 0..p-1 to its endpoints, then for each
// dimension d in order, for each other coordinate value c != own in ascending order (rank
// c - (c > own)), K parallel cables: port p + offset_d + rank * K + m, offset_d = K * sum_{i<d}(S_i - 1).
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

class HyperXTopology : public Topology {
 public:
  HyperXTopology(std::string family, std::vector<std::uint32_t> dims, std::uint32_t parallel,
                 std::uint32_t endpoints_per_router, const LinkDefaults& defaults);

  const std::vector<std::uint32_t>& dims() const { return dims_; }
  std::uint32_t num_dims() const { return static_cast<std::uint32_t>(dims_.size()); }
  std::uint32_t parallel() const { return k_; }
  std::uint32_t endpoints_per_router() const { return p_; }
  std::uint32_t num_routers() const { return routers_; }
  std::uint32_t stride(std::uint32_t d) const { return stride_[d]; }  // prod_{i<d} S_i
  VertexId router_vertex(std::uint32_t router) const { return routers_ * p_ + router; }
  std::uint32_t router_of(EndpointId e) const { return e / p_; }
  std::uint32_t coordinate(std::uint32_t router, std::uint32_t d) const { return (router / stride_[d]) % dims_[d]; }
  // Port of `router` on the m-th cable towards the router whose coordinate d is `to` (!= own).
  std::uint32_t port_towards(std::uint32_t router, std::uint32_t d, std::uint32_t to, std::uint32_t m) const {
    const std::uint32_t own = coordinate(router, d);
    return p_ + offset_[d] + (to - (to > own ? 1 : 0)) * k_ + m;
  }
  // The router reached by setting coordinate d of `router` to `to`.
  std::uint32_t with_coordinate(std::uint32_t router, std::uint32_t d, std::uint32_t to) const {
    return router + (to - coordinate(router, d)) * stride_[d];
  }

  std::vector<std::uint32_t> endpoint_grid() const override;
  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return "hxdor"; }

 private:
  std::vector<std::uint32_t> dims_;
  std::uint32_t k_, p_;
  std::uint32_t routers_ = 0;
  std::vector<std::uint32_t> stride_, offset_;
};

}  // namespace interflow::topo
