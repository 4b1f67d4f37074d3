#include "topologies/torus.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "topologies/registry.hpp"
#include "topologies/trunks.hpp"

namespace interflow::topo {

TorusTopology::TorusTopology(std::vector<std::uint32_t> dims, bool wrap, std::uint32_t endpoints_per_router,
                             const LinkDefaults& defaults)
    : Topology(wrap ? "torus" : "mesh"), dims_(std::move(dims)), wrap_(wrap), per_router_(endpoints_per_router) {
  std::uint64_t routers = 1;
  for (auto k : dims_) {
    stride_.push_back(static_cast<std::uint32_t>(routers));
    routers *= k;
    if (routers > (1ULL << 31)) throw InputError(family() + ": more than 2^31 routers");
  }
  routers_ = static_cast<std::uint32_t>(routers);
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    stride_div_.emplace_back(stride_[d]);
    dim_div_.emplace_back(dims_[d]);
  }
  if (per_router_ > 0) per_router_div_ = FastDivider(per_router_);
  const std::uint64_t endpoints = per_router_ == 0 ? routers : routers * per_router_;
  if (endpoints > (1ULL << 31)) throw InputError(family() + ": more than 2^31 endpoints");

  NetworkBuilder b(defaults);
  std::uint64_t cables = endpoints * (per_router_ > 0);
  for (auto k : dims_) cables += (routers / k) * (k >= 3 && wrap_ ? k : k - 1);
  b.reserve(routers + (per_router_ > 0 ? endpoints : 0), cables);
  b.add_switches(routers_);
  // Cable from every router to its successor in each dimension: a ring of k >= 3 routers has k
  // cables; a ring of 2 has one (its two neighbours coincide); a mesh line of k has k-1.
  // A regular torus (every radix >= 3) numbers router ports: 2d is the + neighbour of dimension d,
  // 2d+1 the - neighbour, then the endpoint ports; routings then compute link ids directly.
  regular_ = wrap_ && std::all_of(dims_.begin(), dims_.end(), [](std::uint32_t k) { return k >= 3; });
  const auto n = static_cast<std::uint32_t>(dims_.size());
  for (VertexId r = 0; r < routers_; ++r) {
    for (std::uint32_t d = 0; d < n; ++d) {
      const std::uint32_t k = dims_[d];
      const std::uint32_t x = coordinate(r, d);
      const std::uint32_t up_port = regular_ ? 2 * d : kNone;
      const std::uint32_t down_port = regular_ ? 2 * d + 1 : kNone;
      if (x + 1 < k)
        b.add_cable(r, r + stride_[d], -1, -1, up_port, down_port);
      else if (wrap_ && k >= 3)
        b.add_cable(r, r - x * stride_[d], -1, -1, up_port, down_port);
    }
  }
  if (per_router_ == 0) {
    for (VertexId r = 0; r < routers_; ++r) b.add_direct_endpoint(r);
  } else {
    for (VertexId r = 0; r < routers_; ++r)
      for (std::uint32_t j = 0; j < per_router_; ++j) {
        VertexId v = 0;
        b.add_endpoint_vertex(&v);
        b.add_cable(v, r, -1, -1, 0, regular_ ? 2 * n + j : kNone);
      }
  }
  net_ = b.build();
}

std::vector<std::uint32_t> TorusTopology::endpoint_grid() const {
  std::vector<std::uint32_t> grid;
  if (per_router_ > 1) grid.push_back(per_router_);
  grid.insert(grid.end(), dims_.begin(), dims_.end());
  return grid;
}

std::vector<TopologyFact> TorusTopology::facts_with_trunks(std::uint32_t trunks) const {
  std::vector<TopologyFact> out;
  double diameter = per_router_ > 0 ? 2 : 0;
  for (auto k : dims_) diameter += wrap_ ? k / 2 : k - 1;
  out.push_back({"diameter_links", diameter, "longest shortest path between endpoints, in links"});
  const std::uint32_t kmax = *std::max_element(dims_.begin(), dims_.end());
  if (kmax % 2 == 0) {
    // Halving the largest dimension cuts each of its rings once (mesh, or ring of 2) or twice.
    const double rings = static_cast<double>(routers_) / kmax;
    const double per_ring = (wrap_ && kmax >= 3) ? 2.0 : 1.0;
    out.push_back({"bisection_cables", rings * per_ring * trunks,
                   trunks == 1 ? "cables cut by halving the largest (even) dimension: the minimum bisection"
                               : "cables cut by halving the largest (even) dimension, T per trunk: the minimum "
                                 "bisection of the router grid"});
  }
  return out;
}

void register_torus(TopologyRegistry& registry) {
  auto params = [] {
    return std::vector<ParamSpec>{
        dims_param("dims", "8x8x8", "routers per dimension, e.g. 16x16x16 (any radix, any number of dimensions)", 1),
        int_param("c", "0",
                  "endpoints per router: 0 = direct network (the router is the endpoint, no injection link, as "
                  "INRFlow models tori); c >= 1 = c endpoints on their own links",
                  0, 1 << 16),
        trunks_param(),
    };
  };
  auto make = [](bool wrap) {
    return [wrap](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
      return with_trunks(std::make_unique<TorusTopology>(p.get_dims("dims"), wrap,
                                                         static_cast<std::uint32_t>(p.get_int("c")), defaults),
                         p);
    };
  };
  registry.add({"torus", "n-dimensional torus (k-ary n-cube with mixed radix), wrap-around links", params(), make(true),
                "Routers are numbered in mixed radix, dimension 0 fastest. A ring of k >= 3 routers has k cables; "
                "a dimension of radix 2 has one cable per pair (its two neighbours coincide); radix 1 adds no "
                "cable. Endpoint e sits on router e (c = 0) or router e / c (c >= 1)." +
                    trunks_details(),
                "torus:dims=4x4x4"});
  registry.add({"mesh", "n-dimensional mesh: a torus without wrap-around links", params(), make(false),
                "As torus, but a line of k routers has k-1 cables." + trunks_details(), "mesh:dims=4x4,c=2"});
}

}  // namespace interflow::topo
