#include "topologies/megafly.hpp"

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

std::string shape(std::uint32_t leaves, std::uint32_t spines, std::uint32_t p, std::uint32_t h, std::uint32_t g) {
  return "megafly leaves=" + std::to_string(leaves) + ", spines=" + std::to_string(spines) +
         ", p=" + std::to_string(p) + ", h=" + std::to_string(h) + ", g=" + std::to_string(g);
}

}  // namespace

MegaflyTopology::MegaflyTopology(std::uint32_t leaves, std::uint32_t spines, std::uint32_t p, std::uint32_t h,
                                 std::uint32_t g, const LinkDefaults& defaults)
    : Topology("megafly"), leaves_(leaves), spines_(spines), p_(p), h_(h), g_(g) {
  const std::string what = shape(leaves, spines, p, h, g);
  if (leaves < 1 || spines < 1 || p < 1 || h < 1)
    throw InputError(what + ": leaves, spines, p and h must all be at least 1");
  if (g < 2) throw InputError(what + ": g (groups) must be at least 2");
  const std::uint64_t ports = std::uint64_t{spines} * h;  // global ports per group
  if (ports % (g - 1) != 0)
    throw InputError(what + ": the spines*h = " + std::to_string(ports) +
                     " global ports of a group must split evenly over the g-1 = " + std::to_string(g - 1) +
                     " other groups (spines*h divisible by g-1), so that every pair of groups gets the same number "
                     "of global links");
  m_ = static_cast<std::uint32_t>(ports / (g - 1));

  const std::uint64_t endpoints = std::uint64_t{g} * leaves * p;
  const std::uint64_t routers = std::uint64_t{g} * (leaves + spines);
  const std::uint64_t cables = endpoints + std::uint64_t{g} * leaves * spines + std::uint64_t{g} * ports / 2;
  check_network_size(what, endpoints + routers, "endpoints plus routers", cables);
  endpoints_ = static_cast<std::uint32_t>(endpoints);

  NetworkBuilder b(defaults);
  b.reserve(endpoints + routers, cables);
  for (std::uint32_t e = 0; e < endpoints_; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(routers));
  for (EndpointId e = 0; e < endpoints_; ++e)
    b.add_cable(e, leaf_vertex(group_of(e), leaf_in_group(e)), -1, -1, 0, e % p_);
  for (std::uint32_t group = 0; group < g_; ++group)
    for (std::uint32_t l = 0; l < leaves_; ++l)
      for (std::uint32_t s = 0; s < spines_; ++s)
        b.add_cable(leaf_vertex(group, l), spine_vertex(group, s), -1, -1, p_ + s, l);
  // Each global cable once, from the lower-numbered group.
  for (std::uint32_t group = 0; group < g_; ++group) {
    for (std::uint32_t t = 0; t < spines_ * h_; ++t) {
      const std::uint32_t o = t / m_;
      const std::uint32_t other = o < group ? o : o + 1;
      if (other < group) continue;
      const std::uint32_t back = group_port_toward(other, group, t % m_);
      b.add_cable(spine_vertex(group, t / h_), spine_vertex(other, back / h_), -1, -1, leaves_ + t % h_,
                  leaves_ + back % h_);
    }
  }
  net_ = b.build();
}

std::vector<TopologyFact> MegaflyTopology::facts() const {
  std::vector<TopologyFact> out = {
      {"diameter_links", 5.0,
       "longest shortest path between endpoints, in links: endpoint, leaf, spine, global link, spine, leaf, "
       "endpoint: 4 routers, 3 router-to-router hops"},
      {"global_links_per_group_pair", static_cast<double>(m_),
       "global cables joining every pair of groups: spines*h / (g-1)"},
  };
  if (g_ % 2 == 0)
    out.push_back({"bisection_cables", static_cast<double>(g_ / 2) * static_cast<double>(g_ / 2) * m_,
                   "global cables crossing the cut between groups < g/2 and >= g/2 (every group whole, equal "
                   "endpoint halves): (g/2)^2 m; an upper bound on the minimum bisection"});
  return out;
}

void register_megafly(TopologyRegistry& registry) {
  ParamSpec groups = int_param("g", "",
                               "groups; unset = spines*h+1 (one global link per pair); spines*h must be divisible "
                               "by g-1",
                               2, 1 << 24);
  groups.optional = true;
  registry.add(
      {"megafly",
       "megafly / dragonfly+: groups of leaf and spine routers (complete bipartite), groups joined all-to-all",
       {int_param("leaves", "4", "leaf routers per group; each hosts p endpoints and links to every spine", 1, 1 << 16),
        int_param("spines", "4", "spine routers per group; each links to every leaf and has h global links", 1,
                  1 << 16),
        int_param("p", "4", "endpoints per leaf router", 1, 1 << 16),
        int_param("h", "2", "global links per spine router", 1, 1 << 16), groups},
       [](const ParamSet& ps, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         const auto spines = static_cast<std::uint32_t>(ps.get_int("spines"));
         const auto h = static_cast<std::uint32_t>(ps.get_int("h"));
         const std::uint64_t auto_groups = std::uint64_t{spines} * h + 1;
         if (!ps.has("g") && auto_groups > (1u << 24))
           ps.fail("g", "default spines*h+1 = " + std::to_string(auto_groups) + " groups is too many; give g");
         const auto g =
             ps.has("g") ? static_cast<std::uint32_t>(ps.get_int("g")) : static_cast<std::uint32_t>(auto_groups);
         return std::make_unique<MegaflyTopology>(static_cast<std::uint32_t>(ps.get_int("leaves")), spines,
                                                  static_cast<std::uint32_t>(ps.get_int("p")), h, g, defaults);
       },
       "Shpiner et al., 'Dragonfly+: low cost topology for scaling datacenters', HiPINEB 2017; Flajslik et al., "
       "'Megafly: a topology for exascale systems', ISC 2018; configuration of Mubarak et al., 'Evaluating Quality of "
       "Service Traffic Classes on the Megafly Network' §IV-A, Table I "
       "(leaves=16, spines=16, p=16, h=16, g=33: 8448 endpoints, radix 32). Each group is a complete bipartite "
       "graph between its leaf routers (radix p + spines) and spine routers (radix leaves + h); the groups are "
       "joined all-to-all by m = spines*h/(g-1) global cables per pair. Sizes: g*leaves*p endpoints, "
       "g*(leaves+spines) routers, g*leaves*p + g*leaves*spines + g*spines*h/2 cables. Numbering: endpoints "
       "0..N-1, endpoint e on leaf e/p at leaf port e mod p; then routers group by group, leaves 0..leaves-1 "
       "then spines. Leaf ports: endpoints 0..p-1, then spine s at port p+s. Spine ports: leaf l at port l, "
       "then global port j at port leaves+j. Global arrangement (consecutive/absolute): spine s of group G owns "
       "group ports t = s*h + j; port t goes to the (t div m)-th other group in increasing order (G skipped) as "
       "parallel copy t mod m, arriving on that group's port with the same copy number toward G.",
       "megafly:leaves=4,spines=4,p=2,h=2,g=5"});
}

}  // namespace interflow::topo
