#include "topologies/dragonfly.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/error.hpp"
#include "core/random.hpp"
#include "topologies/registry.hpp"
#include "topologies/trunks.hpp"

namespace interflow::topo {

namespace {

struct ArrangementName {
  DragonflyArrangement value;
  const char* name;
};
constexpr ArrangementName kArrangements[] = {{DragonflyArrangement::Absolute, "absolute"},
                                             {DragonflyArrangement::Relative, "relative"},
                                             {DragonflyArrangement::Circulant, "circulant"},
                                             {DragonflyArrangement::Palmtree, "palmtree"},
                                             {DragonflyArrangement::Random, "random"}};

std::string shape(std::uint64_t a, std::uint64_t p, std::uint64_t h, std::uint64_t g, DragonflyArrangement arr) {
  return "dragonfly a=" + std::to_string(a) + ",p=" + std::to_string(p) + ",h=" + std::to_string(h) +
         ",g=" + std::to_string(g) + ",arrangement=" + DragonflyTopology::arrangement_name(arr);
}

}  // namespace

DragonflyArrangement DragonflyTopology::parse_arrangement(const std::string& name) {
  for (const auto& a : kArrangements)
    if (name == a.name) return a.value;
  throw InputError("unknown dragonfly arrangement '" + name +
                   "'; valid: absolute, relative, circulant, palmtree, random");
}

const char* DragonflyTopology::arrangement_name(DragonflyArrangement arrangement) {
  for (const auto& a : kArrangements)
    if (arrangement == a.value) return a.name;
  return "?";
}

DragonflyTopology::DragonflyTopology(std::uint32_t a, std::uint32_t p, std::uint32_t h, std::uint32_t g,
                                     DragonflyArrangement arrangement, std::uint64_t seed, const LinkDefaults& defaults)
    : Topology("dragonfly"), a_(a), p_(p), h_(h), g_(g), arrangement_(arrangement) {
  const std::uint64_t global_ports = std::uint64_t{a} * h;  // per group
  const std::uint64_t groups = g == 0 ? global_ports + 1 : g;
  const std::string what = shape(a, p, h, groups, arrangement);
  if (a < 1 || p < 1 || h < 1) throw InputError(what + ": a, p and h must each be at least 1");
  if (groups < 2) throw InputError(what + ": g (groups) must be at least 2");
  // Every pair of groups gets the same number k of global links: the a*h global ports of a group
  // are split evenly among the g-1 other groups.
  if (global_ports % (groups - 1) != 0)
    throw InputError(what + ": g-1 = " + std::to_string(groups - 1) +
                     " must divide a*h = " + std::to_string(global_ports) +
                     " so that every pair of groups has the same number of global links (largest g: a*h+1 = " +
                     std::to_string(global_ports + 1) + ")");
  const std::uint64_t routers = std::uint64_t{a} * groups;
  const std::uint64_t endpoints = routers * p;
  const std::uint64_t vertices = endpoints + routers;
  if (vertices > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(vertices) + " vertices (" + std::to_string(endpoints) +
                     " endpoints plus routers) is more than 2^31, the largest network supported");
  const std::uint64_t cables = endpoints + groups * (std::uint64_t{a} * (a - 1) / 2) + groups * global_ports / 2;
  if (2 * cables > kMaxNetworkLinks)
    throw InputError(what + ": " + std::to_string(2 * cables) +
                     " directed links is more than 4e9, the largest network supported");
  g_ = static_cast<std::uint32_t>(groups);
  k_ = static_cast<std::uint32_t>(global_ports / (groups - 1));
  endpoints_ = static_cast<std::uint32_t>(endpoints);

  arrange(seed);
  fill_port_tables();

  NetworkBuilder b(defaults);
  b.reserve(vertices, cables);
  for (EndpointId e = 0; e < endpoints_; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(routers));
  for (EndpointId e = 0; e < endpoints_; ++e) b.add_cable(e, router_vertex(router_of(e)), -1, -1, 0, e % p_);
  for (std::uint32_t group = 0; group < g_; ++group) {
    const std::uint32_t first = group * a_;
    for (std::uint32_t r = 0; r < a_; ++r)
      for (std::uint32_t s = r + 1; s < a_; ++s)
        b.add_cable(router_vertex(first + r), router_vertex(first + s), -1, -1, p_ + s - 1, p_ + r);
    for (std::uint32_t j = 0; j < a_ * h_; ++j) {
      const std::uint32_t to = peer_group(group, j), jp = peer_port(group, j);
      if (slot(to, jp) < slot(group, j)) continue;  // each cable once, from its lower end
      b.add_cable(router_vertex(first + j / h_), router_vertex(to * a_ + jp / h_), -1, -1, p_ + a_ - 1 + j % h_,
                  p_ + a_ - 1 + jp % h_);
    }
  }
  net_ = b.build();
}

// Fills peer_ for the closed-form arrangements (Random has its own). Global port j of group G has
// offset index o = j mod (g-1) (which other group) and copy c = j / (g-1), 0 <= c < k.
void DragonflyTopology::arrange(std::uint64_t seed) {
  if (arrangement_ == DragonflyArrangement::Random) return arrange_random(seed);
  const std::uint32_t ports = a_ * h_, others = g_ - 1;
  peer_.assign(std::uint64_t{g_} * ports, 0);
  for (std::uint32_t group = 0; group < g_; ++group) {
    for (std::uint32_t j = 0; j < ports; ++j) {
      const std::uint32_t o = j % others, c = j / others;
      std::uint32_t to = 0, back = 0;  // peer group and peer port
      switch (arrangement_) {
        case DragonflyArrangement::Absolute:
          // The o-th other group counting from 0 and skipping G; it sees G as its (G or G-1)-th.
          to = o < group ? o : o + 1;
          back = c * others + (group < to ? group : group - 1);
          break;
        case DragonflyArrangement::Relative:
          to = static_cast<std::uint32_t>((std::uint64_t{group} + o + 1) % g_);
          back = ports - 1 - j;  // offset index g-2-o: from there G is g-1-o groups ahead
          break;
        case DragonflyArrangement::Palmtree:
          to = static_cast<std::uint32_t>((std::uint64_t{group} + g_ - o - 1) % g_);
          back = ports - 1 - j;  // router a-1-r, port h-1-q; from there G is o+1 groups ahead
          break;
        case DragonflyArrangement::Circulant:
          if (o % 2 == 0) {  // clockwise by o/2+1; the partner port o+1 goes back counter-clockwise
            to = static_cast<std::uint32_t>((std::uint64_t{group} + o / 2 + 1) % g_);
            back = c * others + (o + 2 == g_ ? o : o + 1);  // g even: offset g/2 is its own inverse
          } else {
            to = static_cast<std::uint32_t>((std::uint64_t{group} + g_ - (o / 2 + 1)) % g_);
            back = c * others + o - 1;
          }
          break;
        case DragonflyArrangement::Random:
          break;
      }
      peer_[slot(group, j)] = std::uint64_t{to} * ports + back;
    }
  }
}

// Group G lists every other group k times and shuffles the list (Fisher-Yates, from
// derive_seed(seed, topology stream, G)); its port j goes to list[j]. The m-th port of G listing T
// is cabled to the m-th port of T listing G.
void DragonflyTopology::arrange_random(std::uint64_t seed) {
  const std::uint32_t ports = a_ * h_, others = g_ - 1;
  std::vector<std::uint32_t> target(std::uint64_t{g_} * ports);
  for (std::uint32_t group = 0; group < g_; ++group) {
    std::uint32_t* list = target.data() + slot(group, 0);
    for (std::uint32_t j = 0; j < ports; ++j) {
      const std::uint32_t o = j % others;
      list[j] = o < group ? o : o + 1;
    }
    Rng rng(derive_seed(seed, Stream::Topology, group));
    for (std::uint32_t j = ports; j > 1; --j) std::swap(list[j - 1], list[rng.below(j)]);
  }
  // to_group_ first (the m-th port of G towards T), then each port's peer from it.
  to_group_.assign(std::uint64_t{g_} * others * k_, 0);
  std::vector<std::uint32_t> seen(g_);
  std::vector<std::uint32_t> occurrence(ports);
  peer_.assign(std::uint64_t{g_} * ports, 0);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint32_t group = 0; group < g_; ++group) {
      std::fill(seen.begin(), seen.end(), 0u);
      for (std::uint32_t j = 0; j < ports; ++j) {
        const std::uint32_t to = target[slot(group, j)];
        const std::uint32_t m = seen[to]++;
        if (pass == 0) {
          to_group_[(std::uint64_t{group} * others + (to < group ? to : to - 1)) * k_ + m] = j;
        } else {
          peer_[slot(group, j)] = std::uint64_t{to} * ports + port_to_group(to, group, m);
        }
      }
    }
  }
}

