// The generic multipath routings ecmp, ksp and allpath: path counts and lengths against igraph as an
// independent oracle (all shortest paths, Yen's k shortest paths, all simple paths within a cutoff) on
// a torus, a fat tree, a jellyfish and a random graph; load splitting on a diamond, an asymmetric DAG
// and a fat tree under a shift permutation; failures.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <igraph.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// Pairs to check: all pairs up to 40 endpoints, else every destination from every 7th source; `thin`
// takes only every thin-th of those sources (for the costlier oracles).
FlowSet sample_pairs(std::uint32_t n, std::uint32_t thin = 1) {
  FlowSet flows;
  for (EndpointId s = 0; s < n; s += (n <= 40 ? 1 : 7) * thin)
    for (EndpointId d = 0; d < n; ++d)
      if (s != d) flows.add(s, d);
  return flows;
}

// Checks every path of flow f: a walk over links that are up from src's vertex to dst's vertex that
// visits no vertex twice; the splits sum to one; no path repeats. Returns the path lengths, sorted.
std::vector<std::size_t> check_paths(const Network& net, const PathTable& paths, FlowId f, EndpointId src,
                                     EndpointId dst) {
  std::vector<std::size_t> lengths;
  std::set<std::vector<LinkId>> distinct;
  double total = 0;
  for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
    const auto links = paths.links(v);
    REQUIRE(!links.empty());
    REQUIRE(net.source(links.front()) == net.endpoint_vertex(src));
    REQUIRE(net.target(links.back()) == net.endpoint_vertex(dst));
    std::set<VertexId> seen{net.source(links.front())};
    for (std::size_t i = 0; i < links.size(); ++i) {
      REQUIRE(net.up(links[i]));
      if (i + 1 < links.size()) REQUIRE(net.target(links[i]) == net.source(links[i + 1]));
      REQUIRE(seen.insert(net.target(links[i])).second);
    }
    REQUIRE(distinct.insert(std::vector<LinkId>(links.begin(), links.end())).second);
    total += paths.split(v);
    lengths.push_back(links.size());
  }
  CHECK(total == approx(1.0).epsilon(1e-5));
  std::sort(lengths.begin(), lengths.end());
  return lengths;
}

// An Erdos-Renyi graph G(n, m) from igraph's own generator, plus a ring so that it is connected, as an
// edge-list topology with one endpoint per vertex.
std::string random_graph_edges(int n, int m, unsigned seed) {
  igraph_rng_seed(igraph_rng_default(), seed);
  igraph_t g;
  igraph_erdos_renyi_game_gnm(&g, n, m, IGRAPH_UNDIRECTED, IGRAPH_NO_LOOPS);
  std::set<std::pair<int, int>> edges;
  for (igraph_integer_t e = 0; e < igraph_ecount(&g); ++e) {
    const int a = static_cast<int>(IGRAPH_FROM(&g, e)), b = static_cast<int>(IGRAPH_TO(&g, e));
    edges.insert({std::min(a, b), std::max(a, b)});
  }
  igraph_destroy(&g);
  for (int v = 0; v < n; ++v) edges.insert({std::min(v, (v + 1) % n), std::max(v, (v + 1) % n)});
  std::string text;
  for (const auto& [a, b] : edges) text += std::to_string(a) + " " + std::to_string(b) + "\n";
  return text;
}

