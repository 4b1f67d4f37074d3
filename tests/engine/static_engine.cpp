// The static engine end to end (topology + routing + pattern through their registries, via
// cli::run_static): closed-form path lengths and throughputs, cut bounds, determinism, failures.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/static_run.hpp"
#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "workloads/bisection.hpp"

using namespace interflow;
using namespace interflow::flow;
using namespace interflow::flow;

namespace {

constexpr double kGbps = 100.0;  // every link capacity in these tests (the defaults)

const cli::Plugins& plugins() {
  static const cli::Plugins instance;
  return instance;
}

cli::StaticConfig config(const std::string& topology, const std::string& pattern, const std::string& routing = "") {
  cli::StaticConfig c;
  c.network.topology = topology;
  c.pattern = pattern;
  c.network.routing = routing;
  c.threads = 1;
  return c;
}

cli::StaticRun run(const cli::StaticConfig& c) { return cli::run_static(plugins(), c); }
cli::StaticRun run(const std::string& topology, const std::string& pattern, const std::string& routing = "") {
  return run(config(topology, pattern, routing));
}

std::uint64_t product(const std::vector<std::uint32_t>& dims) {
  std::uint64_t n = 1;
  for (auto k : dims) n *= k;
  return n;
}

// Mean ring distance over ordered pairs of distinct routers of a torus: sum_d floor(k^2/4)/k is the
// mean over all N^2 ordered pairs (self pairs included), rescaled by N/(N-1).
double torus_mean_distance(const std::vector<std::uint32_t>& dims) {
  double sum = 0;
  for (double k : dims) sum += std::floor(k * k / 4) / k;
  const auto n = static_cast<double>(product(dims));
  return sum * n / (n - 1);
}

// Same for a mesh: the mean of |i - j| over k^2 pairs of a line of k is (k^2 - 1) / (3k).
double mesh_mean_distance(const std::vector<std::uint32_t>& dims) {
  double sum = 0;
  for (double k : dims) sum += (k * k - 1) / (3 * k);
  const auto n = static_cast<double>(product(dims));
  return sum * n / (n - 1);
}

std::string dims_text(const std::vector<std::uint32_t>& dims) {
  std::string s;
  for (auto k : dims) s += (s.empty() ? "" : "x") + std::to_string(k);
  return s;
}

void check_counts_add_up(const StaticMetrics& m) {
  CHECK(m.flows_routed + m.flows_unroutable + m.flows_self == m.flows);
}

// Everything a run reports except timings, compared exactly.
void check_identical(const cli::StaticRun& a, const cli::StaticRun& b) {
  CHECK(a.flows.src == b.flows.src);
  CHECK(a.flows.dst == b.flows.dst);
  CHECK(a.result.flow_rate_gbps == b.result.flow_rate_gbps);
  CHECK(a.result.flow_path_links == b.result.flow_path_links);
  CHECK(a.result.flow_bottleneck == b.result.flow_bottleneck);
  CHECK(a.result.link_paths == b.result.link_paths);
  CHECK(a.result.link_load_gbps == b.result.link_load_gbps);
  CHECK(std::equal(a.result.paths.all_links().begin(), a.result.paths.all_links().end(),
                   b.result.paths.all_links().begin(), b.result.paths.all_links().end()));
  const StaticMetrics &x = a.result.metrics, &y = b.result.metrics;
  CHECK(x.flows_routed == y.flows_routed);
  CHECK(x.flows_unroutable == y.flows_unroutable);
  CHECK(x.path_variables == y.path_variables);
  CHECK(x.aggregate_nonrestricted_gbps == y.aggregate_nonrestricted_gbps);
  CHECK(x.aggregate_restricted_gbps == y.aggregate_restricted_gbps);
  CHECK(x.rate_gbps.min == y.rate_gbps.min);
  CHECK(x.rate_gbps.median == y.rate_gbps.median);
  CHECK(x.rate_gbps.mean == y.rate_gbps.mean);
  CHECK(x.rate_gbps.max == y.rate_gbps.max);
  CHECK(x.rate_gbps.jain == y.rate_gbps.jain);
  CHECK(x.path_links.mean == y.path_links.mean);
  CHECK(x.paths_per_link.max == y.paths_per_link.max);
  CHECK(x.utilisation.mean == y.utilisation.mean);
  CHECK(x.utilisation.max == y.utilisation.max);
  CHECK(x.solver_steps == y.solver_steps);
  CHECK(x.inrflow_bottleneck_throughput == y.inrflow_bottleneck_throughput);
  CHECK(a.setup.failures.failed_links == b.setup.failures.failed_links);
}

double fact(const cli::StaticRun& r, const std::string& key) {
  const auto value = test::find_fact(*r.setup.topology, key);
  REQUIRE_MESSAGE(value.has_value(), "topology has no fact " << key);
  return *value;
}

}  // namespace

