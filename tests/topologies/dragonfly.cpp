// Topology 'dragonfly': closed-form counts, the global-link arrangements (links per pair of groups,
// the arrangements' own formulas), diameter against DistanceAnalysis and igraph, bad parameters.
#include "topologies/dragonfly.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

struct Shape {
  std::uint64_t a, p, h, g;
};

// Maximal (g = a*h+1) and smaller (k = a*h/(g-1) > 1) sizes, odd and even g.
const std::vector<Shape> kShapes = {{4, 2, 2, 9}, {2, 1, 2, 5},  {3, 2, 3, 10}, {2, 2, 1, 3},
                                    {1, 3, 4, 5}, {4, 1, 2, 5},  {4, 2, 2, 3},  {6, 1, 2, 7},
                                    {3, 1, 2, 4}, {5, 1, 3, 16}, {4, 1, 4, 9},  {2, 1, 3, 4}};
const std::vector<std::string> kArrangements = {"absolute", "relative", "circulant", "palmtree", "random"};

std::string spec_of(const Shape& s, const std::string& arrangement) {
  return "dragonfly:a=" + std::to_string(s.a) + ",p=" + std::to_string(s.p) + ",h=" + std::to_string(s.h) +
         ",g=" + std::to_string(s.g) + ",arrangement=" + arrangement;
}

double fact(const Topology& t, const std::string& key) { return test::find_fact(t, key).value_or(-1.0); }

// Router (0..a*g-1) of a router vertex, from the documented numbering.
std::uint64_t router_index(const Network& net, VertexId v) { return v - net.num_endpoints(); }

}  // namespace

TEST_CASE("dragonfly topology: endpoint router cable and radix counts match the closed forms") {
  for (const auto& s : kShapes)
    for (const auto& arrangement : kArrangements) {
      CAPTURE(spec_of(s, arrangement));
      auto topology = test::build_topology(spec_of(s, arrangement));
      const Network& net = topology->network();
      CHECK(net.num_endpoints() == s.a * s.p * s.g);
      CHECK(net.num_switches() == s.a * s.g);
      CHECK(net.num_vertices() == s.a * s.p * s.g + s.a * s.g);
      CHECK(net.num_cables() == s.a * s.p * s.g + s.g * s.a * (s.a - 1) / 2 + s.g * s.a * s.h / 2);
      for (VertexId v = 0; v < net.num_vertices(); ++v) {
        if (v < net.num_endpoints()) {
          REQUIRE(net.kind(v) == VertexKind::Endpoint);
          REQUIRE(net.endpoint_vertex(v) == v);
          REQUIRE(net.degree(v) == 1);
          REQUIRE(router_index(net, net.target(net.out_begin(v))) == v / s.p);
        } else {
          REQUIRE(net.kind(v) == VertexKind::Switch);
          REQUIRE(net.degree(v) == s.p + (s.a - 1) + s.h);  // every router has the same radix
        }
      }
      CHECK(topology->default_routing() == "dfmin");
      CHECK(fact(*topology, "global_cables") == static_cast<double>(s.g * s.a * s.h / 2));
    }
}

TEST_CASE("dragonfly topology: every arrangement joins every two groups by a*h/(g-1) global cables") {
  for (const auto& s : kShapes)
    for (const auto& arrangement : kArrangements) {
      CAPTURE(spec_of(s, arrangement));
      auto topology = test::build_topology(spec_of(s, arrangement));
      const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
      const Network& net = df.network();
      const std::uint64_t k = s.a * s.h / (s.g - 1);
      CHECK(df.links_per_group_pair() == k);
      CHECK(fact(df, "global_links_per_group_pair") == static_cast<double>(k));
      std::vector<std::uint64_t> global(s.g * s.g, 0), local(s.a * s.g * s.a * s.g, 0);
      for (VertexId v = net.num_endpoints(); v < net.num_vertices(); ++v) {
        const std::uint64_t r = router_index(net, v);
        std::uint64_t global_ports = 0;
        for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) {
          const VertexId t = net.target(l);
          if (net.kind(t) == VertexKind::Endpoint) continue;
          const std::uint64_t q = router_index(net, t);
          if (q / s.a == r / s.a) {
            ++local[r * s.a * s.g + q];
          } else {
            ++global[(r / s.a) * s.g + q / s.a];
            ++global_ports;
          }
        }
        REQUIRE(global_ports == s.h);  // no router has more (or fewer) than h global ports
      }
      for (std::uint64_t x = 0; x < s.g; ++x)
        for (std::uint64_t y = 0; y < s.g; ++y) REQUIRE(global[x * s.g + y] == (x == y ? 0 : k));
      // Complete graph inside each group, one cable per pair of routers.
      for (std::uint64_t r = 0; r < s.a * s.g; ++r)
        for (std::uint64_t q = 0; q < s.a * s.g; ++q)
          REQUIRE(local[r * s.a * s.g + q] == (r != q && r / s.a == q / s.a ? 1 : 0));
    }
}

