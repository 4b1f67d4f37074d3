// The routing contract: every registered routing, on every example topology it accepts (it refuses the
// others with an InputError at creation, and must accept at least one), routes a permutation, random
// pairs and self flows so that every path is a simple walk of existing, working links from the source
// endpoint's vertex to the destination's, each routed flow's split weights sum to one, every flow is
// routed on a healthy network, and the table is the same with 1 and 2 threads and for the same seed.
// With 10 % of the network cables failed, no path uses a failed link.
#include <doctest/doctest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <ranges>
#include <set>
#include <string>
#include <vector>

#include "core/failures.hpp"
#include "tests/contract/contract_support.hpp"

using namespace interflow;

namespace {

constexpr std::uint64_t kRouteSeed = 2024;
constexpr std::uint32_t kRandomPairs = 100;

// Routings whose paths may visit a vertex twice; only the simple-path check is skipped for them.
// KNOWN VIOLATION, reported, not fixed here: sfvaliant follows Besta & Hoefler's Valiant literally,
// minimal to the intermediate router and then minimal on, and the two segments may meet
// (r -> m -> via -> m -> t), so its paths may visit a router twice; drop it from this list once the
// routing removes such loops (the test in tests/routing/slimfly_routing.cpp that every path passes its
// intermediate router must then allow it).
// BY DESIGN: treevaliant (with local=top, its default) takes a pair whose lowest common ancestors are
// below the top up to a top switch all the same and back down through the switches it climbed
// (Valiant through the top level; tests/routing/tree_valiant.cpp checks the retraced cables).
const std::set<std::string> kMayRevisitVertices{"sfvaliant", "treevaliant"};

PathTable route_with(const Routing& routing, const Network& net, const FlowSet& flows, std::size_t threads) {
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  RouteContext ctx;
  ctx.seed = kRouteSeed;
  return routing.route_all(net, flows, ctx);
}

bool same_paths(const PathTable& a, const PathTable& b) {
  if (a.num_flows() != b.num_flows()) return false;
  for (FlowId f = 0; f < a.num_flows(); ++f)
    if (a.first_var(f) != b.first_var(f) || a.end_var(f) != b.end_var(f)) return false;
  return std::ranges::equal(a.var_offsets(), b.var_offsets()) && std::ranges::equal(a.all_links(), b.all_links()) &&
         std::ranges::equal(a.splits(), b.splits());
}

// One path variable of flow f: a walk of existing links that are up, from the source endpoint's vertex to
// the destination's, through no vertex twice, and through endpoints only where they forward.
void check_path(const Network& net, const FlowSet& flows, FlowId f, std::span<const LinkId> links, bool simple) {
  const VertexId from = net.endpoint_vertex(flows.src[f]), to = net.endpoint_vertex(flows.dst[f]);
  if (links.empty()) {
    CHECK_MESSAGE(from == to, "an empty path joins endpoints of one vertex only");
    return;
  }
  std::vector<VertexId> visited{from};
  VertexId at = from;
  for (const LinkId l : links) {
    REQUIRE_MESSAGE(l < net.num_links(), "link " << l << " does not exist");
    REQUIRE_MESSAGE(net.source(l) == at, "link " << l << " does not leave vertex " << at << ": not a walk");
    CHECK_MESSAGE(net.up(l), "link " << l << " is down");
    at = net.target(l);
    visited.push_back(at);
  }
  CHECK_MESSAGE(at == to, "the path ends at vertex " << at << ", not at the destination's " << to);
  for (std::size_t i = 1; i + 1 < visited.size(); ++i)
    CHECK_MESSAGE((net.endpoints_forward() || net.kind(visited[i]) != VertexKind::Endpoint),
                  "the path passes through endpoint vertex " << visited[i] << ", which does not forward");
  if (!simple) return;
  std::sort(visited.begin(), visited.end());
  CHECK_MESSAGE(std::adjacent_find(visited.begin(), visited.end()) == visited.end(), "the path visits a vertex twice");
}

// Every flow's paths and weights; `healthy`: no link is down, so every flow but self flows is routed.
void check_table(const std::string& routing, const Network& net, const FlowSet& flows, const PathTable& table,
                 bool healthy) {
  const bool simple = !kMayRevisitVertices.contains(routing);
  REQUIRE(table.num_flows() == flows.size());
  for (FlowId f = 0; f < flows.size(); ++f) {
    INFO("flow " << f << ": endpoint " << flows.src[f] << " -> " << flows.dst[f]);
    if (flows.src[f] == flows.dst[f]) {
      CHECK_MESSAGE(!table.routed(f), "a self flow gets no path (the engines count self flows apart)");
      continue;
    }
    if (healthy) CHECK_MESSAGE(table.routed(f), "a flow of a connected network without failures is routed");
    double weight = 0;
    for (std::uint32_t v = table.first_var(f); v < table.end_var(f); ++v) {
      check_path(net, flows, f, table.links(v), simple);
      CHECK((table.split(v) > 0 && table.split(v) <= 1 + 1e-6));
      weight += table.split(v);
    }
    if (table.routed(f)) CHECK_MESSAGE(std::abs(weight - 1) <= 1e-6, "split weights sum to " << weight);
  }
}

// Runs `check` for every example topology the routing accepts; the routing must accept one at least.
template <class Check>
void for_each_accepted(const std::string& routing, Check check) {
  std::size_t accepted = 0;
  for (const contract::TopologyInstance& instance : contract::topology_instances()) {
    const std::unique_ptr<Routing> r = contract::routing_or_null(routing, *instance.topology);
    if (!r) continue;
    ++accepted;
    INFO("routing " << routing << " on topology " << instance.spec);
    check(instance, *r);
  }
  CHECK_MESSAGE(accepted > 0, "routing '" << routing << "' accepts none of the example topologies");
}

}  // namespace