TEST_CASE("static engine: torus all-to-all mean path length is the ring-distance closed form") {
  const std::vector<std::vector<std::uint32_t>> shapes = {{8},       {5},    {2},       {3, 4}, {4, 4, 4},
                                                          {2, 3, 4}, {7, 2}, {2, 2, 2}, {5, 6}};
  for (const auto& dims : shapes) {
    const double want = torus_mean_distance(dims);
    INFO("dims " << dims_text(dims));
    const cli::StaticRun direct = run("torus:dims=" + dims_text(dims), "alltoall");
    const StaticMetrics& m = direct.result.metrics;
    CHECK(m.flows == product(dims) * (product(dims) - 1));
    CHECK(m.flows_routed == m.flows);
    CHECK(m.path_links.mean == approx(want).epsilon(1e-12));
    CHECK(m.path_links.max == approx(fact(direct, "diameter_links")));
    // c = 1: every endpoint has its own router and two more links (injection and ejection).
    const cli::StaticRun linked = run("torus:c=1,dims=" + dims_text(dims), "alltoall");
    CHECK(linked.result.metrics.path_links.mean == approx(want + 2).epsilon(1e-12));
    CHECK(linked.result.metrics.path_links.min == 3);
  }
}

TEST_CASE("static engine: mesh all-to-all mean path length is the line-distance closed form") {
  const std::vector<std::vector<std::uint32_t>> shapes = {{5}, {2}, {4, 3}, {2, 3, 4}, {6, 1, 2}};
  for (const auto& dims : shapes) {
    INFO("dims " << dims_text(dims));
    const cli::StaticRun r = run("mesh:dims=" + dims_text(dims), "alltoall");
    CHECK(r.result.metrics.flows_routed == product(dims) * (product(dims) - 1));
    CHECK(r.result.metrics.path_links.mean == approx(mesh_mean_distance(dims)).epsilon(1e-12));
    const cli::StaticRun linked = run("mesh:c=1,dims=" + dims_text(dims), "alltoall");
    CHECK(linked.result.metrics.path_links.mean == approx(mesh_mean_distance(dims) + 2).epsilon(1e-12));
  }
}

TEST_CASE("static engine: fat tree with dmodk routes every shift permutation at full rate") {
  for (const std::string tree : {"fattree:k=2,n=3", "fattree:k=4,n=2", "fattree:k=3,n=3"}) {
    const cli::StaticRun probe = run(tree, "shift");
    const std::uint32_t n = probe.setup.topology->network().num_endpoints();
    for (std::uint32_t s = 1; s < n; s += (n > 10 ? 5 : 1)) {
      INFO(tree << " shift " << s);
      const cli::StaticRun r = run(tree, "shift:s=" + std::to_string(s), "dmodk");
      const StaticMetrics& m = r.result.metrics;
      CHECK(m.flows_routed == n);
      CHECK(m.rate_gbps.min == approx(kGbps));
      CHECK(m.rate_gbps.max == approx(kGbps));
      CHECK(m.aggregate_nonrestricted_gbps == approx(n * kGbps));
      CHECK(m.nonrestricted_normalised == approx(1.0));
      CHECK(m.utilisation.max <= 1.0 + 1e-9);
    }
  }
}

