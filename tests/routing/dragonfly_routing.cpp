// Routings 'dfmin', 'dfvaliant' and 'dfugal' on the dragonfly: valid walks with the closed-form
// lengths, Valiant's intermediate group, UGAL's choice under the adversarial group shift, thread
// independence and failures.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/dragonfly.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// Every endpoint of group i sends to the endpoint in the same place of group i+1 (mod g).
FlowSet group_shift(std::uint32_t endpoints, std::uint32_t per_group) {
  FlowSet flows;
  for (EndpointId s = 0; s < endpoints; ++s) flows.add(s, (s + per_group) % endpoints);
  return flows;
}

std::vector<LinkId> path_of(const PathTable& paths, FlowId f) {
  const auto links = paths.links(paths.first_var(f));
  return {links.begin(), links.end()};
}

// Router (0..a*g-1) of a vertex and its group.
std::uint32_t router_of_vertex(const Network& net, VertexId v) { return v - net.num_endpoints(); }

// Shortest l-g-l walk between two routers of different groups, found by scanning the cables:
// 1 global hop plus a local hop at either end unless the cable starts/ends at those routers.
std::uint32_t lgl_links(const Network& net, std::uint32_t a, std::uint32_t from, std::uint32_t to) {
  std::uint32_t best = 99;
  for (std::uint32_t x = (from / a) * a; x < (from / a + 1) * a; ++x) {
    const VertexId v = net.num_endpoints() + x;
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) {
      const VertexId t = net.target(l);
      if (net.kind(t) != VertexKind::Switch || router_of_vertex(net, t) / a != to / a) continue;
      best = std::min(best, 1 + (x != from ? 1u : 0u) + (router_of_vertex(net, t) != to ? 1u : 0u));
    }
  }
  return best;
}

// A walk from src's vertex to dst's over consecutive links; returns the groups of the global hops.
std::vector<std::uint32_t> check_walk(const Network& net, std::uint32_t a, EndpointId src, EndpointId dst,
                                      const std::vector<LinkId>& links) {
  std::vector<std::uint32_t> groups;
  VertexId at = net.endpoint_vertex(src);
  for (LinkId l : links) {
    REQUIRE(net.source(l) == at);
    const VertexId t = net.target(l);
    if (net.kind(at) == VertexKind::Switch && net.kind(t) == VertexKind::Switch &&
        router_of_vertex(net, at) / a != router_of_vertex(net, t) / a) {
      if (groups.empty()) groups.push_back(router_of_vertex(net, at) / a);
      groups.push_back(router_of_vertex(net, t) / a);
    }
    at = t;
  }
  REQUIRE(at == net.endpoint_vertex(dst));
  return groups;
}

const std::vector<std::string> kDragonflies = {
    "dragonfly:a=4,p=2,h=2,arrangement=absolute",   "dragonfly:a=3,p=1,h=3,arrangement=palmtree",
    "dragonfly:a=2,p=2,h=2,arrangement=circulant",  "dragonfly:a=4,p=1,h=2,g=5,arrangement=relative",
    "dragonfly:a=4,p=1,h=2,g=3,arrangement=random", "dragonfly:a=3,p=1,h=2,g=4,arrangement=circulant",
    "dragonfly:a=1,p=2,h=3,arrangement=absolute",   "dragonfly:a=2,p=1,h=1,arrangement=relative"};

}  // namespace

TEST_CASE("dragonfly routing: minimal paths are l-g-l walks of the shortest such length") {
  for (const auto& spec : kDragonflies)
    for (const std::string routing_spec : {"dfmin", "dfmin:tie=random"}) {
      CAPTURE(spec);
      CAPTURE(routing_spec);
      auto topology = test::build_topology(spec);
      const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
      const Network& net = df.network();
      const FlowSet flows = test::all_pairs(net.num_endpoints());
      const PathTable paths = test::route(*test::build_routing(routing_spec, *topology), net, flows);
      for (FlowId f = 0; f < flows.size(); ++f) {
        REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
        CHECK(paths.split(paths.first_var(f)) == 1.0);
        const EndpointId s = flows.src[f], d = flows.dst[f];
        const auto links = path_of(paths, f);
        const auto groups = check_walk(net, df.a(), s, d, links);
        const std::uint32_t rs = s / df.p(), rd = d / df.p();
        std::size_t expected = 2;                                  // same router: in and out
        if (rs != rd && rs / df.a() == rd / df.a()) expected = 3;  // one local hop
        if (rs / df.a() != rd / df.a()) expected = 2 + lgl_links(net, df.a(), rs, rd);
        REQUIRE(links.size() == expected);
        REQUIRE(links.size() <= 5);  // at most 3 router-to-router links + 2 endpoint links
        REQUIRE(groups.size() == (rs / df.a() == rd / df.a() ? 0u : 2u));
      }
    }
}

