#include "topologies/slimfly.hpp"

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

std::string shape(std::uint32_t q, std::uint32_t p) {
  return "slimfly q=" + std::to_string(q) + ", p=" + std::to_string(p);
}

// Refuses q before the field is built: it must be a prime power of the form 4w + δ.
std::uint32_t checked_q(std::uint32_t q, std::uint32_t p) {
  if (!prime_power(q))
    throw InputError(shape(q, p) + ": q must be a prime power (the MMS graph is built over the field GF(q)); " +
                     std::to_string(q) + " is not");
  if (!SlimFlyTopology::delta_of(q))
    throw InputError(shape(q, p) + ": q must be a prime power of the form 4w + δ with δ in {-1, 0, 1}, i.e. q >= 3 " +
                     "and q mod 4 != 2; " + std::to_string(q) + " is not");
  return q;
}

}  // namespace

std::optional<int> SlimFlyTopology::delta_of(std::uint32_t q) {
  if (q < 3 || !prime_power(q)) return std::nullopt;
  switch (q % 4) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 3:
      return -1;
    default:
      return std::nullopt;
  }
}

std::uint32_t SlimFlyTopology::default_endpoints(std::uint32_t q) {
  const int delta = delta_of(q).value_or(0);
  const auto radix = static_cast<std::uint32_t>((3 * static_cast<std::int64_t>(q) - delta) / 2);
  return (radix + 1) / 2;
}

SlimFlyTopology::SlimFlyTopology(std::uint32_t q, std::uint32_t p, const LinkDefaults& defaults)
    : Topology("slimfly"), q_(checked_q(q, p)), p_(p), delta_(*delta_of(q)), field_(q) {
  const std::string what = shape(q, p);
  if (p < 1) throw InputError(what + ": p (endpoints per router) must be at least 1");
  const std::uint64_t routers = 2ULL * q * q;
  const auto radix = static_cast<std::uint64_t>((3 * std::int64_t{q} - delta_) / 2);  // k' = (3q - δ)/2
  const std::uint64_t endpoints = routers * p;
  const std::uint64_t cables = endpoints + routers * radix / 2;
  check_network_size(what, endpoints + routers, "endpoints plus routers", cables);

  // Generator sets from the primitive element ξ (Besta & Hoefler 2014 §III-A, after Hafner 2004).
  std::vector<std::uint32_t>& x = generators_[0];
  if (delta_ == -1) {
    const std::uint32_t w = (q + 1) / 4;
    for (std::uint32_t i = 0; i < w; ++i) x.push_back(field_.power(2 * i));
    for (std::uint32_t i = 0; i < w; ++i) x.push_back(field_.power(2 * w - 1 + 2 * i));
  } else {
    for (std::uint32_t e = 0; e + 1 < q - static_cast<std::uint32_t>(delta_ == 1 ? 1 : 0); e += 2)
      x.push_back(field_.power(e));
  }
  for (std::uint32_t d : x) generators_[1].push_back(field_.mul(field_.primitive(), d));
  for (std::uint32_t s = 0; s < 2; ++s) {
    position_[s].assign(q, kNone);
    for (std::uint32_t i = 0; i < generators_[s].size(); ++i) position_[s][generators_[s][i]] = i;
  }

  const std::uint32_t size_x = static_cast<std::uint32_t>(x.size());
  NetworkBuilder b(defaults);
  b.reserve(endpoints + routers, cables);
  const auto n = static_cast<std::uint32_t>(endpoints);
  for (std::uint32_t e = 0; e < n; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(routers));
  for (EndpointId e = 0; e < n; ++e) b.add_cable(e, router_vertex(router_of(e)), -1, -1, 0, e % p_);
  // Each router cable once, from its lower-numbered end.
  auto connect = [&](std::uint32_t r, std::uint32_t port, std::uint32_t t) {
    if (r < t) b.add_cable(router_vertex(r), router_vertex(t), -1, -1, port, port_toward(t, r));
  };
  for (std::uint32_t r = 0; r < routers; ++r) {
    const std::uint32_t s = subgraph(r), a = first_coord(r), c = second_coord(r);
    for (std::uint32_t i = 0; i < size_x; ++i) connect(r, p_ + i, router(s, a, field_.add(c, generators_[s][i])));
    for (std::uint32_t j = 0; j < q_; ++j) {
      // (0,x,y) -> (1, j, y - j x);  (1,m,c) -> (0, j, m j + c).
      const std::uint32_t t =
          s == 0 ? router(1, j, field_.sub(c, field_.mul(j, a))) : router(0, j, field_.add(field_.mul(a, j), c));
      connect(r, p_ + size_x + j, t);
    }
  }
  net_ = b.build();
}