struct Oracle {
  explicit Oracle(const Network& net) : g(net) {}
  // Number of shortest paths from a to b and their length.
  std::pair<double, double> shortest(VertexId a, VertexId b) const {
    igraph_vector_int_t nrgeo;
    igraph_vector_int_init(&nrgeo, 0);
    igraph_get_all_shortest_paths(g.get(), nullptr, nullptr, &nrgeo, a, igraph_vss_1(b), IGRAPH_ALL);
    const double count = static_cast<double>(VECTOR(nrgeo)[b]);
    igraph_vector_int_destroy(&nrgeo);
    igraph_matrix_t m;
    igraph_matrix_init(&m, 0, 0);
    igraph_distances(g.get(), &m, igraph_vss_1(a), igraph_vss_1(b), IGRAPH_ALL);
    const double length = MATRIX(m, 0, 0);
    igraph_matrix_destroy(&m);
    return {count, length};
  }
  // Lengths of Yen's k shortest simple paths from a to b, sorted.
  std::vector<std::size_t> k_shortest(VertexId a, VertexId b, int k) const {
    igraph_vector_int_list_t edge_paths;
    igraph_vector_int_list_init(&edge_paths, 0);
    igraph_get_k_shortest_paths(g.get(), nullptr, nullptr, &edge_paths, k, a, b, IGRAPH_ALL);
    std::vector<std::size_t> lengths;
    for (igraph_integer_t i = 0; i < igraph_vector_int_list_size(&edge_paths); ++i)
      lengths.push_back(
          static_cast<std::size_t>(igraph_vector_int_size(igraph_vector_int_list_get_ptr(&edge_paths, i))));
    igraph_vector_int_list_destroy(&edge_paths);
    std::sort(lengths.begin(), lengths.end());
    return lengths;
  }
  // Number of simple paths from a to b of at most `cutoff` links.
  std::size_t simple_paths(VertexId a, VertexId b, int cutoff) const {
    igraph_vector_int_t res;
    igraph_vector_int_init(&res, 0);
    igraph_get_all_simple_paths(g.get(), &res, a, igraph_vss_1(b), cutoff, IGRAPH_ALL);
    std::size_t count = 0;
    for (igraph_integer_t i = 0; i < igraph_vector_int_size(&res); ++i) count += VECTOR(res)[i] == -1;
    igraph_vector_int_destroy(&res);
    return count;
  }
  test::IgraphGraph g;
};

struct OracleCase {
  std::string name, topology;
};

std::vector<OracleCase> oracle_cases(const test::TempFile& random_graph) {
  return {{"torus 4x4x3", "torus:dims=4x4x3"},
          {"fat tree 4-ary 3-tree", "fattree:k=4,n=3"},
          {"jellyfish", "jellyfish:N=12,k=6,r=4,seed=3"},
          {"random graph", "graph:file=" + random_graph.path() + ",format=edgelist,endpoints=all"}};
}

// Runs check(topology, network, oracle, flows) on each oracle network (the random graph from `seed`).
template <class Check>
void for_each_oracle_network(unsigned seed, std::uint32_t thin, Check check) {
  const test::TempFile file("random.edges", random_graph_edges(18, 30, seed));
  for (const auto& c : oracle_cases(file)) {
    CAPTURE(c.name);
    auto topology = test::build_topology(c.topology);
    const Network& net = topology->network();
    const Oracle oracle(net);
    check(*topology, net, oracle, sample_pairs(net.num_endpoints(), thin));
  }
}

}  // namespace

TEST_CASE("ecmp: path mode lists exactly igraph's shortest paths of every pair each with 1/P") {
  for_each_oracle_network(
      11, 1, [](const Topology& topology, const Network& net, const Oracle& oracle, const FlowSet& flows) {
        for (const std::string spec : {"ecmp:mode=path,max_paths=65536", "ecmp:mode=hop,max_paths=65536"}) {
          CAPTURE(spec);
          const PathTable paths = test::build_routing(spec, topology)->route_all(net, flows, RouteContext{});
          for (FlowId f = 0; f < flows.size(); ++f) {
            const auto [count, length] =
                oracle.shortest(net.endpoint_vertex(flows.src[f]), net.endpoint_vertex(flows.dst[f]));
            const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);
            REQUIRE(lengths.front() == length);
            REQUIRE(lengths.back() == length);
            if (spec.find("mode=path") != std::string::npos) {
              REQUIRE(lengths.size() == count);
              for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v)
                REQUIRE(paths.split(v) == approx(1.0 / count));
            } else {
              REQUIRE(lengths.size() <= count);  // the decomposition may need fewer paths
            }
          }
        }
      });
}

