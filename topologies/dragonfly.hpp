#pragma once
// The 1-D dragonfly (Kim, Dally, Scott & Abts, "Technology-driven, highly-scalable dragonfly
// topology", ISCA 2008, §3): g groups of a routers; the routers of a group form a complete graph
// (local links), every router hosts p endpoints and has h global links to other groups. Each pair
// of groups is joined by exactly k = a*h / (g-1) global links (k = 1 for the maximal g = a*h+1).
//
// Numbering (routings rely on it):
// - Vertices 0..N-1 are the endpoints (vertex e is endpoint e, N = a*p*g); router R = G*a + r
//   (group G, position r in the group) is vertex N + R. Endpoint e hangs off router e / p on the
//   router's port e mod p; its single link is port 0.
// - Router ports: 0..p-1 endpoints; p..p+a-2 local, port p+i going to position i (i < r) or i+1
//   (i >= r) of the same group; p+a-1 .. p+a-1+h-1 global, port p+a-1+q being the group's global
//   port j = r*h + q. The link on port x of router R is net.out_begin(N + R) + x.
// - The global port j of group G is cabled to port peer_port(G, j) of group peer_group(G, j), as
//   the arrangement (see Arrangement and manual/topology-dragonfly.md) says.
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace interflow::topo {

// How the global ports of the groups are paired (with o = j mod (g-1), c = j / (g-1) the
// "copy" of the link when k > 1).
enum class DragonflyArrangement {
  Absolute,   // port j goes to the o-th other group in absolute numbering (consecutive groups per router)
  Relative,   // port j goes to group G + o + 1 (mod g), arriving on port a*h-1-j
  Circulant,  // even o to G + (o/2+1), odd o to G - (o/2+1): every router pairs +d with -d
  Palmtree,   // port j goes to group G - o - 1 (mod g), arriving on port a*h-1-j (router a-1-r, port h-1-q)
  Random,     // each group's list of targets (every other group k times) shuffled with `seed`
};

class DragonflyTopology : public Topology {
 public:
  // g = 0 means the maximal a*h + 1. Throws InputError for impossible sizes.
  DragonflyTopology(std::uint32_t a, std::uint32_t p, std::uint32_t h, std::uint32_t g,
                    DragonflyArrangement arrangement, std::uint64_t seed, const LinkDefaults& defaults);

  static DragonflyArrangement parse_arrangement(const std::string& name);
  static const char* arrangement_name(DragonflyArrangement arrangement);

  std::uint32_t a() const { return a_; }
  std::uint32_t p() const { return p_; }
  std::uint32_t h() const { return h_; }
  std::uint32_t g() const { return g_; }
  std::uint32_t links_per_group_pair() const { return k_; }  // a*h / (g-1)
  DragonflyArrangement arrangement() const { return arrangement_; }
  std::uint32_t num_routers() const { return a_ * g_; }
  std::uint32_t num_endpoints() const { return endpoints_; }

  std::vector<std::vector<VertexId>> switch_groups() const override {
    std::vector<std::vector<VertexId>> groups(g_);
    for (std::uint32_t r = 0; r < num_routers(); ++r) groups[group_of_router(r)].push_back(router_vertex(r));
    return groups;
  }
  std::uint32_t router_of(EndpointId e) const { return e / p_; }
  std::uint32_t group_of_router(std::uint32_t router) const { return router / a_; }
  VertexId router_vertex(std::uint32_t router) const { return endpoints_ + router; }

  // Directed links by port (dense port layout above).
  LinkId endpoint_link(EndpointId e) const { return net_.out_begin(e); }
  LinkId down_link(EndpointId e) const { return net_.out_begin(router_vertex(router_of(e))) + e % p_; }
  // Local link between two distinct routers of the same group.
  LinkId local_link(std::uint32_t from, std::uint32_t to) const {
    const std::uint32_t r = from % a_, s = to % a_;
    return net_.out_begin(router_vertex(from)) + p_ + (s < r ? s : s - 1);
  }
  // Link of group G's global port j (on router G*a + j/h).
  LinkId global_link(std::uint32_t group, std::uint32_t j) const {
    return net_.out_begin(router_vertex(group * a_ + j / h_)) + p_ + a_ - 1 + j % h_;
  }

  // The other end of global port j of group G.
  std::uint32_t peer_group(std::uint32_t group, std::uint32_t j) const {
    return static_cast<std::uint32_t>(peer_[slot(group, j)] / (std::uint64_t{a_} * h_));
  }
  std::uint32_t peer_port(std::uint32_t group, std::uint32_t j) const {
    return static_cast<std::uint32_t>(peer_[slot(group, j)] % (std::uint64_t{a_} * h_));
  }
  // The m-th (0 <= m < k, ascending) global port of `group` that leads to group `to` != group.
  std::uint32_t port_to_group(std::uint32_t group, std::uint32_t to, std::uint32_t m) const {
    const std::uint32_t other = to < group ? to : to - 1;
    return to_group_[(std::uint64_t{group} * (g_ - 1) + other) * k_ + m];
  }

  std::vector<TopologyFact> facts() const override { return facts_with_trunks(1); }
  std::vector<TopologyFact> facts_with_trunks(std::uint32_t trunks) const override;
  std::string default_routing() const override { return "dfmin"; }

 private:
  std::uint64_t slot(std::uint32_t group, std::uint32_t j) const { return std::uint64_t{group} * a_ * h_ + j; }
  void arrange(std::uint64_t seed);
  void arrange_random(std::uint64_t seed);
  void fill_port_tables();

  std::uint32_t a_, p_, h_, g_, k_ = 1;
  DragonflyArrangement arrangement_;
  std::uint32_t endpoints_ = 0;
  std::vector<std::uint64_t> peer_;      // per (group, global port): peer group * a*h + peer port
  std::vector<std::uint32_t> to_group_;  // per (group, other group, m): global port, ascending in m
};

}  // namespace interflow::topo