TEST_CASE("static engine: all-to-one is limited by the links into the root") {
  SUBCASE("fat tree: the root's one access link") {
    const cli::StaticRun r = run("fattree:k=4,n=2", "alltoone:root=5");
    const StaticMetrics& m = r.result.metrics;
    CHECK(m.flows_routed == 15);
    CHECK(m.aggregate_nonrestricted_gbps == approx(kGbps));
    CHECK(m.rate_gbps.min == approx(kGbps / 15));
    CHECK(m.rate_gbps.jain == approx(1.0));
    CHECK(m.aggregate_restricted_gbps == approx(kGbps));
  }
  SUBCASE("direct ring of 8: two links into the root, 4 and 3 flows behind them") {
    const cli::StaticRun r = run("torus:dims=8", "alltoone:root=3");
    const StaticMetrics& m = r.result.metrics;
    CHECK(m.flows_routed == 7);
    CHECK(m.aggregate_nonrestricted_gbps == approx(2 * kGbps));
    CHECK(m.rate_gbps.min == approx(kGbps / 4));
    CHECK(m.rate_gbps.max == approx(kGbps / 3));
    CHECK(m.aggregate_restricted_gbps == approx(7 * kGbps / 4));
  }
  SUBCASE("torus with c=1: the root's ejection link") {
    const cli::StaticRun r = run("torus:dims=3x3,c=1", "alltoone:root=0");
    CHECK(r.result.metrics.aggregate_nonrestricted_gbps == approx(kGbps));
  }
}

TEST_CASE("static engine: bisection traffic never exceeds the capacity of the cut between the halves") {
  struct Case {
    std::string topology, routing;
  };
  const std::vector<Case> cases = {{"torus:dims=4x6", ""},        {"torus:dims=8", ""},
                                   {"mesh:dims=3x4", ""},         {"torus:dims=3x3", ""},
                                   {"torus:dims=4x4,c=1", ""},    {"fattree:k=4,n=2", ""},
                                   {"thintree:k=4,kp=1,n=2", ""}, {"fattree:k=2,n=3", "random-up"}};
  for (const auto& c : cases)
    for (const std::string halves : {"split", "random"})
      for (const std::string mode : {"pairs", "all"}) {
        INFO(c.topology << " halves=" << halves << " mode=" << mode);
        cli::StaticConfig cfg = config(c.topology, "bisection:halves=" + halves + ",mode=" + mode, c.routing);
        cfg.network.seed = 11;
        const cli::StaticRun r = run(cfg);
        const Network& net = r.setup.topology->network();
        const std::uint32_t n = net.num_endpoints();
        const auto half = workloads::bisection_halves(
            n, halves == "split" ? workloads::BisectionHalves::Split : workloads::BisectionHalves::Random, cfg.network.seed);
        // The pattern's flows all cross between the halves as bisection_halves() says.
        double sent[2] = {0, 0};
        for (FlowId f = 0; f < r.flows.size(); ++f) {
          const auto hs = half[r.flows.src[f]], hd = half[r.flows.dst[f]];
          REQUIRE(hs != workloads::kIdleHalf);
          REQUIRE(hd == 1 - hs);
          sent[hs] += r.result.flow_rate_gbps[f];
        }
        CHECK(sent[0] + sent[1] == approx(r.result.metrics.aggregate_nonrestricted_gbps));
        // Cut: vertices of half-0 endpoints on side 0, of half-1 endpoints on side 1; switches that host
        // no endpoint go to side `s` (both choices give a valid cut, take the smaller).
        std::vector<int> side_of_endpoint_vertex(net.num_vertices(), -1);
        for (EndpointId e = 0; e < n; ++e)
          if (half[e] != workloads::kIdleHalf) side_of_endpoint_vertex[net.endpoint_vertex(e)] = half[e];
        double cut[2] = {1e300, 1e300};  // cut[h]: capacity of links from side h to side 1-h
        for (int switch_side = 0; switch_side < 2; ++switch_side) {
          double across[2] = {0, 0};
          auto side = [&](VertexId v) {
            return side_of_endpoint_vertex[v] >= 0 ? side_of_endpoint_vertex[v] : switch_side;
          };
          for (VertexId u = 0; u < net.num_vertices(); ++u)
            for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l)
              if (side(u) != side(net.target(l))) across[side(u)] += net.capacity_gbps(l);
          cut[0] = std::min(cut[0], across[0]);
          cut[1] = std::min(cut[1], across[1]);
        }
        CHECK(sent[0] <= cut[0] * (1 + 1e-9));
        CHECK(sent[1] <= cut[1] * (1 + 1e-9));
        if (net.kind(net.endpoint_vertex(0)) == VertexKind::Endpoint) {
          CHECK(r.result.metrics.aggregate_nonrestricted_gbps <= n * kGbps * (1 + 1e-9));
        }
        if (halves == "split" && c.topology == "torus:dims=4x6") {
          // Ids < 12 are the rows 0..2 of the last (largest, even) dimension: the minimum bisection.
          CHECK(fact(r, "bisection_cables") == 8);
          CHECK(cut[0] == approx(8 * kGbps));
          CHECK(r.result.metrics.aggregate_nonrestricted_gbps <= 2 * fact(r, "bisection_cables") * kGbps * (1 + 1e-9));
        }
        if (halves == "split" && c.topology == "torus:dims=8") {
          CHECK(cut[0] == approx(2 * kGbps));
          CHECK(r.result.metrics.aggregate_nonrestricted_gbps <= 4 * kGbps * (1 + 1e-9));
        }
      }
}

