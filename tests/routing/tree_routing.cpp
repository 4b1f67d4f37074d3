#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/failures.hpp"
#include "core/random.hpp"
#include "engine/flow/static_engine.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/registry.hpp"
#include "topologies/tree.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

FlowSet shift(std::uint32_t n, std::uint32_t by) {
  FlowSet flows;
  for (EndpointId s = 0; s < n; ++s) flows.add(s, (s + by) % n);
  return flows;
}

// Level of the lowest common ancestors from the base-k digits: 0 when s and d share a leaf, else
// the highest digit position (>= 1) where they differ.
std::uint32_t lca_from_digits(std::uint32_t k, std::uint32_t n, EndpointId s, EndpointId d) {
  std::uint32_t level = 0, place = 1;
  for (std::uint32_t pos = 0; pos < n; ++pos, place *= k)
    if (pos >= 1 && (s / place) % k != (d / place) % k) level = pos;
  return level;
}

const std::vector<std::string> kTrees = {"fattree:k=4,n=3",      "fattree:k=3,n=3",       "fattree:k=2,n=4",
                                         "fattree:k=5,n=1",      "thintree:k=4,kp=2,n=3", "thintree:k=3,kp=2,n=3",
                                         "thintree:k=4,kp=1,n=2"};
const std::vector<std::string> kRoutings = {"dmodk", "smodk", "random-up"};

}  // namespace

TEST_CASE("tree routing: paths are up*/down* walks of 2 (LCA level + 1) links from source to destination") {
  for (const auto& tree_spec : kTrees) {
    auto topology = test::build_topology(tree_spec);
    const auto& tree = dynamic_cast<const topo::TreeTopology&>(*topology);
    const Network& net = tree.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    for (const auto& routing_spec : kRoutings) {
      CAPTURE(tree_spec);
      CAPTURE(routing_spec);
      auto routing = test::build_routing(routing_spec, *topology);
      const PathTable paths = routing->route_all(net, flows, RouteContext{});
      REQUIRE(paths.num_flows() == flows.size());
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId s = flows.src[f], d = flows.dst[f];
        REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
        const std::uint32_t var = paths.first_var(f);
        CHECK(paths.split(var) == 1.0);
        const auto links = paths.links(var);
        const std::uint32_t lca = lca_from_digits(tree.k(), tree.n(), s, d);
        REQUIRE(tree.lca_level(s, d) == lca);
        REQUIRE(links.size() == 2 * (lca + 1));
        REQUIRE(net.source(links.front()) == net.endpoint_vertex(s));
        REQUIRE(net.target(links.back()) == net.endpoint_vertex(d));
        for (std::size_t i = 0; i + 1 < links.size(); ++i) REQUIRE(net.target(links[i]) == net.source(links[i + 1]));
        // Up for the first half, down for the second: the switch levels are 0, 1, .., lca, .., 1, 0.
        for (std::size_t i = 0; i + 1 < links.size(); ++i) {
          const std::uint32_t level = tree.level_of(net.target(links[i]));
          REQUIRE(level == (i <= lca ? i : 2 * lca - i));
        }
      }
    }
  }
}

TEST_CASE("tree routing: dmodk and smodk give every shift permutation of a fat tree full link rate") {
  for (const std::string tree_spec : {"fattree:k=4,n=3", "fattree:k=3,n=3"}) {
    auto topology = test::build_topology(tree_spec);
    const Network& net = topology->network();
    const std::uint32_t n = net.num_endpoints();
    for (const std::string routing_spec : {"dmodk", "smodk"}) {
      auto routing = test::build_routing(routing_spec, *topology);
      const StaticEngine engine(net, *routing);
      for (std::uint32_t by = 1; by < n; ++by) {
        CAPTURE(tree_spec);
        CAPTURE(routing_spec);
        CAPTURE(by);
        const StaticResult result = engine.run(shift(n, by), StaticOptions{});
        REQUIRE(result.metrics.flows_routed == n);
        CHECK(*std::max_element(result.link_paths.begin(), result.link_paths.end()) == 1);
        CHECK(result.metrics.paths_per_link.max == 1);
        for (double rate : result.flow_rate_gbps) REQUIRE(rate == approx(100.0));
      }
    }
  }
}

TEST_CASE("tree routing: random up ports collide under a shift where dmodk does not") {
  // The shift test above could not pass by accident: a routing that ignores the digits shares links.
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  auto routing = test::build_routing("random-up", *topology);
  const StaticResult result = StaticEngine(net, *routing).run(shift(64, 32), StaticOptions{});
  CHECK(result.metrics.paths_per_link.max > 1);
  CHECK(result.metrics.rate_gbps.min < 100.0);
}

