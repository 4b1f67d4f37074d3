#pragma once
// The static flow engine: every flow is active at once; each is routed, then the max-min fair rates
// of all flows are computed over the link capacities (see maxmin.hpp and manual/static-engine.md
// for the exact definition of every reported metric).
#include <cstdint>
#include <vector>

#include "core/flows.hpp"
#include "engine/maxmin/maxmin.hpp"
#include "core/network.hpp"
#include "core/paths.hpp"
#include "core/routing.hpp"
#include "core/stats.hpp"

#include "core/progress.hpp"

namespace interflow::flow {

struct StaticOptions {
  std::uint64_t seed = 1;
  // Injection capacity of an endpoint of a direct network (which has no link of its own); used
  // only to normalise throughputs.
  double direct_endpoint_gbps = 100.0;
  Progress* progress = nullptr;
  std::uint64_t max_path_bytes = 8ULL << 30;  // see RouteContext
  std::uint64_t stream_buffer_bytes = 64ULL << 20;  // streamed solve: see StreamedInput::buffer_bytes
  bool stream_predict = true;                        // and StreamedInput::predict
  double stream_sample_weight = 4096;                // and StreamedInput::sample_weight
  // true: StaticResult::paths holds the routed paths. false: the result has none, and if a run-coded
  // copy (engine/maxmin/path_runs.hpp) takes at most run_coding_limit() bytes the table is freed
  // before the solve, which reads the copy instead: a held run then needs far less memory where
  // routing walks link ids with constant strides (tori, meshes). Elsewhere (fat trees) the copy would
  // be about as large and slower to read, so the solve reads the table. Results are identical.
  bool keep_paths = true;
};

// The largest run-coded copy worth making: half of what the table's links and variable offsets take.
inline std::uint64_t run_coding_limit(std::uint64_t link_entries, std::uint64_t vars) {
  return (4 * link_entries + 8 * (vars + 1)) / 2;
}

struct StaticMetrics {
  std::uint64_t endpoints = 0;
  std::uint64_t flows = 0;       // given, including self flows
  std::uint64_t flows_self = 0;  // src == dst: not routed, not counted below
  std::uint64_t flows_routed = 0;
  std::uint64_t flows_unroutable = 0;  // no usable path (e.g. after failures)
  std::uint64_t path_variables = 0;    // sub-paths of all routed flows

  double aggregate_nonrestricted_gbps = 0;  // sum of the rates of routed flows
  double aggregate_restricted_gbps = 0;     // routed flows x slowest rate
  double injection_capacity_gbps = 0;       // sum over endpoints of their injection capacity
  double nonrestricted_normalised = 0;      // aggregate / injection capacity
  double restricted_normalised = 0;
  std::uint64_t switch_ports = 0;          // cables attached to switches, counted at each switch end
  double nonrestricted_per_port_gbps = 0;  // aggregate / switch_ports
  double restricted_per_port_gbps = 0;

  Summary rate_gbps;       // over routed flows (min, median, mean, max, Jain)
  Summary path_links;      // links traversed per routed flow (split-weighted for multipath)
  Summary paths_per_link;  // over every link that is up
  Summary utilisation;     // load / capacity over every link that is up
  std::uint64_t links_up = 0;
  std::uint64_t links_down = 0;
  double inrflow_bottleneck_throughput = 0;  // N(N-1)/max paths per link: INRFlow's figure (all-to-all)

  double route_seconds = 0;
  double solve_seconds = 0;
  std::uint64_t solver_steps = 0;
  std::uint64_t solver_refreshes = 0;  // stale heap keys recomputed
  std::uint64_t solver_links = 0;      // links the solver kept state for (those in use, or all)
  // Streamed solve only (0 when every flow was held): passes over the flows, links saturated by
  // them, and path variables left to the in-memory solve after the last pass.
  std::uint32_t stream_passes = 0;
  std::uint64_t stream_levels = 0;
  std::uint64_t stream_predicted_levels = 0;  // of stream_levels, by predictions that checked out
  std::uint64_t stream_sample_flows = 0;      // routed to predict the first pass
  double stream_sample_seconds = 0;
  std::uint64_t stream_residual_variables = 0;
  std::vector<double> stream_pass_seconds;       // per pass
  std::vector<std::uint64_t> stream_pass_flows;  // per pass: flows routed (still open)
};

// A streamed run (StaticEngine::run on a FlowStream) holds no flow: paths and the per-flow vectors
// are empty, and the metrics come from counted values (streamed_maxmin.hpp).
struct StaticResult {
  StaticMetrics metrics;
  PathTable paths;  // empty unless StaticOptions::keep_paths
  std::vector<double> flow_rate_gbps;     // per flow; 0 for unroutable and self flows
  std::vector<float> flow_path_links;     // per flow; split-weighted mean path length
  std::vector<LinkId> flow_bottleneck;    // per flow: the bottleneck of its first path (kNone if none)
  std::vector<std::uint32_t> link_paths;  // per link: number of path variables crossing it
  std::vector<double> link_load_gbps;     // per link: sum of the rates crossing it
};

class StaticEngine {
 public:
  StaticEngine(const Network& net, const Routing& routing) : net_(net), routing_(routing) {}
  // The engine keeps references: a temporary network or routing would dangle.
  StaticEngine(const Network&&, const Routing&) = delete;
  StaticEngine(const Network&, const Routing&&) = delete;
  StaticResult run(const FlowSet& flows, const StaticOptions& options) const;
  // The streamed solve: flows generated and routed again on each pass, never held. Needs a routing
  // that routes each flow on its own (a PerFlowRouting); throws std::logic_error otherwise.
  bool can_stream() const;
  StaticResult run(const FlowStream& flows, const StaticOptions& options) const;

 private:
  // What both kinds of run derive alike: the aggregates from the rate summary, and the per-link and
  // per-endpoint metrics from link_paths and link_load_gbps.
  void add_shared_metrics(StaticResult& result, const StaticOptions& options) const;
  // The held run's steps: what the per-flow results need of the paths, taken before the solve (the
  // table may be freed then); the solve; the per-flow rates from the variables' rates.
  struct FlowVars;
  FlowVars describe_flows(const FlowSet& flows, StaticResult& result) const;
  maxmin::MaxMinSolver solve_held(FlowVars& vars, StaticResult& result, const StaticOptions& options) const;
  void add_flow_rates(const FlowSet& flows, const FlowVars& vars, const maxmin::MaxMinSolver& solver,
                      StaticResult& result, const StaticOptions& options) const;

  const Network& net_;
  const Routing& routing_;
};

}  // namespace interflow::flow