TEST_CASE(
    "dragonfly routing: Valiant goes through one intermediate group other than the source and destination groups") {
  for (const auto& spec : kDragonflies)
    for (const std::string routing_spec : {"dfvaliant", "dfvaliant:tie=random"}) {
      CAPTURE(spec);
      CAPTURE(routing_spec);
      auto topology = test::build_topology(spec);
      const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
      const Network& net = df.network();
      const FlowSet flows = test::all_pairs(net.num_endpoints());
      const PathTable paths = test::route(*test::build_routing(routing_spec, *topology), net, flows, 3);
      const PathTable minimal = test::route(*test::build_routing("dfmin", *topology), net, flows, 3);
      std::set<std::uint32_t> intermediates_of_flow0_group;
      for (FlowId f = 0; f < flows.size(); ++f) {
        REQUIRE(paths.routed(f));
        const EndpointId s = flows.src[f], d = flows.dst[f];
        const auto links = path_of(paths, f);
        const auto groups = check_walk(net, df.a(), s, d, links);
        const std::uint32_t gs = s / df.p() / df.a(), gd = d / df.p() / df.a();
        REQUIRE(links.size() <= 7);  // at most 5 router hops (l-g-l-g-l) + 2 endpoint links
        if (gs == gd || df.g() == 2) {
          if (routing_spec == "dfvaliant") REQUIRE(links == path_of(minimal, f));  // no detour: minimal
          continue;
        }
        REQUIRE(groups.size() == 3);
        CHECK(groups[0] == gs);
        CHECK(groups[2] == gd);
        CHECK(groups[1] != gs);
        CHECK(groups[1] != gd);
        if (s == 0 && gd == df.g() - 1) intermediates_of_flow0_group.insert(groups[1]);
      }
      // Draws over the destinations of the last group cover several intermediate groups.
      if (df.g() >= 4 && df.a() * df.p() >= 4) CHECK(intermediates_of_flow0_group.size() >= 2);
    }
}

TEST_CASE("dragonfly routing: UGAL takes each flow's minimal or Valiant path") {
  for (const auto& spec : kDragonflies) {
    CAPTURE(spec);
    auto topology = test::build_topology(spec);
    const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
    const Network& net = df.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable ugal = test::route(*test::build_routing("dfugal", *topology), net, flows, 9);
    const PathTable minimal = test::route(*test::build_routing("dfmin", *topology), net, flows, 9);
    const PathTable valiant = test::route(*test::build_routing("dfvaliant", *topology), net, flows, 9);
    std::size_t detours = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      REQUIRE(ugal.routed(f));
      const auto links = path_of(ugal, f);
      check_walk(net, df.a(), flows.src[f], flows.dst[f], links);
      const bool is_min = links == path_of(minimal, f), is_val = links == path_of(valiant, f);
      REQUIRE((is_min || is_val));
      detours += !is_min;
    }
    // The first flow always finds empty links and stays minimal.
    CHECK(path_of(ugal, 0) == path_of(minimal, 0));
    if (df.g() >= 3 && df.a() >= 2) CHECK(detours > 0);
  }
}

