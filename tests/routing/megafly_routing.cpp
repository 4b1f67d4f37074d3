// Routings 'mfmin', 'mfvaliant' and 'mfugal' on the megafly: valid walks, exact minimal lengths,
// Valiant detours, adaptivity under an adversarial group shift, seeds and thread counts.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <tbb/global_control.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/megafly.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// Every endpoint sends to the endpoint at the same place in the next group: all of a group's
// traffic wants the m global links to one other group.
FlowSet group_shift(const topo::MegaflyTopology& mf) {
  FlowSet flows;
  const std::uint32_t per_group = mf.leaves() * mf.endpoints_per_leaf();
  for (EndpointId s = 0; s < mf.num_endpoints(); ++s) flows.add(s, (s + per_group) % mf.num_endpoints());
  return flows;
}

std::vector<LinkId> links_of(const PathTable& paths) { return {paths.all_links().begin(), paths.all_links().end()}; }

// Groups visited by a path (group of every router on it, in order, without repeats).
std::vector<std::uint32_t> groups_on(const topo::MegaflyTopology& mf, std::span<const LinkId> links) {
  const Network& net = mf.network();
  std::vector<std::uint32_t> groups;
  for (LinkId l : links) {
    const VertexId v = net.target(l);
    if (v < mf.num_endpoints()) continue;
    const std::uint32_t g = (v - mf.num_endpoints()) / (mf.leaves() + mf.spines());
    if (groups.empty() || groups.back() != g) groups.push_back(g);
  }
  return groups;
}

const std::vector<std::string> kTopologies = {"megafly:leaves=2,spines=2,p=2,h=2,g=5",
                                              "megafly:leaves=2,spines=3,p=2,h=2,g=4",
                                              "megafly:leaves=3,spines=2,p=1,h=2,g=3"};
const std::vector<std::string> kRoutings = {"mfmin",  "mfmin:parallel=random", "mfvaliant", "mfvaliant:parallel=random",
                                            "mfugal", "mfugal:parallel=random"};

}  // namespace

TEST_CASE("megafly routing: every pair gets one valid walk within the length bound") {
  for (const auto& topo_spec : kTopologies) {
    auto topology = test::build_topology(topo_spec);
    const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
    const Network& net = mf.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    for (const auto& routing_spec : kRoutings) {
      CAPTURE(topo_spec);
      CAPTURE(routing_spec);
      const PathTable paths = test::route(*test::build_routing(routing_spec, *topology), net, flows);
      REQUIRE(paths.num_flows() == flows.size());
      const bool minimal = routing_spec.rfind("mfmin", 0) == 0;
      for (FlowId f = 0; f < flows.size(); ++f) {
        const EndpointId s = flows.src[f], d = flows.dst[f];
        REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
        REQUIRE(paths.split(paths.first_var(f)) == 1.0f);
        const auto links = paths.links(paths.first_var(f));
        REQUIRE(net.source(links.front()) == net.endpoint_vertex(s));
        REQUIRE(net.target(links.back()) == net.endpoint_vertex(d));
        for (std::size_t i = 0; i + 1 < links.size(); ++i) REQUIRE(net.target(links[i]) == net.source(links[i + 1]));
        // Minimal: 2 links on one leaf, 4 inside a group, 5 between groups; Valiant
        // detours 6, or 8 when they turn at a leaf of the intermediate group.
        const std::size_t shortest = mf.group_of(s) != mf.group_of(d)             ? 5
                                     : mf.leaf_in_group(s) != mf.leaf_in_group(d) ? 4
                                                                                  : 2;
        if (minimal || mf.group_of(s) == mf.group_of(d))
          REQUIRE(links.size() == shortest);
        else if (routing_spec.rfind("mfvaliant", 0) == 0)
          REQUIRE((links.size() == 6 || links.size() == 8));
        else  // mfugal: either
          REQUIRE((links.size() == 5 || links.size() == 6 || links.size() == 8));
      }
    }
  }
}

TEST_CASE("megafly routing: Valiant paths cross exactly one intermediate group") {
  auto topology = test::build_topology("megafly:leaves=2,spines=2,p=2,h=2,g=5");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  const Network& net = mf.network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());
  const PathTable paths = test::route(*test::build_routing("mfvaliant", *topology), net, flows, 3);
  std::vector<std::uint32_t> via_count(mf.groups(), 0);
  for (FlowId f = 0; f < flows.size(); ++f) {
    const std::uint32_t a = mf.group_of(flows.src[f]), b = mf.group_of(flows.dst[f]);
    const auto groups = groups_on(mf, paths.links(paths.first_var(f)));
    if (a == b) {
      REQUIRE(groups == std::vector<std::uint32_t>{a});
      continue;
    }
    REQUIRE(groups.size() == 3);
    CHECK(groups.front() == a);
    CHECK(groups.back() == b);
    CHECK(groups[1] != a);
    CHECK(groups[1] != b);
    ++via_count[groups[1]];
  }
  for (std::uint32_t g = 0; g < mf.groups(); ++g) CHECK(via_count[g] > 0);  // every group serves as intermediate
}