TEST_CASE(
    "static engine: uniform traffic stays within the injection capacity with a Jain index above 0 and at most 1") {
  for (const std::string topology : {"torus:dims=4x4x4,c=1", "torus:dims=5x3"}) {
    for (const std::string pattern : {"uniform", "uniform:flows_per_endpoint=4"}) {
      if (topology == "torus:dims=5x3" && pattern != "uniform") continue;  // direct: one flow each keeps the bound
      INFO(topology << " " << pattern);
      const cli::StaticRun r = run(topology, pattern);
      const StaticMetrics& m = r.result.metrics;
      const double n = r.setup.topology->network().num_endpoints();
      CHECK(m.injection_capacity_gbps == approx(n * kGbps));
      CHECK(m.aggregate_nonrestricted_gbps > 0);
      CHECK(m.aggregate_nonrestricted_gbps <= m.injection_capacity_gbps * (1 + 1e-9));
      CHECK(m.nonrestricted_normalised <= 1 + 1e-9);
      CHECK(m.aggregate_restricted_gbps <= m.aggregate_nonrestricted_gbps * (1 + 1e-12));
      CHECK(m.rate_gbps.jain > 0);
      CHECK(m.rate_gbps.jain <= 1 + 1e-12);
      CHECK(m.utilisation.max <= 1 + 1e-6);
      check_counts_add_up(m);
      // Per-link loads add up to the per-flow rates times their path lengths.
      double link_sum = 0, flow_sum = 0;
      for (double x : r.result.link_load_gbps) link_sum += x;
      for (FlowId f = 0; f < r.flows.size(); ++f) flow_sum += r.result.flow_rate_gbps[f] * r.result.flow_path_links[f];
      CHECK(link_sum == approx(flow_sum).epsilon(1e-6));
    }
  }
}

TEST_CASE("static engine: results do not depend on the thread count and follow the seed") {
  // More flows than one routing chunk (4096), so several threads really share the work.
  struct Case {
    std::string topology, pattern, routing;
  };
  const std::vector<Case> cases = {{"torus:dims=4x4x4,c=1", "uniform:flows_per_endpoint=80", "bfs"},
                                   {"torus:dims=4x4x4", "uniform:flows_per_endpoint=80", "dor"},
                                   {"fattree:k=4,n=3", "uniform:flows_per_endpoint=80", "random-up"},
                                   {"fattree:k=4,n=3", "uniform:flows_per_endpoint=80", "ecmp"},
                                   {"torus:dims=4x4x4,c=1", "uniform:flows_per_endpoint=80", "ksp:k=4"}};
  for (const auto& c : cases) {
    INFO(c.topology << " " << c.routing);
    cli::StaticConfig cfg = config(c.topology, c.pattern, c.routing);
    cfg.network.seed = 5;
    cfg.network.failures = "3";
    const cli::StaticRun one = run(cfg);
    cfg.threads = 2;
    const cli::StaticRun two = run(cfg);
    const cli::StaticRun again = run(cfg);
    CHECK(one.threads_used == 1);
    CHECK(two.threads_used == 2);
    REQUIRE(one.flows.size() > 4096);
    check_identical(one, two);
    check_identical(two, again);
    cfg.network.seed = 6;
    const cli::StaticRun other = run(cfg);
    CHECK(other.flows.dst != one.flows.dst);
    CHECK(other.result.flow_rate_gbps != one.result.flow_rate_gbps);
    CHECK(other.setup.failures.failed_links != one.setup.failures.failed_links);
  }
}

