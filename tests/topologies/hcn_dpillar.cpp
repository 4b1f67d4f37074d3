// HCN, BCN and DPillar: sizes against the papers' closed forms, server and switch degrees, port
// layout, diameters by BFS (DistanceAnalysis) and igraph, and refused parameters.
#include <doctest/doctest.h>
#include <igraph.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/dpillar.hpp"
#include "topologies/hcn.hpp"

using namespace interflow;

namespace {

std::uint64_t ipow(std::uint64_t b, std::uint32_t e) {
  std::uint64_t r = 1;
  while (e-- > 0) r *= b;
  return r;
}

// Degrees of servers (endpoint vertices) and switches: {min server, max server, min switch, max switch}.
std::array<std::uint32_t, 4> degrees(const Network& net) {
  std::array<std::uint32_t, 4> d{~0u, 0, ~0u, 0};
  for (VertexId v = 0; v < net.num_vertices(); ++v) {
    const std::size_t i = net.kind(v) == VertexKind::Endpoint ? 0 : 2;
    d[i] = std::min(d[i], net.degree(v));
    d[i + 1] = std::max(d[i + 1], net.degree(v));
  }
  return d;
}

double fact(const Topology& t, const std::string& key) {
  const auto value = test::find_fact(t, key);
  REQUIRE_MESSAGE(value.has_value(), "no fact " << key);
  return *value;
}

}  // namespace

TEST_CASE("hcn: sizes degrees and available servers match HCN(n h) of Guo et al.") {
  for (const auto& [n, h] : {std::pair{2u, 3u}, {3u, 2u}, {4u, 2u}, {5u, 1u}, {4u, 0u}, {3u, 4u}}) {
    CAPTURE(n);
    CAPTURE(h);
    auto t = test::build_topology("hcn:n=" + std::to_string(n) + ",h=" + std::to_string(h));
    const Network& net = t->network();
    const std::uint64_t servers = ipow(n, h + 1);
    CHECK(net.num_endpoints() == servers);
    CHECK(net.num_switches() == ipow(n, h));
    CHECK(net.num_cables() == servers + (servers - n) / 2);
    CHECK(net.endpoints_forward());
    CHECK(t->default_routing() == "hcn");
    const auto d = degrees(net);
    CHECK(d[0] == 1);  // the available servers keep one port free
    CHECK(d[1] == (h == 0 ? 1u : 2u));
    CHECK(d[2] == n);
    CHECK(d[3] == n);
    std::uint32_t available = 0;
    for (EndpointId e = 0; e < servers; ++e) available += net.degree(e) == 1;
    CHECK(available == n);
    // The free servers are exactly those with all label digits equal: slot x on switch x * (1 + n + ..).
    const auto& hcn = dynamic_cast<const topo::HcnTopology&>(*t);
    for (std::uint32_t x = 0; x < n; ++x)
      CHECK(net.degree(hcn.server(0, static_cast<std::uint32_t>(x * hcn.ones(h)), x)) == 1);
  }
}

TEST_CASE("hcn: the level-l cable joins leader a b..b to leader b a..a") {
  auto t = test::build_topology("hcn:n=3,h=2");
  const auto& hcn = dynamic_cast<const topo::HcnTopology&>(*t);
  const Network& net = hcn.network();
  // Labels x2 x1 x0: switch = x1 + 3 x2, slot = x0.
  const auto server = [&](std::uint32_t x2, std::uint32_t x1, std::uint32_t x0) {
    return hcn.server(0, x1 + 3 * x2, x0);
  };
  CHECK(net.target(net.out_begin(server(0, 0, 1)) + 1) == server(0, 1, 0));  // level 1: 0 0 1 -- 0 1 0
  CHECK(net.target(net.out_begin(server(0, 1, 1)) + 1) == server(1, 0, 0));  // level 2: 0 1 1 -- 1 0 0
  CHECK(net.target(net.out_begin(server(2, 0, 0)) + 1) == server(0, 2, 2));  // level 2: 2 0 0 -- 0 2 2
  CHECK(net.target(net.out_begin(server(2, 1, 0)) + 1) == server(2, 0, 1));  // level 1 inside copy 2
  // Port 0 of every server is its switch, on the switch's port = slot.
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
    const VertexId sw = hcn.switch_vertex(0, hcn.switch_of(e));
    CHECK(net.target(net.out_begin(e)) == sw);
    CHECK(net.target(net.out_begin(sw) + hcn.slot_of(e)) == e);
  }
}

TEST_CASE("hcn: diameter is 2^(h+1) - 1 server hops = 3 * 2^h - 1 links") {
  for (const auto& [n, h] : {std::pair{2u, 3u}, {3u, 1u}, {3u, 2u}, {4u, 2u}, {3u, 3u}, {5u, 1u}, {4u, 0u}}) {
    CAPTURE(n);
    CAPTURE(h);
    auto t = test::build_topology("hcn:n=" + std::to_string(n) + ",h=" + std::to_string(h));
    const DistanceReport r = DistanceAnalysis().run(t->network());
    REQUIRE(r.exact);
    CHECK(r.disconnected_pairs == 0);
    CHECK(r.diameter_links == 3 * (1u << h) - 1);
    CHECK(fact(*t, "diameter_links") == r.diameter_links);
    if (t->network().num_vertices() <= 400) CHECK(test::igraph_endpoint_diameter(t->network()) == r.diameter_links);
  }
}

