#include "cli/dynamic_run.hpp"


#include <algorithm>

#include "core/io.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"
#include "engine/drivers/flows.hpp"
#include "engine/flow/flow_transport.hpp"
#include "workloads/application.hpp"
#include "workloads/flow_list.hpp"
#include "workloads/inrflow_workload.hpp"
#include "workloads/pattern_workload.hpp"
#include "workloads/traces.hpp"

namespace interflow::cli {

namespace {

// Every application spec: --app, then the INRFlow workload file's.
std::vector<Spec> application_specs(const Plugins& plugins, const DynamicConfig& c) {
  std::vector<std::string> texts = c.apps;
  if (!c.inrflow_workload.empty())
    for (const workloads::InrflowApp& app :
         workloads::read_inrflow_workload(c.inrflow_workload, plugins.apps, c.inrflow_time_unit))
      texts.push_back(app.spec());
  std::vector<Spec> specs;
  for (const std::string& text : texts) {
    specs.push_back(Spec::parse(text, "--app"));
    plugins.apps.validate(specs.back());
  }
  return specs;
}

void make_applications(const Plugins& plugins, const std::vector<Spec>& specs, DynamicRun& run) {
  const Network& net = run.setup.topology->network();
  workloads::EndpointPool pool(net.num_endpoints());
  workloads::AppSettings settings;
  settings.seed = run.config.network.seed;
  settings.endpoint_gbps = run.config.network.links.endpoint_gbps;
  settings.patterns = &plugins.patterns;
  for (std::size_t a = 0; a < specs.size(); ++a)
    run.apps.push_back(
        workloads::make_application(plugins.apps, specs[a], static_cast<std::uint32_t>(a), pool, settings));
  run.workload_text = std::to_string(run.apps.size()) + " application(s)";
}

void make_pattern_workload(const Plugins& plugins, DynamicRun& run) {
  const DynamicConfig& c = run.config;
  const Network& net = run.setup.topology->network();
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.setup.topology->endpoint_grid();
  ctx.seed = c.network.seed;
  ctx.max_flows = c.max_flows;
  workloads::ArrivalContext arrival_ctx{net.num_endpoints(), c.network.links.endpoint_gbps, c.network.seed};
  workloads::PatternWorkload w =
      workloads::pattern_workload(*plugins.patterns.create(run.pattern_spec), run.pattern_spec.text, ctx, c.bytes,
                                  *plugins.arrivals.create(run.arrival_spec), arrival_ctx, c.phase_size);
  run.workload = std::move(w.flows);
  run.workload_text = std::move(w.description);
}

// The number of service classes the workload uses (at least 1).
std::uint32_t service_classes(const DynamicRun& run) {
  std::uint32_t classes = service_classes(run.apps);
  for (std::uint32_t k : run.workload.service_class) classes = std::max(classes, k + 1);
  return classes;
}

// The class policy over the classes the workload uses.
maxmin::ClassPolicy class_policy(const Plugins& plugins, const DynamicRun& run) {
  const DynamicConfig& c = run.config;
  maxmin::ClassPolicyInput input;
  input.classes = service_classes(run);
  input.values = c.policy == "ba" ? c.class_shares : c.class_caps;
  input.priorities = c.class_priorities;
  return maxmin::make_class_policy(plugins.class_policies, c.policy, input);
}

// --write-goal, --write-vef: the one application in its graph form, run with every operation's times
// recorded, then written.
void run_and_write_traces(const Network& net, Transport& transport, drivers::DriverOptions options,
                          DynamicRun& run) {
  const DynamicConfig& c = run.config;
  if (run.apps.size() != 1) throw InputError("--write-goal and --write-vef take exactly one --app");
  std::vector<Application> graph(1, run.apps[0]);
  graph[0].graph = graph_form(run.apps[0], c.max_in_flight > 0);
  graph[0].program = Program();
  options.record_operations = !c.write_vef.empty();
  run.tasks = drivers::Driver(net, transport, options).run(graph);
  if (!c.write_goal.empty()) {
    OutputFile out(c.write_goal, "--write-goal");
    workloads::write_goal(graph[0].graph, out.stream(), {});
    out.commit();
  }
  if (!c.write_vef.empty()) {
    if (!run.tasks.blocked.empty()) throw InputError("--write-vef: the application did not run to completion");
    OutputFile out(c.write_vef, "--write-vef");
    workloads::write_vef(graph[0].graph, run.tasks.op_start_s, run.tasks.op_done_s, out.stream(), {});
    out.commit();
    run.tasks.op_start_s = {};
    run.tasks.op_done_s = {};
  }
}

// The workload through the application driver on `transport`; the results into `run`.
void drive(Transport& transport, DynamicRun& run, Progress& progress) {
  const DynamicConfig& c = run.config;
  const Network& net = run.setup.topology->network();
  if (!run.applications()) {
    run.result = drivers::run_flows(net, transport, run.workload, &progress);
    return;
  }
  drivers::DriverOptions driver_options;
  driver_options.cpu_scale = c.cpu_scale;
  driver_options.max_in_flight = c.max_in_flight;
  driver_options.progress = &progress;
  if (c.write_goal.empty() && c.write_vef.empty())
    run.tasks = drivers::Driver(net, transport, driver_options).run(run.apps);
  else
    run_and_write_traces(net, transport, driver_options, run);
  run.workload.flows = std::move(run.tasks.messages.ends);
  run.workload.bytes = std::move(run.tasks.messages.bytes);
  run.workload.service_class = std::move(run.tasks.messages.service_class);
  run.workload.start_s.assign(run.workload.bytes.size(), 0.0);
  run.result = std::move(run.tasks.flows);
}

// The packet transport: every endpoint pair routed once, the switch model, one SL per class.
void simulate_packets(const Plugins& plugins, DynamicRun& run, Progress& progress) {
  const DynamicConfig& c = run.config;
  progress.phase("routing every endpoint pair");
  run.packet = build_packet_setup(plugins, run.setup, c.network, c.packet, service_classes(run));
  packet::PacketTransportOptions options = packet_transport_options(c.packet, c.network.seed);
  options.series_bins = c.series_bins;
  packet::PacketTransport transport(run.packet->network(run.setup.topology->network()), options);
  drive(transport, run, progress);
  run.result.route_seconds = run.packet->route_seconds;
  run.packet_stats = transport.sim().stats();
}

flow::FlowTransportOptions flow_options(const Plugins& plugins, const DynamicRun& run, Progress& progress) {
  const DynamicConfig& c = run.config;
  flow::FlowTransportOptions options;
  options.seed = c.network.seed;
  options.max_path_bytes = static_cast<std::uint64_t>(c.max_path_memory_gib * static_cast<double>(1ULL << 30));
  options.series_bins = c.series_bins;
  options.incremental = !c.full_resolve;
  options.nic_fifo = c.nic_fifo;
  options.router_delay_s = c.router_delay_ns * 1e-9;
  options.batch_tolerance = c.batch_tolerance;
  options.solver = maxmin::parse_solver_kind(c.rate_solver);
  options.profile = c.profile;
  options.policy = class_policy(plugins, run);
  options.progress = &progress;
  return options;
}

// The hybrid transport: the flow level as the flow transport, the zoomed routers with the switch
// model, chosen once the messages are routed.
void simulate_hybrid(const Plugins& plugins, DynamicRun& run, Progress& progress) {
  const DynamicConfig& c = run.config;
  const Network& net = run.setup.topology->network();
  run.packet = build_switch_setup(plugins, c.packet, service_classes(run));
  const hybrid::HybridOptions o = hybrid_options(flow_options(plugins, run, progress), *run.packet, c.packet,
                                                 c.network, c.zoom);
  const std::unique_ptr<hybrid::ZoomSelection> selection = plugins.zoom_selections.create(run.zoom->spec);
  hybrid::HybridTransport transport(net, *run.setup.routing, zoom_chooser(*selection, *run.setup.topology), o);
  drive(transport, run, progress);
  DynamicRun::Zoom& z = *run.zoom;
  z.stats = transport.stats();
  z.router_stats = transport.router_stats();
  z.regions = static_cast<std::uint32_t>(transport.regions().regions.size());
  if (z.regions > 0) {
    z.routers = transport.zoom().network().num_switches();
    z.boundary_endpoints = transport.zoom().network().num_endpoints();
    z.clock_ns = transport.fabric().clock_ns();
    z.vc_scheme = transport.scheme().name();
    run.packet_stats = transport.sim().stats();
  }
}

void simulate(const Plugins& plugins, DynamicRun& run, Progress& progress, drivers::ResultStream* flows) {
  const DynamicConfig& c = run.config;
  if (c.transport == "packet") {
    simulate_packets(plugins, run, progress);
    return;
  }
  if (c.transport == "hybrid") {
    simulate_hybrid(plugins, run, progress);
    return;
  }
  // An open-loop workload runs without the application driver; one whose flows come and go streams:
  // its flows are routed as they start and held while in transfer.
  flow::FlowTransportOptions options = flow_options(plugins, run, progress);
  const bool open_loop = !run.applications() && drivers::open_loop(run.workload);
  options.stream = open_loop && drivers::worth_streaming(run.workload);
  flow::FlowTransport transport(run.setup.topology->network(), *run.setup.routing, options);
  if (open_loop) {
    run.result = drivers::run_open_loop(run.setup.topology->network(), transport, run.workload, &progress, flows);
    run.flows_written = flows != nullptr;
  } else
    drive(transport, run, progress);
}

}  // namespace

DynamicRun run_dynamic(const Plugins& plugins, const DynamicConfig& config, drivers::ResultStream* flows) {
  DynamicRun run;
  run.config = config;
  RunScope scope(config.threads, config.progress);
  run.threads_used = scope.threads;
  Progress& progress = scope.progress;
  Stopwatch total, clock;

  // Every spec is checked before any work, so a typo fails fast.
  const std::vector<Spec> app_specs = application_specs(plugins, config);
  if (config.flow_file.empty() && app_specs.empty()) {
    run.pattern_spec = Spec::parse(config.pattern, "--pattern");
    run.pattern_params = plugins.patterns.validate(run.pattern_spec);
    run.arrival_spec = Spec::parse(config.arrival, "--arrival");
    run.arrival_params = plugins.arrivals.validate(run.arrival_spec);
  }
  plugins.class_policies.validate(Spec::parse(config.policy, "--policy"));
  if (config.transport != "flow" && config.transport != "packet" && config.transport != "hybrid")
    throw InputError("--transport '" + config.transport + "': expected flow, packet or hybrid");
  if (config.transport != "flow") validate_packet_options(plugins, config.packet);
  if (config.transport == "hybrid") {
    if (config.zoom.spec.empty()) throw InputError("--transport hybrid needs --zoom (which routers to simulate at packet level)");
    run.zoom = std::make_unique<DynamicRun::Zoom>();
    run.zoom->spec = Spec::parse(config.zoom.spec, "--zoom");
    run.zoom->params = plugins.zoom_selections.validate(run.zoom->spec);
  }
  progress.phase("building topology");
  run.setup = build_network(plugins, config.network);
  run.build_seconds = clock.seconds();

  clock.reset();
  progress.phase("making the workload");
  if (!app_specs.empty()) {
    make_applications(plugins, app_specs, run);
  } else if (!config.flow_file.empty()) {
    run.workload = workloads::read_flow_list(config.flow_file, run.setup.topology->network().num_endpoints());
    run.workload_text = "flow list " + config.flow_file;
  } else {
    make_pattern_workload(plugins, run);
  }
  run.workload_seconds = clock.seconds();
  if (!run.applications() && run.workload.size() == 0)
    throw InputError("no flow to simulate: the " + run.workload_text + " has no flow");
  simulate(plugins, run, progress, flows);
  run.total_seconds = total.seconds();
  return run;
}

}  // namespace interflow::cli