// Builds to_group_ from peer_ and checks that the pairing is a perfect matching with exactly k
// links between every two groups (a broken arrangement is a bug, not a user error).
void DragonflyTopology::fill_port_tables() {
  const std::uint32_t ports = a_ * h_, others = g_ - 1;
  to_group_.assign(std::uint64_t{g_} * others * k_, 0);
  std::vector<std::uint32_t> seen(g_);
  for (std::uint32_t group = 0; group < g_; ++group) {
    std::fill(seen.begin(), seen.end(), 0u);
    for (std::uint32_t j = 0; j < ports; ++j) {
      const std::uint32_t to = peer_group(group, j), back = peer_port(group, j);
      if (to == group || to >= g_ || peer_group(to, back) != group || peer_port(to, back) != j || seen[to] >= k_)
        throw std::logic_error("dragonfly: arrangement " + std::string(arrangement_name(arrangement_)) +
                               " is not a valid pairing of global ports");
      to_group_[(std::uint64_t{group} * others + (to < group ? to : to - 1)) * k_ + seen[to]++] = j;
    }
  }
}

std::vector<TopologyFact> DragonflyTopology::facts_with_trunks(std::uint32_t trunks) const {
  std::vector<TopologyFact> out;
  // Counts of global cables: with trunks, every global link is that many cables.
  const std::string times = trunks == 1 ? "" : ", times trunks";
  out.push_back({"global_links_per_group_pair", static_cast<double>(k_) * trunks,
                 "global cables between every two groups: a*h / (g-1) (1 when g = a*h+1)" + times});
  out.push_back({"global_cables", static_cast<double>(std::uint64_t{g_} * a_ * h_ / 2) * trunks,
                 "router-to-router cables between groups: g*a*h/2" + times});
  if (g_ % 2 == 0)
    out.push_back({"bisection_cables", static_cast<double>(g_ / 2) * (g_ / 2) * k_ * trunks,
                   "global cables crossing the cut between groups < g/2 and >= g/2 (every group whole, equal endpoint "
                   "halves): (g/2)^2 * a*h/(g-1)" +
                       times + "; an upper bound on the minimum bisection"});
  const double minimal = a_ >= 2 ? 5.0 : 3.0;
  out.push_back({"minimal_route_max_links", minimal,
                 "longest dfmin path in links: endpoint, local, global, local, endpoint (local hops only when "
                 "a >= 2); an upper bound on the diameter"});
  // Lower bound by counting: a router R reaches at most h (global) + (a-1)h (local then global)
  // + h(a-1) (global then local) + h(h-1) (global then global) routers outside its group in two
  // hops. When that is less than the a(g-1) routers outside the group, some router is 3 hops
  // away, so the diameter equals the minimal-routing bound.
  const std::uint64_t a = a_, h = h_;
  if (a == 1 || a * (g_ - 1) > h * (2 * a + h - 2))
    out.push_back({"diameter_links", minimal,
                   "longest shortest path between endpoints, in links: 2 endpoint links plus 3 router hops "
                   "(local, global, local; 1 hop when a = 1). Proved for a = 1 or a(g-1) > h(2a+h-2) by "
                   "counting the routers two hops from a router; not reported otherwise (e.g. a=2,h=2 circulant "
                   "is the Petersen graph, of diameter 2 hops)"});
  return out;
}

