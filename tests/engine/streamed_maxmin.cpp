// The streamed solve (engine/flow/streamed_maxmin.hpp) against the engine that holds every flow:
// the same max-min rates on all-to-all kinds, single- and multipath routings, failures, with one
// pass and with a buffer of 0 (every level found by a pass); and the counted-value summaries
// against summarize().
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "cli/static_run.hpp"
#include "core/error.hpp"
#include "core/stats.hpp"

using namespace interflow;

namespace {

const cli::Plugins& plugins() {
  static const cli::Plugins instance;
  return instance;
}

cli::StaticRun run(const std::string& topology, const std::string& routing, const std::string& pattern,
                   const std::string& stream, double buffer_mib = 64, const std::string& failures = "",
                   unsigned threads = 1, bool predict = true, double sample_weight = 4096) {
  cli::StaticConfig c;
  c.network.topology = topology;
  c.network.routing = routing;
  if (!failures.empty()) {
    c.network.failures = failures;
    c.network.failure_scope = "all";
  }
  c.pattern = pattern;
  c.stream = stream;
  c.stream_buffer_mib = buffer_mib;
  c.threads = threads;
  c.stream_predict = predict;
  c.stream_sample_weight = sample_weight;
  return cli::run_static(plugins(), c);
}

void check_summary(const Summary& held, const Summary& streamed) {
  CHECK(streamed.count == held.count);
  CHECK(streamed.min == approx(held.min).epsilon(1e-12));
  CHECK(streamed.max == approx(held.max).epsilon(1e-12));
  CHECK(streamed.median == approx(held.median).epsilon(1e-12));
  CHECK(streamed.mean == approx(held.mean).epsilon(1e-12));
  CHECK(streamed.sum == approx(held.sum).epsilon(1e-12));
  CHECK(streamed.jain == approx(held.jain).epsilon(1e-12));
}

// Every metric of the streamed run equals the held run's, up to the order of floating-point sums.
void check_same(const cli::StaticRun& held, const cli::StaticRun& streamed) {
  REQUIRE(!held.streamed);
  REQUIRE(streamed.streamed);
  const flow::StaticMetrics& h = held.result.metrics;
  const flow::StaticMetrics& s = streamed.result.metrics;
  CHECK(s.flows == h.flows);
  CHECK(s.flows_self == h.flows_self);
  CHECK(s.flows_routed == h.flows_routed);
  CHECK(s.flows_unroutable == h.flows_unroutable);
  CHECK(s.path_variables == h.path_variables);
  check_summary(h.rate_gbps, s.rate_gbps);
  CHECK(s.path_links.mean == approx(h.path_links.mean).epsilon(1e-12));
  CHECK(s.path_links.min == h.path_links.min);
  CHECK(s.path_links.max == h.path_links.max);
  CHECK(s.aggregate_restricted_gbps == approx(h.aggregate_restricted_gbps).epsilon(1e-12));
  CHECK(s.paths_per_link.max == h.paths_per_link.max);
  CHECK(s.paths_per_link.mean == h.paths_per_link.mean);
  CHECK(s.utilisation.max == approx(h.utilisation.max).epsilon(1e-12));
  CHECK(s.utilisation.mean == approx(h.utilisation.mean).epsilon(1e-12));
  CHECK(streamed.result.link_paths == held.result.link_paths);
  REQUIRE(streamed.result.link_load_gbps.size() == held.result.link_load_gbps.size());
  for (std::size_t l = 0; l < held.result.link_load_gbps.size(); ++l) {
    INFO("link " << l);
    CHECK(streamed.result.link_load_gbps[l] == approx(held.result.link_load_gbps[l]).epsilon(1e-12));
  }
  CHECK(streamed.result.flow_rate_gbps.empty());
  CHECK(streamed.flows.size() == 0);
}

}  // namespace

