#include "engine/flow/static_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <stdexcept>

#include "core/progress.hpp"
#include "core/system.hpp"
#include "engine/flow/streamed_maxmin.hpp"
#include "engine/maxmin/path_runs.hpp"

namespace interflow::flow {

namespace {

double injection_capacity(const Network& net, EndpointId e, double direct_gbps) {
  const VertexId v = net.endpoint_vertex(e);
  if (net.kind(v) != VertexKind::Endpoint) return direct_gbps;
  double sum = 0;
  for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) sum += net.capacity_gbps(l);
  return sum;
}

}  // namespace

// What the per-flow results need of the paths: each flow's variables and their splits, read from the
// table while it lives and from copies made before it is freed for a run-coded solve; and the
// variables' weights, which the solver reads.
struct StaticEngine::FlowVars {
  const PathTable* table = nullptr;
  std::vector<std::uint32_t> first_var_copy;  // per flow, size n+1, once the table is freed
  std::vector<float> split_copy;              // per variable, once the table is freed
  std::vector<double> weight;                 // per variable: flow weight x split

  std::uint32_t first_var(FlowId f) const { return table ? table->first_var(f) : first_var_copy[f]; }
  std::uint32_t end_var(FlowId f) const { return table ? table->end_var(f) : first_var_copy[f + 1]; }
  double split(std::uint32_t v) const { return table ? table->split(v) : split_copy[v]; }
  void copy_out(std::size_t num_flows) {
    first_var_copy.resize(num_flows + 1);
    for (FlowId f = 0; f < num_flows; ++f) first_var_copy[f] = table->first_var(f);
    first_var_copy[num_flows] = table->num_vars();
    split_copy.assign(table->splits().begin(), table->splits().end());
    table = nullptr;
  }
};

StaticResult StaticEngine::run(const FlowSet& flows, const StaticOptions& options) const {
  StaticResult result;
  StaticMetrics& m = result.metrics;
  m.endpoints = net_.num_endpoints();
  m.flows = flows.size();

  Stopwatch clock;
  if (options.progress) options.progress->phase("routing flows", flows.size());
  const RouteContext ctx = RouteContext::of(options.seed, options.max_path_bytes, options.progress);
  result.paths = routing_.route_all(net_, flows, ctx);
  m.route_seconds = clock.seconds();

  clock.reset();
  FlowVars vars = describe_flows(flows, result);
  maxmin::MaxMinSolver solver = solve_held(vars, result, options);
  m.solve_seconds = clock.seconds();
  add_flow_rates(flows, vars, solver, result, options);
  if (!options.keep_paths) result.paths = PathTable{};
  result.link_paths = solver.take_link_paths();
  result.link_load_gbps = solver.take_link_load();
  add_shared_metrics(result, options);
  return result;
}

StaticEngine::FlowVars StaticEngine::describe_flows(const FlowSet& flows, StaticResult& result) const {
  const PathTable& paths = result.paths;
  StaticMetrics& m = result.metrics;
  const std::size_t n = flows.size();
  FlowVars vars;
  vars.table = &paths;
  vars.weight.resize(paths.num_vars());
  result.flow_path_links.assign(n, 0.f);
  std::vector<double> routed_lengths;
  routed_lengths.reserve(n);
  for (FlowId f = 0; f < n; ++f) {
    double length = 0;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      vars.weight[v] = flows.weight_of(f) * paths.split(v);
      length += paths.split(v) * static_cast<double>(paths.links(v).size());
    }
    if (flows.src[f] == flows.dst[f]) {
      ++m.flows_self;
    } else if (!paths.routed(f)) {
      ++m.flows_unroutable;
    } else {
      ++m.flows_routed;
      result.flow_path_links[f] = static_cast<float>(length);
      routed_lengths.push_back(length);
    }
  }
  m.path_variables = paths.num_vars();
  m.path_links = summarize(routed_lengths, false);
  return vars;
}

maxmin::MaxMinSolver StaticEngine::solve_held(FlowVars& vars, StaticResult& result,
                                              const StaticOptions& options) const {
  if (options.progress)
    options.progress->phase("solving max-min rates: variables frozen", result.paths.num_vars());
  maxmin::MaxMinInput input;
  input.capacity_gbps = net_.capacities();
  input.weight = vars.weight;
  input.link_up = net_.link_states();
  input.progress = options.progress ? options.progress->counter() : nullptr;
  std::optional<maxmin::PathRuns> runs;
  if (!options.keep_paths)
    runs = maxmin::PathRuns::encode_within(result.paths.var_offsets(), result.paths.all_links(),
                                           run_coding_limit(result.paths.num_link_entries(), result.paths.num_vars()));
  if (runs) {
    vars.copy_out(result.paths.num_flows());
    result.paths = PathTable{};
    input.runs = &*runs;
  } else {
    input.var_offsets = result.paths.var_offsets();
    input.links = result.paths.all_links();
    input.renumberable_links = result.paths.all_links_writable();  // restored by the solver
  }
  maxmin::MaxMinSolver solver;
  solver.run(input);
  result.metrics.solver_steps = solver.bottleneck_steps();
  result.metrics.solver_refreshes = solver.heap_refreshes();
  result.metrics.solver_links = solver.solved_links();
  return solver;
}