TEST_CASE("ksp: the k path lengths equal those of igraph's Yen k shortest paths") {
  for_each_oracle_network(
      12, 1, [](const Topology& topology, const Network& net, const Oracle& oracle, const FlowSet& flows) {
        for (const int k : {1, 4, 10}) {
          CAPTURE(k);
          const PathTable paths = test::build_routing("ksp:max_extra=12,k=" + std::to_string(k), topology)
                                      ->route_all(net, flows, RouteContext{});
          for (FlowId f = 0; f < flows.size(); ++f) {
            const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);
            REQUIRE(lengths ==
                    oracle.k_shortest(net.endpoint_vertex(flows.src[f]), net.endpoint_vertex(flows.dst[f]), k));
          }
        }
      });
}

TEST_CASE("allpath: the number of paths within shortest + d equals igraph's count of simple paths") {
  for_each_oracle_network(
      13, 3, [](const Topology& topology, const Network& net, const Oracle& oracle, const FlowSet& flows) {
        for (const int d : {0, 2}) {
          CAPTURE(d);
          const PathTable paths = test::build_routing("allpath:max_paths=65536,d=" + std::to_string(d), topology)
                                      ->route_all(net, flows, RouteContext{});
          for (FlowId f = 0; f < flows.size(); ++f) {
            const VertexId a = net.endpoint_vertex(flows.src[f]), b = net.endpoint_vertex(flows.dst[f]);
            const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);
            const int shortest = static_cast<int>(oracle.shortest(a, b).second);
            REQUIRE(lengths.front() == static_cast<std::size_t>(shortest));
            REQUIRE(lengths.back() <= static_cast<std::size_t>(shortest + d));
            REQUIRE(lengths.size() == oracle.simple_paths(a, b, shortest + d));
          }
        }
      });
}

TEST_CASE("multipath: a diamond splits 50/50 and a failed side leaves the other whole") {
  const test::TempFile file("diamond.ifg",
                            "endpoints 2\nswitches 4\nlink e0 s0\nlink s0 s1\nlink s0 s2\nlink s1 s3\nlink s2 s3\n"
                            "link s3 e1\n");
  auto topology = test::build_topology("graph:file=" + file.path());
  Network& net = topology->network();
  FlowSet flows;
  flows.add(0, 1);
  for (const std::string spec : {"ecmp", "ecmp:mode=path", "ksp:k=2", "allpath:d=0"}) {
    CAPTURE(spec);
    auto routing = test::build_routing(spec, *topology);
    const StaticResult r = StaticEngine(net, *routing).run(flows, StaticOptions{});
    REQUIRE(r.paths.end_var(0) - r.paths.first_var(0) == 2);
    CHECK(r.paths.split(0) == approx(0.5));
    CHECK(r.paths.split(1) == approx(0.5));
    CHECK(r.flow_rate_gbps[0] == approx(100.0));
    // s0 is e0's switch; s1 and s2 its two other neighbours (graph files number vertices in file order).
    const VertexId s0 = net.target(net.out_begin(net.endpoint_vertex(0)));
    std::vector<VertexId> sides;
    for (LinkId l = net.out_begin(s0); l < net.out_end(s0); ++l)
      if (net.kind(net.target(l)) == VertexKind::Switch) sides.push_back(net.target(l));
    REQUIRE(sides.size() == 2);
    const VertexId s1 = sides[0], s2 = sides[1];
    CHECK(r.link_load_gbps[net.find_link(s0, s1)] == approx(50.0));
    CHECK(r.link_load_gbps[net.find_link(s0, s2)] == approx(50.0));
    // One side down: one path with the whole flow; both down: unroutable.
    const LinkId up1 = net.find_link(s0, s1), up2 = net.find_link(s0, s2);
    net.set_up(up1, false);
    net.set_up(net.reverse(up1), false);
    PathTable one = routing->route_all(net, flows, RouteContext{});
    REQUIRE(one.end_var(0) - one.first_var(0) == 1);
    CHECK(one.split(one.first_var(0)) == approx(1.0));
    net.set_up(up2, false);
    net.set_up(net.reverse(up2), false);
    CHECK_FALSE(routing->route_all(net, flows, RouteContext{}).routed(0));
    for (LinkId l : {up1, up2}) {
      net.set_up(l, true);
      net.set_up(net.reverse(l), true);
    }
  }
}