TEST_CASE("static engine: the number of failed cables follows --failures") {
  // torus 4x4x4 direct: 3 * 64 = 192 cables, all switch-to-switch.
  struct Case {
    std::string failures;
    std::uint64_t want;
  };
  for (const Case& c : {Case{"10%", 19}, Case{"0.1", 19}, Case{"25%", 48}, Case{"7", 7}, Case{"0", 0}, Case{"0%", 0},
                        Case{"100%", 192}}) {
    INFO("--failures " << c.failures);
    cli::StaticConfig cfg = config("torus:dims=4x4x4", "shift");
    cfg.network.failures = c.failures;
    const cli::StaticRun r = run(cfg);
    const StaticMetrics& m = r.result.metrics;
    CHECK(r.setup.failures.failed_links.size() == c.want);
    CHECK(m.links_down == 2 * c.want);
    CHECK(m.links_up == 384 - 2 * c.want);
    check_counts_add_up(m);
    if (c.want > 0) CHECK(r.setup.failures.cables_in_scope == 192);
    if (c.want == 0) CHECK(m.flows_unroutable == 0);
    if (c.want == 192) CHECK(m.flows_routed == 0);
  }
  SUBCASE("scope: network excludes endpoint cables, all includes them") {
    // fattree k=4, n=2: 16 endpoint cables and 16 switch-to-switch cables.
    cli::StaticConfig cfg = config("fattree:k=4,n=2", "shift");
    cfg.network.failures = "50%";
    const cli::StaticRun net_scope = run(cfg);
    CHECK(net_scope.setup.failures.cables_in_scope == 16);
    CHECK(net_scope.setup.failures.failed_links.size() == 8);
    const Network& net = net_scope.setup.topology->network();
    for (LinkId l : net_scope.setup.failures.failed_links) {
      CHECK(net.kind(net.target(l)) == VertexKind::Switch);
      CHECK(net.kind(net.source(l)) == VertexKind::Switch);
    }
    cfg.network.failure_scope = "all";
    const cli::StaticRun all_scope = run(cfg);
    CHECK(all_scope.setup.failures.cables_in_scope == 32);
    CHECK(all_scope.setup.failures.failed_links.size() == 16);
  }
  SUBCASE("more failures than cables, or a bad value, is an input error") {
    cli::StaticConfig cfg = config("torus:dims=4x4", "shift");
    cfg.network.failures = "33";  // 32 cables
    CHECK_THROWS_AS(run(cfg), InputError);
    cfg.network.failures = "32";
    CHECK(run(cfg).result.metrics.flows_routed == 0);
    for (const std::string bad : {"150%", "abc", "-3", "1.5"}) {
      cfg.network.failures = bad;
      CHECK_THROWS_AS(run(cfg), InputError);
    }
    cfg.network.failures = "1";
    cfg.network.failure_scope = "switches";
    CHECK_THROWS_AS(run(cfg), InputError);
  }
}

TEST_CASE("static engine: DOR drops exactly the flows whose path crosses a failed cable") {
  cli::StaticConfig cfg = config("torus:dims=4x4x2,c=1", "alltoall", "dor");
  cfg.stream = "off";  // per-flow paths and rates are checked
  cfg.keep_paths = true;
  cfg.network.failure_scope = "all";
  const cli::StaticRun healthy = run(cfg);
  cfg.network.failures = "10%";
  const cli::StaticRun failed = run(cfg);
  REQUIRE(!failed.setup.failures.failed_links.empty());
  const Network& net = failed.setup.topology->network();
  const PathTable& paths = healthy.result.paths;
  std::uint64_t crossing = 0;
  for (FlowId f = 0; f < healthy.flows.size(); ++f) {
    bool hits_failure = false;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v)
      for (LinkId l : paths.links(v)) hits_failure = hits_failure || !net.up(l);
    crossing += hits_failure;
    CHECK(failed.result.paths.routed(f) == !hits_failure);
    if (hits_failure) CHECK(failed.result.flow_rate_gbps[f] == 0.0);
  }
  const StaticMetrics& m = failed.result.metrics;
  CHECK(crossing > 0);
  CHECK(m.flows_unroutable == crossing);
  check_counts_add_up(m);
}

