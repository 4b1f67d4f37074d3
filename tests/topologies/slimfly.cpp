// Topology 'slimfly' and its field GF(q): field axioms, sizes and radix against the closed forms of
// Besta & Hoefler 2014, the MMS adjacency rules, diameter 2 from DistanceAnalysis and igraph.
#include "topologies/slimfly.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/galois_field.hpp"

using namespace interflow;

namespace {

// q and δ of q = 4w + δ for every q the tests build.
struct Order {
  std::uint32_t q;
  int delta;
};
const std::vector<Order> kOrders = {{3, -1}, {4, 0}, {5, 1}, {7, -1}, {8, 0}, {9, 1}, {11, -1}, {13, 1}};

}  // namespace

TEST_CASE("galois field: prime powers are recognised and others are not") {
  CHECK(topo::prime_power(2)->prime == 2);
  CHECK(topo::prime_power(27)->exponent == 3);
  CHECK(topo::prime_power(49)->prime == 7);
  CHECK(topo::prime_power(1024)->exponent == 10);
  CHECK(topo::prime_power(13)->exponent == 1);
  for (std::uint32_t q : {0u, 1u, 6u, 12u, 15u, 36u, 100u}) CHECK_FALSE(topo::prime_power(q).has_value());
}

TEST_CASE("galois field: GF(q) satisfies the field axioms and its primitive element has order q-1") {
  for (std::uint32_t q : {2u, 3u, 4u, 5u, 7u, 8u, 9u, 16u, 25u, 27u}) {
    CAPTURE(q);
    const topo::GaloisField f(q);
    for (std::uint32_t a = 0; a < q; ++a) {
      REQUIRE(f.add(a, 0) == a);
      REQUIRE(f.mul(a, 1) == a);
      REQUIRE(f.add(a, f.neg(a)) == 0);
      if (a != 0) REQUIRE(f.mul(a, f.div(1, a)) == 1);
      for (std::uint32_t b = 0; b < q; ++b) {
        REQUIRE(f.add(a, b) == f.add(b, a));
        REQUIRE(f.mul(a, b) == f.mul(b, a));
        REQUIRE(f.sub(f.add(a, b), b) == a);
        if (a != 0 && b != 0) REQUIRE(f.mul(a, b) != 0);  // no zero divisors
        for (std::uint32_t c = 0; c < q; ++c) {
          REQUIRE(f.mul(a, f.add(b, c)) == f.add(f.mul(a, b), f.mul(a, c)));
          REQUIRE(f.mul(a, f.mul(b, c)) == f.mul(f.mul(a, b), c));
        }
      }
    }
    // Adding 1 p times gives 0: the characteristic.
    std::uint32_t sum = 0;
    for (std::uint32_t i = 0; i < f.characteristic(); ++i) sum = f.add(sum, 1);
    CHECK(sum == 0);
    std::vector<bool> seen(q, false);
    for (std::uint32_t i = 0; i + 1 < q; ++i) seen[f.power(i)] = true;
    for (std::uint32_t a = 1; a < q; ++a) CHECK(seen[a]);
  }
}

TEST_CASE("slimfly topology: routers endpoints cables and radix match the closed forms") {
  for (const auto& o : kOrders) {
    for (const std::uint32_t p : {0u, 1u, 3u}) {  // 0: the default ceil(k'/2)
      const std::string spec = "slimfly:q=" + std::to_string(o.q) + (p ? ",p=" + std::to_string(p) : "");
      CAPTURE(spec);
      auto topology = test::build_topology(spec);
      const auto& sf = dynamic_cast<const topo::SlimFlyTopology&>(*topology);
      const Network& net = sf.network();
      const std::uint64_t q = o.q, routers = 2 * q * q;
      const auto radix = static_cast<std::uint64_t>((3 * static_cast<std::int64_t>(q) - o.delta) / 2);
      const std::uint64_t per_router = p ? p : (radix + 1) / 2;
      CHECK(sf.delta() == o.delta);
      CHECK(sf.network_radix() == radix);
      CHECK(sf.endpoints_per_router() == per_router);
      CHECK(net.num_switches() == routers);
      CHECK(net.num_endpoints() == routers * per_router);
      CHECK(net.num_cables() == routers * per_router + routers * radix / 2);
      for (VertexId v = 0; v < net.num_vertices(); ++v)
        REQUIRE(net.degree(v) == (net.kind(v) == VertexKind::Endpoint ? 1 : per_router + radix));
      CHECK(topology->default_routing() == "sfmin");
    }
  }
}

