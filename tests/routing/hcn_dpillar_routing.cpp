// Routings 'hcn', 'bcn', 'dpillar' and 'dpillar-orig': valid walks between every pair of servers,
// lengths within the published bounds, DPillar's shortest paths against breadth-first search.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/dpillar.hpp"
#include "topologies/hcn.hpp"

using namespace interflow;

namespace {

// Every flow has one simple path (no vertex twice) of split 1 from its source's vertex to its
// destination's over consecutive links; returns the lengths in links.
std::vector<std::uint32_t> check_walks(const Network& net, const FlowSet& flows, const PathTable& paths) {
  REQUIRE(paths.num_flows() == flows.size());
  std::vector<std::uint32_t> lengths(flows.size());
  for (FlowId f = 0; f < flows.size(); ++f) {
    REQUIRE(paths.routed(f));
    REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
    CHECK(paths.split(paths.first_var(f)) == 1.0);
    VertexId at = net.endpoint_vertex(flows.src[f]);
    const auto links = paths.links(paths.first_var(f));
    bool consecutive = true;  // one assertion per path rather than per link, to stay fast
    std::vector<VertexId> visited{at};
    for (LinkId l : links) {
      consecutive = consecutive && l >= net.out_begin(at) && l < net.out_end(at);
      at = net.target(l);
      visited.push_back(at);
    }
    REQUIRE(consecutive);
    std::sort(visited.begin(), visited.end());
    REQUIRE(std::adjacent_find(visited.begin(), visited.end()) == visited.end());
    REQUIRE(at == net.endpoint_vertex(flows.dst[f]));
    lengths[f] = static_cast<std::uint32_t>(links.size());
  }
  return lengths;
}

// Breadth-first distances in links from vertex `from` to every vertex.
std::vector<std::uint32_t> bfs(const Network& net, VertexId from) {
  std::vector<std::uint32_t> dist(net.num_vertices(), kNone);
  std::queue<VertexId> queue;
  dist[from] = 0;
  queue.push(from);
  while (!queue.empty()) {
    const VertexId u = queue.front();
    queue.pop();
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l)
      if (dist[net.target(l)] == kNone) {
        dist[net.target(l)] = dist[u] + 1;
        queue.push(net.target(l));
      }
  }
  return dist;
}

}  // namespace

TEST_CASE("hcn routing: every pair routed on valid walks of at most 3 * 2^h - 1 links") {
  for (const std::string spec : {"hcn:n=3,h=2", "hcn:n=4,h=2", "hcn:n=2,h=4", "hcn:n=3,h=3", "hcn:n=5,h=0"}) {
    CAPTURE(spec);
    auto t = test::build_topology(spec);
    const auto& hcn = dynamic_cast<const topo::HcnTopology&>(*t);
    const Network& net = t->network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable paths = test::build_routing("hcn", *t)->route_all(net, flows, RouteContext{});
    const auto lengths = check_walks(net, flows, paths);
    const std::uint32_t bound = hcn.fdim_bound_links(hcn.h());
    CHECK(*std::max_element(lengths.begin(), lengths.end()) == bound);  // attained, never exceeded
    // Same switch: 2 links; the level cable between copies is used exactly once per level crossed.
    for (FlowId f = 0; f < flows.size(); ++f)
      if (hcn.switch_of(flows.src[f]) == hcn.switch_of(flows.dst[f])) CHECK(lengths[f] == 2);
  }
}

TEST_CASE("bcn routing: every pair routed within 3 * 2^gamma + 3 * 2^h - 1 links") {
  for (const std::string spec :
       {"bcn:alpha=2,beta=1,h=1,gamma=1", "bcn:alpha=2,beta=2,h=1,gamma=0", "bcn:alpha=3,beta=1,h=1,gamma=1",
        "bcn:alpha=2,beta=2,h=2,gamma=1", "bcn:alpha=2,beta=1,h=2,gamma=2", "bcn:alpha=3,beta=2,h=1,gamma=1,rule=beta",
        "bcn:alpha=2,beta=2,h=2,gamma=1,rule=beta", "bcn:alpha=3,beta=2,h=2,gamma=3"}) {
    CAPTURE(spec);
    auto t = test::build_topology(spec);
    const auto& bcn = dynamic_cast<const topo::HcnTopology&>(*t);
    const Network& net = t->network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable paths = test::build_routing("bcn", *t)->route_all(net, flows, RouteContext{});
    const auto lengths = check_walks(net, flows, paths);
    // gamma > h: one copy, so FdimRouting's bound alone.
    const std::uint32_t bound = bcn.has_second_dimension()
                                    ? bcn.fdim_bound_links(bcn.gamma()) + 1 + bcn.fdim_bound_links(bcn.h())
                                    : bcn.fdim_bound_links(bcn.h());
    CHECK(*std::max_element(lengths.begin(), lengths.end()) <= bound);
    for (FlowId f = 0; f < flows.size(); ++f) {
      // Within a copy: FdimRouting's bound; across copies exactly one follower-to-follower cable.
      std::uint32_t follower_cables = 0;
      for (LinkId l : paths.links(paths.first_var(f))) {
        const VertexId a = net.source(l), b = net.target(l);
        if (a < net.num_endpoints() && b < net.num_endpoints() && bcn.slot_of(a) >= bcn.alpha()) ++follower_cables;
      }
      const bool same_copy = bcn.copy_of(flows.src[f]) == bcn.copy_of(flows.dst[f]);
      CHECK(follower_cables == (same_copy ? 0u : 1u));
      if (same_copy) CHECK(lengths[f] <= bcn.fdim_bound_links(bcn.h()));
    }
  }
}

