// treevaliant, Valiant routing through the top level of k-ary and k:k'-ary n-trees: one path per top
// switch, each of 2n links climbing to it and coming down to the destination, equal splits; local=direct
// against updown; failures; the seeded sample under max_paths; closed forms of the static engine (a
// permutation at full rate with k^(n-1) paths on every link, (k'/k)^(n-1) on a thin tree, a single flow's
// spread, uniform traffic limited by the destinations alone).
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/random.hpp"
#include "engine/flow/static_engine.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/tree.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

const topo::TreeTopology& as_tree(const Topology& t) { return dynamic_cast<const topo::TreeTopology&>(t); }

std::uint32_t top_switches(const topo::TreeTopology& tree) {
  return static_cast<std::uint32_t>(tree.pow_kp(tree.n() - 1));
}

// Checks path variable v of a flow s -> d: a walk from s's vertex to d's of 2n links whose switches
// are at levels 0, 1, .., n-1, .., 1, 0. Returns the top switch it turns at.
VertexId check_valiant_path(const topo::TreeTopology& tree, const PathTable& paths, std::uint32_t v, EndpointId s,
                            EndpointId d) {
  const Network& net = tree.network();
  const auto links = paths.links(v);
  const std::uint32_t n = tree.n();
  REQUIRE(links.size() == 2 * n);
  REQUIRE(net.source(links.front()) == net.endpoint_vertex(s));
  REQUIRE(net.target(links.back()) == net.endpoint_vertex(d));
  for (std::size_t h = 0; h + 1 < links.size(); ++h) {
    REQUIRE(net.target(links[h]) == net.source(links[h + 1]));
    REQUIRE(net.up(links[h]));
    const std::size_t level = h <= n - 1 ? h : 2 * (n - 1) - h;
    REQUIRE(tree.level_of(net.target(links[h])) == level);
  }
  return net.target(links[n - 1]);
}

// Every endpoint sends to endpoint (e + by) mod N.
FlowSet shift(std::uint32_t endpoints, std::uint32_t by) {
  FlowSet flows;
  for (EndpointId e = 0; e < endpoints; ++e) flows.add(e, (e + by) % endpoints);
  return flows;
}

// A random permutation without fixed points: Fisher-Yates, drawn again until no endpoint keeps itself.
FlowSet random_derangement(std::uint32_t endpoints, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<EndpointId> to(endpoints);
  for (;;) {
    for (EndpointId e = 0; e < endpoints; ++e) to[e] = e;
    for (std::uint32_t i = endpoints - 1; i > 0; --i) std::swap(to[i], to[rng.below(i + 1)]);
    bool fixed = false;
    for (EndpointId e = 0; e < endpoints; ++e) fixed = fixed || to[e] == e;
    if (!fixed) break;
  }
  FlowSet flows;
  for (EndpointId e = 0; e < endpoints; ++e) flows.add(e, to[e]);
  return flows;
}

// A flow's paths as a map from links to split.
std::map<std::vector<LinkId>, double> paths_of(const PathTable& table, FlowId f) {
  std::map<std::vector<LinkId>, double> out;
  for (std::uint32_t v = table.first_var(f); v < table.end_var(f); ++v)
    out[{table.links(v).begin(), table.links(v).end()}] += table.split(v);
  return out;
}

}  // namespace

TEST_CASE("treevaliant routing: every flow has one path of 2n links through each top switch with equal splits") {
  for (const std::string spec : {"fattree:k=4,n=3", "fattree:k=3,n=3", "fattree:k=2,n=4", "fattree:k=5,n=1",
                                 "thintree:k=4,kp=2,n=3", "thintree:k=3,kp=2,n=3", "thintree:k=4,kp=1,n=2"}) {
    CAPTURE(spec);
    auto topology = test::build_topology(spec);
    const auto& tree = as_tree(*topology);
    const FlowSet flows = test::all_pairs(tree.num_endpoints());
    const PathTable paths = test::build_routing("treevaliant", *topology)->route_all(tree.network(), flows, {});
    const std::uint32_t tops = top_switches(tree);
    for (FlowId f = 0; f < flows.size(); ++f) {
      CAPTURE(flows.src[f]);
      CAPTURE(flows.dst[f]);
      REQUIRE(paths.end_var(f) - paths.first_var(f) == tops);
      std::set<VertexId> turned_at;
      double total = 0;
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
        turned_at.insert(check_valiant_path(tree, paths, v, flows.src[f], flows.dst[f]));
        CHECK(paths.split(v) == approx(1.0 / tops));
        total += paths.split(v);
      }
      CHECK(turned_at.size() == tops);  // every top switch, once
      CHECK(total == approx(1.0).epsilon(1e-6));
    }
  }
}