TEST_CASE("bcn: sizes and degrees match BCN(alpha beta h gamma) with gamma <= h under both rules") {
  for (const auto& [a, b, h, g, beta_rule] : {std::array{2u, 1u, 1u, 1u, 0u},
                                              {2u, 2u, 1u, 0u, 0u},
                                              {3u, 1u, 1u, 1u, 0u},
                                              {2u, 2u, 2u, 1u, 0u},
                                              {3u, 2u, 2u, 2u, 0u},
                                              {4u, 4u, 1u, 1u, 0u},
                                              {2u, 2u, 1u, 0u, 1u},
                                              {3u, 2u, 2u, 1u, 1u},
                                              {4u, 3u, 1u, 1u, 1u}}) {
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(h);
    CAPTURE(g);
    CAPTURE(beta_rule);
    auto t = test::build_topology("bcn:alpha=" + std::to_string(a) + ",beta=" + std::to_string(b) + ",h=" +
                                  std::to_string(h) + ",gamma=" + std::to_string(g) + (beta_rule ? ",rule=beta" : ""));
    const Network& net = t->network();
    const std::uint64_t copies = ipow(a, g) * b + 1;
    const std::uint64_t switches = copies * ipow(a, h);
    const std::uint64_t leaders = switches * a, followers = switches * b;
    CHECK(net.num_endpoints() == leaders + followers);
    CHECK(net.num_switches() == switches);
    CHECK(net.num_cables() == leaders + followers + copies * (ipow(a, h + 1) - a) / 2 + followers / 2);
    const auto d = degrees(net);
    CHECK(d[0] == 1);
    CHECK(d[1] == 2);
    CHECK(d[2] == a + b);
    CHECK(d[3] == a + b);
    std::uint64_t free_servers = 0;
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) free_servers += net.degree(e) == 1;
    CHECK(free_servers == copies * a);  // only the available leaders of each copy
    const auto& bcn = dynamic_cast<const topo::HcnTopology&>(*t);
    CHECK(t->default_routing() == "bcn");
    // Follower cables stay within the same unit v and join different copies.
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      if (bcn.slot_of(e) < a) continue;
      const VertexId other = net.target(net.out_begin(e) + 1);
      CHECK(bcn.slot_of(other) >= a);
      CHECK(bcn.copy_of(other) != bcn.copy_of(e));
      CHECK(bcn.unit_of(other) == bcn.unit_of(e));
      CHECK(bcn.bcn_bridge(bcn.copy_of(e), bcn.copy_of(other), bcn.unit_of(e)) == e);
    }
    // The pairing itself, from the rules' formulas: m followers per unit, m + 1 copies.
    const std::uint32_t m = bcn.followers_per_unit();
    for (std::uint32_t v = 0; v < ipow(a, h - g); ++v)
      for (std::uint32_t u = 0; u <= m; ++u)
        for (std::uint32_t j = 0; j < m; ++j) {
          const VertexId e = bcn.follower(u, v, j);
          // alpha: [u, j] -- [j+1, u] for j >= u, [j, u-1] for j < u; beta: [u, B] -- [(u+B+1) mod (m+1), m-1-B].
          const VertexId expected = beta_rule ? bcn.follower((u + j + 1) % (m + 1), v, m - 1 - j)
                                              : (j >= u ? bcn.follower(j + 1, v, u) : bcn.follower(j, v, u - 1));
          REQUIRE(net.target(net.out_begin(e) + 1) == expected);
        }
    const DistanceReport r = DistanceAnalysis().run(net);
    CHECK(r.disconnected_pairs == 0);
    CHECK(r.diameter_links <= fact(*t, "bcn_route_bound_links"));
  }
}

TEST_CASE("bcn: gamma > h builds one HCN(alpha h) whose followers keep their backup ports free") {
  for (const auto& [a, b, h, g] : {std::array{2u, 2u, 1u, 2u}, {3u, 2u, 0u, 1u}, {3u, 1u, 2u, 5u}}) {
    CAPTURE(a);
    CAPTURE(h);
    CAPTURE(g);
    auto t = test::build_topology("bcn:alpha=" + std::to_string(a) + ",beta=" + std::to_string(b) +
                                  ",h=" + std::to_string(h) + ",gamma=" + std::to_string(g));
    const auto& bcn = dynamic_cast<const topo::HcnTopology&>(*t);
    const Network& net = t->network();
    CHECK_FALSE(bcn.has_second_dimension());
    CHECK(bcn.copies() == 1);
    CHECK(net.num_switches() == ipow(a, h));
    CHECK(net.num_endpoints() == ipow(a, h) * (a + b));
    CHECK(net.num_cables() == net.num_endpoints() + (ipow(a, h + 1) - a) / 2);
    for (EndpointId e = 0; e < net.num_endpoints(); ++e)
      if (bcn.slot_of(e) >= a) CHECK(net.degree(e) == 1);
    const DistanceReport r = DistanceAnalysis().run(net);
    CHECK(r.disconnected_pairs == 0);
    CHECK(r.diameter_links <= fact(*t, "bcn_route_bound_links"));
    CHECK(fact(*t, "bcn_route_bound_links") == 3 * (1u << h) - 1);
  }
}