TEST_CASE("megafly routing: mfmin spreads parallel global links by destination") {
  // m = 2 links between each pair: flows to even and odd destinations use different links.
  auto topology = test::build_topology("megafly:leaves=2,spines=3,p=2,h=2,g=4");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  REQUIRE(mf.links_per_pair() == 2);
  const Network& net = mf.network();
  const FlowSet flows = group_shift(mf);
  const PathTable paths = test::route(*test::build_routing("mfmin", *topology), net, flows);
  for (FlowId f = 0; f < flows.size(); ++f) {
    const auto links = paths.links(paths.first_var(f));
    const std::uint32_t a = mf.group_of(flows.src[f]), b = mf.group_of(flows.dst[f]);
    CHECK(links[2] == mf.global_link(net, a, mf.group_port_toward(a, b, flows.dst[f] % 2)));
  }
}

TEST_CASE("megafly routing: mfugal beats minimal routing on an adversarial group shift") {
  // One global link per group pair: minimal routing squeezes the 4 flows of a group into it.
  auto topology = test::build_topology("megafly:leaves=2,spines=2,p=2,h=2,g=5");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  const Network& net = mf.network();
  const FlowSet flows = group_shift(mf);
  const StaticResult minimal = StaticEngine(net, *test::build_routing("mfmin", *topology)).run(flows, {});
  const StaticResult ugal = StaticEngine(net, *test::build_routing("mfugal", *topology)).run(flows, {});
  for (double rate : minimal.flow_rate_gbps) CHECK(rate == approx(25.0));
  CHECK(ugal.metrics.flows_routed == flows.size());
  CHECK(ugal.metrics.aggregate_nonrestricted_gbps > 1.5 * minimal.metrics.aggregate_nonrestricted_gbps);
  CHECK(ugal.metrics.rate_gbps.min > minimal.metrics.rate_gbps.min);
  // The first flow of each group has an empty minimal path: it stays minimal.
  const PathTable paths = test::route(*test::build_routing("mfugal", *topology), net, flows);
  CHECK(paths.links(paths.first_var(0)).size() == 5);
}

TEST_CASE("megafly routing: random choices follow the seed and not the thread count") {
  auto topology = test::build_topology("megafly:leaves=4,spines=4,p=4,h=2,g=9");
  const Network& net = topology->network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());  // 20 592 flows: several chunks
  for (const char* spec : {"mfvaliant", "mfmin:parallel=random", "mfugal:parallel=random"}) {
    CAPTURE(spec);
    const auto routing = test::build_routing(spec, *topology);
    std::vector<LinkId> one, two;
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
      one = links_of(test::route(*routing, net, flows, 5));
    }
    {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
      two = links_of(test::route(*routing, net, flows, 5));
    }
    CHECK(one == two);
    CHECK(one != links_of(test::route(*routing, net, flows, 6)));
  }
}

TEST_CASE("megafly routing: a failed global link makes mfmin drop its flows and mfugal go around") {
  auto topology = test::build_topology("megafly:leaves=2,spines=2,p=2,h=2,g=5");
  const auto& mf = dynamic_cast<const topo::MegaflyTopology&>(*topology);
  Network& net = topology->network();
  const LinkId cut = mf.global_link(net, 0, mf.group_port_toward(0, 1, 0));
  net.set_up(cut, false);
  net.set_up(net.reverse(cut), false);
  FlowSet flows;
  flows.add(0, 4);  // group 0 to group 1 (4 endpoints per group)
  flows.add(4, 0);
  CHECK_FALSE(test::route(*test::build_routing("mfmin", *topology), net, flows).routed(0));
  const PathTable ugal = test::route(*test::build_routing("mfugal", *topology), net, flows);
  CHECK(ugal.routed(0));
  CHECK(ugal.routed(1));
  CHECK(ugal.links(ugal.first_var(0)).size() >= 6);  // a detour
}

TEST_CASE("megafly routing: megafly routings refuse other topologies") {
  auto torus = test::build_topology("torus:dims=4x4");
  for (const char* spec : {"mfmin", "mfvaliant", "mfugal"})
    CHECK_THROWS_AS(test::build_routing(spec, *torus), InputError);
}