TEST_CASE("static engine: BFS on a failed torus routes every flow that is still connected on a shortest path") {
  SUBCASE("ring of 8 with two failed cables: the two arcs cannot reach each other") {
    cli::StaticConfig cfg = config("torus:dims=8", "alltoall", "bfs");
    cfg.network.failures = "2";
    const cli::StaticRun r = run(cfg);
    const Network& net = r.setup.topology->network();
    REQUIRE(r.setup.failures.failed_links.size() == 2);
    // The arcs have a and 8 - a routers; 2 a (8 - a) ordered pairs are split.
    const auto dist = test::bfs_distances(net, 0);
    const auto a =
        static_cast<std::uint64_t>(std::count_if(dist.begin(), dist.end(), [](std::uint32_t x) { return x != kNone; }));
    CHECK(a >= 1);
    CHECK(a <= 7);
    const DistanceReport d = DistanceAnalysis().run(net);
    CHECK(d.disconnected_pairs == 2ULL * a * (8 - a));
    CHECK(r.result.metrics.flows_unroutable == d.disconnected_pairs);
    check_counts_add_up(r.result.metrics);
  }
  SUBCASE("4x4 torus, 40% of the cables failed") {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      cli::StaticConfig cfg = config("torus:dims=4x4", "alltoall", "bfs");
      cfg.network.failures = "40%";
      cfg.keep_paths = true;
      cfg.network.seed = seed;
      const cli::StaticRun r = run(cfg);
      const Network& net = r.setup.topology->network();
      std::uint64_t disconnected = 0;
      for (FlowId f = 0; f < r.flows.size(); ++f) {
        const auto dist = test::bfs_distances(net, net.endpoint_vertex(r.flows.src[f]));
        const std::uint32_t want = dist[net.endpoint_vertex(r.flows.dst[f])];
        disconnected += want == kNone;
        INFO("seed " << seed << " flow " << r.flows.src[f] << "->" << r.flows.dst[f]);
        CHECK(r.result.paths.routed(f) == (want != kNone));
        if (want != kNone) CHECK(r.result.flow_path_links[f] == static_cast<float>(want));
      }
      CHECK(r.result.metrics.flows_unroutable == disconnected);
      CHECK(DistanceAnalysis().run(net).disconnected_pairs == disconnected);
      check_counts_add_up(r.result.metrics);
    }
  }
}

TEST_CASE("static engine: self flows are counted apart as neither routed nor unroutable") {
  const auto& p = plugins();
  auto topology = p.topologies.create(Spec::parse("torus:dims=3x3", "topology"), LinkDefaults{});
  auto routing = p.routings.create(Spec::parse("dor", "routing"), *topology);
  FlowSet flows;
  flows.add(0, 0);
  flows.add(0, 1);
  flows.add(4, 4);
  flows.add(1, 0);
  flows.add(2, 1);
  const StaticResult r = StaticEngine(topology->network(), *routing).run(flows, StaticOptions{});
  CHECK(r.metrics.flows == 5);
  CHECK(r.metrics.flows_self == 2);
  CHECK(r.metrics.flows_routed == 3);
  CHECK(r.metrics.flows_unroutable == 0);
  CHECK(r.flow_rate_gbps[0] == 0.0);
  CHECK(r.flow_rate_gbps[2] == 0.0);
  // On the ring of dimension 0, 0->1 takes link 0->1, 1->0 link 1->0 and 2->1 link 2->1 (shorter way
  // down): every flow is alone on its one link.
  CHECK(r.flow_rate_gbps[1] == approx(kGbps));
  CHECK(r.flow_rate_gbps[3] == approx(kGbps));
  CHECK(r.flow_rate_gbps[4] == approx(kGbps));
  CHECK(r.metrics.aggregate_nonrestricted_gbps == approx(3 * kGbps));
}
