#include "cli/static_run.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"

namespace interflow::cli {

namespace {

// The pattern's flow stream when the run streams (see StaticConfig::stream), else nullptr; says why.
std::unique_ptr<FlowStream> choose_stream(const StaticConfig& config, const workloads::Pattern& pattern,
                                          const flow::StaticEngine& engine, const workloads::PatternContext& ctx,
                                          StaticRun& run) {
  if (config.stream == "off") {
    run.stream_reason = "--stream off";
    return nullptr;
  }
  workloads::PatternReport report;
  auto stream = pattern.stream(ctx, report);
  std::string why_not;
  if (!stream)
    why_not = "the pattern '" + run.pattern_spec.name + "' cannot be streamed (only all-to-all kinds can)";
  else if (!engine.can_stream())
    why_not = "the routing '" + run.setup.routing_spec.name + "' routes flows together, not one at a time";
  else if (config.per_flow_results)
    why_not = "per-flow results (--flows-csv) need every flow held";
  else if (stream->size() == 0)
    why_not = "the pattern gives no flow";
  if (!why_not.empty()) {
    if (config.stream == "on") throw InputError("--stream on: " + why_not);
    run.stream_reason = why_not;
    return nullptr;
  }
  run.streamed = true;
  run.stream_reason = "all-to-all pattern, per-flow routing";
  run.pattern_report = report;
  return stream;
}

}  // namespace

StaticRun run_static(const Plugins& plugins, const StaticConfig& config) {
  StaticRun run;
  run.config = config;
  RunScope scope(config.threads, config.progress);
  run.threads_used = scope.threads;
  Progress& progress = scope.progress;
  Stopwatch total;

  // Validate the topology and pattern specs before doing any work, so a typo fails fast.
  plugins.topologies.validate(Spec::parse(config.network.topology, "--topology"));
  run.pattern_spec = Spec::parse(config.pattern, "--pattern");
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);

  Stopwatch clock;
  progress.phase("building topology");
  run.setup = build_network(plugins, config.network);
  Network& net = run.setup.topology->network();
  run.build_seconds = clock.seconds();

  clock.reset();
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.setup.topology->endpoint_grid();
  ctx.seed = config.network.seed;
  ctx.max_flows = config.max_flows;
  const auto pattern = plugins.patterns.create(run.pattern_spec);
  const flow::StaticEngine engine(net, *run.setup.routing);
  const std::unique_ptr<FlowStream> stream = choose_stream(config, *pattern, engine, ctx, run);

  flow::StaticOptions options;
  options.seed = config.network.seed;
  options.direct_endpoint_gbps = config.network.links.endpoint_gbps;
  options.progress = &progress;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  options.stream_buffer_bytes = static_cast<std::uint64_t>(config.stream_buffer_mib * static_cast<double>(1ULL << 20));
  if (stream) {
    run.pattern_seconds = clock.seconds();
    run.result = engine.run(*stream, options);
  } else {
    progress.phase("generating traffic");
    run.pattern_report = pattern->generate(ctx, run.flows);
    run.pattern_seconds = clock.seconds();
    if (run.flows.size() == 0)
      throw InputError("no flow to route: the pattern '" + run.pattern_spec.text + "' gives no flow on this network");
    run.result = engine.run(run.flows, options);
  }
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