TEST_CASE("dragonfly topology: the bisection fact equals the global cables between the two halves of the groups") {
  for (const std::string arrangement : {"absolute", "relative", "circulant", "palmtree", "random"})
    for (const std::string shape : {"a=3,p=1,h=1,g=4", "a=2,p=1,h=3,g=4", "a=3,p=2,h=2,g=4", "a=5,p=1,h=3,g=6"}) {
      const std::string s = "dragonfly:" + shape + ",arrangement=" + arrangement;
      CAPTURE(s);
      auto t = test::build_topology(s);
      CHECK(fact(*t, "bisection_cables") == static_cast<double>(test::cables_across_endpoint_halves(t->network())));
    }
}

TEST_CASE("dragonfly topology: global ports follow each arrangement's formula") {
  for (const auto& s : kShapes)
    for (const auto& arrangement : kArrangements) {
      CAPTURE(spec_of(s, arrangement));
      auto topology = test::build_topology(spec_of(s, arrangement));
      const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
      const Network& net = df.network();
      const std::uint64_t others = s.g - 1, ports = s.a * s.h;
      for (std::uint64_t group = 0; group < s.g; ++group)
        for (std::uint64_t j = 0; j < ports; ++j) {
          const std::uint64_t o = j % others;
          // Port p+a-1+q of router group*a + j/h carries global port j.
          const VertexId v = net.num_endpoints() + static_cast<VertexId>(group * s.a + j / s.h);
          const LinkId l = net.out_begin(v) + static_cast<LinkId>(s.p + s.a - 1 + j % s.h);
          REQUIRE(df.global_link(static_cast<std::uint32_t>(group), static_cast<std::uint32_t>(j)) == l);
          const std::uint64_t to = router_index(net, net.target(l)) / s.a;
          REQUIRE(to == df.peer_group(static_cast<std::uint32_t>(group), static_cast<std::uint32_t>(j)));
          // The far end's port: position of the reverse link among the target's global ports.
          const LinkId back = net.reverse(l);
          const VertexId w = net.target(l);
          const std::uint64_t back_port =
              (router_index(net, w) % s.a) * s.h + (back - net.out_begin(w) - (s.p + s.a - 1));
          if (arrangement == "absolute") {
            CHECK(to == (o < group ? o : o + 1));
          } else if (arrangement == "relative") {
            CHECK(to == (group + o + 1) % s.g);
            CHECK(back_port == ports - 1 - j);
          } else if (arrangement == "palmtree") {
            CHECK(to == (group + s.g - o - 1) % s.g);
            CHECK(back_port == ports - 1 - j);  // router a-1-r, port h-1-q
            CHECK(router_index(net, w) % s.a == s.a - 1 - (j / s.h));
          } else if (arrangement == "circulant") {
            const std::uint64_t d = o / 2 + 1;
            CHECK(to == (o % 2 == 0 ? (group + d) % s.g : (group + s.g - d) % s.g));
          }
        }
      if (arrangement == "absolute" && s.g == s.a * s.h + 1) {
        // Consecutive: router r of group G serves groups r*h .. r*h+h-1 in the order that skips G.
        for (std::uint64_t r = 0; r < s.a; ++r)
          for (std::uint64_t q = 0; q + 1 < s.h; ++q) {
            const auto t0 = df.peer_group(0, static_cast<std::uint32_t>(r * s.h + q));
            const auto t1 = df.peer_group(0, static_cast<std::uint32_t>(r * s.h + q + 1));
            CHECK(t1 == t0 + 1);
          }
      }
    }
}