TEST_CASE("ecmp: per-hop and per-path splits differ as documented on an uneven DAG") {
  // s0 has next hops s1 (one way on, via s3) and s2 (two ways on: s4, s6); all meet at s5, 3 hops away.
  const test::TempFile file("uneven.ifg",
                            "endpoints 2\nswitches 7\nlink e0 s0\nlink s0 s1\nlink s0 s2\nlink s1 s3\nlink s2 s4\n"
                            "link s2 s6\nlink s3 s5\nlink s4 s5\nlink s6 s5\nlink s5 e1\n");
  auto topology = test::build_topology("graph:file=" + file.path());
  const Network& net = topology->network();
  FlowSet flows;
  flows.add(0, 1);
  // s1: the neighbour of e0's switch with a single way on (degree 2).
  const VertexId s0 = net.target(net.out_begin(net.endpoint_vertex(0)));
  VertexId s1 = kNone;
  for (LinkId l = net.out_begin(s0); l < net.out_end(s0); ++l)
    if (net.kind(net.target(l)) == VertexKind::Switch && net.degree(net.target(l)) == 2) s1 = net.target(l);
  REQUIRE(s1 != kNone);
  for (const auto& [spec, via_s1, other] : std::vector<std::tuple<std::string, double, double>>{
           {"ecmp:mode=hop", 0.5, 0.25}, {"ecmp:mode=path", 1.0 / 3, 1.0 / 3}}) {
    CAPTURE(spec);
    const PathTable paths = test::build_routing(spec, *topology)->route_all(net, flows, RouteContext{});
    REQUIRE(paths.end_var(0) - paths.first_var(0) == 3);
    for (std::uint32_t v = 0; v < 3; ++v) {
      const bool through_s1 = net.target(paths.links(v)[1]) == s1;
      CHECK(paths.split(v) == approx(through_s1 ? via_s1 : other));
    }
  }
}

TEST_CASE("ecmp: per-hop splitting spreads a shift permutation evenly over every up-link of a fat tree") {
  for (const auto& [k, n] : {std::pair{4u, 3u}, {2u, 4u}, {3u, 3u}}) {
    CAPTURE(k);
    CAPTURE(n);
    auto topology = test::build_topology("fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n));
    const Network& net = topology->network();
    const std::uint32_t endpoints = net.num_endpoints(), half = endpoints / 2;
    FlowSet flows;  // shift by half the endpoints: every flow crosses the top level
    for (EndpointId e = 0; e < endpoints; ++e) flows.add(e, (e + half) % endpoints);
    const PathTable paths = test::build_routing("ecmp", *topology)->route_all(net, flows, RouteContext{});
    std::vector<double> load(net.num_links(), 0.0);
    for (FlowId f = 0; f < flows.size(); ++f)
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v)
        for (LinkId l : paths.links(v)) load[l] += paths.split(v);
    // Every switch-to-switch link leading away from the endpoints' side carries the same load: one
    // endpoint's worth of traffic (N flows spread over the N up-links of each level).
    double lowest = 1e300, highest = 0;
    std::size_t up_links = 0;
    for (LinkId l = 0; l < net.num_links(); ++l) {
      const VertexId a = net.source(l), b = net.target(l);
      if (net.kind(a) != VertexKind::Switch || net.kind(b) != VertexKind::Switch || b < a) continue;
      ++up_links;
      lowest = std::min(lowest, load[l]);
      highest = std::max(highest, load[l]);
    }
    CHECK(up_links > 0);
    CHECK(lowest == approx(highest).epsilon(1e-5));
    CHECK(highest == approx(1.0).epsilon(1e-5));
  }
}

