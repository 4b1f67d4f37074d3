// The static run's memory estimate (engine/flow/memory_estimate.hpp): the sampled paths against the
// path table a run really builds, the refusal of a run that cannot fit, and --memory-estimate
// stopping before routing.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "cli/static_run.hpp"
#include "core/error.hpp"
#include "engine/flow/memory_estimate.hpp"
#include "engine/flow/static_engine.hpp"
#include "engine/maxmin/maxmin.hpp"
#include "engine/maxmin/path_runs.hpp"

using namespace interflow;

namespace {

const cli::Plugins& plugins() {
  static const cli::Plugins instance;
  return instance;
}

cli::StaticConfig config(const std::string& topology, const std::string& routing, const std::string& pattern) {
  cli::StaticConfig c;
  c.network.topology = topology;
  c.network.routing = routing;
  c.pattern = pattern;
  c.threads = 1;
  c.keep_paths = true;  // the estimate is compared with the path table
  return c;
}

}  // namespace

TEST_CASE("memory estimate: the sampled paths scale to the path table the run builds") {
  struct Case {
    std::string topology, routing, pattern;
  };
  for (const Case& c : {Case{"torus:dims=16x16x16", "dor", "uniform:flows_per_endpoint=4"},
                        Case{"fattree:k=8,n=3", "updown", "uniform:flows_per_endpoint=8"},  // multipath
                        Case{"fattree:k=8,n=3", "random-up", "randperm"},
                        Case{"torus:dims=12x12", "bfs", "uniform:flows_per_endpoint=40"}}) {  // routes flows together
    INFO(c.topology << " " << c.routing << " " << c.pattern);
    const cli::StaticRun run = cli::run_static(plugins(), config(c.topology, c.routing, c.pattern));
    const flow::MemoryEstimate& m = run.memory;
    REQUIRE(run.solved);
    CHECK(!m.streamed);
    CHECK(m.flows == run.result.metrics.flows);
    CHECK(m.sampled == std::min<std::uint64_t>(m.flows, c.routing == "bfs" ? flow::kSampleTogether : flow::kSample));
    const double vars = static_cast<double>(run.result.paths.num_vars());
    const double entries = static_cast<double>(run.result.paths.num_link_entries());
    const double n = static_cast<double>(m.flows);
    CHECK(m.vars_per_flow * n == approx(vars).epsilon(0.05));
    CHECK(m.links_per_flow * n == approx(entries).epsilon(0.05));
    // The path table's arrays, as counted by the estimate, against their real sizes.
    CHECK(static_cast<double>(m.paths) ==
          approx(static_cast<double>(path_bytes(run.result.paths.num_link_entries(), run.result.paths.num_vars()) +
                                     4 * (run.result.paths.num_flows() + 1)))
              .epsilon(0.05));
    CHECK(m.network == run.setup.topology->network().memory_bytes());
    CHECK(m.peak() > m.network + m.paths);
    CHECK(m.path_runs == 0);
    // Without the table kept, the run-coded copy that replaces it in the solve, against its real size.
    const Network& net = run.setup.topology->network();
    const flow::MemoryEstimate freed =
        flow::estimate_held_run(net, *run.setup.routing, run.flows, run.config.network.seed, false);
    // The engine frees the table only when the copy is small enough; the estimate decides alike.
    const auto runs = maxmin::PathRuns::encode(run.result.paths.var_offsets(), run.result.paths.all_links());
    const bool table_used =
        runs.memory_bytes() > flow::run_coding_limit(run.result.paths.num_link_entries(), run.result.paths.num_vars());
    CHECK(freed.paths_kept == table_used);
    if (table_used)
      CHECK(freed.path_runs == 0);
    else
      CHECK(static_cast<double>(freed.path_runs) == approx(static_cast<double>(runs.memory_bytes())).epsilon(0.05));
    CHECK(freed.paths == m.paths);
  }
}