TEST_CASE("slimfly topology: q = 19 gives the 722 routers and 10830 endpoints of Besta and Hoefler") {
  auto topology = test::build_topology("slimfly:q=19");
  CHECK(topology->network().num_switches() == 722);
  CHECK(topology->network().num_endpoints() == 10830);
  CHECK(dynamic_cast<const topo::SlimFlyTopology&>(*topology).network_radix() == 29);
}

TEST_CASE("slimfly topology: router links follow the MMS adjacency rules") {
  for (const auto& o : kOrders) {
    CAPTURE(o.q);
    auto topology = test::build_topology("slimfly:q=" + std::to_string(o.q) + ",p=1");
    const auto& sf = dynamic_cast<const topo::SlimFlyTopology&>(*topology);
    const auto& f = sf.field();
    const Network& net = sf.network();
    // The generator sets are symmetric (d in X implies -d in X) and X' = ξ X.
    for (std::uint32_t s = 0; s < 2; ++s) {
      REQUIRE(sf.generators(s).size() == (o.q - static_cast<std::uint32_t>(o.delta + 1) + 1) / 2);
      for (std::uint32_t d : sf.generators(s)) REQUIRE(sf.generator_index(s, f.neg(d)) != kNone);
    }
    for (std::size_t i = 0; i < sf.generators(0).size(); ++i)
      REQUIRE(sf.generators(1)[i] == f.mul(f.primitive(), sf.generators(0)[i]));
    const std::uint32_t n = sf.num_routers();
    std::vector<std::uint8_t> adjacent(static_cast<std::size_t>(n) * n, 0);
    for (std::uint32_t r = 0; r < n; ++r) {
      const VertexId v = sf.router_vertex(r);
      for (LinkId l = net.out_begin(v) + 1; l < net.out_end(v); ++l) {
        const std::uint32_t t = sf.router_index(net.target(l));
        adjacent[static_cast<std::size_t>(r) * n + t] = 1;
        REQUIRE(sf.port_toward(r, t) == l - net.out_begin(v));
      }
    }
    for (std::uint32_t r = 0; r < n; ++r)
      for (std::uint32_t t = 0; t < n; ++t) {
        const std::uint32_t a = sf.first_coord(r), b = sf.second_coord(r);
        const std::uint32_t c = sf.first_coord(t), d = sf.second_coord(t);
        bool expected = false;
        if (sf.subgraph(r) == sf.subgraph(t))
          expected = a == c && sf.generator_index(sf.subgraph(r), f.sub(b, d)) != kNone;
        else if (sf.subgraph(r) == 0)
          expected = b == f.add(f.mul(c, a), d);  // (0,x,y) ~ (1,m,c) iff y = m x + c
        else
          expected = d == f.add(f.mul(a, c), b);
        REQUIRE(adjacent[static_cast<std::size_t>(r) * n + t] == (expected ? 1 : 0));
      }
  }
}

TEST_CASE("slimfly topology: the router graph has diameter 2 from DistanceAnalysis and igraph") {
  for (const auto& o : kOrders) {
    CAPTURE(o.q);
    auto topology = test::build_topology("slimfly:q=" + std::to_string(o.q) + ",p=1");
    const Network& net = topology->network();
    const DistanceReport report = DistanceAnalysis().run(net);
    CHECK(report.exact);
    CHECK(report.disconnected_pairs == 0);
    CHECK(report.diameter_links == 4);  // endpoint link, 2 router links, endpoint link
    CHECK(test::igraph_graph_diameter(net) == 4.0);
    CHECK(topology->facts().front().value == 4.0);
  }
}

TEST_CASE("slimfly topology: q must be a prime power of the form 4w + delta") {
  CHECK_THROWS_WITH_AS(test::build_topology("slimfly:q=6"), doctest::Contains("prime power"), InputError);
  CHECK_THROWS_WITH_AS(test::build_topology("slimfly:q=15"), doctest::Contains("prime power"), InputError);
  CHECK_THROWS_AS(test::build_topology("slimfly:q=2"), InputError);  // below the range
  CHECK_THROWS_WITH_AS(topo::SlimFlyTopology(2, 1, {}), doctest::Contains("4w + δ"), InputError);
  CHECK_THROWS_AS(test::build_topology("slimfly:q=5,p=0"), InputError);
  CHECK_THROWS_WITH_AS(test::build_topology("slimfly:q=46337"), doctest::Contains("largest network"), InputError);
}