TEST_CASE("ecmp: capped at max_paths the walks still reach every core switch of a fat tree") {
  // 4-ary 3-tree: 16 shortest paths between pods, one per core switch; 4 per flow, offsets per flow.
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  FlowSet flows;
  for (EndpointId e = 0; e < 64; ++e) flows.add(e, (e + 32) % 64);
  for (const std::string spec : {"ecmp:max_paths=4", "ecmp:mode=path,max_paths=4"}) {
    CAPTURE(spec);
    const PathTable paths = test::build_routing(spec, *topology)->route_all(net, flows, RouteContext{});
    std::set<VertexId> cores;
    for (FlowId f = 0; f < flows.size(); ++f) {
      const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);
      CHECK(lengths.size() <= 4);
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) cores.insert(net.target(paths.links(v)[2]));
    }
    CHECK(cores.size() == 16);
  }
}

TEST_CASE("updown: the tree's own multipath gives the same paths and splits as ecmp") {
  for (const std::string t : {"fattree:k=4,n=3", "thintree:k=4,kp=2,n=3", "fattree:k=3,n=2"}) {
    CAPTURE(t);
    auto topology = test::build_topology(t);
    const Network& net = topology->network();
    const FlowSet flows = sample_pairs(net.num_endpoints());
    const PathTable ours = test::build_routing("updown", *topology)->route_all(net, flows, RouteContext{});
    const PathTable ecmp = test::build_routing("ecmp:mode=path", *topology)->route_all(net, flows, RouteContext{});
    for (FlowId f = 0; f < flows.size(); ++f) {
      check_paths(net, ours, f, flows.src[f], flows.dst[f]);
      std::map<std::vector<LinkId>, double> a, b;
      for (std::uint32_t v = ours.first_var(f); v < ours.end_var(f); ++v)
        a[{ours.links(v).begin(), ours.links(v).end()}] = ours.split(v);
      for (std::uint32_t v = ecmp.first_var(f); v < ecmp.end_var(f); ++v)
        b[{ecmp.links(v).begin(), ecmp.links(v).end()}] = ecmp.split(v);
      REQUIRE(a.size() == b.size());
      for (const auto& [path, split] : a) {
        REQUIRE(b.count(path) == 1);
        CHECK(split == approx(b[path]));
      }
    }
  }
}

TEST_CASE("updown: capped flows stay valid and a failed core cable is avoided by every flow") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  Network& net = topology->network();
  const FlowSet flows = sample_pairs(net.num_endpoints());
  // Fail the first cable from a level-1 switch to a top switch.
  LinkId failed = kNone;
  for (LinkId l = 0; l < net.num_links() && failed == kNone; ++l)
    if (net.kind(net.source(l)) == VertexKind::Switch && net.kind(net.target(l)) == VertexKind::Switch &&
        net.target(l) > net.source(l) && net.target(l) >= net.num_vertices() - 16)
      failed = l;
  REQUIRE(failed != kNone);
  net.set_up(failed, false);
  net.set_up(net.reverse(failed), false);
  for (const std::string spec : {"updown", "updown:max_paths=3", "ecmp", "ecmp:max_paths=3"}) {
    CAPTURE(spec);
    const PathTable paths = test::build_routing(spec, *topology)->route_all(net, flows, RouteContext{});
    for (FlowId f = 0; f < flows.size(); ++f) {
      REQUIRE(paths.routed(f));
      const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);  // checks every link is up
      CHECK(lengths.size() <= (spec.find("=3") != std::string::npos ? 3u : 16u));
    }
  }
}

