// Routing 'bfs': max-min rates on closed-form networks, path lengths against igraph and DOR,
// failures, tie rules and thread-count independence.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <igraph.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/failures.hpp"
#include "core/random.hpp"
#include "engine/flow/static_engine.hpp"
#include "routing/registry.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/registry.hpp"
#include "topologies/torus.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

const std::string kFixtures = std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/";

FlowSet flows_of(std::initializer_list<std::pair<EndpointId, EndpointId>> pairs) {
  FlowSet flows;
  for (auto [s, d] : pairs) flows.add(s, d);
  return flows;
}

// Every routed flow has one path of weight 1 from its source's vertex to its destination's vertex
// over links that are up.
void check_paths_valid(const Network& net, const FlowSet& flows, const PathTable& paths) {
  REQUIRE(paths.num_flows() == flows.size());
  for (FlowId f = 0; f < flows.size(); ++f) {
    if (!paths.routed(f)) continue;
    REQUIRE(paths.end_var(f) - paths.first_var(f) == 1);
    CHECK(paths.split(paths.first_var(f)) == 1.0);
    VertexId at = net.endpoint_vertex(flows.src[f]);
    for (LinkId l : paths.links(paths.first_var(f))) {
      REQUIRE(net.source(l) == at);
      REQUIRE(net.up(l));
      at = net.target(l);
    }
    CHECK(at == net.endpoint_vertex(flows.dst[f]));
  }
}

bool same_table(const PathTable& a, const PathTable& b) {
  if (a.num_flows() != b.num_flows() || a.num_vars() != b.num_vars()) return false;
  for (FlowId f = 0; f < a.num_flows(); ++f)
    if (a.first_var(f) != b.first_var(f) || a.end_var(f) != b.end_var(f)) return false;
  const auto la = a.all_links(), lb = b.all_links();
  const auto va = a.var_offsets(), vb = b.var_offsets();
  const auto sa = a.splits(), sb = b.splits();
  return std::equal(la.begin(), la.end(), lb.begin(), lb.end()) &&
         std::equal(va.begin(), va.end(), vb.begin(), vb.end()) &&
         std::equal(sa.begin(), sa.end(), sb.begin(), sb.end());
}

// BFS lengths equal igraph's distances between the attachment vertices, and exactly the pairs
// igraph finds disconnected are unroutable. Returns the number of unroutable flows.
std::size_t check_lengths_match_igraph(const Network& net, const FlowSet& flows, const PathTable& paths) {
  const std::vector<double> dist = test::IgraphGraph(net).all_distances();
  const std::size_t n = net.num_vertices();
  std::size_t unroutable = 0;
  for (FlowId f = 0; f < flows.size(); ++f) {
    const double d = dist[net.endpoint_vertex(flows.src[f]) * n + net.endpoint_vertex(flows.dst[f])];
    if (!std::isfinite(d)) {
      CHECK_FALSE(paths.routed(f));
      ++unroutable;
      continue;
    }
    REQUIRE(paths.routed(f));
    CHECK(paths.links(paths.first_var(f)).size() == static_cast<std::size_t>(d));
  }
  return unroutable;
}

// A direct network (every vertex a router hosting one endpoint) on a seeded random multigraph.
Network random_direct_network(std::uint32_t vertices, std::uint32_t edges, std::uint64_t seed) {
  NetworkBuilder b;
  b.add_switches(vertices);
  for (VertexId v = 0; v < vertices; ++v) b.add_direct_endpoint(v);
  Rng rng(seed);
  for (std::uint32_t i = 0; i < edges;) {
    const auto u = static_cast<VertexId>(rng.below(vertices));
    const auto v = static_cast<VertexId>(rng.below(vertices));
    if (u == v) continue;
    b.add_cable(u, v);
    ++i;
  }
  return b.build();
}

}  // namespace

TEST_CASE("bfs: dumbbell shares the bottleneck cable while an unrelated flow gets its own link rate") {
  const auto t = test::build_topology("graph:file=" + kFixtures + "dumbbell.ifg");
  const auto bfs = test::build_routing("bfs", *t);
  const StaticResult r = StaticEngine(t->network(), *bfs).run(flows_of({{0, 2}, {1, 3}, {4, 5}}), {});
  CHECK(r.flow_rate_gbps[0] == approx(5));
  CHECK(r.flow_rate_gbps[1] == approx(5));
  CHECK(r.flow_rate_gbps[2] == approx(25));
  CHECK(r.metrics.flows_unroutable == 0);
  CHECK(r.paths.links(r.paths.first_var(0)).size() == 3);
  CHECK(r.paths.links(r.paths.first_var(2)).size() == 2);
}

