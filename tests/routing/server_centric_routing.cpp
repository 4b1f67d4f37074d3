// Routings of the server-centric networks: BCubeRouting (Guo et al. 2009), DCellRouting (Guo et al.
// 2008), FiConn's TOR (Li et al. 2009) and the gdcficonn proxy routing (after Erickson et al. 2015).
// Every pair of servers routed up to 400 servers; paths are walks from source to destination within the
// papers' bounds.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/recursive_dcn.hpp"
#include "topologies/registry.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// Every pair up to 400 servers; beyond, every destination from each 127th source (keeps Debug fast).
FlowSet pairs_to_check(std::uint32_t n) {
  if (n <= 400) return test::all_pairs(n);
  FlowSet flows;
  for (EndpointId s = 0; s < n; s += 127)
    for (EndpointId d = 0; d < n; ++d)
      if (s != d) flows.add(s, d);
  return flows;
}

struct PathShape {
  std::size_t links = 0;
  std::size_t server_hops = 0;  // links that arrive at a server: one per server-to-server hop
};

// Requires the flow's single path to be a walk from src's vertex to dst's vertex that never visits
// a vertex twice and alternates properly: a switch is always entered from and left to a server.
PathShape check_walk(const Network& net, const PathTable& paths, FlowId f, EndpointId src, EndpointId dst) {
  REQUIRE(paths.routed(f));
  REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
  CHECK(paths.split(paths.first_var(f)) == 1.0);
  const auto links = paths.links(paths.first_var(f));
  REQUIRE(!links.empty());
  REQUIRE(net.source(links.front()) == net.endpoint_vertex(src));
  REQUIRE(net.target(links.back()) == net.endpoint_vertex(dst));
  PathShape shape{links.size(), 0};
  bool connected = true, simple = true, switch_between_servers = true;
  VertexId seen[64];
  std::size_t num_seen = 0;
  seen[num_seen++] = net.endpoint_vertex(src);
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (i + 1 < links.size()) connected = connected && net.target(links[i]) == net.source(links[i + 1]);
    const VertexId v = net.target(links[i]);
    for (std::size_t j = 0; j < num_seen; ++j) simple = simple && seen[j] != v;
    if (num_seen < 64) seen[num_seen++] = v;
    if (net.kind(v) == VertexKind::Endpoint)
      ++shape.server_hops;
    else
      switch_between_servers = switch_between_servers && net.kind(net.source(links[i])) == VertexKind::Endpoint;
  }
  REQUIRE(connected);
  REQUIRE(simple);
  REQUIRE(switch_between_servers);
  return shape;
}

std::string spec(const std::string& family, std::uint32_t n, std::uint32_t k) {
  return family + ":n=" + std::to_string(n) + ",k=" + std::to_string(k);
}

std::uint32_t hamming(std::uint32_t n, std::uint32_t k, EndpointId a, EndpointId b) {
  std::uint32_t differ = 0;
  for (std::uint32_t l = 0; l <= k; ++l, a /= n, b /= n) differ += a % n != b % n;
  return differ;
}

}  // namespace

TEST_CASE("bcube routing: pairs routed on 2 x Hamming distance links correcting the highest digit first") {
  for (auto [n, k] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 0}, {2, 3}, {3, 2}, {4, 1}, {5, 1}}) {
    CAPTURE(n);
    CAPTURE(k);
    auto topology = test::build_topology(spec("bcube", n, k));
    const Network& net = topology->network();
    auto routing = test::build_routing(topology->default_routing(), *topology);
    const FlowSet flows = pairs_to_check(net.num_endpoints());
    const PathTable paths = routing->route_all(net, flows, RouteContext{});
    for (FlowId f = 0; f < flows.size(); ++f) {
      const EndpointId s = flows.src[f], d = flows.dst[f];
      const PathShape shape = check_walk(net, paths, f, s, d);
      const std::uint32_t h = hamming(n, k, s, d);
      REQUIRE(shape.links == 2 * h);
      REQUIRE(shape.server_hops == h);
      REQUIRE(shape.links <= 2 * (k + 1));
      // The levels of the switches crossed strictly decrease: digits corrected from level k down.
      const auto links = paths.links(paths.first_var(f));
      std::uint32_t last = k + 1;
      for (std::size_t i = 0; i < links.size(); i += 2) {
        const VertexId from = net.source(links[i]);
        const auto port = static_cast<std::uint32_t>(links[i] - net.out_begin(from));
        REQUIRE(port < last);
        last = port;
      }
    }
  }
}