TEST_CASE("tree routing: random routing is reproducible for a seed and changes with it") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  auto routing = test::build_routing("random-up", *topology);
  const FlowSet flows = test::all_pairs(64);
  auto route = [&](std::uint64_t seed) {
    const PathTable paths = test::route(*routing, net, flows, seed);
    return std::vector<LinkId>(paths.all_links().begin(), paths.all_links().end());
  };
  const auto first = route(7);
  CHECK(first == route(7));
  CHECK(first != route(8));
  // Every up port of every leaf is used by someone: the draw covers all k' choices.
  std::vector<std::uint32_t> use(net.num_links(), 0);
  for (LinkId l : first) ++use[l];
  const auto& tree = dynamic_cast<const topo::TreeTopology&>(*topology);
  for (std::uint32_t i = 0; i < tree.level_size(0); ++i)
    for (std::uint32_t j = 0; j < tree.kp(); ++j)
      CHECK(use[net.out_begin(tree.switch_vertex(0, i)) + tree.k() + j] > 0);
}

TEST_CASE("tree routing: a 4:2-ary 3-tree carries less than the 4-ary 3-tree") {
  auto fat = test::build_topology("fattree:k=4,n=3");
  auto thin = test::build_topology("thintree:k=4,kp=2,n=3");
  SUBCASE("uniform traffic") {
    FlowSet flows;
    Rng rng(derive_seed(11, Stream::Pattern));
    for (EndpointId s = 0; s < 64; ++s) {
      EndpointId d = static_cast<EndpointId>(rng.below(63));
      flows.add(s, d >= s ? d + 1 : d);
    }
    for (const std::string routing_spec : {"dmodk", "random-up"}) {
      CAPTURE(routing_spec);
      const StaticResult on_fat = StaticEngine(fat->network(), *test::build_routing(routing_spec, *fat)).run(flows, {});
      const StaticResult on_thin =
          StaticEngine(thin->network(), *test::build_routing(routing_spec, *thin)).run(flows, {});
      CHECK(on_thin.metrics.aggregate_nonrestricted_gbps < on_fat.metrics.aggregate_nonrestricted_gbps);
    }
  }
  SUBCASE("shift by N/2 under dmodk: every flow gets 100 (k'/k)^(n-1) on the thin tree") {
    // Every flow climbs to the top; dmodk splits the 4 flows of a leaf 2 per up link, then 4 per link
    // at level 1, and each top down link carries 4: 25 Gbit/s each.
    const StaticResult on_thin =
        StaticEngine(thin->network(), *test::build_routing("dmodk", *thin)).run(shift(64, 32), {});
    for (double rate : on_thin.flow_rate_gbps) CHECK(rate == approx(25.0));
    const StaticResult on_fat =
        StaticEngine(fat->network(), *test::build_routing("dmodk", *fat)).run(shift(64, 32), {});
    for (double rate : on_fat.flow_rate_gbps) CHECK(rate == approx(100.0));
  }
}

TEST_CASE("tree routing: tree routings refuse other topologies") {
  auto torus = test::build_topology("torus:dims=4x4");
  for (const auto& routing_spec : kRoutings) {
    CAPTURE(routing_spec);
    CHECK_THROWS_AS(test::build_routing(routing_spec, *torus), InputError);
  }
}

TEST_CASE("tree routing: a flow whose path crosses a failed link is unroutable while the others keep their paths") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  Network& net = topology->network();
  const FlowSet flows = test::all_pairs(64);
  std::vector<PathTable> before;
  for (const auto& routing_spec : kRoutings)
    before.push_back(test::build_routing(routing_spec, *topology)->route_all(net, flows, RouteContext{}));

  SUBCASE("one cable set down by hand") {
    // Flow 62 (0 -> 63) climbs to the top; its third link goes from level 1 to level 2 under dmodk.
    REQUIRE(flows.src[62] == 0);
    REQUIRE(flows.dst[62] == 63);
    const LinkId cut = before[0].links(before[0].first_var(62))[2];
    net.set_up(cut, false);
    net.set_up(net.reverse(cut), false);
  }
  SUBCASE("random failures") {
    FailureSpec spec;
    spec.count = 10;
    CHECK(apply_failures(net, spec, 5).failed_links.size() == 10);
  }
  for (std::size_t r = 0; r < kRoutings.size(); ++r) {
    CAPTURE(kRoutings[r]);
    const PathTable after = test::build_routing(kRoutings[r], *topology)->route_all(net, flows, RouteContext{});
    std::uint64_t dropped = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const auto old_links = before[r].links(before[r].first_var(f));
      const bool hit = std::any_of(old_links.begin(), old_links.end(), [&](LinkId l) { return !net.up(l); });
      REQUIRE(after.routed(f) == !hit);
      if (hit) {
        ++dropped;
        continue;
      }
      const auto new_links = after.links(after.first_var(f));
      REQUIRE(std::equal(old_links.begin(), old_links.end(), new_links.begin(), new_links.end()));
    }
    CHECK(dropped > 0);
  }
}