std::uint32_t SlimFlyTopology::port_toward(std::uint32_t r, std::uint32_t t) const {
  const std::uint32_t sr = subgraph(r), st = subgraph(t);
  const std::uint32_t ar = first_coord(r), br = second_coord(r), at = first_coord(t), bt = second_coord(t);
  const auto size_x = static_cast<std::uint32_t>(generators_[0].size());
  if (sr == st) {
    if (ar != at) return kNone;
    const std::uint32_t i = position_[sr][field_.sub(bt, br)];
    return i == kNone ? kNone : p_ + i;
  }
  if (sr == 0)  // (x,y) = (ar,br) to (m,c) = (at,bt)
    return br == field_.add(field_.mul(at, ar), bt) ? p_ + size_x + at : kNone;
  return bt == field_.add(field_.mul(ar, at), br) ? p_ + size_x + at : kNone;
}

std::vector<TopologyFact> SlimFlyTopology::facts() const {
  return {
      {"diameter_links", 4.0,
       "longest shortest path between endpoints, in links: the MMS router graph has diameter 2, plus the two "
       "endpoint links"},
      {"network_radix", static_cast<double>(network_radix()),
       "router-to-router ports of every router: k' = (3q - δ)/2"},
  };
}

void register_slimfly(TopologyRegistry& registry) {
  ParamSpec endpoints = int_param("p", "", "endpoints per router; unset = ceil(k'/2) with k' = (3q - δ)/2", 1, 1 << 16);
  endpoints.optional = true;
  registry.add(
      {"slimfly",
       "Slim Fly: the diameter-2 McKay-Miller-Siran graph of 2q^2 routers over GF(q)",
       {int_param("q", "5", "prime power of the form 4w + δ, δ in {-1, 0, 1} (3, 4, 5, 7, 8, 9, 11, 13, ...)", 3,
                  46340),
        endpoints},
       [](const ParamSet& ps, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         const auto q = static_cast<std::uint32_t>(ps.get_int("q"));
         const std::uint32_t p =
             ps.has("p") ? static_cast<std::uint32_t>(ps.get_int("p")) : SlimFlyTopology::default_endpoints(q);
         return std::make_unique<SlimFlyTopology>(q, p, defaults);
       },
       "Besta & Hoefler, 'Slim Fly: a cost effective low-diameter network topology', SC 2014, §III-A (the MMS "
       "graph of McKay, Miller & Siran 1998, as presented by Hafner 2004). q = 4w + δ is a prime power "
       "(δ in {-1, 0, 1}); GF(q) for q = p^m is built with the irreducible monic polynomial of degree m whose "
       "lower coefficients are smallest, and ξ is its smallest primitive element (elements numbered by their "
       "base-p coefficient digits). Routers (0,x,y) and (1,m,c): (0,x,y)~(0,x,y') iff y-y' in X, "
       "(1,m,c)~(1,m,c') iff c-c' in X', (0,x,y)~(1,m,c) iff y = mx + c, with X = the even powers of ξ "
       "(δ = 1: 1..ξ^(q-3); δ = 0: 1..ξ^(q-2)) or, for δ = -1, {1, ξ^2, .., ξ^(2w-2), ξ^(2w-1), ξ^(2w+1), .., "
       "ξ^(4w-3)}, and X' = ξX. Sizes: 2q^2 routers of network radix k' = (3q-δ)/2, diameter 2; 2q^2 p "
       "endpoints; 2q^2 p + q^2 k' cables. Default p = ceil(k'/2), the balanced choice of §III-B (e.g. q = 19: "
       "k' = 29, p = 15, 10830 endpoints). Numbering: endpoints 0..N-1, endpoint e on router e/p at port e mod "
       "p; router (0,x,y) is index xq+y, (1,m,c) is q^2+mq+c, vertex N + index. Router ports: endpoints "
       "0..p-1; p+i to the same-subgraph router with last coordinate + X[i] (X'[i]); p+|X|+j to (1, j, y-jx) "
       "from (0,x,y), or to (0, j, mj+c) from (1,m,c).",
       "slimfly:q=5,p=2"});
}

}  // namespace interflow::topo