TEST_CASE("dragonfly topology: the random arrangement depends on its own seed only") {
  auto links_of = [](const std::string& spec) {
    auto t = test::build_topology(spec);
    const auto targets = t->network().targets();
    return std::vector<VertexId>(targets.begin(), targets.end());
  };
  const std::string base = "dragonfly:a=4,p=1,h=2,arrangement=random";
  CHECK(links_of(base) == links_of(base + ",seed=1"));
  CHECK(links_of(base + ",seed=5") == links_of(base + ",seed=5"));
  CHECK(links_of(base + ",seed=5") != links_of(base + ",seed=6"));
  CHECK(links_of(base) != links_of("dragonfly:a=4,p=1,h=2,arrangement=absolute"));
}

TEST_CASE("dragonfly topology: the diameter is 3 router hops plus 2 endpoint links") {
  for (const auto& s : kShapes)
    for (const auto& arrangement : kArrangements) {
      CAPTURE(spec_of(s, arrangement));
      auto topology = test::build_topology(spec_of(s, arrangement));
      const DistanceReport report = DistanceAnalysis().run(topology->network());
      REQUIRE(report.exact);
      CHECK(report.disconnected_pairs == 0);
      CHECK(report.diameter_links == static_cast<std::uint32_t>(test::igraph_graph_diameter(topology->network())));
      const double bound = s.a == 1 ? 3 : 5;
      CHECK(fact(*topology, "minimal_route_max_links") == bound);
      CHECK(report.diameter_links <= bound);
      // Reported (and then exact) when counting proves it: a = 1 or a(g-1) > h(2a+h-2).
      const bool proved = s.a == 1 || s.a * (s.g - 1) > s.h * (2 * s.a + s.h - 2);
      CHECK(fact(*topology, "diameter_links") == (proved ? bound : -1.0));
      if (proved) CHECK(report.diameter_links == bound);
    }
}

TEST_CASE("dragonfly topology: a=2 h=2 circulant is the Petersen graph of diameter 2") {
  // Routers 0 of the 5 groups form a 5-cycle (offsets +-1), routers 1 a pentagram (+-2), joined by
  // the local links: the Petersen graph, so endpoints are at most 2 + 2 links apart.
  auto topology = test::build_topology("dragonfly:a=2,p=1,h=2,arrangement=circulant");
  const DistanceReport report = DistanceAnalysis().run(topology->network());
  CHECK(report.diameter_links == 4);
  CHECK(test::igraph_graph_diameter(topology->network()) == 4);
  // The absolute arrangement of the same size is not: some routers are 3 hops apart.
  CHECK(DistanceAnalysis()
            .run(test::build_topology("dragonfly:a=2,p=1,h=2,arrangement=absolute")->network())
            .diameter_links == 5);
}

TEST_CASE("dragonfly topology: the default g is a*h+1 and bad parameters are input errors naming the constraint") {
  auto topology = test::build_topology("dragonfly:a=3,p=1,h=2");
  CHECK(dynamic_cast<const topo::DragonflyTopology&>(*topology).g() == 7);
  CHECK(topology->network().num_switches() == 21);
  const auto message = test::topology_error;
  const std::string not_dividing = message("dragonfly:a=4,p=1,h=2,g=10");
  CHECK(not_dividing.find("dragonfly a=4,p=1,h=2,g=10") != std::string::npos);
  CHECK(not_dividing.find("g-1 = 9 must divide a*h = 8") != std::string::npos);
  CHECK(message("dragonfly:a=4,p=1,h=2,g=11").find("must divide") != std::string::npos);  // g > a*h+1
  CHECK(message("dragonfly:a=0,p=1,h=2").find("a") != std::string::npos);
  CHECK(message("dragonfly:a=4,p=1,h=2,g=1").find("g") != std::string::npos);
  CHECK(message("dragonfly:a=4,p=1,h=2,arrangement=helix").find("arrangement") != std::string::npos);
  CHECK_THROWS_AS(topo::DragonflyTopology(4, 1, 2, 6, topo::DragonflyArrangement::Absolute, 1, LinkDefaults{}),
                  InputError);
  // 65536 routers per group with 65536 global links each: far too many links, refused before allocating.
  CHECK(message("dragonfly:a=65536,p=1,h=65536,g=2").find("more than") != std::string::npos);
}