TEST_CASE("memory estimate: a streamed all-to-all needs a small fraction of the held one") {
  cli::StaticConfig c = config("fattree:k=16,n=3", "dmodk", "alltoall");
  c.memory_estimate_only = true;
  c.stream = "off";
  const cli::StaticRun held = cli::run_static(plugins(), c);
  c.stream = "auto";
  const cli::StaticRun streamed = cli::run_static(plugins(), c);
  CHECK(!held.solved);
  CHECK(!streamed.solved);
  CHECK(streamed.memory.streamed);
  CHECK(streamed.memory.paths == 0);
  const std::uint64_t n = 4096;  // 16-ary 3-tree
  CHECK(held.memory.flows == n * (n - 1));
  CHECK(held.memory.vars_per_flow == 1);
  CHECK(held.memory.paths - 4 * (held.memory.flows + 1) ==
        path_bytes(static_cast<std::uint64_t>(std::ceil(held.memory.links_per_flow * n * (n - 1))), n * (n - 1)));
  CHECK(streamed.memory.peak() - streamed.memory.process < (held.memory.peak() - held.memory.process) / 2);
}

TEST_CASE("memory estimate: a run that would not fit is refused with the figures unless the check is off") {
  cli::StaticConfig c = config("torus:dims=16x16x16", "dor", "uniform:flows_per_endpoint=4");
  c.memory_available_bytes = 1 << 20;
  CHECK_THROWS_WITH_AS(cli::run_static(plugins(), c), doctest::Contains("GiB available (MemAvailable)"), InputError);
  CHECK_THROWS_WITH_AS(cli::run_static(plugins(), c), doctest::Contains("--memory-check off"), InputError);
  c.memory_check = false;
  CHECK(cli::run_static(plugins(), c).solved);
  c.memory_check = true;
  c.memory_available_bytes = 64ULL << 30;
  const cli::StaticRun fits = cli::run_static(plugins(), c);
  CHECK(fits.solved);
  CHECK(fits.memory_available_bytes == 64ULL << 30);
}

TEST_CASE("memory estimate: weights whose sums may round add the solver's last sums per link") {
  // Paths split in thirds (three of a fat tree's paths each): with weights of 1, every weight is a
  // multiple of the float 1/3's lowest bit and the sums stay exact; with weights of 0.1 (another 24
  // bits) they may round, and the solver keeps 8 bytes per link more (maxmin.hpp).
  const cli::StaticRun run =
      cli::run_static(plugins(), config("fattree:k=8,n=3", "ecmp:mode=path,max_paths=3", "uniform:flows_per_endpoint=4"));
  REQUIRE(run.solved);
  const Network& net = run.setup.topology->network();
  const flow::MemoryEstimate& plain = run.memory;
  CHECK(plain.exact_weight_sums);
  CHECK(plain.split_unit_exponent == maxmin::lowest_bit_exponent(static_cast<float>(1.0 / 3)));
  FlowSet weighted = run.flows;
  weighted.weight.assign(weighted.size(), 0.1f);
  const flow::MemoryEstimate heavy = flow::estimate_held_run(net, *run.setup.routing, weighted, run.config.network.seed, true);
  CHECK(!heavy.exact_weight_sums);
  const std::uint64_t solved_links = heavy.used_links <= net.num_links() - net.num_links() / 10 ? heavy.used_links : net.num_links();
  CHECK(heavy.solver == plain.solver + 8 * solved_links);
  FlowSet halves = run.flows;
  halves.weight.assign(halves.size(), 0.5f);
  CHECK(flow::estimate_held_run(net, *run.setup.routing, halves, run.config.network.seed, true).exact_weight_sums);
  // Flows that give no variable (each to itself): nothing sampled, nothing counted (the sum of the
  // units is not taken: it would overflow with weights whose lowest bit is 2 or above).
  FlowSet selfs;
  for (EndpointId e = 0; e < 8; ++e) selfs.add(e, e);
  selfs.weight.assign(selfs.size(), 2.0f);
  const flow::MemoryEstimate none = flow::estimate_held_run(net, *run.setup.routing, selfs, 1, true);
  CHECK(none.split_unit_exponent == std::numeric_limits<int>::max());
  CHECK(none.exact_weight_sums);
}