TEST_CASE("dfmin global=all and mfmin paths=all: one path per parallel global link or spine") {
  SUBCASE("dragonfly a=4 h=2 g=5: k = 2 global links per group pair") {
    auto topology = test::build_topology("dragonfly:a=4,p=2,h=2,g=5");
    Network& net = topology->network();
    const FlowSet flows = sample_pairs(net.num_endpoints());
    REQUIRE(flows.dst[39 - 1] >= 8);  // flows from endpoint 0 reach other groups
    auto routing = test::build_routing("dfmin:global=all", *topology);
    const PathTable paths = routing->route_all(net, flows, RouteContext{});
    const std::uint32_t per_group = 4 * 2;  // a * p endpoints
    for (FlowId f = 0; f < flows.size(); ++f) {
      const auto lengths = check_paths(net, paths, f, flows.src[f], flows.dst[f]);
      const bool between = flows.src[f] / per_group != flows.dst[f] / per_group;
      CHECK(lengths.size() == (between ? 2u : 1u));
      CHECK(lengths.back() <= 5);
    }
    // Cut one global cable: the flows that used it keep their other path with the whole flow.
    // A global cable: between routers (vertices after the 40 endpoints) of different groups of a = 4.
    LinkId global = kNone;
    for (LinkId l : paths.links(paths.first_var(38)))
      if (net.source(l) >= 40 && net.target(l) >= 40 && (net.source(l) - 40) / 4 != (net.target(l) - 40) / 4)
        global = l;
    REQUIRE(global != kNone);
    net.set_up(global, false);
    net.set_up(net.reverse(global), false);
    const PathTable after = routing->route_all(net, flows, RouteContext{});
    std::size_t rerouted = 0;
    for (FlowId f = 0; f < flows.size(); ++f) {
      REQUIRE(after.routed(f));
      check_paths(net, after, f, flows.src[f], flows.dst[f]);
      rerouted += after.end_var(f) - after.first_var(f) < paths.end_var(f) - paths.first_var(f);
    }
    CHECK(rerouted > 0);
  }
  SUBCASE("megafly: spines inside a group and m global links between groups") {
    auto topology = test::build_topology("megafly:leaves=2,spines=3,p=2,h=2,g=4");
    const Network& net = topology->network();
    const FlowSet flows = sample_pairs(net.num_endpoints());
    const PathTable paths = test::build_routing("mfmin:paths=all", *topology)->route_all(net, flows, RouteContext{});
    const std::uint32_t per_leaf = 2, per_group = 4, m = 3 * 2 / 3;  // m = spines * h / (g - 1)
    for (FlowId f = 0; f < flows.size(); ++f) {
      const EndpointId s = flows.src[f], d = flows.dst[f];
      const auto lengths = check_paths(net, paths, f, s, d);
      const std::size_t expected = s / per_group != d / per_group ? m : (s / per_leaf != d / per_leaf ? 3u : 1u);
      CHECK(lengths.size() == expected);
    }
  }
}