void StaticEngine::add_flow_rates(const FlowSet& flows, const FlowVars& vars, const maxmin::MaxMinSolver& solver,
                                  StaticResult& result, const StaticOptions& options) const {
  const auto& var_rate = solver.rates();
  const std::size_t n = flows.size();
  result.flow_rate_gbps.assign(n, 0.0);
  result.flow_bottleneck.assign(n, kNone);
  std::vector<double> routed_rates;
  routed_rates.reserve(result.metrics.flows_routed);
  for (FlowId f = 0; f < n; ++f) {
    const std::uint32_t first = vars.first_var(f), end = vars.end_var(f);
    if (flows.src[f] == flows.dst[f] || first == end) continue;
    double rate = 0;
    for (std::uint32_t v = first; v < end; ++v) {
      // A path with no link (the solver gives it an infinite rate) joins two endpoints hosted by the
      // same router: the network does not limit it, so it runs at the endpoint's nominal injection rate.
      rate += std::isinf(var_rate[v]) ? vars.split(v) * options.direct_endpoint_gbps : var_rate[v];
    }
    result.flow_rate_gbps[f] = rate;
    result.flow_bottleneck[f] = solver.bottlenecks()[first];
    routed_rates.push_back(rate);
  }
  result.metrics.rate_gbps = summarize(routed_rates);
}

bool StaticEngine::can_stream() const { return dynamic_cast<const PerFlowRouting*>(&routing_) != nullptr; }

StaticResult StaticEngine::run(const FlowStream& flows, const StaticOptions& options) const {
  const auto* routing = dynamic_cast<const PerFlowRouting*>(&routing_);
  if (!routing) throw std::logic_error("static engine: a streamed solve needs a routing that routes each flow alone");
  Stopwatch clock;
  StreamedInput input;
  input.seed = options.seed;
  input.direct_endpoint_gbps = options.direct_endpoint_gbps;
  input.buffer_bytes = options.stream_buffer_bytes;
  input.predict = options.stream_predict;
  input.sample_weight = options.stream_sample_weight;
  input.progress = options.progress;
  StreamedResult s = StreamedMaxMin(net_, *routing, flows, input).run();

  StaticResult result;
  StaticMetrics& m = result.metrics;
  m.endpoints = net_.num_endpoints();
  m.flows = s.flows;
  m.flows_self = s.flows_self;
  m.flows_routed = s.flows_routed;
  m.flows_unroutable = s.flows_unroutable;
  m.path_variables = s.path_variables;
  m.rate_gbps = summarize_counted(s.flow_rate_gbps);
  m.path_links = summarize_counted(s.path_links);
  m.path_links.median = 0;  // as in the held run, which does not compute it
  m.solve_seconds = clock.seconds();  // routing is part of every pass
  m.solver_steps = s.levels + s.residual_steps;
  m.solver_refreshes = s.residual_refreshes;
  m.stream_passes = s.passes;
  m.stream_levels = s.levels;
  m.stream_predicted_levels = s.predicted_levels;
  m.stream_sample_flows = s.sample_flows;
  m.stream_sample_seconds = s.sample_seconds;
  m.stream_residual_variables = s.residual_variables;
  m.stream_pass_seconds = s.pass_seconds;
  m.stream_pass_flows = s.pass_flows;
  result.link_paths = std::move(s.link_paths);
  result.link_load_gbps = std::move(s.link_load_gbps);
  add_shared_metrics(result, options);
  return result;
}

void StaticEngine::add_shared_metrics(StaticResult& result, const StaticOptions& options) const {
  StaticMetrics& m = result.metrics;
  m.aggregate_nonrestricted_gbps = m.rate_gbps.sum;
  m.aggregate_restricted_gbps = static_cast<double>(m.flows_routed) * m.rate_gbps.min;
  // Per-link results.
  const std::uint32_t num_links = net_.num_links();
  SummaryBuilder counts, utilisation;  // no per-link copies (16 bytes a link)
  for (LinkId l = 0; l < num_links; ++l) {
    if (!net_.up(l)) {
      ++m.links_down;
      continue;
    }
    counts.add(result.link_paths[l]);
    const double cap = net_.capacity_gbps(l);
    utilisation.add(cap > 0 ? result.link_load_gbps[l] / cap : 0.0);
  }
  m.paths_per_link = counts.finish();
  m.utilisation = utilisation.finish();
  m.links_up = m.paths_per_link.count;
  if (m.paths_per_link.max > 0) {
    const double nn = static_cast<double>(m.endpoints);
    m.inrflow_bottleneck_throughput = nn * (nn - 1) / m.paths_per_link.max;
  }

  for (EndpointId e = 0; e < net_.num_endpoints(); ++e)
    m.injection_capacity_gbps += injection_capacity(net_, e, options.direct_endpoint_gbps);
  for (VertexId v = 0; v < net_.num_vertices(); ++v)
    if (net_.kind(v) == VertexKind::Switch) m.switch_ports += net_.degree(v);
  if (m.injection_capacity_gbps > 0) {
    m.nonrestricted_normalised = m.aggregate_nonrestricted_gbps / m.injection_capacity_gbps;
    m.restricted_normalised = m.aggregate_restricted_gbps / m.injection_capacity_gbps;
  }
  if (m.switch_ports > 0) {
    m.nonrestricted_per_port_gbps = m.aggregate_nonrestricted_gbps / static_cast<double>(m.switch_ports);
    m.restricted_per_port_gbps = m.aggregate_restricted_gbps / static_cast<double>(m.switch_ports);
  }
}

}  // namespace interflow::flow
