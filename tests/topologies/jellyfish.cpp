#include "topologies/jellyfish.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

struct JellyShape {
  std::uint32_t n, k, r;
};

std::string spec_of(const JellyShape& s, std::uint64_t seed = 1) {
  return "jellyfish:N=" + std::to_string(s.n) + ",k=" + std::to_string(s.k) + ",r=" + std::to_string(s.r) +
         ",seed=" + std::to_string(seed);
}

// The sorted neighbour switches of every switch (switch-to-switch links only).
std::vector<std::vector<VertexId>> switch_neighbours(const topo::JellyfishTopology& t) {
  const Network& net = t.network();
  std::vector<std::vector<VertexId>> out(t.num_switches());
  for (std::uint32_t s = 0; s < t.num_switches(); ++s) {
    const VertexId v = t.switch_vertex(s);
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
      if (net.kind(net.target(l)) == VertexKind::Switch) out[s].push_back(net.target(l));
    std::sort(out[s].begin(), out[s].end());
  }
  return out;
}

// igraph's view (an independent oracle): diameter of the whole graph and whether it is connected.
std::pair<double, bool> igraph_diameter_connected(const Network& net) {
  const test::IgraphGraph g(net);
  igraph_real_t diameter = 0;
  igraph_bool_t connected = false;
  igraph_diameter(g.get(), &diameter, nullptr, nullptr, nullptr, nullptr, false, true);
  igraph_is_connected(g.get(), &connected, IGRAPH_WEAK);
  return {diameter, connected};
}

const std::vector<JellyShape> kShapes = {{2, 2, 1},  {6, 8, 5},   {10, 5, 3},   {16, 6, 4},
                                         {50, 3, 2}, {64, 10, 7}, {100, 12, 8}, {7, 9, 4}};

}  // namespace

TEST_CASE("jellyfish topology: counts radix and port layout match N switches of k ports with r to switches") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& jf = dynamic_cast<const topo::JellyfishTopology&>(*topology);
    const Network& net = jf.network();
    const std::uint32_t p = s.k - s.r;
    CHECK(net.num_endpoints() == s.n * p);
    CHECK(net.num_switches() == s.n);
    CHECK(net.num_vertices() == s.n * (p + 1));
    CHECK(net.num_cables() == s.n * p + s.n * s.r / 2);
    CHECK(topology->default_routing() == "bfs");
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      REQUIRE(net.endpoint_vertex(e) == e);
      REQUIRE(net.degree(e) == 1);
      REQUIRE(net.target(net.out_begin(e)) == jf.switch_vertex(e / p));
    }
    for (std::uint32_t sw = 0; sw < s.n; ++sw) {
      const VertexId v = jf.switch_vertex(sw);
      REQUIRE(net.kind(v) == VertexKind::Switch);
      REQUIRE(net.degree(v) == s.k);  // every switch: p endpoints + r switch cables
      for (std::uint32_t port = 0; port < p; ++port) REQUIRE(net.target(net.out_begin(v) + port) == sw * p + port);
      for (std::uint32_t port = p; port < s.k; ++port) {
        REQUIRE(net.kind(net.target(net.out_begin(v) + port)) == VertexKind::Switch);
        if (port > p) REQUIRE(net.target(net.out_begin(v) + port - 1) < net.target(net.out_begin(v) + port));
      }
    }
  }
}

TEST_CASE("jellyfish topology: the switch graph is simple r-regular and connected") {
  for (const auto& s : kShapes) {
    for (std::uint64_t seed : {1, 2, 3}) {
      CAPTURE(spec_of(s, seed));
      auto topology = test::build_topology(spec_of(s, seed));
      const auto& jf = dynamic_cast<const topo::JellyfishTopology&>(*topology);
      const auto neighbours = switch_neighbours(jf);
      for (std::uint32_t sw = 0; sw < s.n; ++sw) {
        REQUIRE(neighbours[sw].size() == s.r);
        REQUIRE(std::adjacent_find(neighbours[sw].begin(), neighbours[sw].end()) == neighbours[sw].end());
        REQUIRE(!std::binary_search(neighbours[sw].begin(), neighbours[sw].end(), jf.switch_vertex(sw)));
      }
      const DistanceReport report = DistanceAnalysis().run(jf.network());
      CHECK(report.disconnected_pairs == 0);
      const auto [diameter, connected] = igraph_diameter_connected(jf.network());
      CHECK(connected);
      // Endpoint pairs are the farthest apart: the switch-graph diameter plus the two endpoint links.
      CHECK(report.diameter_links == static_cast<std::uint32_t>(diameter));
    }
  }
  SUBCASE("r = N - 1 gives the complete graph") {
    auto topology = test::build_topology("jellyfish:N=6,k=7,r=5");
    CHECK(DistanceAnalysis().run(topology->network()).diameter_links == 3);
  }
}

TEST_CASE("jellyfish topology: the same seed gives the same graph and another seed a different one") {
  const auto links = [](const std::string& spec) {
    auto t = test::build_topology(spec);
    const auto targets = t->network().targets();
    return std::vector<VertexId>(targets.begin(), targets.end());
  };
  for (const JellyShape s : {JellyShape{16, 6, 4}, JellyShape{100, 12, 8}, JellyShape{50, 3, 2}}) {
    CAPTURE(spec_of(s));
    const auto first = links(spec_of(s, 1));
    CHECK(first == links(spec_of(s, 1)));
    CHECK(first != links(spec_of(s, 2)));
    CHECK(links(spec_of(s, 2)) != links(spec_of(s, 3)));
  }
}

TEST_CASE("jellyfish topology: 8192 switches of radix 24 build quickly") {
  const auto start = std::chrono::steady_clock::now();
  auto topology = test::build_topology("jellyfish:N=8192,k=24,r=16,seed=5");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Network& net = topology->network();
  CHECK(net.num_switches() == 8192);
  CHECK(net.num_endpoints() == 8192 * 8);
  CHECK(net.num_cables() == 8192 * 8 + 8192 * 16 / 2);
  for (VertexId v = net.num_endpoints(); v < net.num_vertices(); ++v) REQUIRE(net.degree(v) == 24);
  CHECK(seconds < 5.0);
}

TEST_CASE("jellyfish topology: impossible parameters are input errors naming the constraint") {
  const auto message = test::topology_error;
  const std::string odd = message("jellyfish:N=5,k=6,r=3");
  CHECK(odd.find("jellyfish N=5, k=6, r=3") != std::string::npos);
  CHECK(odd.find("must be even") != std::string::npos);
  CHECK(message("jellyfish:N=4,k=6,r=4").find("less than N") != std::string::npos);
  CHECK(message("jellyfish:N=8,k=4,r=4").find("less than k") != std::string::npos);
  CHECK(message("jellyfish:N=8,k=4,r=1").find("connected") != std::string::npos);
  CHECK_THROWS_AS(topo::random_regular_graph(9, 3, 1, "g"), InputError);
  CHECK(topo::random_regular_graph(10, 3, 1, "g").size() == 15);
}
