#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/xgft.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

FlowSet shift(std::uint32_t n, std::uint32_t by) {
  FlowSet flows;
  for (EndpointId s = 0; s < n; ++s) flows.add(s, (s + by) % n);
  return flows;
}

// Highest position (1..h) where the base-(m_1, m_2, ..) digits of s and d differ.
std::uint32_t lca_from_digits(const std::vector<std::uint32_t>& m, EndpointId s, EndpointId d) {
  std::uint32_t level = 0;
  for (std::uint32_t i = 0; i < m.size(); ++i) {
    if (s % m[i] != d % m[i]) level = i + 1;
    s /= m[i];
    d /= m[i];
  }
  return level;
}

const std::vector<std::string> kTrees = {"xgft:h=3,m=4x4x4,w=1x4x4",          "xgft:h=3,m=2x3x4,w=1x2x3",
                                         "xgft:h=2,m=4x2,w=1x2,c=1x2",        "xgft:h=2,m=3x4,w=2x2",
                                         "gtree:h=3,m=2x2x3,w=3x1x2,c=2x1x3", "xgft:h=1,m=6,w=1"};
const std::vector<std::string> kRoutings = {"xgftdmodk", "xgftsmodk", "xgftrandom"};

}  // namespace

TEST_CASE("xgft routing: every pair gets an up-down walk of 2 LCA-level links") {
  for (const auto& tree_spec : kTrees) {
    auto topology = test::build_topology(tree_spec);
    const auto& tree = dynamic_cast<const topo::XgftTopology&>(*topology);
    const Network& net = tree.network();
    const auto m = tree.endpoint_grid();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    for (const auto& routing_spec : kRoutings) {
      CAPTURE(tree_spec);
      CAPTURE(routing_spec);
      const PathTable paths = test::build_routing(routing_spec, *topology)->route_all(net, flows, RouteContext{});
      REQUIRE(paths.num_flows() == flows.size());
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId s = flows.src[f], d = flows.dst[f];
        REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
        const auto links = paths.links(paths.first_var(f));
        const std::uint32_t lca = lca_from_digits(m, s, d);
        REQUIRE(tree.lca_level(s, d) == lca);
        REQUIRE(links.size() == 2 * lca);
        REQUIRE(links.size() <= 2 * tree.height());
        REQUIRE(net.source(links.front()) == net.endpoint_vertex(s));
        REQUIRE(net.target(links.back()) == net.endpoint_vertex(d));
        for (std::size_t i = 0; i + 1 < links.size(); ++i) REQUIRE(net.target(links[i]) == net.source(links[i + 1]));
        for (std::size_t i = 0; i + 1 < links.size(); ++i)
          REQUIRE(tree.level_of(net.target(links[i])) == (i < lca ? i + 1 : 2 * lca - i - 1));
      }
    }
  }
}

TEST_CASE(
    "xgft routing: xgftdmodk and xgftsmodk on the k-ary n-tree as an XGFT take the same links as dmodk and smodk") {
  // (On a thin tree they differ: D-mod-K divides by prod w_i, dmodk by k^l.)
  for (const auto& [xgft_spec, tree_spec] :
       {std::pair<std::string, std::string>{"xgft:h=3,m=4x4x4,w=1x4x4", "fattree:k=4,n=3"},
        {"xgft:h=2,m=5x5,w=1x5", "fattree:k=5,n=2"}}) {
    auto xgft = test::build_topology(xgft_spec);
    auto tree = test::build_topology(tree_spec);
    const FlowSet flows = test::all_pairs(xgft->network().num_endpoints());
    for (const auto& [mine, theirs] :
         {std::pair<std::string, std::string>{"xgftdmodk", "dmodk"}, {"xgftsmodk", "smodk"}}) {
      CAPTURE(xgft_spec);
      CAPTURE(mine);
      const PathTable a = test::build_routing(mine, *xgft)->route_all(xgft->network(), flows, RouteContext{});
      const PathTable b = test::build_routing(theirs, *tree)->route_all(tree->network(), flows, RouteContext{});
      CHECK(std::ranges::equal(a.all_links(), b.all_links()));
    }
  }
}

TEST_CASE("xgft routing: xgftdmodk gives every shift permutation full rate on full-bisection trees") {
  // Full bisection: every switch below the top has as many up as down cables (w_{l+1} c_{l+1} = m_l c_l).
  for (const std::string tree_spec : {"xgft:h=3,m=4x4x4,w=1x4x4", "xgft:h=2,m=3x3,w=1x3", "gtree:h=3,m=2x3x4,w=1x2x3",
                                      "xgft:h=2,m=4x2,w=1x2,c=1x2"}) {
    auto topology = test::build_topology(tree_spec);
    const Network& net = topology->network();
    const std::uint32_t n = net.num_endpoints();
    const auto routing = test::build_routing("xgftdmodk", *topology);
    const StaticEngine engine(net, *routing);
    for (std::uint32_t by = 1; by < n; ++by) {
      CAPTURE(tree_spec);
      CAPTURE(by);
      const StaticResult result = engine.run(shift(n, by), StaticOptions{});
      REQUIRE(result.metrics.flows_routed == n);
      CHECK(result.metrics.paths_per_link.max == 1);
      for (double rate : result.flow_rate_gbps) REQUIRE(rate == approx(100.0));
    }
  }
}

TEST_CASE("xgft routing: random routing is reproducible for a seed and changes with it") {
  auto topology = test::build_topology("xgft:h=2,m=4x4,w=2x4,c=1x2");
  const Network& net = topology->network();
  auto routing = test::build_routing("xgftrandom", *topology);
  const FlowSet flows = test::all_pairs(16);
  auto route = [&](std::uint64_t seed) {
    const PathTable paths = test::route(*routing, net, flows, seed);
    return std::vector<LinkId>(paths.all_links().begin(), paths.all_links().end());
  };
  const auto first = route(7);
  CHECK(first == route(7));
  CHECK(first != route(8));
  // Both up links of every (dual-homed) endpoint get used.
  std::vector<std::uint32_t> use(net.num_links(), 0);
  for (LinkId l : first) ++use[l];
  for (EndpointId e = 0; e < 16; ++e)
    for (LinkId l = net.out_begin(e); l < net.out_end(e); ++l) CHECK(use[l] > 0);
}

TEST_CASE("xgft routing: xgft routings refuse other topologies") {
  auto torus = test::build_topology("torus:dims=4x4");
  for (const auto& routing_spec : kRoutings) {
    CAPTURE(routing_spec);
    CHECK_THROWS_AS(test::build_routing(routing_spec, *torus), InputError);
  }
}
