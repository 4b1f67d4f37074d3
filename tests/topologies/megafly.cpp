// Topology 'megafly': sizes against the closed forms (and Table I of Mubarak et al.), the global
// arrangement, and the diameter from DistanceAnalysis and igraph.
#include "topologies/megafly.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

struct MegaflyShape {
  std::uint64_t leaves, spines, p, h, g;
};

std::string spec_of(const MegaflyShape& s) {
  return "megafly:leaves=" + std::to_string(s.leaves) + ",spines=" + std::to_string(s.spines) +
         ",p=" + std::to_string(s.p) + ",h=" + std::to_string(s.h) + ",g=" + std::to_string(s.g);
}

const std::vector<MegaflyShape> kShapes = {{2, 2, 2, 2, 5}, {3, 2, 1, 2, 3}, {2, 3, 2, 2, 4},
                                           {4, 4, 4, 2, 9}, {1, 1, 3, 1, 2}, {4, 2, 3, 3, 7}};

// Group of a router vertex, from the numbering N + G (leaves + spines) + index.
std::uint32_t group_of_router(const MegaflyShape& s, std::uint64_t endpoints, VertexId v) {
  return static_cast<std::uint32_t>((v - endpoints) / (s.leaves + s.spines));
}

bool is_spine(const MegaflyShape& s, std::uint64_t endpoints, VertexId v) {
  return v >= endpoints && (v - endpoints) % (s.leaves + s.spines) >= s.leaves;
}

}  // namespace

TEST_CASE("megafly topology: endpoint router cable and radix counts match the closed forms") {
  auto shapes = kShapes;
  shapes.push_back({16, 16, 16, 16, 33});  // Table I of Mubarak et al.
  for (const auto& s : shapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const Network& net = topology->network();
    const std::uint64_t endpoints = s.g * s.leaves * s.p;
    CHECK(net.num_endpoints() == endpoints);
    CHECK(net.num_switches() == s.g * (s.leaves + s.spines));
    CHECK(net.num_vertices() == endpoints + s.g * (s.leaves + s.spines));
    CHECK(net.num_cables() == endpoints + s.g * s.leaves * s.spines + s.g * s.spines * s.h / 2);
    for (VertexId v = 0; v < net.num_vertices(); ++v) {
      if (v < endpoints) {
        REQUIRE(net.kind(v) == VertexKind::Endpoint);
        REQUIRE(net.degree(v) == 1);
      } else {
        REQUIRE(net.kind(v) == VertexKind::Switch);
        REQUIRE(net.degree(v) == (is_spine(s, endpoints, v) ? s.leaves + s.h : s.p + s.spines));
      }
    }
    CHECK(topology->default_routing() == "mfmin");
  }
}

TEST_CASE("megafly topology: the Table I configuration of Mubarak et al. has its published sizes") {
  auto topology = test::build_topology("megafly:leaves=16,spines=16,p=16,h=16,g=33");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  const Network& net = mf.network();
  CHECK(net.num_endpoints() == 8448);                   // node count
  CHECK(mf.leaves() * mf.endpoints_per_leaf() == 256);  // nodes per group
  CHECK(mf.spines() * mf.global_per_spine() == 256);    // global connections per group
  CHECK(mf.groups() == 33);
  CHECK(mf.links_per_pair() == 8);
  CHECK(net.degree(mf.leaf_vertex(0, 0)) == 32);  // router radix 32
  CHECK(net.degree(mf.spine_vertex(0, 0)) == 32);
}

TEST_CASE("megafly topology: every pair of groups gets spines h over g-1 global links") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
    const Network& net = mf.network();
    const std::uint64_t endpoints = net.num_endpoints();
    REQUIRE(mf.links_per_pair() * (s.g - 1) == s.spines * s.h);
    std::vector<std::uint32_t> between(s.g * s.g, 0);
    for (VertexId v = static_cast<VertexId>(endpoints); v < net.num_vertices(); ++v) {
      std::uint32_t global = 0;
      for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) {
        const VertexId t = net.target(l);
        if (t < endpoints) continue;
        const std::uint32_t a = group_of_router(s, endpoints, v), b = group_of_router(s, endpoints, t);
        if (a == b) {
          REQUIRE(is_spine(s, endpoints, v) != is_spine(s, endpoints, t));  // leaf-spine inside a group
          continue;
        }
        REQUIRE(is_spine(s, endpoints, v));
        REQUIRE(is_spine(s, endpoints, t));
        ++between[a * s.g + b];
        ++global;
        // The arithmetic link id of the topology is this link.
        const std::uint32_t port = static_cast<std::uint32_t>(l - net.out_begin(v));
        REQUIRE(port >= s.leaves);
      }
      if (is_spine(s, endpoints, v)) REQUIRE(global == s.h);
    }
    for (std::uint32_t a = 0; a < s.g; ++a)
      for (std::uint32_t b = 0; b < s.g; ++b) REQUIRE(between[a * s.g + b] == (a == b ? 0 : mf.links_per_pair()));
    // Group ports toward another group land there on ports pointing back, with the same copy.
    for (std::uint32_t a = 0; a < s.g; ++a)
      for (std::uint32_t b = 0; b < s.g; ++b)
        for (std::uint32_t c = 0; a != b && c < mf.links_per_pair(); ++c) {
          const LinkId l = mf.global_link(net, a, mf.group_port_toward(a, b, c));
          REQUIRE(net.target(l) == mf.spine_vertex(b, mf.group_port_toward(b, a, c) / mf.global_per_spine()));
          REQUIRE(net.reverse(l) == mf.global_link(net, b, mf.group_port_toward(b, a, c)));
        }
  }
}

TEST_CASE("megafly topology: the diameter is 5 links from DistanceAnalysis and igraph") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const Network& net = topology->network();
    const DistanceReport report = DistanceAnalysis().run(net);
    CHECK(report.exact);
    CHECK(report.disconnected_pairs == 0);
    CHECK(report.diameter_links == 5);  // endpoint, leaf, spine, spine, leaf, endpoint
    CHECK(test::igraph_graph_diameter(net) == 5.0);
    CHECK(topology->facts().front().value == 5.0);
  }
}

TEST_CASE("megafly topology: g defaults to spines h + 1 and bad sizes are refused") {
  auto topology = test::build_topology("megafly:leaves=2,spines=3,p=1,h=2");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  CHECK(mf.groups() == 7);
  CHECK(mf.links_per_pair() == 1);
  CHECK_THROWS_WITH_AS(test::build_topology("megafly:leaves=2,spines=3,p=1,h=2,g=5"),
                       doctest::Contains("divisible by g-1"), InputError);
  CHECK_THROWS_AS(test::build_topology("megafly:leaves=2,spines=3,p=1,h=2,g=1"), InputError);
  CHECK_THROWS_AS(test::build_topology("megafly:leaves=0,spines=3,p=1,h=2"), InputError);
  CHECK_THROWS_AS(test::build_topology("megafly:leaves=65536,spines=65536,p=65536,h=1,g=2"), InputError);
}