TEST_CASE("dpillar routing: dpillar finds shortest paths and dpillar-orig stays within k + floor(k/2) hops") {
  for (const std::string spec : {"dpillar:n=4,k=2", "dpillar:n=4,k=3", "dpillar:n=6,k=3", "dpillar:n=4,k=4",
                                 "dpillar:n=4,k=5", "dpillar:n=4,k=6", "dpillar:n=8,k=2"}) {
    CAPTURE(spec);
    auto t = test::build_topology(spec);
    const auto& dp = dynamic_cast<const topo::DPillarTopology&>(*t);
    const Network& net = t->network();
    // All pairs on small instances; from every 17th source to all destinations on larger ones (DPillar
    // is node-symmetric, so every distance class still occurs).
    const std::uint32_t servers = net.num_endpoints();
    const std::uint32_t step = servers > 200 ? 17 : 1;
    FlowSet flows;
    for (EndpointId s = 0; s < servers; s += step)
      for (EndpointId d = 0; d < servers; ++d)
        if (s != d) flows.add(s, d);
    const auto shortest = check_walks(net, flows, test::build_routing("dpillar", *t)->route_all(net, flows, {}));
    const auto orig = check_walks(net, flows, test::build_routing("dpillar-orig", *t)->route_all(net, flows, {}));
    std::uint64_t sum_shortest = 0, sum_orig = 0;
    std::vector<std::uint32_t> dist;
    for (FlowId f = 0; f < flows.size(); ++f) {
      if (f == 0 || flows.src[f] != flows.src[f - 1]) dist = bfs(net, net.endpoint_vertex(flows.src[f]));
      REQUIRE(shortest[f] == dist[net.endpoint_vertex(flows.dst[f])]);
      CHECK(orig[f] >= shortest[f]);
      CHECK(orig[f] <= 2 * (dp.k() + dp.k() / 2));
      sum_shortest += shortest[f];
      sum_orig += orig[f];
    }
    CHECK(*std::max_element(shortest.begin(), shortest.end()) == 2 * dp.diameter_hops());
    if (dp.k() >= 3) CHECK(sum_orig > sum_shortest);  // the original is not minimal
  }
}

TEST_CASE("dpillar routing: routings refuse other families and drop flows crossing a failed link") {
  auto hcn = test::build_topology("hcn:n=3,h=1");
  auto bcn = test::build_topology("bcn:alpha=2,beta=1,h=1,gamma=1");
  auto dp = test::build_topology("dpillar:n=4,k=3");
  CHECK_THROWS_AS(test::build_routing("dpillar", *hcn), InputError);
  CHECK_THROWS_AS(test::build_routing("dpillar-orig", *hcn), InputError);
  CHECK_THROWS_AS(test::build_routing("hcn", *dp), InputError);
  CHECK_THROWS_AS(test::build_routing("hcn", *bcn), InputError);
  CHECK_THROWS_AS(test::build_routing("bcn", *dp), InputError);

  for (auto* t : {hcn.get(), bcn.get(), dp.get()}) {
    Network& net = t->network();
    const std::string routing = t->default_routing();
    CAPTURE(routing);
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable before = test::build_routing(routing, *t)->route_all(net, flows, {});
    const LinkId cut = before.links(before.first_var(static_cast<FlowId>(flows.size() - 1))).front();
    net.set_up(cut, false);
    net.set_up(net.reverse(cut), false);
    const PathTable after = test::build_routing(routing, *t)->route_all(net, flows, {});
    std::uint32_t dropped = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const auto links = before.links(before.first_var(f));
      const bool hit = std::any_of(links.begin(), links.end(), [&](LinkId l) { return !net.up(l); });
      CHECK(after.routed(f) == !hit);
      dropped += hit;
    }
    CHECK(dropped > 0);
  }
}
