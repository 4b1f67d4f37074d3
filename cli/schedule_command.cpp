// `interflow schedule`: replays a job log (SWF) or a job stream through the batch-scheduler model
// (scheduler/; manual/scheduler.md); parses, builds the run (cli/schedule_run.cpp) and writes its
// results (cli/schedule_report.cpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/schedule_report.hpp"
#include "cli/schedule_run.hpp"

namespace interflow::cli {

namespace {

void add_source_options(OptionTable& t, ScheduleConfig& c) {
  t.text("--swf", c.swf, "the job log: Standard Workload Format, plain or gzip-compressed");
  t.whole("--jobs", c.jobs, "instead of --swf: a synthetic stream of this many jobs");
  t.real("--mean-gap", c.mean_gap, "synthetic jobs: mean time between arrivals (s; Poisson)", 0, 1e12);
  t.wholes("--job-sizes", c.job_sizes, "synthetic jobs: sizes in nodes, drawn uniformly", 1);
  t.real("--mean-runtime", c.mean_runtime, "synthetic jobs, network-agnostic: mean run time (s; exponential)", 0,
         1e12);
  t.real("--estimate-factor", c.estimate_factor,
         "synthetic and network-aware jobs: estimate = run time (network-aware: the run time alone on the first "
         "nodes) x this",
         0, 1e6, true);
  t.text("--inrflow-workload", c.inrflow_workload,
         "network-aware: jobs from INRFlow's workload file (arrival, application, size; its allocation column is "
         "replaced by --allocation)");
  t.real("--inrflow-time-unit", c.inrflow_time_unit, "seconds per unit of that file's arrival times", 0, 1e6, true);
}

void add_log_options(OptionTable& t, ScheduleConfig& c) {
  t.text("--size-from", c.size_from, "job size from allocated (field 5) or requested (field 8) processors")
      ->check(CLI::IsMember({"allocated", "requested"}));
  t.text("--overrun", c.overrun, "a job running past its requested time (field 9): kill (ends there) or allow")
      ->check(CLI::IsMember({"kill", "allow"}));
  t.text("--missing", c.missing,
         "jobs with a missing run time, size or estimate: drop, repair (run time 0, the other processor field, "
         "estimate = run time) or one-second (pyss: a job with a missing or 0 run time or size runs 1 s; every job "
         "runs at least 1 s)")
      ->check(CLI::IsMember({"drop", "repair", "one-second"}));
  t.whole("--procs-per-node", c.procs_per_node, "processors per node: a job's nodes = processors / this", 1);
  t.text("--estimate", c.estimate,
         "what the scheduler believes a job's run time is: log (requested time), exact (the run time) or scaled (run "
         "time x --estimate-scale) or at-least-run (pyss: max(requested time, the log's run time))")
      ->check(CLI::IsMember({"log", "exact", "scaled", "at-least-run"}));
  t.real("--estimate-scale", c.estimate_scale, "with --estimate scaled: the factor", 0, 1e6, true);
  t.real("--time-scale", c.time_scale, "network-aware with --swf: submit times are multiplied by this", 0, 1e6, true);
}

void add_scheduler_options(OptionTable& t, ScheduleConfig& c) {
  t.text("-p,--policy", c.policy, "job selection policy (see `interflow list selection`)");
  t.whole("--nodes", c.nodes, "machine size in nodes (0 = the log's MaxProcs / --procs-per-node, else MaxNodes)");
  t.text("--allocation", c.allocation,
         "which free nodes a job gets: an allocation spec (see `interflow list allocation`): consecutive, random, "
         "locality (network-aware), geometric[:mean=M]");
  t.text("--mapping", c.mapping,
         "network-aware task mapping spec (see `interflow list mapping`): consecutive, random, file:path=FILE");
  t.text("--passes", c.passes,
         "when the selection policy runs: instant (once per instant at which jobs end or arrive) or event (pyss: after "
         "every arrival, then after every end)")
      ->check(CLI::IsMember({"instant", "event"}));
  t.real("--bsld-tau", c.bsld_tau, "bounded slowdown threshold in seconds", 0, 1e12, true);
  t.whole("--series-bins", c.series_bins, "bins of the utilisation series over the makespan", 1, 10'000'000);
}

void add_network_aware_options(OptionTable& t, ScheduleConfig& c) {
  t.flag("--network-aware", c.network_aware,
         "run every job's application (--job-app) on the simulated network (-t, -r): run times emerge from sharing "
         "it");
  add_network_options(t, c.network, false, "network-aware: ");
  t.texts("--job-app", c.job_apps,
          "network-aware: an application spec without tasks (repeatable); job j runs the k-th, k = its executable "
          "number (or its position) modulo their count");
  t.text("--job-app-by", c.job_app_by,
         "network-aware: which SWF field picks a job's --job-app: executable (14), queue (15) or position")
      ->check(CLI::IsMember({"executable", "queue", "position"}));
  t.text("--transport", c.transport,
         "network-aware: how the network carries the jobs' messages: flow (max-min fair flows), packet (the packet "
         "engine; manual/packet.md \"Closed-loop workloads\") or hybrid (flows, with the --zoom routers at packet "
         "level; manual/hybrid.md)")
      ->check(CLI::IsMember({"flow", "packet", "hybrid"}));
  add_packet_transport_options(t, c.packet);
  add_zoom_options(t, c.zoom, "network-aware --transport hybrid");
}

// Storage (manual/storage.md) and the class policy between App and I/O traffic.
void add_storage_options(OptionTable& t, ScheduleConfig& c) {
  t.text("--data-placement", c.data_placement,
         "network-aware: model storage and place each job's data with this policy (see `interflow list "
         "placement`): local, internal[:share=F], external[:devices=N,pick=next|random] or san");
  storage::StorageConfig& s = c.storage;
  t.real("--nvm-read-gbps", s.nvm_read_gbps, "storage: a node's NVM device read bandwidth (Gbit/s)", 0, 1e9, true);
  t.real("--nvm-write-gbps", s.nvm_write_gbps, "storage: NVM write bandwidth (Gbit/s)", 0, 1e9, true);
  t.real("--pcie-gbps", s.pcie_gbps, "storage: the PCIe controller between a node and its NVM, each way (Gbit/s)", 0,
         1e9, true);
  t.real("--nvm-latency-ns", s.nvm_latency_ns, "storage: latency of the device and PCIe links (ns)", 0, 1e12);
  t.text("--san", c.san, "storage: the SAN's topology spec (its first --san-servers endpoints are servers, the rest "
                         "gateways to the main network)");
  t.text("--san-routing", c.san_routing, "storage: the SAN's routing (default: its topology's)");
  t.real("--san-gbps", c.san_gbps, "storage: SAN link bandwidth (Gbit/s)", 0, 1e9, true);
  t.real("--san-latency-ns", c.san_latency_ns, "storage: SAN link latency (ns)", 0, 1e12);
  t.whole("--san-servers", s.servers, "storage: SAN endpoints that are storage servers", 1, 4294967295.0);
  t.real("--server-gbps", s.server_gbps, "storage: a server's disks, each way (Gbit/s)", 0, 1e9, true);
  t.real("--gateway-gbps", s.gateway_gbps, "storage: a gateway's cable to its node (Gbit/s)", 0, 1e9, true);
  t.real("--gateway-latency-ns", s.gateway_latency_ns, "storage: a gateway cable's latency (ns)", 0, 1e12);
  t.wholes("--gateway-nodes", c.gateway_nodes, "storage: the main-network node of each gateway (default: spread evenly)",
           0);
  t.text("--class-policy", c.class_policy,
         "network-aware: how service classes share links (App = class 0, I/O = class 1): np, ba (--class-share), fp "
         "or qos (--class-cap, --class-priority); see `interflow list class-policy`");
  t.reals("--class-share", c.class_shares, "ba: each class's share of every link, e.g. 0.5,0.5", 0, 1, true);
  t.reals("--class-cap", c.class_caps, "qos: each class's cap as a fraction of every link", 0, 1, true);
  t.wholes("--class-priority", c.class_priorities, "fp, qos: each class's priority level (0 first)", 0, 1'000'000);
}

std::vector<const char*> storage_option_names() {
  return {"--nvm-read-gbps", "--nvm-write-gbps", "--pcie-gbps", "--nvm-latency-ns", "--san"};
}
std::vector<const char*> san_option_names() {
  return {"--san-routing", "--san-gbps", "--san-latency-ns", "--san-servers", "--server-gbps", "--gateway-gbps",
          "--gateway-latency-ns", "--gateway-nodes"};
}

void refuse_storage_conflicts(const OptionTable& t, const ScheduleConfig& c) {
  const bool storage = !c.data_placement.empty();
  t.refuse_unless("--data-placement", c.network_aware && c.transport == "flow", "with --network-aware --transport flow");
  for (const char* o : storage_option_names()) t.refuse_unless(o, storage, "with --data-placement");
  for (const char* o : san_option_names()) t.refuse_unless(o, !c.san.empty(), "with --san");
  if (!c.san.empty() && c.storage.servers == 0) throw InputError("--san needs --san-servers N (its storage servers)");
  t.refuse_unless("--class-policy", c.network_aware && c.transport != "packet",
                  "with --network-aware --transport flow or hybrid");
  t.refuse_unless("--class-share", c.class_policy == "ba", "with --class-policy ba");
  t.refuse_unless("--class-cap", c.class_policy == "qos", "with --class-policy qos");
  t.refuse_unless("--class-priority", c.class_policy == "fp" || c.class_policy == "qos",
                  "with --class-policy fp or qos");
}

// One job source; each option only where it applies.
void refuse_conflicts(const OptionTable& t, const ScheduleConfig& c) {
  const int sources = !c.swf.empty() + (c.jobs > 0) + !c.inrflow_workload.empty();
  if (sources != 1)
    throw InputError(
        "schedule needs one job source: a log (--swf FILE), a synthetic stream (--jobs N) or an INRFlow workload "
        "file (--inrflow-workload FILE)");
  for (const char* o : {"--mean-gap", "--job-sizes", "--mean-runtime"})
    t.refuse_unless(o, c.jobs > 0, "to a synthetic stream (--jobs)");
  for (const char* o : {"--size-from", "--overrun", "--missing", "--procs-per-node", "--estimate"})
    t.refuse_unless(o, !c.swf.empty(), "to a log (--swf)");
  t.refuse_unless("--estimate-scale", c.estimate == "scaled", "with --estimate scaled");
  t.refuse_unless("--time-scale", c.network_aware && !c.swf.empty(), "network-aware with --swf");
  t.refuse_unless("--inrflow-time-unit", !c.inrflow_workload.empty(), "with --inrflow-workload");
  if (!c.inrflow_workload.empty() && !c.network_aware)
    throw InputError("--inrflow-workload gives applications, not run times: use it with --network-aware");
  if (c.network_aware && c.job_apps.empty() && c.inrflow_workload.empty())
    throw InputError("--network-aware needs the jobs' applications: --job-app SPEC (repeatable)");
  for (const char* o : {"--topology", "--routing", "--endpoint-gbps", "--switch-gbps", "--endpoint-latency-ns",
                        "--switch-latency-ns", "--job-app", "--job-app-by", "--mapping", "--transport"})
    t.refuse_unless(o, c.network_aware, "with --network-aware");
  for (const std::string& o : packet_transport_option_names())
    t.refuse_unless(o, c.network_aware && c.transport != "flow", "with --network-aware --transport packet or hybrid");
  for (const std::string& o : zoom_option_names())
    t.refuse_unless(o, c.network_aware && c.transport == "hybrid", "with --network-aware --transport hybrid");
  t.refuse_together("--json", "--quiet", "--json prints the summary, --quiet prints nothing");
  refuse_storage_conflicts(t, c);
}

// The options that do not apply to this run's source and mode, left out of config.toml.
std::map<std::string, Json> resolved_options(const ScheduleRun& run) {
  const ScheduleConfig& c = run.config;
  std::map<std::string, Json> r;
  if (c.jobs == 0)
    for (const char* o : {"jobs", "mean-gap", "job-sizes", "mean-runtime"}) r[o] = nullptr;
  if (c.network_aware) r["mean-runtime"] = nullptr;        // run times emerge from the network
  if (c.jobs == 0 && !c.network_aware) r["estimate-factor"] = nullptr;  // a log gives its estimates
  if (c.swf.empty())
    for (const char* o : {"size-from", "overrun", "missing", "procs-per-node", "estimate", "time-scale"})
      r[o] = nullptr;
  if (c.estimate != "scaled") r["estimate-scale"] = nullptr;
  if (c.inrflow_workload.empty()) r["inrflow-time-unit"] = nullptr;
  if (!c.network_aware || c.transport == "flow") {
    for (const std::string& o : packet_transport_option_names()) r[o.substr(2)] = nullptr;
  }
  if (!c.network_aware || c.transport != "hybrid")
    for (const std::string& o : zoom_option_names()) r[o.substr(2)] = nullptr;
  if (c.data_placement.empty()) {
    r["data-placement"] = nullptr;
    for (const char* o : storage_option_names()) r[std::string(o).substr(2)] = nullptr;
  }
  if (c.san.empty())
    for (const char* o : san_option_names()) r[std::string(o).substr(2)] = nullptr;
  if (!c.network_aware || c.transport == "packet") r["class-policy"] = nullptr;
  if (c.class_policy != "ba") r["class-share"] = nullptr;
  if (c.class_policy != "qos") r["class-cap"] = nullptr;
  if (c.class_policy != "fp" && c.class_policy != "qos") r["class-priority"] = nullptr;
  if (!c.network_aware) {
    for (const char* o : {"topology", "routing", "endpoint-gbps", "switch-gbps", "endpoint-latency-ns",
                          "switch-latency-ns", "job-app-by", "mapping", "time-scale", "transport"})
      r[o] = nullptr;
  } else {
    r["routing"] = run.setup->routing_spec.text;
  }
  return r;
}

}  // namespace

Command add_schedule_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("schedule",
                                 "batch-scheduler model: replay a job log (SWF) with a selection policy; wait, "
                                 "slowdown and utilisation");
  auto c = std::make_shared<ScheduleConfig>();
  auto t = std::make_shared<OptionTable>(cmd);
  t->add_config();
  add_source_options(*t, *c);
  add_log_options(*t, *c);
  add_scheduler_options(*t, *c);
  add_network_aware_options(*t, *c);
  add_storage_options(*t, *c);
  t->add_out("write summary.json, jobs.csv, utilisation.csv and config.toml here (with storage also devices.csv; "
             "with phased applications trajectories.csv)");
  t->add_output_flags();
  return Command{[&plugins, c, t]() {
    t->apply_config();
    refuse_conflicts(*t, *c);
    c->progress = t->progress();
    const ScheduleRun run = run_schedule(plugins, *c);
    for (std::size_t k = 0; k < run.result.refused.size() && k < 10; ++k)
      std::cerr << "interflow: refused: " << run.result.refused[k] << '\n';
    if (run.result.refused.size() > 10)
      std::cerr << "interflow: refused " << run.result.refused.size() << " jobs in all\n";
    if (run.result.summary.completed == 0)
      throw InputError("no job ran: all " + std::to_string(run.result.summary.refused) +
                       " jobs are larger than the machine's " + std::to_string(run.nodes) + " nodes");
    const std::map<std::string, Json> resolved = resolved_options(run);
    RunHeader header{"schedule", "scheduler", c->network.seed, 1, t->echo(resolved), {}};
    if (run.setup) add_network(header, *run.setup);
    add_plugin(header, "policy", run.selection_spec, run.selection_params);
    add_plugin(header, "allocation", run.allocation_spec, run.allocation_params);
    if (run.setup) add_plugin(header, "mapping", run.mapping_spec, run.mapping_params);
    if (run.packet) {
      add_plugin(header, "switch", run.packet->switch_spec, run.packet->switch_params);
      add_plugin(header, "scheduler", run.packet->scheduler_spec, run.packet->scheduler_params);
    }
    if (run.zoom) add_plugin(header, "zoom", run.zoom_spec, run.zoom_params);
    if (run.storage) add_plugin(header, "data_placement", run.placement_spec, run.placement_params);
    const Json summary = schedule_summary(run, header);
    if (!t->out_dir().empty()) {
      const ResultsDir dir(t->out_dir());
      write_schedule_files(run, dir);
      dir.finish(t->config_toml(resolved), summary);
    }
    if (t->json())
      write_json(std::cout, summary);
    else if (!t->quiet())
      print_schedule_summary(run, header, std::cout);
    return 0;
  }, t};
}

}  // namespace interflow::cli