void register_dragonfly(TopologyRegistry& registry) {
  ParamSpec groups = int_param("g", "",
                               "groups; default a*h+1 (the largest: one global link between every two "
                               "groups); g-1 must divide a*h",
                               2, 1u << 31);
  groups.optional = true;
  registry.add(
      {"dragonfly",
       "1-D dragonfly (Kim et al. 2008): g groups of a fully connected routers, p endpoints and h global links "
       "per router",
       {int_param("a", "4", "routers per group (the routers of a group form a complete graph)", 1, 1 << 16),
        int_param("p", "2", "endpoints per router", 1, 1 << 16),
        int_param("h", "2", "global links per router", 1, 1 << 16), groups,
        choice_param("arrangement", "palmtree", {"absolute", "relative", "circulant", "palmtree", "random"},
                     "how global ports are paired between groups (see the details)"),
        int_param("seed", "1",
                  "seed of the random arrangement only (not the run seed: the topology never changes "
                  "with the traffic seed)",
                  0, 9.2e18),
        trunks_param()},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return with_trunks(
             std::make_unique<DragonflyTopology>(
                 static_cast<std::uint32_t>(p.get_int("a")), static_cast<std::uint32_t>(p.get_int("p")),
                 static_cast<std::uint32_t>(p.get_int("h")), p.has("g") ? static_cast<std::uint32_t>(p.get_int("g")) : 0,
                 DragonflyTopology::parse_arrangement(p.get_string("arrangement")),
                 static_cast<std::uint64_t>(p.get_int("seed")), defaults),
             p);
       },
       "Kim, Dally, Scott & Abts, 'Technology-driven, highly-scalable dragonfly topology', ISCA 2008, section 3. "
       "Endpoints a*p*g, routers a*g of radix p+(a-1)+h, cables a*p*g + g*a(a-1)/2 + g*a*h/2. Every pair of "
       "groups is joined by k = a*h/(g-1) global cables, so g-1 must divide a*h (g = a*h+1 gives k = 1). "
       "Numbering: vertices 0..N-1 are the endpoints; router R = G*a + r (group G, position r) is vertex N+R; "
       "endpoint e hangs off router e/p on its port e mod p. Router ports: 0..p-1 endpoints, then a-1 local "
       "ports to positions 0..a-1 of its group skipping itself, then h global ports; global port q of router r "
       "is the group's global port j = r*h+q. Arrangements, with o = j mod (g-1) and copy c = j div (g-1): "
       "absolute (consecutive, INRFlow's and Hastings et al. 2015's 'absolute'): j goes to the o-th other group "
       "in increasing group order (groups o for o < G, o+1 otherwise), so each router serves consecutive groups; "
       "relative: j goes to group G+o+1 mod g, arriving on port a*h-1-j; circulant: even o goes to G+(o/2+1), odd "
       "o to G-(o/2+1), each cabled to the partner port of the other parity (o+1 or o-1; when g is even the port "
       "o = g-2 reaches G+g/2 on the same port index); palmtree (Camarero, Vallejo & Beivide 2014, after M. "
       "Garcia): j goes to group G-o-1 mod g, arriving on port a*h-1-j, i.e. router a-1-r, port h-1-q; it is the "
       "mirror image of relative (groups numbered backwards). random: group G lists every other group k times "
       "and shuffles the list with derive_seed(seed, topology stream, G); its port j goes to the group at list "
       "position j, and the m-th port of G towards T is cabled to the m-th port of T towards G. The random "
       "arrangement depends only on the parameter `seed`, never on the run seed. No arrangement needs more than "
       "g-1 dividing a*h. Trunks apply to local and global cables alike." +
           trunks_details(),
       "dragonfly:a=4,p=2,h=2,g=5"});
}

}  // namespace interflow::topo
