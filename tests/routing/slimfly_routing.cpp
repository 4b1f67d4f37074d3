// Routings 'sfmin' and 'sfvaliant' on the slim fly: valid walks, minimal lengths equal to the BFS
// distances (at most 2 router hops), Valiant bounds, seeds and thread counts.
#include <doctest/doctest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/slimfly.hpp"

using namespace interflow;

namespace {

// Every flow has one path of split 1 that walks from the source endpoint to the destination.
// Counts the flows that do not (one CHECK per table keeps large all-pairs tests fast).
void check_walks(const Network& net, const FlowSet& flows, const PathTable& paths, std::size_t max_links) {
  REQUIRE(paths.num_flows() == flows.size());
  std::size_t bad = 0;
  for (FlowId f = 0; f < flows.size(); ++f) {
    if (paths.end_var(f) - paths.first_var(f) != 1 || paths.split(paths.first_var(f)) != 1.0f) {
      ++bad;
      continue;
    }
    const auto links = paths.links(paths.first_var(f));
    bool ok = links.size() >= 2 && links.size() <= max_links &&
              net.source(links.front()) == net.endpoint_vertex(flows.src[f]) &&
              net.target(links.back()) == net.endpoint_vertex(flows.dst[f]);
    for (std::size_t i = 0; ok && i + 1 < links.size(); ++i) ok = net.target(links[i]) == net.source(links[i + 1]);
    bad += ok ? 0 : 1;
  }
  CHECK(bad == 0);
}

}  // namespace

// sfmin on every pair of endpoints of slimfly:q=<q>.
static void check_minimal_all_pairs(std::initializer_list<std::uint32_t> orders) {
  for (std::uint32_t q : orders) {
    CAPTURE(q);
    const std::string spec = "slimfly:q=" + std::to_string(q) + ",p=" + (q <= 5 ? "2" : "1");
    auto topology = test::build_topology(spec);
    const auto& sf = dynamic_cast<const topo::SlimFlyTopology&>(*topology);
    const Network& net = sf.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable minimal = test::route(*test::build_routing("sfmin", *topology), net, flows);
    check_walks(net, flows, minimal, 4);
    // One router link between adjacent routers, two otherwise (the graph has diameter 2).
    std::size_t wrong_length = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const std::uint32_t r = sf.router_of(flows.src[f]), t = sf.router_of(flows.dst[f]);
      const std::size_t router_links = r == t                                                             ? 0
                                       : net.find_link(sf.router_vertex(r), sf.router_vertex(t)) != kNone ? 1
                                                                                                          : 2;
      wrong_length += minimal.links(minimal.first_var(f)).size() == 2 + router_links ? 0 : 1;
    }
    CHECK(wrong_length == 0);
    if (q <= 7) {  // and the same lengths as breadth-first search finds
      const PathTable bfs = test::route(*test::build_routing("bfs", *topology), net, flows);
      std::size_t longer_than_bfs = 0;
      for (FlowId f = 0; f < flows.size(); ++f)
        longer_than_bfs += minimal.links(minimal.first_var(f)).size() == bfs.links(bfs.first_var(f)).size() ? 0 : 1;
      CHECK(longer_than_bfs == 0);
    }
  }
}

TEST_CASE("slimfly routing: sfmin takes at most 2 router hops and matches the BFS distance for every pair") {
  check_minimal_all_pairs({3, 4, 5, 7, 8, 9, 11});
}

TEST_CASE("slimfly routing: sfmin routes all pairs of q = 13 in at most 2 router hops") {
  check_minimal_all_pairs({13});
}

TEST_CASE("slimfly routing: sfvaliant paths stay within 4 router hops and pass their intermediate router") {
  for (std::uint32_t q : {5u, 7u, 8u}) {
    CAPTURE(q);
    auto topology = test::build_topology("slimfly:q=" + std::to_string(q) + ",p=1");
    const auto& sf = dynamic_cast<const topo::SlimFlyTopology&>(*topology);
    const Network& net = sf.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable paths = test::route(*test::build_routing("sfvaliant", *topology), net, flows, 9);
    check_walks(net, flows, paths, 6);
    // Detours are longer on average than minimal paths (mean > 3 router hops for diameter-2 graphs
    // when the intermediate is uniform), and sometimes exactly 4 router hops.
    std::size_t total = 0, longest = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const std::size_t length = paths.links(paths.first_var(f)).size();
      total += length;
      longest = std::max(longest, length);
    }
    CHECK(longest == 6);
    CHECK(static_cast<double>(total) / static_cast<double>(flows.size()) > 2.0 + 3.0);
  }
}

TEST_CASE("slimfly routing: Valiant follows the seed and not the thread count") {
  auto topology = test::build_topology("slimfly:q=7,p=2");
  const Network& net = topology->network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());  // 39 006 flows: several chunks
  const auto routing = test::build_routing("sfvaliant", *topology);
  auto links_of = [](const PathTable& p) { return std::vector<LinkId>(p.all_links().begin(), p.all_links().end()); };
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

TEST_CASE("slimfly routing: a flow over a failed link is unroutable and the routings refuse other topologies") {
  auto topology = test::build_topology("slimfly:q=5,p=1");
  const auto& sf = dynamic_cast<const topo::SlimFlyTopology&>(*topology);
  Network& net = topology->network();
  const std::uint32_t r = 0, t = sf.router_index(net.target(net.out_begin(sf.router_vertex(0)) + 1));
  const LinkId cut = net.out_begin(sf.router_vertex(r)) + sf.port_toward(r, t);
  net.set_up(cut, false);
  net.set_up(net.reverse(cut), false);
  FlowSet flows;
  flows.add(r, t);  // one endpoint per router: endpoint i is on router i
  CHECK_FALSE(test::route(*test::build_routing("sfmin", *topology), net, flows).routed(0));
  auto torus = test::build_topology("torus:dims=4x4");
  for (const char* spec : {"sfmin", "sfvaliant"}) CHECK_THROWS_AS(test::build_routing(spec, *torus), InputError);
}