TEST_CASE("bfs: parking lot gives every flow half of a unit link") {
  const auto t = test::build_topology("graph:file=" + kFixtures + "parking_lot.ifg");
  const auto bfs = test::build_routing("bfs", *t);
  const StaticResult r = StaticEngine(t->network(), *bfs).run(flows_of({{0, 3}, {0, 1}, {1, 2}, {2, 3}}), {});
  for (double rate : r.flow_rate_gbps) CHECK(rate == approx(0.5));
  CHECK(r.paths.links(r.paths.first_var(0)).size() == 3);
}

TEST_CASE("bfs: parking lot with capacities 1 and 2") {
  const auto t = test::build_topology("graph:file=" + kFixtures + "parking_lot_1_2.ifg");
  const auto bfs = test::build_routing("bfs", *t);
  const StaticResult r = StaticEngine(t->network(), *bfs).run(flows_of({{0, 2}, {0, 1}, {1, 2}}), {});
  CHECK(r.flow_rate_gbps[0] == approx(0.5));  // long flow, bottleneck the first hop
  CHECK(r.flow_rate_gbps[1] == approx(0.5));  // short flow on the 1 Gbit/s hop
  CHECK(r.flow_rate_gbps[2] == approx(1.5));  // short flow on the 2 Gbit/s hop: 2 - 0.5
}

TEST_CASE("bfs: path lengths equal igraph's distances") {
  SUBCASE("random multigraphs, sparse (disconnected) and denser") {
    const topo::TorusTopology any({2}, false, 0, {});  // bfs only looks at the network
    for (std::uint32_t edges : {45u, 90u}) {
      const Network net = random_direct_network(40, edges, 7);
      const FlowSet flows = test::all_pairs(net.num_endpoints());
      const PathTable paths = test::route(*test::build_routing("bfs", any), net, flows);
      check_paths_valid(net, flows, paths);
      const std::size_t unroutable = check_lengths_match_igraph(net, flows, paths);
      if (edges == 45) CHECK(unroutable > 0);  // 45 random edges cannot connect 40 vertices well
    }
  }
  SUBCASE("torus, also equal to DOR's lengths") {
    const topo::TorusTopology torus({5, 4, 3}, true, 0, {});
    const Network& net = torus.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable paths = test::route(*test::build_routing("bfs", torus), net, flows);
    check_paths_valid(net, flows, paths);
    CHECK(check_lengths_match_igraph(net, flows, paths) == 0);
    const PathTable dor = test::route(*test::build_routing("dor", torus), net, flows);
    for (FlowId f = 0; f < flows.size(); ++f)
      CHECK(paths.links(paths.first_var(f)).size() == dor.links(dor.first_var(f)).size());
  }
  SUBCASE("torus with endpoints on their own links") {
    const topo::TorusTopology torus({4, 3}, true, 2, {});
    const Network& net = torus.network();
    const FlowSet flows = test::all_pairs(net.num_endpoints());
    const PathTable paths = test::route(*test::build_routing("bfs", torus), net, flows);
    check_paths_valid(net, flows, paths);
    CHECK(check_lengths_match_igraph(net, flows, paths) == 0);
  }
}

TEST_CASE("bfs: failed links are avoided and disconnected flows are unroutable") {
  topo::TorusTopology torus({6, 6}, true, 0, {});
  Network& net = torus.network();
  // Cut router 7 off completely, then fail 15 more random cables.
  for (LinkId l = net.out_begin(7); l < net.out_end(7); ++l) {
    net.set_up(l, false);
    net.set_up(net.reverse(l), false);
  }
  FailureSpec spec;
  spec.count = 15;
  apply_failures(net, spec, 3);
  const FlowSet flows = test::all_pairs(net.num_endpoints());
  const PathTable paths = test::route(*test::build_routing("bfs", torus), net, flows);
  check_paths_valid(net, flows, paths);
  const std::size_t unroutable = check_lengths_match_igraph(net, flows, paths);
  CHECK(unroutable >= 2 * 35);  // every flow from or to router 7
  for (EndpointId e = 0; e < 36; ++e)
    if (e != 7) CHECK_FALSE(paths.routed(7 * 35 + (e < 7 ? e : e - 1)));  // flows from 7, in all_pairs order

  const StaticResult r = StaticEngine(net, *test::build_routing("bfs", torus)).run(flows, {});
  CHECK(r.metrics.flows_unroutable == unroutable);
}