TEST_CASE("streamed max-min: the same rates as the held solve in many passes or in one") {
  struct Case {
    std::string topology, routing, pattern, failures;
  };
  const std::vector<Case> cases = {
      {"torus:dims=4x4x2,c=1", "dor", "alltoall", ""},
      {"torus:dims=5x3", "dor", "alltoall", ""},
      {"torus:dims=6x5", "dor", "manyalltoall:group=7", ""},
      {"torus:dims=4x4x2,c=1", "dor", "alltoall", "10%"},  // unroutable flows
      {"mesh:dims=4x3,c=2", "dor", "alltoall", ""},        // two endpoints per router: paths with no link
      {"fattree:k=4,n=3", "dmodk", "alltoall", ""},
      {"fattree:k=4,n=3", "random-up", "alltoall", ""},  // per-flow random streams must repeat on every pass
      {"fattree:k=4,n=3", "updown", "alltoall", ""},     // multipath: split weights
      {"fattree:k=3,n=3", "dmodk", "manyalltoall:group=5", ""},
  };
  for (const Case& c : cases) {
    INFO(c.topology << " " << c.routing << " " << c.pattern << " failures " << c.failures);
    const cli::StaticRun held = run(c.topology, c.routing, c.pattern, "off", 64, c.failures);
    const cli::StaticRun one_pass = run(c.topology, c.routing, c.pattern, "on", 64, c.failures);
    CHECK(one_pass.result.metrics.stream_passes == 1);
    CHECK(one_pass.result.metrics.stream_residual_variables > 0);
    CHECK(one_pass.result.metrics.stream_residual_variables <= held.result.metrics.path_variables);
    check_same(held, one_pass);
    const cli::StaticRun passes = run(c.topology, c.routing, c.pattern, "on", 0, c.failures, 2);
    CHECK(passes.result.metrics.stream_residual_variables == 0);
    CHECK(passes.result.metrics.stream_passes >= 2);
    CHECK(passes.result.metrics.stream_levels >= 1);
    check_same(held, passes);
  }
}

TEST_CASE("streamed max-min: predicted levels give the same rates in no more passes") {
  // A buffer of 0 makes every level come from a pass or a prediction. Most of these predictions
  // fail part-way (multipath, failures, meshes), which leaves pending flows for the next pass.
  const std::vector<std::vector<std::string>> cases = {
      {"torus:dims=4x4x4", "dor", "alltoall", ""},          {"torus:dims=8x8x4", "dor", "alltoall", ""},          {"torus:dims=6x5x3", "dor", "alltoall", ""},
      {"torus:dims=4x4x2,c=1", "dor", "alltoall", "10%"},   {"mesh:dims=5x3,c=2", "dor", "alltoall", ""},
      {"fattree:k=4,n=3", "updown", "alltoall", ""},        {"fattree:k=4,n=3", "random-up", "alltoall", ""},
      {"torus:dims=6x5", "dor", "manyalltoall:group=7", ""},
      // Multipath flows whose variables cross different groups first are not closable: when every
      // group is accepted no link is left to saturate, and the next pass closes them.
      {"fattree:k=6,n=2", "updown", "alltoall", "5%"},     {"fattree:k=4,n=3", "treevaliant", "alltoall", "5%"}};
  for (const auto& c : cases) {
    INFO(c[0] << " " << c[1] << " " << c[2] << " failures " << c[3]);
    const cli::StaticRun held = run(c[0], c[1], c[2], "off", 64, c[3]);
    const cli::StaticRun plain = run(c[0], c[1], c[2], "on", 0, c[3], 2, false);
    const cli::StaticRun predicted = run(c[0], c[1], c[2], "on", 0, c[3], 2, true);
    // A sample aiming at 16 paths per link: so noisy that its groups mix links of different shares.
    const cli::StaticRun sampled = run(c[0], c[1], c[2], "on", 0, c[3], 2, true, 16);
    check_same(held, plain);
    check_same(held, predicted);
    check_same(held, sampled);
    CHECK(plain.result.metrics.stream_predicted_levels == 0);
    CHECK(plain.result.metrics.stream_sample_flows == 0);
    CHECK(predicted.result.metrics.stream_sample_flows == 0);  // 4096 paths per link: none of these
    CHECK(predicted.result.metrics.stream_passes <= plain.result.metrics.stream_passes);
    CHECK(sampled.result.metrics.stream_passes <= plain.result.metrics.stream_passes);
  }
  // The sample is taken when it can aim at 16 paths per link with 1/4 of the flows or fewer.
  CHECK(run("torus:dims=8x8x8", "dor", "alltoall", "on", 0, "", 2, true, 16).result.metrics.stream_sample_flows > 0);
  // 4x4x4 torus, DOR: 48 paths on each link up a ring, 16 down; the links up saturate first at
  // 100/48, then those down, as predicted by the first pass's order of shares: 2 passes instead of 3.
  // Of the 16 flows down an x link (one per pair of y and z offsets), the 12 that also go up in y or
  // z are frozen at 100/48; the other 4 share what they leave: (100 - 12 * 100/48) / 4 = 18.75.
  const cli::StaticRun plain = run("torus:dims=4x4x4", "dor", "alltoall", "on", 0, "", 1, false);
  const cli::StaticRun predicted = run("torus:dims=4x4x4", "dor", "alltoall", "on", 0, "", 1, true);
  CHECK(plain.result.metrics.stream_passes == 3);
  CHECK(predicted.result.metrics.stream_passes == 2);
  CHECK(predicted.result.metrics.stream_levels == 384);
  CHECK(predicted.result.metrics.stream_predicted_levels == 192);
  CHECK(predicted.result.metrics.rate_gbps.min == approx(100.0 / 48));
  CHECK(predicted.result.metrics.rate_gbps.max == approx((100.0 - 12 * 100.0 / 48) / 4));
}

