// `interflow schedule`: replays a job log (SWF) or a job stream through the batch-scheduler model
// (scheduler/; manual/scheduler.md) and reports the scheduling metrics.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/json.hpp"
#include "cli/output.hpp"
#include "cli/setup.hpp"
#include "core/error.hpp"
#include "core/system.hpp"
#include "engine/flow/flow_transport.hpp"
#include "interflow/version.hpp"
#include "scheduler/network_aware.hpp"
#include "scheduler/schedule.hpp"
#include "scheduler/swf.hpp"
#include "workloads/inrflow_workload.hpp"

namespace interflow::cli {

namespace {

struct ScheduleConfig {
  std::string swf, policy = "easy", size_from = "allocated", overrun = "kill", missing = "drop";
  std::string estimate = "log", allocation = "consecutive", out;
  std::uint32_t procs_per_node = 1, nodes = 0, series_bins = 200;
  double estimate_scale = 1, bsld_tau = 10;
  std::uint64_t seed = 1;
  bool json = false, quiet = false, no_progress = false;
  // A synthetic stream instead of a log.
  std::uint32_t jobs = 0;
  double mean_gap = 60, mean_runtime = 600, estimate_factor = 1;
  std::vector<std::uint32_t> job_sizes{1};
  // Network-aware mode.
  bool network_aware = false;
  NetworkOptions network = [] {
    NetworkOptions n;
    n.topology = "fattree:k=4,n=3";
    return n;
  }();
  std::vector<std::string> job_apps;
  double time_scale = 1;         // log submit times are multiplied by this in network-aware mode
  std::string inrflow_workload;  // network-aware: jobs from INRFlow's workload file
  double inrflow_time_unit = 1e-9;
  std::string mapping = "consecutive", job_app_by = "executable";
};

std::string csv_number(double v) { return std::isfinite(v) ? JsonWriter::number(v) : ""; }

// Network-aware extras: per job its run time alone on its nodes, and the mean of run time / that.
struct NetworkOutcome {
  std::vector<double> isolated;
  double mean_network_slowdown = 0;
  std::uint64_t simulations = 0;
};

void write_summary(JsonWriter& j, const ScheduleConfig& c, const scheduler::JobSet& set,
                   const scheduler::ScheduleResult& r, std::uint32_t nodes, double read_s, double simulate_s,
                   const NetworkOutcome* net) {
  const scheduler::ScheduleSummary& m = r.summary;
  j.begin_object();
  j.field("interflow_version", kVersion);
  j.field("engine", "schedule");
  j.field("seed", c.seed);
  j.key("config").begin_object();
  j.field("source", !c.swf.empty() ? "swf"
                    : c.jobs > 0   ? "synthetic"
                                   : "inrflow")
      .field("swf", c.swf)
      .field("policy", c.policy)
      .field("size_from", c.size_from)
      .field("overrun", c.overrun);
  j.field("missing", c.missing).field("estimate", c.estimate).field("estimate_scale", c.estimate_scale);
  j.field("processors_per_node", c.procs_per_node).field("nodes", nodes).field("allocation", c.allocation);
  j.field("bounded_slowdown_tau_s", c.bsld_tau).field("network_aware", c.network_aware);
  if (c.network_aware) {
    j.field("topology", c.network.topology).field("routing", c.network.routing).field("time_scale", c.time_scale);
    j.field("job_app_by", c.job_app_by);
    j.key("job_apps").begin_array();
    for (const std::string& a : c.job_apps) j.value(a);
    j.end_array();
  }
  if (c.swf.empty()) {
    j.field("jobs", c.jobs).field("mean_gap_s", c.mean_gap).field("mean_runtime_s", c.mean_runtime);
    j.key("job_sizes").begin_array();
    for (std::uint32_t v : c.job_sizes) j.value(v);
    j.end_array();
  }
  j.field("estimate_factor", c.estimate_factor);
  j.field("mapping", c.mapping).field("inrflow_workload", c.inrflow_workload);
  j.end_object();
  j.key("jobs").begin_object();
  j.field("in_log", static_cast<std::uint64_t>(set.jobs.size() + set.dropped)).field("dropped", set.dropped);
  j.field("repaired", set.repaired).field("scheduled", m.completed).field("refused", m.refused);
  j.end_object();
  j.field("makespan_s", m.makespan).field("first_submit_s", m.first_submit).field("last_end_s", m.last_end);
  j.field("mean_wait_s", m.mean_wait).field("median_wait_s", m.median_wait).field("max_wait_s", m.max_wait);
  j.field("mean_response_s", m.mean_response).field("mean_slowdown", m.mean_slowdown);
  j.field("mean_bounded_slowdown", m.mean_bounded_slowdown).field("max_bounded_slowdown", m.max_bounded_slowdown);
  j.field("utilisation", m.utilisation).field("throughput_jobs_per_hour", m.throughput_per_hour);
  j.field("scheduling_points", r.scheduling_points);
  if (net) j.field("mean_network_slowdown", net->mean_network_slowdown).field("simulations", net->simulations);
  j.key("time_s").begin_object().field("read", read_s).field("simulate", simulate_s).end_object();
  j.field("peak_rss_bytes", peak_rss_bytes());
  j.end_object();
  j.finish();
}

}  // namespace

Action add_schedule_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("schedule",
                                 "batch-scheduler model: replay a job log (SWF) with a selection policy; "
                                 "wait, slowdown and utilisation");
  auto c = std::make_shared<ScheduleConfig>();
  cmd->add_option("--swf", c->swf, "the job log: Standard Workload Format, plain or gzip-compressed");
  cmd->add_option("--jobs", c->jobs, "instead of --swf: a synthetic stream of this many jobs")->capture_default_str();
  cmd->add_option("--mean-gap", c->mean_gap, "synthetic jobs: mean time between arrivals (s; Poisson)")
      ->capture_default_str();
  cmd->add_option("--job-sizes", c->job_sizes, "synthetic jobs: sizes in nodes, drawn uniformly")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--mean-runtime", c->mean_runtime, "synthetic jobs, network-agnostic: mean run time (s; exponential)")
      ->capture_default_str();
  cmd->add_option("--estimate-factor", c->estimate_factor,
                  "synthetic and network-aware jobs: estimate = run time (network-aware: the run time alone on "
                  "the first nodes) x this")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--network-aware", c->network_aware,
                "run every job's application (--job-app) on the simulated network (-t, -r): run times emerge "
                "from sharing it");
  cmd->add_option("-t,--topology", c->network.topology, "network-aware: topology spec (nodes = its endpoints)")
      ->capture_default_str();
  cmd->add_option("-r,--routing", c->network.routing, "network-aware: routing spec; default: the topology's own");
  cmd->add_option("--job-app", c->job_apps,
                  "network-aware: an application spec without tasks (repeatable); job j runs the k-th, k = its "
                  "executable number (or its position) modulo their count");
  cmd->add_option("--job-app-by", c->job_app_by,
                  "network-aware: which SWF field picks a job's --job-app: executable (14), queue (15) or position")
      ->check(CLI::IsMember({"executable", "queue", "position"}))
      ->capture_default_str();
  cmd->add_option("--time-scale", c->time_scale, "network-aware with --swf: submit times are multiplied by this")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--endpoint-gbps", c->network.links.endpoint_gbps, "network-aware: endpoint link capacity")
      ->capture_default_str();
  cmd->add_option("--switch-gbps", c->network.links.switch_gbps, "network-aware: switch link capacity")
      ->capture_default_str();
  cmd->add_option("-p,--policy", c->policy, "job selection policy (see `interflow list selection`)")
      ->capture_default_str();
  cmd->add_option("--size-from", c->size_from, "job size from allocated (field 5) or requested (field 8) processors")
      ->check(CLI::IsMember({"allocated", "requested"}))
      ->capture_default_str();
  cmd->add_option("--overrun", c->overrun,
                  "a job running past its requested time (field 9): kill (ends there) or allow (runs on)")
      ->check(CLI::IsMember({"kill", "allow"}))
      ->capture_default_str();
  cmd->add_option("--missing", c->missing,
                  "jobs with a missing run time, size or estimate: drop, or repair (run time 0, the other "
                  "processor field, estimate = run time)")
      ->check(CLI::IsMember({"drop", "repair"}))
      ->capture_default_str();
  cmd->add_option("--procs-per-node", c->procs_per_node, "processors per node: a job's nodes = processors / this")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--nodes", c->nodes,
                  "machine size in nodes (0 = the log's MaxNodes, else MaxProcs / --procs-per-node)")
      ->capture_default_str();
  cmd->add_option("--estimate", c->estimate,
                  "what the scheduler believes a job's run time is: log (requested time), exact (the run time) "
                  "or scaled (run time x --estimate-scale)")
      ->check(CLI::IsMember({"log", "exact", "scaled"}))
      ->capture_default_str();
  cmd->add_option("--estimate-scale", c->estimate_scale, "with --estimate scaled: the factor")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--allocation", c->allocation,
                  "which free nodes a job gets: an allocation spec (see `interflow list allocation`): consecutive, "
                  "random, locality (network-aware), geometric[:mean=M]")
      ->capture_default_str();
  cmd->add_option("--mapping", c->mapping,
                  "network-aware task mapping spec (see `interflow list mapping`): consecutive, random, "
                  "file:path=FILE")
      ->capture_default_str();
  cmd->add_option("--inrflow-workload", c->inrflow_workload,
                  "network-aware: jobs from INRFlow's workload file (arrival, application, size; its allocation "
                  "column is replaced by --allocation)");
  cmd->add_option("--inrflow-time-unit", c->inrflow_time_unit, "seconds per unit of that file's arrival times")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--bsld-tau", c->bsld_tau, "bounded slowdown threshold in seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--series-bins", c->series_bins, "bins of the utilisation series over the makespan")
      ->check(CLI::Range(1u, 10'000'000u))
      ->capture_default_str();
  cmd->add_option("-s,--seed", c->seed, "seed of the random allocation")->capture_default_str();
  cmd->add_option("-o,--out", c->out, "write summary.json, jobs.csv and utilisation.csv here");
  cmd->add_flag("--json", c->json, "print summary.json on stdout instead of the text summary");
  cmd->add_flag("-q,--quiet", c->quiet, "print nothing on stdout");
  cmd->add_flag("--no-progress", c->no_progress, "accepted for symmetry with the other commands (no progress line)");
  return [&plugins, c]() {
    const int sources = !c->swf.empty() + (c->jobs > 0) + !c->inrflow_workload.empty();
    if (sources != 1)
      throw InputError(
          "schedule needs one job source: a log (--swf FILE), a synthetic stream (--jobs N) or an "
          "INRFlow workload file (--inrflow-workload FILE)");
    if (!c->inrflow_workload.empty() && !c->network_aware)
      throw InputError("--inrflow-workload gives applications, not run times: use it with --network-aware");
    if (c->network_aware && c->job_apps.empty() && c->inrflow_workload.empty())
      throw InputError("--network-aware needs the jobs' applications: --job-app SPEC (repeatable)");
    if (c->network_aware)
      plugins.allocations.validate(Spec::parse(c->allocation, "--allocation"));
    else  // builds it: policies that need the network say so now
      plugins.allocations.create(Spec::parse(c->allocation, "--allocation"), scheduler::AllocationContext{});
    plugins.mappings.validate(Spec::parse(c->mapping, "--mapping"));
    if (!c->network_aware && c->mapping != "consecutive")
      throw InputError("--mapping applies to --network-aware runs (tasks do not run in the network-agnostic mode)");
    const auto policy = plugins.selections.create(Spec::parse(c->policy, "--policy"));
    Stopwatch clock;
    scheduler::JobSet set;
    std::vector<workloads::InrflowApp> inrflow_apps;
    std::uint32_t nodes = c->nodes;
    if (!c->swf.empty()) {
      const scheduler::SwfLog log = scheduler::read_swf(c->swf);
      scheduler::JobOptions jo;
      jo.size_from = c->size_from == "requested" ? scheduler::JobOptions::SizeFrom::Requested
                                                 : scheduler::JobOptions::SizeFrom::Allocated;
      jo.kill_at_estimate = c->overrun == "kill";
      jo.missing =
          c->missing == "repair" ? scheduler::JobOptions::Missing::Repair : scheduler::JobOptions::Missing::Drop;
      jo.processors_per_node = c->procs_per_node;
      jo.estimate = c->estimate == "exact"    ? scheduler::JobOptions::Estimate::Exact
                    : c->estimate == "scaled" ? scheduler::JobOptions::Estimate::Scaled
                                              : scheduler::JobOptions::Estimate::Log;
      jo.estimate_scale = c->estimate_scale;
      set = scheduler::jobs_from_swf(log, jo);
      // Job sizes are processors / --procs-per-node, so the machine is MaxProcs / --procs-per-node;
      // MaxNodes only when the log gives no MaxProcs.
      if (nodes == 0 && log.max_procs > 0)
        nodes = static_cast<std::uint32_t>((log.max_procs + c->procs_per_node - 1) / c->procs_per_node);
      if (nodes == 0 && log.max_nodes > 0) nodes = static_cast<std::uint32_t>(log.max_nodes);
      if (c->network_aware)
        for (scheduler::Job& job : set.jobs) job.submit *= c->time_scale;
    } else if (c->jobs > 0) {
      set.jobs =
          scheduler::synthetic_jobs(c->jobs, c->mean_gap, c->job_sizes, c->mean_runtime, c->estimate_factor, c->seed);
    } else {
      inrflow_apps = workloads::read_inrflow_workload(c->inrflow_workload, plugins.apps, c->inrflow_time_unit);
      std::stable_sort(inrflow_apps.begin(), inrflow_apps.end(),
                       [](const auto& a, const auto& b) { return a.arrival_s < b.arrival_s; });
      for (const workloads::InrflowApp& a : inrflow_apps) {
        scheduler::Job job;
        job.id = static_cast<std::int64_t>(set.jobs.size() + 1);
        job.submit = a.arrival_s;
        job.nodes = job.processors = a.tasks;
        job.line = a.line;
        set.jobs.push_back(job);
      }
    }
    const double read_s = clock.seconds();
    clock.reset();
    // Network-aware: the machine is the network's endpoints; jobs run their applications on it.
    std::unique_ptr<NetworkSetup> setup;
    std::unique_ptr<scheduler::NetworkRunner> runner;
    NetworkOutcome net;
    flow::FlowTransportOptions transport_options;
    transport_options.seed = c->seed;
    workloads::AppSettings settings;
    settings.seed = c->seed;
    if (c->network_aware) {
      c->network.seed = c->seed;
      setup = std::make_unique<NetworkSetup>(build_network(plugins, c->network));
      const Network& n = setup->topology->network();
      if (nodes == 0 || nodes > n.num_endpoints()) nodes = n.num_endpoints();
      settings.endpoint_gbps = c->network.links.endpoint_gbps;
      settings.patterns = &plugins.patterns;
      std::vector<std::string> job_apps;
      if (inrflow_apps.empty())
        job_apps = scheduler::assign_applications(set.jobs, c->job_apps, c->job_app_by);
      else
        for (const workloads::InrflowApp& a : inrflow_apps) job_apps.push_back(a.kernel);
      const TransportFactory transports = [net = &n, routing = setup->routing.get(), transport_options] {
        return std::make_unique<flow::FlowTransport>(*net, *routing, transport_options);
      };
      runner = std::make_unique<scheduler::NetworkRunner>(n, transports, plugins.apps, settings, set.jobs, job_apps,
                                                          nodes, drivers::DriverOptions{}, c->mapping, c->seed);
      runner->set_estimates(set.jobs, c->estimate_factor);
    }
    if (nodes == 0)
      throw InputError(c->swf.empty()
                           ? "the machine size is unknown: give --nodes"
                           : "the machine size is unknown: give --nodes (the log has no MaxNodes or MaxProcs)");
    scheduler::ScheduleOptions so;
    so.nodes = nodes;
    so.allocation = c->allocation;
    if (setup) so.allocation_context = scheduler::allocation_context_of(*setup->topology);
    so.seed = c->seed;
    so.bounded_slowdown_tau = c->bsld_tau;
    so.series_bins = c->series_bins;
    const scheduler::ScheduleResult r = scheduler::simulate_schedule(set.jobs, *policy, so, runner.get());
    if (runner) {
      net.isolated = runner->isolated_runtimes();
      net.simulations = runner->simulations();
      std::uint64_t counted = 0;
      for (std::size_t j = 0; j < set.jobs.size(); ++j)
        if (!r.jobs[j].refused && net.isolated[j] > 0) {
          net.mean_network_slowdown += r.jobs[j].runtime() / net.isolated[j];
          ++counted;
        }
      if (counted > 0) net.mean_network_slowdown /= static_cast<double>(counted);
    }
    const double simulate_s = clock.seconds();
    for (std::size_t k = 0; k < r.refused.size() && k < 10; ++k)
      std::cerr << "interflow: refused: " << r.refused[k] << '\n';
    if (r.refused.size() > 10) std::cerr << "interflow: refused " << r.refused.size() << " jobs in all\n";
    if (!c->out.empty()) {
      const auto dir = make_output_dir(c->out);
      {
        auto out = open_output(dir / "summary.json");
        JsonWriter j(out);
        write_summary(j, *c, set, r, nodes, read_s, simulate_s, runner ? &net : nullptr);
      }
      auto jobs = open_output(dir / "jobs.csv");
      jobs << "job,submit_s,start_s,end_s,processors,nodes,first_node,estimate_s,runtime_s,wait_s,response_s,"
              "bounded_slowdown,refused,isolated_runtime_s,network_slowdown\n";
      for (std::size_t k = 0; k < set.jobs.size(); ++k) {
        const scheduler::Job& job = set.jobs[k];
        const scheduler::JobOutcome& o = r.jobs[k];
        const double response = o.end - job.submit;
        jobs << job.id << ',' << csv_number(job.submit) << ',' << csv_number(o.start) << ',' << csv_number(o.end) << ','
             << job.processors << ',' << job.nodes << ',' << (o.refused ? std::string() : std::to_string(o.first_node))
             << ',' << csv_number(job.estimate) << ',' << csv_number(o.runtime()) << ','
             << csv_number(o.start - job.submit) << ',' << csv_number(response) << ','
             << csv_number(o.refused ? NAN : std::max(1.0, response / std::max(o.runtime(), c->bsld_tau))) << ','
             << int(o.refused) << ',' << (runner ? csv_number(net.isolated[k]) : std::string()) << ','
             << (runner && !o.refused ? csv_number(o.runtime() / net.isolated[k]) : std::string()) << '\n';
      }
      auto series = open_output(dir / "utilisation.csv");
      series << "start_s,end_s,utilisation\n";
      for (std::size_t b = 0; b < r.utilisation_series.size(); ++b)
        series << csv_number(r.summary.first_submit + static_cast<double>(b) * r.bin_s) << ','
               << csv_number(r.summary.first_submit + static_cast<double>(b + 1) * r.bin_s) << ','
               << csv_number(r.utilisation_series[b]) << '\n';
    }
    if (c->json) {
      JsonWriter j(std::cout);
      write_summary(j, *c, set, r, nodes, read_s, simulate_s, runner ? &net : nullptr);
    } else if (!c->quiet) {
      const scheduler::ScheduleSummary& m = r.summary;
      std::cout << "interflow " << kVersion << " scheduler, policy " << c->policy << ", " << nodes << " nodes"
                << (c->network_aware ? ", network-aware on " + c->network.topology : std::string()) << "\n"
                << "  "
                << (!c->swf.empty() ? "log " + c->swf
                    : c->jobs > 0   ? std::string("synthetic stream")
                                    : "INRFlow workload " + c->inrflow_workload)
                << ": " << set.jobs.size() + set.dropped << " jobs, " << set.dropped << " dropped, " << set.repaired
                << " repaired, " << m.refused << " refused\n"
                << "  makespan                 " << m.makespan << " s\n"
                << "  wait mean/median/max     " << m.mean_wait << " / " << m.median_wait << " / " << m.max_wait
                << " s\n"
                << "  response mean            " << m.mean_response << " s\n"
                << "  slowdown mean            " << m.mean_slowdown << "\n"
                << "  bounded slowdown mean/max " << m.mean_bounded_slowdown << " / " << m.max_bounded_slowdown
                << " (tau " << c->bsld_tau << " s)\n"
                << "  utilisation              " << m.utilisation << "\n"
                << "  throughput               " << m.throughput_per_hour << " jobs/hour\n"
                << (runner
                        ? "  network slowdown mean    " + std::to_string(net.mean_network_slowdown) +
                              " (run time / alone on its nodes, " + std::to_string(net.simulations) + " simulations)\n"
                        : std::string())
                << "  time read/simulate       " << read_s << " / " << simulate_s << " s\n";
    }
    return 0;
  };
}

}  // namespace interflow::cli
