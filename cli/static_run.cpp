#include "cli/static_run.hpp"


#include "core/progress.hpp"
#include "core/system.hpp"

namespace interflow::cli {

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
  progress.phase("generating traffic");
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.setup.topology->endpoint_grid();
  ctx.seed = config.network.seed;
  ctx.max_flows = config.max_flows;
  run.pattern_report = plugins.patterns.create(run.pattern_spec)->generate(ctx, run.flows);
  run.pattern_seconds = clock.seconds();
  if (run.flows.size() == 0)
    throw InputError("no flow to route: the pattern '" + run.pattern_spec.text + "' gives no flow on this network");

  flow::StaticOptions options;
  options.seed = config.network.seed;
  options.direct_endpoint_gbps = config.network.links.endpoint_gbps;
  options.progress = &progress;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  run.result = flow::StaticEngine(net, *run.setup.routing).run(run.flows, options);
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
