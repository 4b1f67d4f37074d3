#include "cli/schedule_run.hpp"

#include <algorithm>
#include <map>

#include "core/system.hpp"
#include "engine/flow/flow_transport.hpp"
#include "scheduler/network_aware.hpp"

namespace interflow::cli {

namespace {

scheduler::JobStream read_jobs(const Plugins& plugins, const ScheduleConfig& c) {
  if (!c.swf.empty()) {
    scheduler::JobOptions jo;
    jo.size_from = c.size_from == "requested" ? scheduler::JobOptions::SizeFrom::Requested
                                              : scheduler::JobOptions::SizeFrom::Allocated;
    jo.kill_at_estimate = c.overrun == "kill";
    using Missing = scheduler::JobOptions::Missing;
    using Estimate = scheduler::JobOptions::Estimate;
    static const std::map<std::string, Missing> missing{
        {"drop", Missing::Drop}, {"repair", Missing::Repair}, {"one-second", Missing::OneSecond}};
    static const std::map<std::string, Estimate> estimate{{"log", Estimate::Log},
                                                          {"exact", Estimate::Exact},
                                                          {"scaled", Estimate::Scaled},
                                                          {"at-least-run", Estimate::AtLeastRun}};
    jo.missing = missing.at(c.missing);  // CLI11 checked the names
    jo.processors_per_node = c.procs_per_node;
    jo.estimate = estimate.at(c.estimate);
    jo.estimate_scale = c.estimate_scale;
    return scheduler::log_jobs(c.swf, jo, c.network_aware ? c.time_scale : 1.0);
  }
  if (c.jobs > 0)
    return scheduler::synthetic_stream(c.jobs, c.mean_gap, c.job_sizes, c.mean_runtime, c.estimate_factor,
                                       c.network.seed);
  return scheduler::inrflow_jobs(c.inrflow_workload, plugins.apps, c.inrflow_time_unit);
}

// The class policy over the service classes the jobs' applications use (App = 0; the Markov
// application's I/O = its io_class, 1 by default).
maxmin::ClassPolicy class_policy(const Plugins& plugins, const ScheduleConfig& c, const std::vector<Application>& apps) {
  maxmin::ClassPolicyInput input;
  input.values = c.class_policy == "ba" ? c.class_shares : c.class_caps;
  input.priorities = c.class_priorities;
  input.classes = service_classes(apps);
  return maxmin::make_class_policy(plugins.class_policies, c.class_policy, input);
}

// A fresh transport for every simulation of the jobs' applications: flows, packets on one packet
// network routed once (its switch's default SL2VL table covers service class 0), or flows with the
// zoomed routers at packet level (each simulation chooses them for its own messages).
TransportFactory transports(const Plugins& plugins, ScheduleRun& run) {
  const ScheduleConfig& c = run.config;
  const Network& net = run.setup->topology->network();
  if (c.transport == "packet") {
    run.packet = build_packet_setup(plugins, *run.setup, c.network, c.packet, 1);
    const packet::PacketTransportOptions options = packet_transport_options(c.packet, c.network.seed);
    return [network = run.packet->network(net), options] {
      return std::make_unique<packet::PacketTransport>(network, options);
    };
  }
  flow::FlowTransportOptions options;
  options.seed = c.network.seed;
  const std::shared_ptr<const maxmin::ClassPolicy> policy = run.class_policy;
  if (run.storage)
    return [net = &run.storage->network(), routing = run.storage_routing.get(), options, policy]() mutable {
      options.policy = *policy;
      return std::make_unique<flow::FlowTransport>(*net, *routing, options);
    };
  if (c.transport == "hybrid") {
    run.packet = build_switch_setup(plugins, c.packet, 1);
    run.zoom = plugins.zoom_selections.create(run.zoom_spec);
    hybrid::HybridOptions hybrid = hybrid_options(options, *run.packet, c.packet, c.network, c.zoom);
    return [net = &net, routing = run.setup->routing.get(), hybrid, policy,
            choose = zoom_chooser(*run.zoom, *run.setup->topology)]() mutable {
      hybrid.flow.policy = *policy;
      return std::make_unique<hybrid::HybridTransport>(*net, *routing, choose, hybrid);
    };
  }
  return [net = &net, routing = run.setup->routing.get(), options, policy]() mutable {
    options.policy = *policy;
    return std::make_unique<flow::FlowTransport>(*net, *routing, options);
  };
}

// With --data-placement: the SAN, the storage system around the main network, and its placer.
void build_storage(const Plugins& plugins, ScheduleRun& run) {
  const ScheduleConfig& c = run.config;
  run.placement_spec = Spec::parse(c.data_placement, "--data-placement");
  run.placement_params = plugins.placements.validate(run.placement_spec);
  storage::StorageConfig config = c.storage;
  config.gateway_nodes.assign(c.gateway_nodes.begin(), c.gateway_nodes.end());
  if (!c.san.empty()) {
    NetworkOptions san;
    san.topology = c.san;
    san.routing = c.san_routing;
    san.links = {c.san_gbps, c.san_gbps, c.san_latency_ns, c.san_latency_ns};
    san.seed = c.network.seed;
    try {
      run.san = std::make_unique<NetworkSetup>(build_network(plugins, san));
    } catch (const InputError& e) {
      throw InputError(std::string("--san: ") + e.what());
    }
  }
  run.storage = std::make_unique<storage::StorageSystem>(
      run.setup->topology->network(), config, run.san ? &run.san->topology->network() : nullptr,
      run.san ? run.san->routing.get() : nullptr);
  run.storage_routing = run.storage->routing(*run.setup->routing);
  run.placer =
      std::make_unique<storage::StoragePlacer>(*run.storage, plugins.placements.create(run.placement_spec));
}

// Network-aware: the network, and a runner that simulates the jobs' applications on it.
std::unique_ptr<scheduler::NetworkRunner> network_runner(const Plugins& plugins, ScheduleRun& run) {
  const ScheduleConfig& c = run.config;
  run.setup = std::make_unique<NetworkSetup>(build_network(plugins, c.network));
  const Network& net = run.setup->topology->network();
  if (run.nodes == 0 || run.nodes > net.num_endpoints()) run.nodes = net.num_endpoints();
  if (!c.data_placement.empty()) build_storage(plugins, run);
  workloads::AppSettings settings;
  settings.seed = c.network.seed;
  settings.endpoint_gbps = c.network.links.endpoint_gbps;
  settings.patterns = &plugins.patterns;
  std::vector<std::string> job_apps;
  if (run.stream.apps.empty())
    job_apps = scheduler::assign_applications(run.stream.set.jobs, c.job_apps, c.job_app_by);
  else
    for (const workloads::InrflowApp& a : run.stream.apps) job_apps.push_back(a.kernel);
  auto runner = std::make_unique<scheduler::NetworkRunner>(
      run.storage ? run.storage->network() : net, transports(plugins, run), plugins.apps, settings,
      run.stream.set.jobs, job_apps, run.nodes, drivers::DriverOptions{},
      plugins.mappings.create(run.mapping_spec, run.stream.set.jobs), c.network.seed);
  runner->set_data_placer(run.placer.get());
  if (c.transport != "packet") *run.class_policy = class_policy(plugins, c, runner->applications());
  runner->set_estimates(run.stream.set.jobs, c.estimate_factor);
  return runner;
}

}  // namespace

ScheduleRun run_schedule(const Plugins& plugins, const ScheduleConfig& config) {
  ScheduleRun run;
  run.config = config;
  const ScheduleConfig& c = run.config;
  run.selection_spec = Spec::parse(c.policy, "--policy");
  run.selection_params = plugins.selections.validate(run.selection_spec);
  run.allocation_spec = Spec::parse(c.allocation, "--allocation");
  run.allocation_params = plugins.allocations.validate(run.allocation_spec);
  run.mapping_spec = Spec::parse(c.mapping, "--mapping");
  run.mapping_params = plugins.mappings.validate(run.mapping_spec);
  if (c.transport == "hybrid") {
    if (c.zoom.spec.empty()) throw InputError("--transport hybrid needs --zoom (which routers to simulate at packet level)");
    run.zoom_spec = Spec::parse(c.zoom.spec, "--zoom");
    run.zoom_params = plugins.zoom_selections.validate(run.zoom_spec);
  }
  if (c.transport != "flow") validate_packet_options(plugins, c.packet);
  const auto selection = plugins.selections.create(run.selection_spec);
  // Network-agnostic: the allocation is built now, so that a policy that needs the network says so
  // before any work; network-aware: once the network is built.
  std::unique_ptr<scheduler::AllocationPolicy> allocation;
  if (!c.network_aware) allocation = plugins.allocations.create(run.allocation_spec, scheduler::AllocationContext{});
  Stopwatch clock;
  run.stream = read_jobs(plugins, c);
  run.nodes = c.nodes > 0 ? c.nodes : run.stream.machine_nodes;
  run.read_seconds = clock.seconds();
  clock.reset();
  std::unique_ptr<scheduler::NetworkRunner> runner;
  if (c.network_aware) runner = network_runner(plugins, run);
  if (run.nodes == 0)
    throw InputError(c.swf.empty() ? "the machine size is unknown: give --nodes"
                                   : "the machine size is unknown: give --nodes (the log has no MaxNodes or MaxProcs)");
  if (run.stream.set.jobs.empty())
    throw InputError("no job to schedule: the " + run.stream.description + " has no job that can run (" +
                     std::to_string(run.stream.set.dropped) + " dropped by the log conventions; see --missing)");
  scheduler::ScheduleOptions so;
  so.nodes = run.nodes;
  so.seed = c.network.seed;
  so.bounded_slowdown_tau = c.bsld_tau;
  so.series_bins = c.series_bins;
  so.passes = c.passes == "event" ? scheduler::Passes::PerEvent : scheduler::Passes::PerInstant;
  Progress progress(c.progress);
  so.progress = &progress;
  if (run.setup) {
    const scheduler::AllocationContext context = scheduler::allocation_context_of(*run.setup->topology);
    so.network = context.network;
    allocation = plugins.allocations.create(run.allocation_spec, context);
  }
  run.result =
      scheduler::simulate_schedule(run.stream.set.jobs, *selection, std::move(allocation), so, runner.get());
  if (runner) {
    run.isolated = runner->isolated_runtimes();
    run.simulations = runner->simulations();
    run.mean_network_slowdown = scheduler::mean_network_slowdown(run.result.jobs, run.isolated);
    run.applications = runner->applications();
    run.link_bytes = runner->link_bytes();
    run.link_busy_s = runner->link_busy_s();
    for (std::uint32_t j = 0; j < run.applications.size(); ++j) run.phase_ends.push_back(runner->phase_ends(j));
    if (run.storage) {
      run.job_io.resize(run.applications.size());
      for (std::size_t j = 0; j < run.job_io.size(); ++j)
        if (!run.result.jobs[j].refused && !run.applications[j].placement.empty())
          run.job_io[j] = storage::job_io(run.applications[j], *run.storage);
    }
  }
  run.simulate_seconds = clock.seconds();
  return run;
}

}  // namespace interflow::cli