TEST_CASE("contract: every routing gives simple working paths with unit weights on the topologies it accepts") {
  for (const auto& entry : contract::registries().routings.entries()) {
    SUBCASE(("routing " + entry.name).c_str()) {
      for_each_accepted(entry.name, [&](const contract::TopologyInstance& instance, const Routing& routing) {
        const Network& net = instance.topology->network();
        const FlowSet flows = contract::contract_flows(net.num_endpoints(), kRandomPairs, 7);
        const PathTable table = route_with(routing, net, flows, 2);
        check_table(entry.name, net, flows, table, true);
        CHECK_MESSAGE(same_paths(table, route_with(routing, net, flows, 2)), "the same seed gives the same paths");
      });
    }
  }
}

TEST_CASE("contract: every routing gives the same paths with 1 and 2 threads") {
  // More flows than two of the fixed chunks that routings split their work into (4096 flows), so that
  // two threads really share the work.
  constexpr std::uint32_t kPairs = 2 * 4096 + 500;
  for (const auto& entry : contract::registries().routings.entries()) {
    SUBCASE(("routing " + entry.name).c_str()) {
      for_each_accepted(entry.name, [](const contract::TopologyInstance& instance, const Routing& routing) {
        const Network& net = instance.topology->network();
        const FlowSet flows = contract::contract_flows(net.num_endpoints(), kPairs, 11);
        CHECK(same_paths(route_with(routing, net, flows, 1), route_with(routing, net, flows, 2)));
      });
    }
  }
}

TEST_CASE("contract: every routing avoids failed links") {
  for (const auto& entry : contract::registries().routings.entries()) {
    SUBCASE(("routing " + entry.name).c_str()) {
      for_each_accepted(entry.name, [&](const contract::TopologyInstance& instance, const Routing&) {
        // A network of its own to fail cables in; the routing is built for that topology.
        const auto topology = contract::build_instance(instance.spec);
        Network& net = topology->network();
        const FailureReport failed = apply_failures(net, FailureSpec::parse("10%", "network"), 5);
        INFO(failed.failed_links.size() << " failed cables");
        const auto routing = contract::routing_or_null(entry.name, *topology);
        REQUIRE(routing);
        const FlowSet flows = contract::contract_flows(net.num_endpoints(), kRandomPairs, 13);
        check_table(entry.name, net, flows, route_with(*routing, net, flows, 2), failed.failed_links.empty());
      });
    }
  }
}