TEST_CASE("dcell routing: pairs routed within 2^(k+1)-1 server hops and 3 x 2^k - 1 links under both rules") {
  for (const std::string family : {"dcell", "gdcficonn:rule=beta,"})
    for (auto [n, k] :
         std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 0}, {3, 1}, {4, 1}, {2, 2}, {3, 2}, {2, 3}}) {
      CAPTURE(family);
      CAPTURE(n);
      CAPTURE(k);
      const bool alpha = family == "dcell";
      auto topology = test::build_topology(alpha ? spec(family, n, k)
                                                 : family + "n=" + std::to_string(n) + ",k=" + std::to_string(k));
      const Network& net = topology->network();
      auto routing = test::build_routing(topology->default_routing(), *topology);
      const FlowSet flows = pairs_to_check(net.num_endpoints());
      const PathTable paths = routing->route_all(net, flows, RouteContext{});
      std::size_t longest = 0;
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId s = flows.src[f], d = flows.dst[f];
        const PathShape shape = check_walk(net, paths, f, s, d);
        REQUIRE(shape.server_hops <= (1U << (k + 1)) - 1);
        REQUIRE(shape.links <= 3 * (1U << k) - 1);
        longest = std::max(longest, shape.server_hops);
        if (alpha && k == 1) {
          // Closed form for DCell_1: copies c = u / n; the link between copies i < j joins [i, j-1] and
          // [j, i], so the path is switch hop (unless at the gateway) + link + switch hop (unless at it).
          const std::uint32_t cs = s / n, cd = d / n;
          std::size_t expected = 2;
          if (cs != cd) {
            const EndpointId n1 = cs * n + (cd < cs ? cd : cd - 1), n2 = cd * n + (cs < cd ? cs : cs - 1);
            expected = 2 * (s != n1) + 1 + 2 * (n2 != d);
          }
          REQUIRE(shape.links == expected);
        }
      }
      if (alpha) CHECK(longest == (1U << (k + 1)) - 1);  // DCellRouting reaches its bound
    }
}

TEST_CASE("ficonn routing: pairs routed by TOR within 2^(k+1)-1 server hops and 3 x 2^k - 1 links") {
  for (auto [n, k] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 0}, {4, 1}, {2, 2}, {4, 2}, {2, 4}, {6, 2}}) {
    CAPTURE(n);
    CAPTURE(k);
    auto topology = test::build_topology(spec("ficonn", n, k));
    const Network& net = topology->network();
    auto routing = test::build_routing(topology->default_routing(), *topology);
    const FlowSet flows = pairs_to_check(net.num_endpoints());
    const PathTable paths = routing->route_all(net, flows, RouteContext{});
    std::size_t longest = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const PathShape shape = check_walk(net, paths, f, flows.src[f], flows.dst[f]);
      REQUIRE(shape.server_hops <= (1U << (k + 1)) - 1);
      REQUIRE(shape.links <= 3 * (1U << k) - 1);
      longest = std::max(longest, shape.server_hops);
      if (k == 1) {
        // FiConn_1: copies c = u / n joined between [i, 2(j-1)] and [j, 2i] for i < j.
        const EndpointId s = flows.src[f], d = flows.dst[f];
        const std::uint32_t cs = s / n, cd = d / n;
        std::size_t expected = 2;
        if (cs != cd) {
          const EndpointId n1 = cs * n + 2 * (cd < cs ? cd : cd - 1), n2 = cd * n + 2 * (cs < cd ? cs : cs - 1);
          expected = 2 * (s != n1) + 1 + 2 * (n2 != d);
        }
        REQUIRE(shape.links == expected);
      }
    }
    CHECK(longest == (1U << (k + 1)) - 1);  // TOR reaches its bound on these sizes
  }
}

TEST_CASE("server-centric routing: a failed link makes exactly the flows crossing it unroutable") {
  for (const std::string family : {"bcube", "dcell", "ficonn"}) {
    CAPTURE(family);
    auto topology = test::build_topology(spec(family, 4, 1));
    Network& net = topology->network();
    auto routing = test::build_routing(family, *topology);
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable before = routing->route_all(net, flows, RouteContext{});
    // Fail the cable on port 1 of server 0 (a level link in all three families).
    const LinkId failed = net.out_begin(0) + 1;
    net.set_up(failed, false);
    net.set_up(net.reverse(failed), false);
    const PathTable after = routing->route_all(net, flows, RouteContext{});
    std::size_t dropped = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      bool crosses = false;
      for (LinkId l : before.links(before.first_var(f))) crosses = crosses || l == failed || l == net.reverse(failed);
      REQUIRE(after.routed(f) == !crosses);
      dropped += crosses;
    }
    CHECK(dropped > 0);
  }
}