TEST_CASE("treevaliant routing: a same-leaf pair and a pair in different top subtrees both take all 16 top switches") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const auto& tree = as_tree(*topology);
  const Network& net = tree.network();
  FlowSet flows;
  flows.add(0, 1);   // the same leaf: lowest common ancestors at level 0
  flows.add(0, 5);   // leaves 0 and 1 under the same level-1 switches: level 1
  flows.add(0, 63);  // opposite halves of the tree: level 2, the top
  const PathTable paths = test::build_routing("treevaliant", *topology)->route_all(net, flows, {});
  for (FlowId f = 0; f < flows.size(); ++f) {
    CAPTURE(f);
    REQUIRE(paths.end_var(f) - paths.first_var(f) == 16);
    const std::uint32_t lca = tree.lca_level(flows.src[f], flows.dst[f]);
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      const auto links = paths.links(v);
      REQUIRE(links.size() == 6);
      // Above the lowest common ancestors the way down retraces the way up, cable by cable.
      for (std::uint32_t h = lca + 1; h < 3; ++h) CHECK(links[5 - h] == net.reverse(links[h]));
    }
  }
  // local=direct: the same-leaf pair goes straight through its leaf on one path of 2 links.
  const PathTable direct = test::build_routing("treevaliant:local=direct", *topology)->route_all(net, flows, {});
  CHECK(direct.end_var(0) - direct.first_var(0) == 1);
  CHECK(direct.links(direct.first_var(0)).size() == 2);
  CHECK(direct.end_var(1) - direct.first_var(1) == 4);
  CHECK(direct.end_var(2) - direct.first_var(2) == 16);
}

TEST_CASE("treevaliant routing: local=direct gives updown's paths and splits") {
  for (const std::string tree_spec : {"fattree:k=4,n=3", "thintree:k=4,kp=2,n=3", "fattree:k=3,n=3"}) {
    for (const std::string cap : {"", ",max_paths=3"}) {
      CAPTURE(tree_spec);
      CAPTURE(cap);
      auto topology = test::build_topology(tree_spec);
      const Network& net = topology->network();
      const FlowSet flows = test::all_pairs(net.num_endpoints());
      const PathTable ours =
          test::route(*test::build_routing("treevaliant:local=direct" + cap, *topology), net, flows, 9);
      const std::string updown = cap.empty() ? "updown" : "updown:" + cap.substr(1);
      const PathTable theirs = test::route(*test::build_routing(updown, *topology), net, flows, 9);
      for (FlowId f = 0; f < flows.size(); ++f) {
        const auto a = paths_of(ours, f), b = paths_of(theirs, f);
        REQUIRE(a.size() == b.size());
        for (const auto& [links, split] : a) {
          REQUIRE(b.count(links) == 1);
          CHECK(split == approx(b.at(links)));
        }
      }
    }
  }
}

TEST_CASE("treevaliant routing: paths through a failed cable are left out and the others share the flow") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const auto& tree = as_tree(*topology);
  Network& net = topology->network();
  const FlowSet flows = test::all_pairs(64);
  const auto routing = test::build_routing("treevaliant", *topology);
  const PathTable before = routing->route_all(net, flows, {});
  // The cable from up port 1 of level-1 switch 5 to its top switch: the 16 endpoints under that level-1
  // switch are those of its 4 leaves.
  const VertexId middle = tree.switch_vertex(1, 5);
  const LinkId cut = net.out_begin(middle) + tree.k() + 1;
  net.set_up(cut, false);
  net.set_up(net.reverse(cut), false);
  std::set<EndpointId> below;
  for (EndpointId e = 0; e < 64; ++e)
    for (std::uint32_t j = 0; j < tree.kp(); ++j)
      if (tree.up_index(0, tree.leaf_index(e), j) == 5) below.insert(e);
  REQUIRE(below.size() == 16);
  const PathTable after = routing->route_all(net, flows, {});
  std::uint64_t lost_one = 0;
  for (FlowId f = 0; f < flows.size(); ++f) {
    auto expected = paths_of(before, f);
    std::erase_if(expected, [&](const auto& entry) {
      return std::any_of(entry.first.begin(), entry.first.end(), [&](LinkId l) { return !net.up(l); });
    });
    const auto got = paths_of(after, f);
    REQUIRE(got.size() == expected.size());
    for (const auto& [links, split] : got) {
      REQUIRE(expected.count(links) == 1);
      CHECK(split == approx(1.0 / static_cast<double>(expected.size())));
    }
    const bool touches = below.contains(flows.src[f]) || below.contains(flows.dst[f]);
    CHECK(got.size() == (touches ? 15u : 16u));  // one top switch lost, only by flows using that cable
    lost_one += touches;
  }
  CHECK(lost_one == 16 * 63 + 48 * 16);
}

