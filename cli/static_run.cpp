#include "cli/static_run.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include "engine/progress.hpp"
#include "engine/system.hpp"

namespace interflow::cli {

StaticRun run_static(const Plugins& plugins, const StaticConfig& config) {
  StaticRun run;
  run.config = config;
  if (config.links.endpoint_gbps <= 0 || config.links.switch_gbps <= 0)
    throw InputError("link capacities must be positive: --endpoint-gbps " + std::to_string(config.links.endpoint_gbps) +
                     ", --switch-gbps " + std::to_string(config.links.switch_gbps));
  if (config.links.endpoint_latency_ns < 0 || config.links.switch_latency_ns < 0)
    throw InputError("link latencies must not be negative");
  const unsigned threads =
      config.threads > 0 ? config.threads : static_cast<unsigned>(tbb::info::default_concurrency());
  run.threads_used = threads;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  Progress progress(config.progress);
  Stopwatch total;

  // Validate every spec before doing any work, so a typo fails fast.
  run.topology_spec = Spec::parse(config.topology, "--topology");
  run.pattern_spec = Spec::parse(config.pattern, "--pattern");
  run.topology_params = plugins.topologies.validate(run.topology_spec);
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);
  const FailureSpec failure_spec = FailureSpec::parse(config.failures, config.failure_scope);

  Stopwatch clock;
  progress.phase("building topology");
  run.topology = plugins.topologies.create(run.topology_spec, config.links);
  run.routing_spec =
      Spec::parse(config.routing.empty() ? run.topology->default_routing() : config.routing, "--routing");
  run.routing_params = plugins.routings.validate(run.routing_spec);
  auto routing = plugins.routings.create(run.routing_spec, *run.topology);
  Network& net = run.topology->network();
  if (failure_spec.any()) run.failures = apply_failures(net, failure_spec, config.seed);
  run.build_seconds = clock.seconds();

  clock.reset();
  progress.phase("generating traffic");
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.topology->endpoint_grid();
  ctx.seed = config.seed;
  ctx.max_flows = config.max_flows;
  auto pattern = plugins.patterns.create(run.pattern_spec);
  run.pattern_report = pattern->generate(ctx, run.flows);
  run.pattern_seconds = clock.seconds();

  StaticOptions options;
  options.seed = config.seed;
  options.direct_endpoint_gbps = config.links.endpoint_gbps;
  options.progress = &progress;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  run.result = StaticEngine(net, *routing).run(run.flows, options);
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