TEST_CASE("bfs: endpoints relay traffic only when the network lets them forward") {
  // e1 -> e2 is 4 links through endpoint e0, 5 links through switches only.
  const test::TempFile file("relay.ifg",
                            "endpoints 3\nswitches 4\nlink e1 s0\nlink e2 s1\nlink e0 s0\nlink e0 s1\nlink s0 s2\n"
                            "link s2 s3\nlink s3 s1\n");
  const FlowSet flows = flows_of({{1, 2}, {2, 2}});
  for (bool forward : {false, true}) {
    const auto t = test::build_topology("graph:file=" + file.path() + ",forward=" + (forward ? "true" : "false"));
    const PathTable paths = test::route(*test::build_routing("bfs", *t), t->network(), flows);
    check_paths_valid(t->network(), flows, paths);
    REQUIRE(paths.routed(0));
    CHECK(paths.links(paths.first_var(0)).size() == (forward ? 4u : 5u));
    CHECK_FALSE(paths.routed(1));  // a flow to itself is never routed
  }
}

TEST_CASE("bfs: tie rules") {
  // A square s0-s1-s3-s2-s0; e0 on s0 and e1 on s3 have two shortest paths. s0's first port goes to s2.
  const test::TempFile file("square.ifg",
                            "endpoints 2\nswitches 4\nhost e0 s0\nhost e1 s3\nlink s0 s2\nlink s0 s1\nlink s1 s3\n"
                            "link s2 s3\n");
  const auto t = test::build_topology("graph:file=" + file.path());
  const Network& net = t->network();
  const FlowSet flows = flows_of({{0, 1}});
  SUBCASE("lowest takes the lowest port") {
    const PathTable paths = test::route(*test::build_routing("bfs:tie=lowest", *t), net, flows);
    REQUIRE(paths.routed(0));
    CHECK(net.target(paths.links(0)[0]) == 2);
  }
  SUBCASE("random takes both over seeds, always a shortest path") {
    const auto bfs = test::build_routing("bfs:tie=random", *t);
    int via_s2 = 0;
    for (std::uint64_t seed = 1; seed <= 64; ++seed) {
      const PathTable paths = test::route(*bfs, net, flows, seed);
      REQUIRE(paths.links(0).size() == 2);
      via_s2 += net.target(paths.links(0)[0]) == 2;
    }
    CHECK(via_s2 > 10);
    CHECK(via_s2 < 54);
  }
}

TEST_CASE("bfs: tie=random is reproducible for the same seed") {
  const topo::TorusTopology torus({6, 6}, true, 0, {});
  const Network& net = torus.network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());
  const auto bfs = test::build_routing("bfs:tie=random", torus);
  const PathTable a = test::route(*bfs, net, flows, 11);
  const PathTable b = test::route(*bfs, net, flows, 11);
  const PathTable c = test::route(*bfs, net, flows, 12);
  CHECK(same_table(a, b));
  CHECK_FALSE(same_table(a, c));
  check_paths_valid(net, flows, a);
  CHECK(check_lengths_match_igraph(net, flows, a) == 0);
}

TEST_CASE("bfs: the path table does not depend on the thread count") {
  const topo::TorusTopology torus({10, 10}, true, 0, {});
  const Network& net = torus.network();
  const FlowSet flows = test::all_pairs(net.num_endpoints());  // 9900 flows: several chunks
  for (const char* spec : {"bfs", "bfs:tie=random"}) {
    SUBCASE(spec) {
      const auto bfs = test::build_routing(spec, torus);
      PathTable one, two;
      {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        one = test::route(*bfs, net, flows, 5);
      }
      {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        two = test::route(*bfs, net, flows, 5);
      }
      CHECK(same_table(one, two));
      CHECK(one.num_vars() == flows.size());
    }
  }
}
