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
#include "topologies/hyperx.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// Coordinates in which the routers of two endpoints differ, from the spec's sizes.
std::uint32_t hamming(const std::vector<std::uint32_t>& dims, std::uint32_t a, std::uint32_t b) {
  std::uint32_t differing = 0;
  for (std::uint32_t size : dims) {
    differing += a % size != b % size;
    a /= size;
    b /= size;
  }
  return differing;
}

const std::vector<std::string> kSpecs = {"hyperx:S=4x4,K=1,p=2", "hyperx:S=3x5,K=2,p=1", "hyperx:S=2x3x4,K=1,p=1",
                                         "flatbutterfly:S=4x4,p=4", "hyperx:S=5,K=3,p=2"};

}  // namespace

TEST_CASE("hyperx routing: every pair gets a minimal valid walk of differing coordinates plus 2 links") {
  for (const auto& spec : kSpecs) {
    auto topology = test::build_topology(spec);
    const auto& hx = dynamic_cast<const topo::HyperXTopology&>(*topology);
    const Network& net = hx.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    for (const std::string routing_spec : {"hxdor", "hxminadaptive"}) {
      CAPTURE(spec);
      CAPTURE(routing_spec);
      const PathTable paths = test::build_routing(routing_spec, *topology)->route_all(net, flows, RouteContext{});
      REQUIRE(paths.num_flows() == flows.size());
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId s = flows.src[f], d = flows.dst[f];
        REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
        CHECK(paths.split(paths.first_var(f)) == 1.0);
        const auto links = paths.links(paths.first_var(f));
        const std::uint32_t h = hamming(hx.dims(), s / hx.endpoints_per_router(), d / hx.endpoints_per_router());
        REQUIRE(links.size() == h + 2);
        REQUIRE(links.size() <= hx.num_dims() + 2);
        REQUIRE(net.source(links.front()) == net.endpoint_vertex(s));
        REQUIRE(net.target(links.back()) == net.endpoint_vertex(d));
        for (std::size_t i = 0; i + 1 < links.size(); ++i) REQUIRE(net.target(links[i]) == net.source(links[i + 1]));
        if (routing_spec != "hxdor") continue;
        // Dimension order: the dimension corrected by each router hop increases along the path.
        std::uint32_t last = 0;
        for (std::size_t i = 1; i + 1 < links.size(); ++i) {
          const std::uint32_t a = net.source(links[i]) - hx.router_vertex(0);
          const std::uint32_t b = net.target(links[i]) - hx.router_vertex(0);
          std::uint32_t d_hop = 0;
          while (hx.coordinate(a, d_hop) == hx.coordinate(b, d_hop)) ++d_hop;
          REQUIRE((i == 1 || d_hop > last));
          last = d_hop;
        }
      }
    }
  }
}

TEST_CASE("hyperx routing: minimal adaptive halves the load of a transpose that dimension order piles up") {
  // Every endpoint of router (x, y), x != y, sends to the endpoint in the same slot of router (y, x). DOR
  // puts all p flows of a router on its one dimension-0 link towards the diagonal; adaptive alternates
  // between the two minimal paths, and no two source routers share a link on either.
  const std::uint32_t side = 4, p = 4;
  auto topology = test::build_topology("hyperx:S=4x4,K=1,p=4");
  const auto& hx = dynamic_cast<const topo::HyperXTopology&>(*topology);
  FlowSet flows;
  for (std::uint32_t x = 0; x < side; ++x)
    for (std::uint32_t y = 0; y < side; ++y)
      for (std::uint32_t slot = 0; x != y && slot < p; ++slot)
        flows.add((x + side * y) * p + slot, (y + side * x) * p + slot);
  const StaticResult dor = StaticEngine(hx.network(), *test::build_routing("hxdor", *topology)).run(flows, {});
  const StaticResult adaptive =
      StaticEngine(hx.network(), *test::build_routing("hxminadaptive", *topology)).run(flows, {});
  CHECK(dor.metrics.paths_per_link.max == p);
  CHECK(adaptive.metrics.paths_per_link.max == p / 2);
  for (double rate : dor.flow_rate_gbps) CHECK(rate == approx(100.0 / p));
  for (double rate : adaptive.flow_rate_gbps) CHECK(rate == approx(200.0 / p));
}

TEST_CASE("hyperx routing: K parallel cables spread the flows of one router pair") {
  auto topology = test::build_topology("hyperx:S=2,K=4,p=4");
  FlowSet flows;
  for (EndpointId e = 0; e < 4; ++e) flows.add(e, 4 + e);
  for (const std::string routing_spec : {"hxdor", "hxminadaptive"}) {
    CAPTURE(routing_spec);
    const StaticResult result =
        StaticEngine(topology->network(), *test::build_routing(routing_spec, *topology)).run(flows, {});
    CHECK(result.metrics.paths_per_link.max == 1);
    for (double rate : result.flow_rate_gbps) CHECK(rate == approx(100.0));
  }
}

TEST_CASE("hyperx routing: adaptive routes around a failed link that makes dimension order drop the flow") {
  auto topology = test::build_topology("hyperx:S=3x3,K=1,p=1");
  const auto& hx = dynamic_cast<const topo::HyperXTopology&>(*topology);
  Network& net = topology->network();
  // Router 0 = (0,0) to router 4 = (1,1): cut the dimension-0 hop (0,0) -> (1,0) that DOR takes.
  const LinkId cut = net.out_begin(hx.router_vertex(0)) + hx.port_towards(0, 0, 1, 0);
  net.set_up(cut, false);
  net.set_up(net.reverse(cut), false);
  FlowSet flows;
  flows.add(0, 4);
  const PathTable dor = test::build_routing("hxdor", *topology)->route_all(net, flows, RouteContext{});
  const PathTable adaptive = test::build_routing("hxminadaptive", *topology)->route_all(net, flows, RouteContext{});
  CHECK(!dor.routed(0));
  REQUIRE(adaptive.routed(0));
  CHECK(adaptive.links(adaptive.first_var(0)).size() == 4);
}

TEST_CASE("hyperx routing: hyperx routings refuse other topologies") {
  auto torus = test::build_topology("torus:dims=4x4");
  CHECK_THROWS_AS(test::build_routing("hxdor", *torus), InputError);
  CHECK_THROWS_AS(test::build_routing("hxminadaptive", *torus), InputError);
}
