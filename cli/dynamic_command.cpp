#include <iostream>

#include "cli/commands.hpp"
#include "cli/dynamic_report.hpp"
#include "cli/dynamic_run.hpp"

namespace interflow::cli {

Action add_dynamic_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand(
      "dynamic", "dynamic flow engine: flows with sizes and start times share the network; completion times");
  auto config = std::make_shared<DynamicConfig>();
  struct Output {
    std::string dir;
    bool flows_csv = false, json = false, quiet = false, no_progress = false;
  };
  auto output = std::make_shared<Output>();
  NetworkOptions& n = config->network;
  cmd->add_option("-t,--topology", n.topology, "topology spec NAME[:key=value,...] (see `interflow list`)")
      ->capture_default_str();
  cmd->add_option("-r,--routing", n.routing, "routing spec NAME[:key=value,...]; default: the topology's own");
  cmd->add_option("-f,--flow-file", config->flow_file,
                  "CSV flow list src,dst,bytes,start_time[,class][,after] (instead of --pattern)");
  cmd->add_option("-a,--app", config->apps,
                  "an application KERNEL:key=value,... (repeatable; tasks, placement, class, arrival plus the "
                  "kernel's own; see `interflow list application`): tasks run programs instead of flows");
  cmd->add_option("--inrflow-workload", config->inrflow_workload,
                  "INRFlow workload file: one application per line '<arrival> <kernel>[_<params>] <ntasks> "
                  "<allocation>', added to the --app list (manual/traces.md)");
  cmd->add_option("--inrflow-time-unit", config->inrflow_time_unit,
                  "seconds per unit of the INRFlow workload file's arrival times")
      ->capture_default_str();
  cmd->add_option("--cpu-scale", config->cpu_scale, "with --app: factor applied to every computation")
      ->capture_default_str();
  cmd->add_option("--max-in-flight", config->max_in_flight,
                  "with --app: messages a task may have under transfer at once (INRFlow's injmode; 0 = no limit)")
      ->capture_default_str();
  cmd->add_option("-p,--pattern", config->pattern, "traffic pattern spec giving the flows' ends (without --flow-file)")
      ->capture_default_str();
  cmd->add_option("-b,--bytes", config->bytes, "size of every pattern flow in bytes")->capture_default_str();
  cmd->add_option("--arrival", config->arrival,
                  "when pattern flows start: zero (all at time 0) or poisson (a Poisson process at --load)")
      ->capture_default_str();
  cmd->add_option("--load", config->load,
                  "with --arrival poisson: offered load as a fraction of the endpoints' total injection capacity")
      ->capture_default_str();
  cmd->add_option("--phase-size", config->phase_size,
                  "group pattern flows, in pattern order, into phases of this many; a phase starts when the "
                  "previous one is delivered (0 = no phases)")
      ->capture_default_str();
  cmd->add_option("-s,--seed", n.seed, "seed of every random choice of the run")->capture_default_str();
  cmd->add_option("-j,--threads", config->threads, "worker threads for routing (0 = all cores)")->capture_default_str();
  cmd->add_option("--endpoint-gbps", n.links.endpoint_gbps, "capacity of endpoint (injection) links")
      ->capture_default_str();
  cmd->add_option("--switch-gbps", n.links.switch_gbps, "capacity of switch-to-switch links")->capture_default_str();
  cmd->add_option("--endpoint-latency-ns", n.links.endpoint_latency_ns, "latency of endpoint links")
      ->capture_default_str();
  cmd->add_option("--switch-latency-ns", n.links.switch_latency_ns, "latency of switch-to-switch links")
      ->capture_default_str();
  cmd->add_option("--failures", n.failures, "cables to fail: a percentage (5%), a fraction (0.05) or a count")
      ->capture_default_str();
  cmd->add_option("--failure-scope", n.failure_scope, "which cables may fail: network or all")->capture_default_str();
  cmd->add_option("--max-flows", config->max_flows, "refuse patterns that would generate more flows")
      ->capture_default_str();
  cmd->add_option("--max-path-memory", config->max_path_memory_gib, "refuse routings whose paths need more GiB")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--series-bins", config->series_bins, "bins of the time series (series.csv) over the makespan")
      ->check(CLI::Range(1u, 10'000'000u))
      ->capture_default_str();
  cmd->add_option("--policy", config->policy,
                  "how service classes share links: np (alike), fp (strict priority), ba (guaranteed shares, "
                  "--class-share) or qos (--class-cap and --class-priority)")
      ->capture_default_str();
  cmd->add_option("--class-share", config->class_shares, "ba: each class's share of every link, e.g. 0.5,0.5")
      ->delimiter(',');
  cmd->add_option("--class-cap", config->class_caps,
                  "qos: each class's bandwidth cap as a fraction of every link, e.g. 0.3,1")
      ->delimiter(',');
  cmd->add_option("--class-priority", config->class_priorities,
                  "fp, qos: each class's priority level, 0 served first (fp default: the class number)")
      ->delimiter(',');
  cmd->add_flag("--full-resolve", config->full_resolve,
                "re-solve every active flow at every event batch instead of only those whose rates can change "
                "(same results, slower; for measuring the incremental solver)");
  cmd->add_option("--write-goal", config->write_goal,
                  "with one --app: also write it as a GOAL schedule to this file (manual/traces.md)");
  cmd->add_option("--write-vef", config->write_vef,
                  "with one --app: also write it as a VEF trace to this file, each message's dependency taken from "
                  "this run (manual/traces.md)");
  cmd->add_option("-o,--out", output->dir, "write summary.json, links.csv, series.csv (and flows.csv) here");
  cmd->add_flag("--flows-csv", output->flows_csv, "with --out, also write flows.csv (one row per flow)");
  cmd->add_flag("--json", output->json, "print summary.json on stdout instead of the text summary");
  cmd->add_flag("-q,--quiet", output->quiet, "print nothing on stdout");
  cmd->add_flag("--no-progress", output->no_progress, "never show the progress line on stderr");
  return [&plugins, config, output]() {
    config->progress = !output->no_progress;
    if (output->flows_csv && output->dir.empty()) throw InputError("--flows-csv needs --out DIR");
    const DynamicRun run = run_dynamic(plugins, *config);
    if (!output->dir.empty()) write_dynamic_results_dir(run, output->dir, output->flows_csv);
    if (output->json)
      write_dynamic_summary_json(run, std::cout);
    else if (!output->quiet)
      print_dynamic_summary_text(run, std::cout);
    if (!run.tasks.blocked.empty()) {  // a deadlock: say who waits for what, fail the run
      print_deadlock_report(run, std::cerr);
      return 3;
    }
    return 0;
  };
}

}  // namespace interflow::cli