TEST_CASE("hcn: the bisection fact equals the cables across the cut between the first and last n/2 copies") {
  for (const auto& [n, h] : {std::pair{2u, 1u}, {4u, 1u}, {4u, 2u}, {6u, 2u}}) {
    CAPTURE(n);
    CAPTURE(h);
    auto t = test::build_topology("hcn:n=" + std::to_string(n) + ",h=" + std::to_string(h));
    CHECK(fact(*t, "bisection_cables") == static_cast<double>(test::cables_across_endpoint_halves(t->network())));
    CHECK(fact(*t, "bisection_cables") == (n / 2) * (n / 2));
  }
}

TEST_CASE("dpillar: sizes degrees and switch wiring match DPillar(n k)") {
  for (const auto& [n, k] : {std::pair{4u, 2u}, {4u, 3u}, {6u, 3u}, {8u, 2u}, {4u, 5u}, {6u, 4u}}) {
    CAPTURE(n);
    CAPTURE(k);
    auto t = test::build_topology("dpillar:n=" + std::to_string(n) + ",k=" + std::to_string(k));
    const auto& dp = dynamic_cast<const topo::DPillarTopology&>(*t);
    const Network& net = t->network();
    const std::uint32_t m = n / 2;
    CHECK(net.num_endpoints() == k * ipow(m, k));
    CHECK(net.num_switches() == k * ipow(m, k - 1));
    CHECK(net.num_cables() == 2 * k * ipow(m, k));
    CHECK(net.endpoints_forward());
    const auto d = degrees(net);
    CHECK(d[0] == 2);
    CHECK(d[1] == 2);
    CHECK(d[2] == n);
    CHECK(d[3] == n);
    // Every switch of S_i joins servers of H_i (ports < m) and H_i+1 (ports >= m) that agree on all
    // digits but i, with digit i = the port's index on its side.
    for (VertexId sw = net.num_endpoints(); sw < net.num_vertices(); ++sw) {
      const VertexId first = net.target(net.out_begin(sw));
      const std::uint32_t i = dp.column_of(first);
      const std::uint32_t rest =
          dp.label_of(first) - dp.digit(dp.label_of(first), i) * static_cast<std::uint32_t>(dp.pow_m(i));
      for (std::uint32_t p = 0; p < n; ++p) {
        const VertexId s = net.target(net.out_begin(sw) + p);
        CHECK(dp.column_of(s) == (p < m ? i : (i + 1) % k));
        CHECK(dp.digit(dp.label_of(s), i) == p % m);
        CHECK(dp.label_of(s) - dp.digit(dp.label_of(s), i) * dp.pow_m(i) == rest);
      }
    }
  }
}

TEST_CASE("dpillar: diameter is max(k  floor(3k/2) - 2) server hops") {
  for (const auto& [n, k] : {std::pair{4u, 2u}, {4u, 3u}, {6u, 3u}, {4u, 4u}, {4u, 5u}, {4u, 6u}, {4u, 7u}, {6u, 4u}}) {
    CAPTURE(n);
    CAPTURE(k);
    auto t = test::build_topology("dpillar:n=" + std::to_string(n) + ",k=" + std::to_string(k));
    const DistanceReport r = DistanceAnalysis().run(t->network());
    REQUIRE(r.exact);
    CHECK(r.disconnected_pairs == 0);
    CHECK(r.diameter_links == fact(*t, "diameter_links"));
    if (t->network().num_vertices() <= 400) CHECK(test::igraph_endpoint_diameter(t->network()) == r.diameter_links);
  }
}

TEST_CASE("hcn: impossible parameters are refused") {
  CHECK_THROWS_AS(test::build_topology("hcn:n=1,h=2"), InputError);
  CHECK_THROWS_AS(test::build_topology("hcn:n=1024,h=4"), InputError);
  CHECK_THROWS_WITH_AS(test::build_topology("bcn:alpha=2,beta=2,h=1,gamma=1,rule=gamma"), doctest::Contains("beta"),
                       InputError);
  CHECK_THROWS_AS(test::build_topology("bcn:alpha=2,beta=0,h=1,gamma=1"), InputError);
  CHECK_THROWS_AS(test::build_topology("bcn:alpha=64,beta=64,h=3,gamma=3"), InputError);
  CHECK_THROWS_AS(test::build_topology("dpillar:n=5,k=2"), InputError);
  CHECK_THROWS_AS(test::build_topology("dpillar:n=4,k=1"), InputError);
  CHECK_THROWS_AS(test::build_topology("dpillar:n=64,k=8"), InputError);
}
