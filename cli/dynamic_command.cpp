// `interflow dynamic`: parses, builds the run from the registries (cli/dynamic_run.cpp) and writes its
// results (cli/dynamic_report.cpp).
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/dynamic_report.hpp"
#include "cli/dynamic_run.hpp"
#include "core/format.hpp"

namespace interflow::cli {

namespace {

void add_workload_options(OptionTable& t, DynamicConfig& c) {
  t.text("-f,--flow-file", c.flow_file,
         "CSV flow list src,dst,bytes,start_time[,class][,after] (instead of --pattern)");
  t.texts("-a,--app", c.apps,
          "an application KERNEL:key=value,... (repeatable; tasks, placement, class, arrival plus the kernel's own; "
          "see `interflow list application`): tasks run programs instead of flows");
  t.text("--inrflow-workload", c.inrflow_workload,
         "INRFlow workload file: one application per line '<arrival> <kernel>[_<params>] <ntasks> <allocation>', "
         "added to the --app list (manual/traces.md)");
  t.real("--inrflow-time-unit", c.inrflow_time_unit, "seconds per unit of the INRFlow workload file's arrival times",
         0, 1e6, true);
  t.real("--cpu-scale", c.cpu_scale, "with --app: factor applied to every computation", 0, 1e12);
  t.whole("--max-in-flight", c.max_in_flight,
          "with --app: messages a task may have under transfer at once (INRFlow's injmode; 0 = no limit)");
  t.text("-p,--pattern", c.pattern, "traffic pattern spec giving the flows' ends (without --flow-file or --app)");
  t.real("-b,--bytes", c.bytes, "size of every pattern flow in bytes", 0, 1e18);
  t.text("--arrival", c.arrival,
         "when pattern flows start: an arrival spec, zero (all at time 0) or poisson[:load=L] (see `interflow list "
         "arrival`)");
  t.real("--load", c.load, "shorthand for --arrival poisson:load=L: offered load, a fraction of injection capacity",
         0, 1e6, true);
  t.whole("--phase-size", c.phase_size,
          "group pattern flows, in pattern order, into phases of this many; a phase starts when the previous one is "
          "delivered (0 = no phases)");
}

void add_engine_options(OptionTable& t, DynamicConfig& c) {
  t.text("--transport", c.transport,
         "how the network carries messages: flow (max-min fair flows), packet (the packet engine: flits, credits, "
         "switch models; manual/packet.md \"Closed-loop workloads\") or hybrid (flows, with the --zoom routers at "
         "packet level; manual/hybrid.md)");
  add_packet_transport_options(t, c.packet);
  add_zoom_options(t, c.zoom, "--transport hybrid");
  t.whole("-j,--threads", c.threads,
          "worker threads for routing and for writing flows.csv as an open-loop run goes (0 = all cores)", 0, 4096);
  t.whole("--max-flows", c.max_flows, "refuse patterns that would generate more flows", 1);
  t.real("--max-path-memory-gib,--max-path-memory", c.max_path_memory_gib,
         "refuse routings whose paths need more GiB", 0, 1e6, true);
  t.whole("--series-bins", c.series_bins, "bins of the time series (series.csv) over the makespan", 1, 10'000'000);
  t.text("--policy", c.policy,
         "how service classes share links: np (alike), fp (strict priority), ba (guaranteed shares, --class-share) "
         "or qos (--class-cap and --class-priority); see `interflow list class-policy`");
  t.reals("--class-share", c.class_shares, "ba: each class's share of every link, e.g. 0.5,0.5", 0, 1, true);
  t.reals("--class-cap", c.class_caps, "qos: each class's bandwidth cap as a fraction of every link, e.g. 0.3,1", 0,
          1, true);
  t.wholes("--class-priority", c.class_priorities,
           "fp, qos: each class's priority level, 0 served first (fp default: the class number)", 0, 1'000'000);
  t.real("--router-delay-ns", c.router_delay_ns,
         "latency a message's path gains at every switch it passes, ns: a router's pipeline at zero load, as the "
         "packet engine's switch models have (default 0: links only; manual/dynamic.md \"The model\")",
         0, 1e9);
  t.flag("--nic-fifo", c.nic_fifo,
         "a NIC sends its messages one at a time per class, in the order they start, as the packet engine's NICs "
         "do (default: all at once, sharing the NIC max-min; manual/dynamic.md \"NIC order\")");
  t.real("--batch-tolerance", c.batch_tolerance,
         "flow level: transfer ends within this relative distance of a batch's time end in that batch, early "
         "(fewer re-solves; the summary gives how early at most; default 0: only ends at the same instant; "
         "manual/dynamic.md \"Batching\")",
         0, 1e-2);
  t.text("--rate-solver", c.rate_solver,
         "flow level: the incremental max-min solver, variables (one rate per flow path), groups (the paths "
         "a bottleneck holds at one level share it: far faster in incasts; same rates up to rounding; "
         "manual/dynamic.md \"Bottleneck groups\") or auto (variables, handed to groups while the batches "
         "show many flows changing at few levels; manual/dynamic.md \"Switching to groups\")");
  t.flag("--full-resolve", c.full_resolve,
         "re-solve every active flow at every event batch instead of only those whose rates can change (same "
         "results, slower; for measuring the incremental solver)");
  t.text("--write-goal", c.write_goal, "with one --app: also write it as a GOAL schedule to this file (manual/traces.md)");
  t.text("--write-vef", c.write_vef,
         "with one --app: also write it as a VEF trace to this file, each message's dependency taken from this run "
         "(manual/traces.md)");
}

// Options that make no sense together, or without the workload they apply to.
void refuse_conflicts(const OptionTable& t, const DynamicConfig& c) {
  const bool apps = !c.apps.empty() || !c.inrflow_workload.empty();
  t.refuse_together("--flow-file", "--app", "they are two kinds of workload; give one");
  t.refuse_together("--flow-file", "--inrflow-workload", "they are two kinds of workload; give one");
  for (const char* pattern_option : {"--pattern", "--bytes", "--arrival", "--load", "--phase-size"}) {
    t.refuse_unless(pattern_option, c.flow_file.empty() && !apps, "to pattern workloads (not with --flow-file or --app)");
  }
  for (const char* app_option : {"--cpu-scale", "--max-in-flight", "--write-goal", "--write-vef"})
    t.refuse_unless(app_option, apps, "with --app or --inrflow-workload");
  t.refuse_unless("--inrflow-time-unit", !c.inrflow_workload.empty(), "with --inrflow-workload");
  t.refuse_unless("--class-share", c.policy == "ba", "with --policy ba");
  t.refuse_unless("--class-cap", c.policy == "qos", "with --policy qos");
  t.refuse_unless("--class-priority", c.policy == "fp" || c.policy == "qos", "with --policy fp or qos");
  t.refuse_unless("--flows-csv", !t.out_dir().empty(), "with --out DIR");
  const bool packets = c.transport == "packet", hybrid = c.transport == "hybrid";
  for (const std::string& o : packet_transport_option_names())
    t.refuse_unless(o, packets || hybrid, "with --transport packet or hybrid");
  for (const std::string& o : zoom_option_names()) t.refuse_unless(o, hybrid, "with --transport hybrid");
  for (const char* o : {"--policy", "--class-share", "--class-cap", "--class-priority", "--full-resolve",
                        "--max-path-memory-gib", "--batch-tolerance", "--rate-solver", "--profile"})
    t.refuse_unless(o, !packets,
                    "to the flow transport (with --transport packet, the switches' output schedulers share the links)");
  for (const char* o : {"--nic-fifo", "--router-delay-ns"})
    t.refuse_unless(o, !packets,
                    "to the flow transport (with --transport packet, the packet engine's NICs and switch pipelines are "
                    "the model)");
  t.refuse_together("--json", "--quiet", "--json prints the summary, --quiet prints nothing");
}

// --load L: shorthand for --arrival poisson:load=L (with an --arrival given, it must be poisson and
// not give a load itself).
void apply_load_shorthand(const OptionTable& t, DynamicConfig& c) {
  if (!t.given("--load")) return;
  if (!t.given("--arrival")) c.arrival = "poisson";
  const Spec arrival = Spec::parse(c.arrival, "--arrival");
  if (arrival.name != "poisson")
    throw InputError("--load applies to Poisson arrivals; give --arrival poisson (not '" + c.arrival + "')");
  for (const auto& [key, value] : arrival.values)
    if (key == "load") throw InputError("--load and --arrival '" + c.arrival + "' both give the load; give one");
  c.arrival += (arrival.values.empty() ? ":" : ",") + std::string("load=") + number_text(c.load);
}

// The values the run resolved (the routing, the arrival with --load folded in) and the options that
// do not apply to its kind of workload, left out of config.toml so that it runs again as it is.
std::map<std::string, Json> resolved_options(const DynamicRun& run) {
  const DynamicConfig& c = run.config;
  std::map<std::string, Json> r{{"routing", run.setup.routing_spec.text}, {"arrival", c.arrival}, {"load", nullptr},
                                {"write-goal", nullptr}, {"write-vef", nullptr}};
  const bool apps = run.applications(), flows = !c.flow_file.empty();
  if (apps || flows)
    for (const char* o : {"pattern", "bytes", "arrival", "phase-size"}) r[o] = nullptr;
  if (!apps)
    for (const char* o : {"cpu-scale", "max-in-flight", "inrflow-time-unit"}) r[o] = nullptr;
  if (c.inrflow_workload.empty()) r["inrflow-time-unit"] = nullptr;
  if (c.transport == "packet")
    for (const char* o : {"policy", "class-share", "class-cap", "class-priority", "full-resolve", "max-path-memory-gib",
                          "nic-fifo", "router-delay-ns", "batch-tolerance", "rate-solver"})
      r[o] = nullptr;
  if (c.transport == "flow")
    for (const std::string& o : packet_transport_option_names()) r[o.substr(2)] = nullptr;
  if (c.transport != "hybrid")
    for (const std::string& o : zoom_option_names()) r[o.substr(2)] = nullptr;
  return r;
}

}  // namespace

Command add_dynamic_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand(
      "dynamic", "dynamic flow engine: flows with sizes and start times share the network; completion times");
  auto config = std::make_shared<DynamicConfig>();
  auto t = std::make_shared<OptionTable>(cmd);
  auto flows_csv = std::make_shared<bool>(false);
  t->add_config();
  add_network_options(*t, config->network);
  add_workload_options(*t, *config);
  add_engine_options(*t, *config);
  t->add_out("write summary.json, links.csv, series.csv and config.toml (and flows.csv) into this folder");
  t->output_flag("--flows-csv", *flows_csv, "with --out, also write flows.csv (one row per flow)");
  t->output_flag("--profile", config->profile,
                 "flow level: time every batch's steps (solve, rates, heap, transfer ends and starts, the driver) and "
                 "count the sets re-solved; written to the summary (manual/dynamic.md \"Profile\")");
  t->add_output_flags();
  return Command{[&plugins, config, t, flows_csv]() {
    t->apply_config();
    refuse_conflicts(*t, *config);
    apply_load_shorthand(*t, *config);
    config->progress = t->progress();
    // flows.csv of an open-loop run is written as the run goes.
    std::unique_ptr<FlowsCsvStream> flows_out;
    if (*flows_csv && !t->out_dir().empty()) flows_out = std::make_unique<FlowsCsvStream>(t->out_dir());
    const DynamicRun run = run_dynamic(plugins, *config, flows_out.get());
    const std::map<std::string, Json> resolved = resolved_options(run);
    RunHeader header{"dynamic", "dynamic engine", config->network.seed, run.threads_used, t->echo(resolved), {}};
    add_network(header, run.setup);
    if (!run.pattern_spec.name.empty()) {
      add_plugin(header, "pattern", run.pattern_spec, run.pattern_params);
      add_plugin(header, "arrival", run.arrival_spec, run.arrival_params);
    }
    if (run.packet) {
      add_plugin(header, "switch", run.packet->switch_spec, run.packet->switch_params);
      add_plugin(header, "scheduler", run.packet->scheduler_spec, run.packet->scheduler_params);
    }
    if (run.zoom) add_plugin(header, "zoom", run.zoom->spec, run.zoom->params);
    const Json summary = dynamic_summary(run, header);
    if (!t->out_dir().empty()) {
      const ResultsDir dir(t->out_dir());
      if (flows_out) flows_out->commit();  // first: written during the run, its error is the one to report
      write_dynamic_files(run, dir, *flows_csv);
      dir.finish(t->config_toml(resolved), summary);
    }
    if (t->json())
      write_json(std::cout, summary);
    else if (!t->quiet())
      print_dynamic_summary(run, header, std::cout);
    if (!run.tasks.blocked.empty()) {  // a deadlock: say who waits for what, fail the run
      print_deadlock_report(run, std::cerr);
      return 3;
    }
    return 0;
  }, t};
}

}  // namespace interflow::cli
