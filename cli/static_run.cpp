#include "cli/static_run.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include "cli/setup.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"

namespace interflow::cli {

StaticRun run_static(const Plugins& plugins, const StaticConfig& config) {
  StaticRun run;
  run.config = config;
  check_link_options(config.links);
  const unsigned threads =
      config.threads > 0 ? config.threads : static_cast<unsigned>(tbb::info::default_concurrency());
  run.threads_used = threads;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  Progress progress(config.progress);
  Stopwatch total;

  // Validate the topology and pattern specs before doing any work, so a typo fails fast.
  plugins.topologies.validate(Spec::parse(config.topology, "--topology"));
  run.pattern_spec = Spec::parse(config.pattern, "--pattern");
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);

  Stopwatch clock;
  progress.phase("building topology");
  NetworkSetup setup = build_network(
      plugins, {config.topology, config.routing, config.links, config.failures, config.failure_scope, config.seed});
  run.topology_spec = setup.topology_spec;
  run.topology_params = setup.topology_params;
  run.routing_spec = setup.routing_spec;
  run.routing_params = setup.routing_params;
  run.topology = std::move(setup.topology);
  run.failures = setup.failures;
  const Routing* routing = setup.routing.get();
  Network& net = run.topology->network();
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

  flow::StaticOptions options;
  options.seed = config.seed;
  options.direct_endpoint_gbps = config.links.endpoint_gbps;
  options.progress = &progress;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  run.result = flow::StaticEngine(net, *routing).run(run.flows, options);
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