TEST_CASE("treevaliant routing: with every up cable of a leaf failed its flows are unroutable unless local=direct") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const auto& tree = as_tree(*topology);
  Network& net = topology->network();
  for (std::uint32_t j = 0; j < tree.kp(); ++j) {
    const LinkId up = net.out_begin(tree.switch_vertex(0, 0)) + tree.k() + j;
    net.set_up(up, false);
    net.set_up(net.reverse(up), false);
  }
  const FlowSet flows = test::all_pairs(64);
  const PathTable top = test::build_routing("treevaliant", *topology)->route_all(net, flows, {});
  const PathTable direct = test::build_routing("treevaliant:local=direct", *topology)->route_all(net, flows, {});
  for (FlowId f = 0; f < flows.size(); ++f) {
    const bool on_leaf_0 = flows.src[f] < 4 || flows.dst[f] < 4, both = flows.src[f] < 4 && flows.dst[f] < 4;
    CHECK(top.routed(f) == !on_leaf_0);
    CHECK(direct.routed(f) == (!on_leaf_0 || both));
  }
}

TEST_CASE("treevaliant routing: capped at max_paths the sample is seeded and covers every top switch") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const auto& tree = as_tree(*topology);
  const Network& net = tree.network();
  const FlowSet flows = test::all_pairs(64);
  const auto routing = test::build_routing("treevaliant:max_paths=5", *topology);
  const PathTable first = test::route(*routing, net, flows, 7);
  std::set<VertexId> tops;
  for (FlowId f = 0; f < flows.size(); ++f) {
    REQUIRE(first.end_var(f) - first.first_var(f) == 5);  // 16 ranks, 3.2 apart: 5 distinct paths
    for (std::uint32_t v = first.first_var(f); v < first.end_var(f); ++v) {
      tops.insert(check_valiant_path(tree, first, v, flows.src[f], flows.dst[f]));
      CHECK(first.split(v) == approx(0.2));
    }
  }
  CHECK(tops.size() == 16);
  auto links_of = [](const PathTable& t) { return std::vector<LinkId>(t.all_links().begin(), t.all_links().end()); };
  CHECK(links_of(first) == links_of(test::route(*routing, net, flows, 7)));
  CHECK(links_of(first) != links_of(test::route(*routing, net, flows, 8)));
}

TEST_CASE("treevaliant routing: every permutation runs at full rate on a 4-ary 3-tree with 16 paths on every link") {
  // Each flow puts 1/16 of itself on each of 16 paths. An up cable of a level-l switch carries the
  // k^(l+1) flows from below it, each with k^(n-2-l) of its paths: one flow's worth; the same going
  // down. So every link carries 16 paths and 100 Gbit/s, and no flow is held below its endpoints' rate.
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  const auto routing = test::build_routing("treevaliant", *topology);
  const StaticEngine engine(net, *routing);
  for (const FlowSet& flows : {shift(64, 1), shift(64, 32), random_derangement(64, 3), random_derangement(64, 4)}) {
    const StaticResult result = engine.run(flows, StaticOptions{});
    REQUIRE(result.metrics.flows_routed == 64);
    for (double rate : result.flow_rate_gbps) CHECK(rate == approx(100.0));
    CHECK(result.metrics.aggregate_nonrestricted_gbps == approx(6400.0));
    CHECK(result.metrics.aggregate_restricted_gbps == approx(6400.0));
    for (LinkId l = 0; l < net.num_links(); ++l) {
      CHECK(result.link_paths[l] == 16);
      CHECK(result.link_load_gbps[l] == approx(100.0));
    }
  }
}

