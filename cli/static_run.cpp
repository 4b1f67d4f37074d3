#include "cli/static_run.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"

namespace interflow::cli {

namespace {

// The pattern's flow stream when the run streams (see StaticConfig::stream), else nullptr; says why.
std::unique_ptr<FlowStream> choose_stream(const StaticConfig& config, const workloads::Pattern& pattern,
                                          const flow::StaticEngine& engine, const workloads::PatternContext& ctx,
                                          StaticRun& run) {
  workloads::PatternReport report;
  auto stream = pattern.stream(ctx, report);
  run.pattern_streams = stream != nullptr;
  std::string why_not;
  if (config.stream == "off")
    why_not = "--stream off";
  else if (!stream)
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

flow::StaticOptions engine_options(const StaticConfig& config, Progress& progress) {
  flow::StaticOptions options;
  options.seed = config.network.seed;
  options.direct_endpoint_gbps = config.network.links.endpoint_gbps;
  options.progress = &progress;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  options.stream_buffer_bytes = static_cast<std::uint64_t>(config.stream_buffer_mib * static_cast<double>(1ULL << 20));
  options.stream_predict = config.stream_predict;
  options.stream_sample_weight = config.stream_sample_weight;
  options.keep_paths = config.keep_paths || config.per_flow_results;  // flows.csv reports each flow's paths
  return options;
}

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(bytes) / static_cast<double>(1ULL << 30));
  return text;
}

// Refuses a run whose estimated peak exceeds the memory available, with the figures.
void check_memory(const StaticConfig& config, const StaticRun& run) {
  const flow::MemoryEstimate& m = run.memory;
  if (!config.memory_check || run.memory_available_bytes == 0 || m.peak() <= run.memory_available_bytes) return;
  std::string advice = m.streamed ? "use fewer endpoints or a smaller --stream-buffer-mib"
                                  : "use fewer flows or a routing with fewer paths per flow";
  if (!m.streamed && run.pattern_streams)
    advice += " (this all-to-all kind is held, not streamed: " + run.stream_reason + ")";
  throw InputError("this run would need about " + gib(m.peak()) + " GiB (network " + gib(m.network) + ", flows " +
                   gib(m.flow_set) + ", paths " + gib(m.paths) + ", solver " + gib(m.solver) + ", results " +
                   gib(m.results) + "), more than the " + gib(run.memory_available_bytes) +
                   " GiB available (MemAvailable): " + advice + "; --memory-check off runs it anyway");
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

  const flow::StaticOptions options = engine_options(config, progress);
  if (stream) {
    run.pattern_seconds = clock.seconds();
    run.memory = flow::estimate_streamed_run(net, *run.setup.routing, *stream, config.network.seed,
                                             options.stream_buffer_bytes);
  } else {
    progress.phase("generating traffic");
    run.pattern_report = pattern->generate(ctx, run.flows);
    run.pattern_seconds = clock.seconds();
    if (run.flows.size() == 0)
      throw InputError("no flow to route: the pattern '" + run.pattern_spec.text + "' gives no flow on this network");
    progress.phase("estimating memory");
    run.memory = flow::estimate_held_run(net, *run.setup.routing, run.flows, config.network.seed, options.keep_paths);
  }
  run.memory_available_bytes = config.memory_available_bytes > 0 ? config.memory_available_bytes
                                                                  : available_memory_bytes();
  if (config.memory_estimate_only) {
    run.total_seconds = total.seconds();
    return run;
  }
  check_memory(config, run);
  run.result = stream ? engine.run(*stream, options) : engine.run(run.flows, options);
  run.solved = true;
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