TEST_CASE("server-centric routing: each routing refuses another family") {
  auto tree = test::build_topology("fattree:k=2,n=2");
  for (const std::string name : {"bcube", "dcell", "ficonn"})
    CHECK_THROWS_WITH_AS(test::build_routing(name, *tree), doctest::Contains("needs a"), InputError);
}

TEST_CASE("server-centric routing: the static engine routes every flow of an all-to-all") {
  for (const std::string topology_spec : {"bcube:n=3,k=1", "dcell:n=3,k=1", "ficonn:n=4,k=1"}) {
    CAPTURE(topology_spec);
    auto topology = test::build_topology(topology_spec);
    auto routing = test::build_routing(topology->default_routing(), *topology);
    const FlowSet flows = test::all_pairs(topology->network().num_endpoints());
    const StaticResult result = StaticEngine(topology->network(), *routing).run(flows, StaticOptions{});
    CHECK(result.metrics.flows_routed == flows.size());
  }
}

TEST_CASE("gdcproxy: paths are simple walks never longer than the dimensional route nor shorter than BFS") {
  // FiConn(2,k) is a tree of 2-server units, where TOR is already a shortest-path routing.
  const std::vector<std::pair<std::string, bool>> cases{
      {"dcell:n=3,k=2", true},  {"gdcficonn:rule=beta,n=3,k=2", true},
      {"ficonn:n=4,k=2", true}, {"ficonn:n=2,k=4", false},
      {"dcell:n=2,k=3", true},  {"gdcficonn:rule=alpha,n=4,k=1", true}};
  for (const auto& [s, improvable] : cases) {
    CAPTURE(s);
    auto topology = test::build_topology(s);
    const Network& net = topology->network();
    auto dimensional = test::build_routing(topology->default_routing(), *topology);
    const FlowSet flows = pairs_to_check(net.num_endpoints());
    const PathTable base = dimensional->route_all(net, flows, RouteContext{});
    const std::vector<double> dist = test::IgraphGraph(net).all_distances();
    const std::size_t v = net.num_vertices();
    const std::uint32_t k = dynamic_cast<const topo::RecursiveDcnTopology&>(*topology).k();
    double base_total = 0, shortest_total = 0;
    std::vector<double> proxy_total;
    for (const std::string spec : {"gdcproxy", "gdcproxy:tightness=1", "gdcproxy:tightness=16"}) {
      CAPTURE(spec);
      auto proxy = test::build_routing(spec, *topology);
      const PathTable paths = proxy->route_all(net, flows, RouteContext{});
      double total = 0;
      base_total = shortest_total = 0;
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId src = flows.src[f], dst = flows.dst[f];
        const PathShape shape = check_walk(net, paths, f, src, dst);
        const std::size_t dimensional_links = base.links(base.first_var(f)).size();
        const double shortest = dist[net.endpoint_vertex(src) * v + net.endpoint_vertex(dst)];
        REQUIRE(shape.links <= dimensional_links);
        REQUIRE(static_cast<double>(shape.links) >= shortest);
        REQUIRE(shape.links <= 3 * (1U << k) - 1);
        total += static_cast<double>(shape.links);
        base_total += static_cast<double>(dimensional_links);
        shortest_total += shortest;
      }
      proxy_total.push_back(total);
    }
    // Proxies shorten some routes (with every copy tried, tightness 16), and trying more copies is at
    // least as good on average.
    if (improvable)
      CHECK(proxy_total[2] < base_total);
    else
      CHECK(base_total == shortest_total);
    CHECK(proxy_total[0] <= base_total);
    CHECK(proxy_total[2] <= proxy_total[0]);
    CHECK(proxy_total[2] >= shortest_total);
  }
}

TEST_CASE("recursive network routings: each refuses the wrong connection rule or family naming it") {
  auto ficonn = test::build_topology("ficonn:n=4,k=1");
  auto beta = test::build_topology("gdcficonn:rule=beta,n=3,k=1");
  CHECK_THROWS_WITH_AS(test::build_routing("dcell", *ficonn), doctest::Contains("DCell connection rule"), InputError);
  CHECK_THROWS_WITH_AS(test::build_routing("ficonn", *beta), doctest::Contains("FiConn's rule"), InputError);
  auto tree = test::build_topology("fattree:k=2,n=2");
  CHECK_THROWS_WITH_AS(test::build_routing("gdcproxy", *tree), doctest::Contains("needs a"), InputError);
  CHECK_THROWS_AS(test::build_routing("gdcproxy:tightness=-1", *beta), InputError);
}