TEST_CASE("streamed max-min: the slowest all-to-all flow on a ring gets capacity over the busiest link's paths") {
  // Equal capacities and weights: the link with the most paths has the smallest fair share, so it
  // saturates first and its flows, the slowest, get capacity / paths.
  const cli::StaticRun r = run("torus:dims=8", "dor", "alltoall", "on", 0);
  const flow::StaticMetrics& m = r.result.metrics;
  CHECK(m.flows_routed == 56);
  CHECK(m.rate_gbps.min == approx(100.0 / m.paths_per_link.max));
  CHECK(m.stream_residual_variables == 0);
}

TEST_CASE("streamed max-min: --stream on is refused where the run cannot stream and says why") {
  CHECK_THROWS_WITH_AS(run("torus:dims=4x4", "dor", "uniform", "on"), doctest::Contains("cannot be streamed"),
                       InputError);
  CHECK_THROWS_WITH_AS(run("torus:dims=4x4", "bfs", "alltoall", "on"), doctest::Contains("routes flows together"),
                       InputError);
  const cli::StaticRun automatic = run("torus:dims=4x4", "bfs", "alltoall", "auto");
  CHECK(!automatic.streamed);
  CHECK(automatic.stream_reason.find("routes flows together") != std::string::npos);
  CHECK(run("torus:dims=4x4", "dor", "alltoall", "auto").streamed);
}

TEST_CASE("counted summary: the same statistics as summarize() over the expanded sample") {
  const std::vector<std::vector<Counted>> samples = {
      {{3.0, 1}},
      {{2.0, 2}},
      {{5.0, 1}, {1.0, 1}},
      {{1.0, 3}, {2.0, 1}},
      {{1.0, 2}, {4.0, 2}},
      {{0.5, 4}, {0.25, 3}, {8.0, 1}, {0.5, 2}, {3.0, 0}},
      {{7.0, 1}, {1.0, 5}, {2.0, 5}},
  };
  for (auto sample : samples) {
    std::vector<double> expanded;
    for (const Counted& c : sample) expanded.insert(expanded.end(), c.count, c.value);
    const Summary want = summarize(expanded);
    const Summary got = summarize_counted(sample);
    INFO("size " << expanded.size());
    CHECK(got.count == want.count);
    CHECK(got.min == want.min);
    CHECK(got.max == want.max);
    CHECK(got.median == want.median);
    CHECK(got.mean == approx(want.mean).epsilon(1e-15));
    CHECK(got.jain == approx(want.jain).epsilon(1e-15));
  }
  std::vector<Counted> none;
  CHECK(summarize_counted(none).count == 0);
}
