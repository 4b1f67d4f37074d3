#include "cli/dynamic_run.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

#include "cli/json.hpp"
#include "engine/drivers/flows.hpp"
#include "engine/flow/flow_transport.hpp"
#include "core/progress.hpp"
#include "core/random.hpp"
#include "core/system.hpp"
#include "workloads/application.hpp"
#include "workloads/flow_list.hpp"
#include "workloads/inrflow_workload.hpp"
#include "workloads/traces.hpp"

namespace interflow::cli {

void assign_poisson_arrivals(FlowWorkload& w, double flows_per_second, std::uint64_t seed) {
  Rng rng(derive_seed(seed, Stream::Pattern, 1));
  std::vector<std::uint32_t> order(w.size());
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  double t = 0;
  for (std::uint32_t f : order) {
    t += -std::log(1.0 - rng.uniform()) / flows_per_second;
    w.start_s[f] = t;
  }
}

DynamicRun run_dynamic(const Plugins& plugins, const DynamicConfig& config) {
  DynamicRun run;
  run.config = config;
  check_link_options(config.network.links);
  if (!(config.bytes >= 0) || !std::isfinite(config.bytes))
    throw InputError("--bytes " + std::to_string(config.bytes) + ": expected a finite size >= 0");
  if ((!config.apps.empty() || !config.inrflow_workload.empty()) && !config.flow_file.empty())
    throw InputError("--app (or --inrflow-workload) and --flow-file are two kinds of workload; give one");
  if (!(config.inrflow_time_unit > 0) || !std::isfinite(config.inrflow_time_unit))
    throw InputError("--inrflow-time-unit: expected a finite number of seconds > 0");
  if (!(config.cpu_scale >= 0) || !std::isfinite(config.cpu_scale))
    throw InputError("--cpu-scale " + std::to_string(config.cpu_scale) + ": expected a finite factor >= 0");
  if (config.phase_size > 0 && !config.flow_file.empty())
    throw InputError("--phase-size applies to --pattern workloads; a flow list orders flows with 'after'");
  if (config.arrival != "zero" && config.arrival != "poisson")
    throw InputError("--arrival '" + config.arrival + "': expected zero or poisson");
  if (config.arrival == "poisson" && !(config.load > 0 && std::isfinite(config.load)))
    throw InputError("--load " + std::to_string(config.load) + ": expected a fraction of injection capacity > 0");
  const unsigned threads =
      config.threads > 0 ? config.threads : static_cast<unsigned>(tbb::info::default_concurrency());
  run.threads_used = threads;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  Progress progress(config.progress);
  Stopwatch total, clock;

  Spec pattern_spec;
  std::vector<Spec> app_specs;
  std::vector<std::string> app_texts = config.apps;
  if (!config.inrflow_workload.empty())
    for (const workloads::InrflowApp& app :
         workloads::read_inrflow_workload(config.inrflow_workload, plugins.apps, config.inrflow_time_unit))
      app_texts.push_back(app.spec());
  for (const std::string& text : app_texts) {
    app_specs.push_back(Spec::parse(text, "--app"));
    plugins.apps.validate(app_specs.back());
  }
  if (config.flow_file.empty() && app_specs.empty()) {
    pattern_spec = Spec::parse(config.pattern, "--pattern");
    plugins.patterns.validate(pattern_spec);
  }
  progress.phase("building topology");
  run.setup = build_network(plugins, config.network);
  const Network& net = run.setup.topology->network();
  run.build_seconds = clock.seconds();

  clock.reset();
  progress.phase("making the workload");
  if (!app_specs.empty()) {
    workloads::EndpointPool pool(net.num_endpoints());
    workloads::AppSettings settings;
    settings.seed = config.network.seed;
    settings.endpoint_gbps = config.network.links.endpoint_gbps;
    settings.patterns = &plugins.patterns;
    for (std::size_t a = 0; a < app_specs.size(); ++a)
      run.apps.push_back(
          workloads::make_application(plugins.apps, app_specs[a], static_cast<std::uint32_t>(a), pool, settings));
    run.workload_text = std::to_string(run.apps.size()) + " application(s)";
  } else if (!config.flow_file.empty()) {
    run.workload = workloads::read_flow_list(config.flow_file, net.num_endpoints());
    run.workload_text = "flow list " + config.flow_file;
  } else {
    workloads::PatternContext ctx;
    ctx.endpoints = net.num_endpoints();
    ctx.grid = run.setup.topology->endpoint_grid();
    ctx.seed = config.network.seed;
    ctx.max_flows = config.max_flows;
    plugins.patterns.create(pattern_spec)->generate(ctx, run.workload.flows);
    run.workload.bytes.assign(run.workload.flows.size(), config.bytes);
    run.workload.start_s.assign(run.workload.flows.size(), 0.0);
    run.workload_text = "pattern " + pattern_spec.text + ", " + JsonWriter::number(config.bytes) + " bytes per flow, ";
    if (config.arrival == "poisson") {
      // load x the endpoints' injection capacity, in flows of `bytes` per second.
      const double capacity_bps = static_cast<double>(net.num_endpoints()) * config.network.links.endpoint_gbps * 1e9;
      const double per_second = config.bytes > 0 ? config.load * capacity_bps / (config.bytes * 8) : 1e9;
      assign_poisson_arrivals(run.workload, per_second, config.network.seed);
      run.workload_text += "Poisson arrivals at " + JsonWriter::number(config.load) + " of injection capacity";
    } else {
      run.workload_text += "all starting at time 0";
    }
    if (config.phase_size > 0) {
      run.workload.phase.resize(run.workload.size());
      for (std::size_t f = 0; f < run.workload.size(); ++f)
        run.workload.phase[f] = static_cast<std::uint32_t>(f / config.phase_size);
      run.workload_text += ", in phases of " + std::to_string(config.phase_size) + " flows";
    }
  }
  run.workload_seconds = clock.seconds();

  flow::FlowTransportOptions options;
  options.seed = config.network.seed;
  options.max_path_bytes = static_cast<std::uint64_t>(config.max_path_memory_gib * static_cast<double>(1ULL << 30));
  options.series_bins = config.series_bins;
  options.incremental = !config.full_resolve;
  std::uint32_t classes = 1;
  for (std::uint32_t c : run.workload.service_class) classes = std::max(classes, c + 1);
  for (const Application& app : run.apps) {
    classes = std::max(classes, app.service_class + 1);
    for (std::uint8_t k : app.is_graph() ? app.graph.klass : app.program.klass)
      if (k != kAppClass) classes = std::max<std::uint32_t>(classes, k + 1u);
  }
  if (!config.class_shares.empty() && config.policy != "ba")
    throw InputError("--class-share applies to --policy ba, not '" + config.policy + "'");
  if (!config.class_caps.empty() && config.policy != "qos")
    throw InputError("--class-cap applies to --policy qos, not '" + config.policy + "'");
  options.policy = maxmin::make_class_policy(config.policy,
                                             config.policy == "ba" ? config.class_shares : config.class_caps,
                                             config.class_priorities, classes);
  options.progress = &progress;
  flow::FlowTransport transport(net, *run.setup.routing, options);
  if (!run.apps.empty()) {
    drivers::DriverOptions driver_options;
    driver_options.cpu_scale = config.cpu_scale;
    driver_options.max_in_flight = config.max_in_flight;
    driver_options.progress = &progress;
    if (config.write_goal.empty() && config.write_vef.empty()) {
      run.tasks = drivers::Driver(net, transport, driver_options).run(run.apps);
    } else {
      // Trace generation: the application's graph form is what is written (and, for VEF, timed).
      if (run.apps.size() != 1) throw InputError("--write-goal and --write-vef take exactly one --app");
      std::vector<Application> graph(1, run.apps[0]);
      graph[0].graph = graph_form(run.apps[0], config.max_in_flight > 0);
      graph[0].program = Program();
      driver_options.record_operations = !config.write_vef.empty();
      run.tasks = drivers::Driver(net, transport, driver_options).run(graph);
      if (!config.write_goal.empty()) {
        std::ofstream out(config.write_goal);
        if (!out) throw InputError(config.write_goal + ": cannot write the GOAL schedule");
        workloads::write_goal(graph[0].graph, out, {});
      }
      if (!config.write_vef.empty()) {
        if (!run.tasks.blocked.empty()) throw InputError("--write-vef: the application did not run to completion");
        std::ofstream out(config.write_vef);
        if (!out) throw InputError(config.write_vef + ": cannot write the VEF trace");
        workloads::write_vef(graph[0].graph, run.tasks.op_start_s, run.tasks.op_done_s, out, {});
        run.tasks.op_start_s = {};
        run.tasks.op_done_s = {};
      }
    }
    run.workload.flows = std::move(run.tasks.messages.ends);
    run.workload.bytes = std::move(run.tasks.messages.bytes);
    run.workload.service_class = std::move(run.tasks.messages.service_class);
    run.workload.start_s.assign(run.workload.bytes.size(), 0.0);
    run.result = std::move(run.tasks.flows);
  } else {
    run.result = drivers::run_flows(net, transport, run.workload, &progress);
  }
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
