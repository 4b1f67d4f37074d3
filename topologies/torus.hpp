#pragma once
// n-dimensional torus and mesh with any radix per dimension.
#include <cstdint>
#include <vector>

#include "core/fast_divide.hpp"
#include "core/topology.hpp"

namespace interflow::topo {

class TorusTopology : public Topology {
 public:
  // endpoints_per_router = 0 builds a direct network: each router is itself the endpoint, with no
  // injection link (how INRFlow models tori). c >= 1 hangs c endpoints off each router on links.
  TorusTopology(std::vector<std::uint32_t> dims, bool wrap, std::uint32_t endpoints_per_router,
                const LinkDefaults& defaults);

  const std::vector<std::uint32_t>& dims() const { return dims_; }
  bool wrap() const { return wrap_; }
  std::uint32_t endpoints_per_router() const { return per_router_; }
  std::uint32_t num_routers() const { return routers_; }
  // Router vertices are 0..num_routers-1, numbered in mixed radix with dimension 0 fastest.
  std::uint32_t stride(std::size_t dim) const { return stride_[dim]; }
  VertexId router_of(EndpointId e) const { return per_router_ == 0 ? e : per_router_div_.quotient(e); }
  std::uint32_t coordinate(VertexId router, std::size_t dim) const {
    return dim_div_[dim].remainder(stride_div_[dim].quotient(router));
  }

  // Whether ports are numbered arithmetically: the link one step along `dim` is out-link
  // 2 * dim + (step < 0) of its router (a torus with every radix >= 3).
  bool regular() const { return regular_; }
  // The link from `router` to its neighbour `next` one step (+1/-1) along `dim`.
  LinkId link_toward(VertexId router, std::size_t dim, int step, VertexId next) const {
    if (regular_) return net_.out_begin(router) + static_cast<LinkId>(2 * dim + (step < 0 ? 1 : 0));
    return net_.find_link(router, next);
  }

  std::vector<std::uint32_t> endpoint_grid() const override;
  std::vector<TopologyFact> facts() const override { return facts_with_trunks(1); }
  std::vector<TopologyFact> facts_with_trunks(std::uint32_t trunks) const override;
  std::string default_routing() const override { return "dor"; }
  bool endpoints_symmetric() const override { return wrap_; }
  BlockGrid block_grid() const override { return {endpoint_grid(), wrap_, dims_}; }

 private:
  std::vector<std::uint32_t> dims_;
  std::vector<std::uint32_t> stride_;
  std::vector<FastDivider> stride_div_, dim_div_;  // the same divisions without a hardware divide
  FastDivider per_router_div_;
  bool wrap_;
  bool regular_ = false;  // torus with every radix >= 3: ports are numbered arithmetically
  std::uint32_t per_router_;
  std::uint32_t routers_ = 1;
};

}  // namespace interflow::topo
