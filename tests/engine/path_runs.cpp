// Run-coded paths (engine/maxmin/path_runs.hpp): decoding gives back exactly the encoded links, on
// edge cases and on the paths of real topologies and routings; the solver reading them gives
// bit-identical results to the solver reading the table; the static engine gives the same metrics
// and per-flow results with the table kept or freed.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cli/static_run.hpp"
#include "engine/maxmin/maxmin.hpp"
#include "engine/maxmin/path_runs.hpp"
#include "tests/support/maxmin_support.hpp"

using namespace interflow;
using maxmin::PathRuns;

namespace {

const cli::Plugins& plugins() {
  static const cli::Plugins instance;
  return instance;
}

struct Paths {
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  void add(const std::vector<LinkId>& path) {
    links.insert(links.end(), path.begin(), path.end());
    offsets.push_back(links.size());
  }
};

void check_round_trip(std::span<const std::uint64_t> offsets, std::span<const LinkId> links) {
  const PathRuns runs = PathRuns::encode(offsets, links);
  REQUIRE(runs.num_vars() == offsets.size() - 1);
  for (std::uint32_t v = 0; v < runs.num_vars(); ++v) {
    std::vector<LinkId> decoded;
    runs.for_each(v, [&](LinkId l) { decoded.push_back(l); });
    const std::vector<LinkId> want(links.begin() + static_cast<std::ptrdiff_t>(offsets[v]),
                                   links.begin() + static_cast<std::ptrdiff_t>(offsets[v + 1]));
    INFO("variable " << v);
    REQUIRE(decoded == want);
    CHECK(runs.length(v) == want.size());
    CHECK(runs.empty(v) == want.empty());
  }
}

struct Case {
  std::string topology, routing, pattern;
};

cli::StaticRun run_case(const Case& c, bool keep_paths) {
  cli::StaticConfig cfg;
  cfg.network.topology = c.topology;
  cfg.network.routing = c.routing;
  cfg.pattern = c.pattern;
  cfg.stream = "off";
  cfg.threads = 2;
  cfg.keep_paths = keep_paths;
  return cli::run_static(plugins(), cfg);
}
const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"torus:dims=8x8x4", "dor", "uniform:flows_per_endpoint=3"},
      {"torus:dims=6x5,c=2", "dor", "alltoall"},  // odd ring, two endpoints per router (paths with no link)
      {"fattree:k=8,n=3", "dmodk", "uniform:flows_per_endpoint=4"},
      {"fattree:k=8,n=3", "updown", "randperm"},  // multipath
      {"fattree:k=8,n=3", "random-up", "uniform:flows_per_endpoint=2"},
      {"dragonfly:a=4,p=2,h=2", "dfugal", "uniform:flows_per_endpoint=2"},
      {"jellyfish:N=40,k=9,r=6", "bfs", "uniform:flows_per_endpoint=2"},
  };
  return all;
}

}  // namespace

TEST_CASE("path runs: decoding gives back every link in order on edge cases") {
  Paths p;
  p.add({});                                                  // no link
  p.add({7});                                                 // one link
  p.add({0, 0, 0});                                           // repeated id (step 0)
  p.add({5, 11, 17, 23, 29, 3, 2, 1, 0});                     // a rising run, a jump back, a falling run
  p.add({0xfffffffeu, 0, 0xfffffffeu, 1});                    // the largest ids, steps of +-(2^32 - 2)
  p.add({100, 200, 300, 250, 200, 150, 151, 152, 153, 153});  // runs of every kind back to back
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 200; ++i) {
    std::vector<LinkId> path;
    const auto length = rng() % 40;
    LinkId l = static_cast<LinkId>(rng() % 1000000);
    for (std::uint64_t k = 0; k < length; ++k) {
      path.push_back(l);
      // mostly strides (runs), sometimes jumps
      l = rng() % 4 == 0 ? static_cast<LinkId>(rng() % 1000000) : l + static_cast<LinkId>(rng() % 3 * 6);
    }
    p.add(path);
  }
  check_round_trip(p.offsets, p.links);
  CHECK(PathRuns::encoded_bytes(std::span<const LinkId>{}) == 0);
  const std::vector<LinkId> rising{5, 11, 17, 23, 29};
  CHECK(PathRuns::encoded_bytes(rising) == 3);  // first link (step 5 from 0), then step 6 four times
}

TEST_CASE("path runs: routed paths of every kind of topology decode exactly and tori shrink") {
  for (const Case& c : cases()) {
    INFO(c.topology << " " << c.routing << " " << c.pattern);
    const cli::StaticRun run = run_case(c, true);
    const PathTable& table = run.result.paths;
    check_round_trip(table.var_offsets(), table.all_links());
    if (c.topology == "torus:dims=8x8x4") {
      std::uint64_t bytes = 0;
      for (std::uint32_t v = 0; v < table.num_vars(); ++v) bytes += PathRuns::encoded_bytes(table.links(v));
      CHECK(bytes * 2 < table.num_link_entries() * sizeof(LinkId));  // 5 links per path here; 80 at 1M: ~16x
    }
  }
}

TEST_CASE("path runs: the solver reading runs gives bit-identical results to the solver reading the table") {
  for (const Case& c : cases()) {
    INFO(c.topology << " " << c.routing << " " << c.pattern);
    const cli::StaticRun run = run_case(c, true);
    const PathTable& table = run.result.paths;
    const Network& net = run.setup.topology->network();
    std::vector<double> weight(table.num_vars());
    for (std::uint32_t v = 0; v < table.num_vars(); ++v) weight[v] = table.split(v) * (1.0 + v % 3);
    maxmin::MaxMinInput in;
    in.capacity_gbps = net.capacities();
    in.var_offsets = table.var_offsets();
    in.links = table.all_links();
    in.weight = weight;
    maxmin::MaxMinSolver from_table;
    from_table.run(in);
    const PathRuns runs = PathRuns::encode(table.var_offsets(), table.all_links());
    maxmin::MaxMinInput coded = in;
    coded.var_offsets = {};
    coded.links = {};
    coded.runs = &runs;
    maxmin::MaxMinSolver from_runs;
    from_runs.run(coded);
    test::check_identical_solves(from_runs, from_table);
  }
}

TEST_CASE("path runs: the static engine gives the same results with the path table kept or freed") {
  for (const Case& c : cases()) {
    INFO(c.topology << " " << c.routing << " " << c.pattern);
    const cli::StaticRun kept = run_case(c, true), freed = run_case(c, false);
    CHECK(kept.result.paths.num_flows() == kept.flows.size());
    CHECK(freed.result.paths.num_vars() == 0);  // freed before the solve
    CHECK(freed.result.flow_rate_gbps == kept.result.flow_rate_gbps);
    CHECK(freed.result.flow_path_links == kept.result.flow_path_links);
    CHECK(freed.result.flow_bottleneck == kept.result.flow_bottleneck);
    CHECK(freed.result.link_load_gbps == kept.result.link_load_gbps);
    CHECK(freed.result.link_paths == kept.result.link_paths);
    const flow::StaticMetrics &a = kept.result.metrics, &b = freed.result.metrics;
    CHECK(a.flows_routed == b.flows_routed);
    CHECK(a.path_variables == b.path_variables);
    CHECK(a.rate_gbps.sum == b.rate_gbps.sum);
    CHECK(a.rate_gbps.median == b.rate_gbps.median);
    CHECK(a.rate_gbps.jain == b.rate_gbps.jain);
    CHECK(a.path_links.mean == b.path_links.mean);
    CHECK(a.utilisation.mean == b.utilisation.mean);
    CHECK(a.solver_steps == b.solver_steps);
  }
}