TEST_CASE("ksp disjoint=true keeps cable-disjoint paths and split=length weighs paths by 1/length") {
  auto topology = test::build_topology("torus:dims=4x4x3");
  const Network& net = topology->network();
  const FlowSet flows = sample_pairs(net.num_endpoints(), 4);
  const PathTable disjoint =
      test::build_routing("ksp:k=6,max_extra=6,disjoint=true", *topology)->route_all(net, flows, RouteContext{});
  const PathTable weighted =
      test::build_routing("allpath:d=2,max_paths=65536,split=length", *topology)->route_all(net, flows, RouteContext{});
  std::size_t most = 0;
  for (FlowId f = 0; f < flows.size(); ++f) {
    check_paths(net, disjoint, f, flows.src[f], flows.dst[f]);
    std::set<LinkId> cables;  // each cable by its lower-numbered direction
    std::size_t links = 0;
    for (std::uint32_t v = disjoint.first_var(f); v < disjoint.end_var(f); ++v)
      for (LinkId l : disjoint.links(v)) {
        cables.insert(std::min(l, net.reverse(l)));
        ++links;
      }
    REQUIRE(cables.size() == links);  // no cable used twice
    most = std::max<std::size_t>(most, disjoint.end_var(f) - disjoint.first_var(f));
    // split=length: split(v) x length(v) is the same for every path of the flow.
    check_paths(net, weighted, f, flows.src[f], flows.dst[f]);
    const double product =
        weighted.split(weighted.first_var(f)) * static_cast<double>(weighted.links(weighted.first_var(f)).size());
    for (std::uint32_t v = weighted.first_var(f); v < weighted.end_var(f); ++v)
      REQUIRE(weighted.split(v) * static_cast<double>(weighted.links(v).size()) ==
              approx(product).epsilon(1e-5));
  }
  CHECK(most >= 3);  // a 3-D torus router has 6 cables: the greedy finds several disjoint paths
}

TEST_CASE("multipath routings: a source hosted by its destination's switch gets the last hop alone") {
  // e0 is switch s0 itself (direct), e1 hangs off s0: the flow e0 -> e1 is the single cable s0 -> e1.
  const test::TempFile file("hosted.ifg", "endpoints 2\nswitches 2\nhost e0 s0\nlink e1 s0\nlink s0 s1\n");
  auto topology = test::build_topology("graph:file=" + file.path());
  const Network& net = topology->network();
  FlowSet flows;
  flows.add(0, 1);
  for (const std::string spec : {"bfs", "ecmp", "ecmp:mode=path", "ksp", "allpath"}) {
    CAPTURE(spec);
    const PathTable paths = test::build_routing(spec, *topology)->route_all(net, flows, RouteContext{});
    REQUIRE(paths.end_var(0) - paths.first_var(0) == 1);
    CHECK(paths.split(paths.first_var(0)) == approx(1.0));
    REQUIRE(paths.links(paths.first_var(0)).size() == 1);
    CHECK(net.target(paths.links(paths.first_var(0))[0]) == net.endpoint_vertex(1));
  }
}

TEST_CASE("ksp disjoint=true shares only the endpoints' own cables on a fat tree") {
  auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  FlowSet flows;
  for (EndpointId e = 0; e < 64; ++e) flows.add(e, (e + 32) % 64);  // every flow crosses the top level
  const PathTable paths =
      test::build_routing("ksp:k=8,max_extra=2,disjoint=true", *topology)->route_all(net, flows, RouteContext{});
  for (FlowId f = 0; f < flows.size(); ++f) {
    check_paths(net, paths, f, flows.src[f], flows.dst[f]);
    CHECK(paths.end_var(f) - paths.first_var(f) >= 2);
    std::set<LinkId> cables;
    std::size_t inner = 0;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      const auto links = paths.links(v);
      for (std::size_t i = 1; i + 1 < links.size(); ++i, ++inner)
        cables.insert(std::min(links[i], net.reverse(links[i])));
    }
    CHECK(cables.size() == inner);  // switch-to-switch cables never shared
  }
}

TEST_CASE("multipath routings: bad parameters are refused naming them") {
  auto topology = test::build_topology("fattree:k=2,n=2");
  CHECK_THROWS_WITH_AS(test::build_routing("ecmp:mode=random", *topology), doctest::Contains("mode"), InputError);
  CHECK_THROWS_WITH_AS(test::build_routing("ksp:k=0", *topology), doctest::Contains("k"), InputError);
  CHECK_THROWS_WITH_AS(test::build_routing("allpath:d=-1", *topology), doctest::Contains("d"), InputError);
  CHECK_THROWS_WITH_AS(test::build_routing("allpath:max_paths=0", *topology), doctest::Contains("max_paths"),
                       InputError);
}
