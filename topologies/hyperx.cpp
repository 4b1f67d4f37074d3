#include "topologies/hyperx.hpp"

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

std::string shape(const std::string& family, const std::vector<std::uint32_t>& dims, std::uint32_t k, std::uint32_t p) {
  std::string s = family + " S=";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
  if (family != "flatbutterfly") s += ", K=" + std::to_string(k);
  return s + ", p=" + std::to_string(p);
}

}  // namespace

HyperXTopology::HyperXTopology(std::string family, std::vector<std::uint32_t> dims, std::uint32_t parallel,
                               std::uint32_t endpoints_per_router, const LinkDefaults& defaults)
    : Topology(std::move(family)), dims_(std::move(dims)), k_(parallel), p_(endpoints_per_router) {
  const std::string what = shape(this->family(), dims_, k_, p_);
  if (dims_.empty()) throw InputError(what + ": S needs at least one dimension");
  for (std::uint32_t s : dims_)
    if (s < 2) throw InputError(what + ": every dimension needs at least 2 routers");
  if (k_ < 1) throw InputError(what + ": K (cables between two routers of a row) must be at least 1");
  if (p_ < 1) throw InputError(what + ": p (endpoints per router) must be at least 1");

  std::uint64_t routers = 1, radix = p_;
  for (std::uint32_t s : dims_) {
    stride_.push_back(static_cast<std::uint32_t>(routers));
    offset_.push_back(static_cast<std::uint32_t>(radix - p_));
    routers *= s;
    radix += static_cast<std::uint64_t>(s - 1) * k_;
    if (routers > kMaxNetworkVertices || radix > kMaxNetworkVertices)
      throw InputError(what + ": more than 2^31 routers or ports per router, the largest network supported");
  }
  const std::uint64_t endpoints = routers * p_;
  const std::uint64_t vertices = endpoints + routers;
  const std::uint64_t cables = endpoints + routers * (radix - p_) / 2;
  check_network_size(what, vertices, "routers plus endpoints", cables);
  routers_ = static_cast<std::uint32_t>(routers);

  NetworkBuilder b(defaults);
  b.reserve(vertices, cables);
  for (std::uint64_t e = 0; e < endpoints; ++e) b.add_endpoint_vertex();
  b.add_switches(routers_);
  for (EndpointId e = 0; e < endpoints; ++e) b.add_cable(e, router_vertex(e / p_), -1, -1, 0, e % p_);
  // Each cable once, from the router with the lower coordinate; ports from the labelling.
  for (std::uint32_t r = 0; r < routers_; ++r)
    for (std::uint32_t d = 0; d < num_dims(); ++d) {
      const std::uint32_t own = coordinate(r, d);
      for (std::uint32_t to = own + 1; to < dims_[d]; ++to) {
        const std::uint32_t t = with_coordinate(r, d, to);
        for (std::uint32_t m = 0; m < k_; ++m)
          b.add_cable(router_vertex(r), router_vertex(t), -1, -1, port_towards(r, d, to, m),
                      port_towards(t, d, own, m));
      }
    }
  net_ = b.build();
}

std::vector<std::uint32_t> HyperXTopology::endpoint_grid() const {
  if (p_ == 1) return dims_;
  std::vector<std::uint32_t> grid{p_};
  grid.insert(grid.end(), dims_.begin(), dims_.end());
  return grid;
}

std::vector<TopologyFact> HyperXTopology::facts() const {
  std::vector<TopologyFact> out;
  out.push_back({"diameter_links", static_cast<double>(num_dims() + 2),
                 "longest shortest path between endpoints, in links: one router hop per dimension (L) plus the "
                 "two endpoint links"});
  std::uint32_t cut_dim = kNone;
  for (std::uint32_t d = 0; d < num_dims(); ++d)
    if (dims_[d] % 2 == 0 && (cut_dim == kNone || dims_[d] < dims_[cut_dim])) cut_dim = d;
  if (cut_dim != kNone)
    out.push_back({"bisection_cables", static_cast<double>(routers_) * dims_[cut_dim] * k_ / 4.0,
                   "cables crossing the cut that splits dimension " + std::to_string(cut_dim) +
                       " (the smallest even S_d) into halves: R * S_d * K / 4 (each of the R / S_d rows has "
                       "(S_d/2)^2 router pairs across, K cables each); an upper bound on the minimum bisection"});
  return out;
}

void register_hyperx(TopologyRegistry& registry) {
  const std::string numbering =
      " Numbering: a router's index is the mixed-radix number of its coordinates, dimension 0 fastest; endpoint "
      "vertices 0..R*p-1 come first (vertex e is endpoint e, on router e / p at port e % p), router i is vertex "
      "R*p + i. A router's out-links are its p endpoint ports, then for each dimension d in order and each other "
      "coordinate value c in ascending order, K parallel cables at ports p + K*sum_{i<d}(S_i - 1) + "
      "K*rank(c) + m, where rank(c) = c, or c - 1 when c is above the router's own coordinate. Sizes: R = prod "
      "S_i routers of radix p + K*sum(S_i - 1); R*K*sum(S_i - 1)/2 router cables plus R*p endpoint cables; "
      "diameter L + 2 links between endpoints.";
  registry.add({"hyperx",
                "HyperX: routers on a grid, each joined by K cables to every router differing in one coordinate",
                {dims_param("S", "4x4", "routers per dimension, e.g. 8x8x4 (each at least 2)", 2),
                 int_param("K", "1", "parallel cables between two routers of the same dimension row", 1, 1 << 16),
                 int_param("p", "1", "endpoints per router", 1, 1 << 20)},
                [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
                  return std::make_unique<HyperXTopology>("hyperx", p.get_dims("S"),
                                                          static_cast<std::uint32_t>(p.get_int("K")),
                                                          static_cast<std::uint32_t>(p.get_int("p")), defaults);
                },
                "Ahn, Binkert, Davis, McLaren, Schreiber, 'HyperX: topology, routing, and packaging of efficient "
                "large-scale networks', SC 2009, section 3: an L-dimensional array of routers S_0 x .. x S_{L-1} in "
                "which every dimension row is a complete graph with K cables per router pair (K is the paper's "
                "trunking factor)." +
                    numbering + " Routings: hxdor (default), hxminadaptive, or any generic one.",
                "hyperx:S=4x3,K=2,p=2"});
  registry.add({"flatbutterfly",
                "flattened butterfly: the HyperX with one cable between routers of a row (K = 1)",
                {dims_param("S", "4x4",
                            "routers per dimension, e.g. 8x8x8 (each at least 2); a k-ary n-flat is "
                            "n-1 dimensions of k",
                            2),
                 int_param("p", "4", "endpoints per router (the concentration; k for a k-ary n-flat)", 1, 1 << 20)},
                [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
                  return std::make_unique<HyperXTopology>("flatbutterfly", p.get_dims("S"), 1,
                                                          static_cast<std::uint32_t>(p.get_int("p")), defaults);
                },
                "Kim, Dally, Abts, 'Flattened butterfly: a cost-efficient topology for high-radix networks', ISCA "
                "2007, section 3: the k-ary n-flat flattens the routers of each row of a k-ary n-fly butterfly into "
                "one, giving k^(n-1) routers, each joined to every router that differs in one of the n-1 "
                "coordinates, with k endpoints each: S = k x .. x k (n-1 entries), p = k. Built as the HyperX "
                "with K = 1 (same numbering, same routings hxdor and hxminadaptive)." +
                    numbering,
                "flatbutterfly:S=4x4,p=2"});
}

}  // namespace interflow::topo