TEST_CASE("dragonfly routing: UGAL beats minimal routing under the adversarial group shift") {
  // a=4, p=2, h=2, g=9: each group's 8 endpoints send to the next group, whose only global link then
  // carries all 8 minimal flows: 100/8 Gbit/s each.
  auto topology = test::build_topology("dragonfly:a=4,p=2,h=2");
  const Network& net = topology->network();
  const FlowSet flows = group_shift(72, 8);
  auto run = [&](const std::string& routing_spec, int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    auto routing = test::build_routing(routing_spec, *topology);
    return StaticEngine(net, *routing).run(flows, StaticOptions{});
  };
  const StaticResult minimal = run("dfmin", 2);
  for (double rate : minimal.flow_rate_gbps) CHECK(rate == approx(12.5));
  CHECK(minimal.metrics.aggregate_nonrestricted_gbps == approx(900.0));
  const StaticResult ugal_1 = run("dfugal", 1);
  const StaticResult ugal_2 = run("dfugal", 2);
  CHECK(ugal_2.metrics.aggregate_nonrestricted_gbps > 1.5 * minimal.metrics.aggregate_nonrestricted_gbps);
  CHECK(ugal_1.metrics.aggregate_nonrestricted_gbps == ugal_2.metrics.aggregate_nonrestricted_gbps);
  CHECK(ugal_1.flow_rate_gbps == ugal_2.flow_rate_gbps);
  const auto l1 = ugal_1.paths.all_links(), l2 = ugal_2.paths.all_links();
  CHECK(std::equal(l1.begin(), l1.end(), l2.begin(), l2.end()));
  // Some flows stay minimal (the first of each group finds its global link empty), most detour.
  std::size_t stayed = 0;
  for (FlowId f = 0; f < flows.size(); ++f) stayed += path_of(ugal_2.paths, f) == path_of(minimal.paths, f);
  CHECK(stayed > 0);
  CHECK(stayed < flows.size() / 2);
}

TEST_CASE("dragonfly routing: random ties and Valiant draws are reproducible for a seed and change with it") {
  auto topology = test::build_topology("dragonfly:a=4,p=1,h=2,g=5,arrangement=relative");  // k = 2
  const Network& net = topology->network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());
  for (const std::string routing_spec : {"dfmin:tie=random", "dfvaliant"}) {
    CAPTURE(routing_spec);
    auto routing = test::build_routing(routing_spec, *topology);
    auto links = [&](std::uint64_t seed) {
      const PathTable p = test::route(*routing, net, flows, seed);
      return std::vector<LinkId>(p.all_links().begin(), p.all_links().end());
    };
    CHECK(links(4) == links(4));
    CHECK(links(4) != links(5));
  }
}

TEST_CASE("dragonfly routing: dragonfly routings refuse other topologies") {
  auto tree = test::build_topology("fattree:k=4,n=2");
  for (const std::string routing_spec : {"dfmin", "dfvaliant", "dfugal"}) {
    CAPTURE(routing_spec);
    CHECK_THROWS_AS(test::build_routing(routing_spec, *tree), InputError);
  }
}

TEST_CASE("dragonfly routing: failed links make minimal flows unroutable and UGAL detour") {
  auto topology = test::build_topology("dragonfly:a=4,p=2,h=2,arrangement=palmtree");
  const auto& df = dynamic_cast<const topo::DragonflyTopology&>(*topology);
  Network& net = topology->network();
  // Endpoint 0 (group 0) to endpoint 8 (group 1): cut the only global cable between the groups.
  const std::uint32_t j = df.port_to_group(0, 1, 0);
  const LinkId cut = df.global_link(0, j);
  net.set_up(cut, false);
  net.set_up(net.reverse(cut), false);
  FlowSet flows;
  flows.add(0, 8);
  flows.add(0, 1);
  for (const std::string routing_spec : {"dfmin", "dfugal", "dfvaliant"}) {
    CAPTURE(routing_spec);
    const PathTable paths = test::route(*test::build_routing(routing_spec, *topology), net, flows);
    CHECK(paths.routed(1));
    if (routing_spec == "dfmin") {
      CHECK_FALSE(paths.routed(0));
    } else {
      REQUIRE(paths.routed(0));
      const auto links = path_of(paths, 0);
      CHECK(std::find(links.begin(), links.end(), cut) == links.end());
      CHECK(check_walk(net, df.a(), 0, 8, links).size() == 3);
    }
  }
}