TEST_CASE("treevaliant routing: on a 4:2-ary 3-tree the top cables hold every permutation to 100 (k'/k)^(n-1) = 25") {
  // A cable into the top level carries the 16 flows of the 16 endpoints below its level-1 switch,
  // each with 1/k'^(n-1) = 1/4 of itself there: 4 flows' worth on 100 Gbit/s.
  auto topology = test::build_topology("thintree:k=4,kp=2,n=3");
  const auto& tree = as_tree(*topology);
  const Network& net = tree.network();
  const auto routing = test::build_routing("treevaliant", *topology);
  const StaticEngine engine(net, *routing);
  for (const FlowSet& flows : {shift(64, 1), shift(64, 32), random_derangement(64, 5)}) {
    const StaticResult result = engine.run(flows, StaticOptions{});
    for (double rate : result.flow_rate_gbps) CHECK(rate == approx(25.0));
    for (std::uint32_t i = 0; i < tree.level_size(1); ++i)
      for (std::uint32_t j = 0; j < tree.kp(); ++j) {
        const LinkId up = net.out_begin(tree.switch_vertex(1, i)) + tree.k() + j;
        CHECK(result.link_load_gbps[up] == approx(100.0));
        CHECK(result.link_load_gbps[net.reverse(up)] == approx(100.0));
      }
  }
}

TEST_CASE("treevaliant routing: a single flow puts 1/k of itself on each up cable of its leaf and 1/k^2 one level up") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const auto& tree = as_tree(*topology);
  const Network& net = tree.network();
  FlowSet flows;
  flows.add(0, 1);  // the same leaf: Valiant still spreads it over the whole tree
  const StaticResult result = StaticEngine(net, *test::build_routing("treevaliant", *topology)).run(flows, {});
  CHECK(result.flow_rate_gbps[0] == approx(100.0));
  double level0 = 0, level1 = 0;
  for (std::uint32_t j = 0; j < 4; ++j) {
    const LinkId up = net.out_begin(tree.switch_vertex(0, 0)) + 4 + j;
    CHECK(result.link_load_gbps[up] == approx(25.0));
    level0 += result.link_load_gbps[up];
    const VertexId middle = net.target(up);
    for (std::uint32_t i = 0; i < 4; ++i) {
      CHECK(result.link_load_gbps[net.out_begin(middle) + 4 + i] == approx(6.25));
      level1 += result.link_load_gbps[net.out_begin(middle) + 4 + i];
    }
  }
  CHECK(level0 == approx(100.0));
  CHECK(level1 == approx(100.0));
}

TEST_CASE("treevaliant routing: uniform traffic on a 4-ary 3-tree is limited by the destinations alone") {
  // An up cable of a level-l switch carries at most 1/k^(l+1) of each of the k^(l+1) flows from below
  // it, a down cable the same of the flows to below it; neither reaches 100 Gbit/s before every
  // endpoint cable behind it does. So a flow to a destination that m flows share gets 100 / m, and the
  // aggregate is 100 Gbit/s per distinct destination.
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  const auto routing = test::build_routing("treevaliant", *topology);
  const StaticEngine engine(net, *routing);
  for (const std::uint64_t seed : {11u, 12u, 13u}) {
    CAPTURE(seed);
    FlowSet flows;
    Rng rng(seed);
    for (EndpointId s = 0; s < 64; ++s) {
      const auto d = static_cast<EndpointId>(rng.below(63));
      flows.add(s, d >= s ? d + 1 : d);
    }
    std::map<EndpointId, std::uint32_t> sharing;
    for (FlowId f = 0; f < flows.size(); ++f) ++sharing[flows.dst[f]];
    const StaticResult result = engine.run(flows, StaticOptions{});
    for (FlowId f = 0; f < flows.size(); ++f)
      CHECK(result.flow_rate_gbps[f] == approx(100.0 / sharing[flows.dst[f]]));
    CHECK(result.metrics.aggregate_nonrestricted_gbps == approx(100.0 * static_cast<double>(sharing.size())));
  }
}

TEST_CASE("treevaliant routing: other topologies and bad parameters are refused naming them") {
  auto torus = test::build_topology("torus:dims=4x4");
  const std::string message = test::error_of([&] { test::build_routing("treevaliant", *torus); });
  CHECK(message.find("treevaliant") != std::string::npos);
  CHECK(message.find("fattree or thintree") != std::string::npos);
  auto tree = test::build_topology("fattree:k=4,n=3");
  CHECK(test::error_of([&] { test::build_routing("treevaliant:local=lca", *tree); }).find("local") !=
        std::string::npos);
  CHECK(test::error_of([&] { test::build_routing("treevaliant:max_paths=0", *tree); }).find("max_paths") !=
        std::string::npos);
}
