// `interflow run`, `interflow sweep` and `interflow collect`: experiment files
// (experiments/experiment.hpp) run once, swept here or on a cluster, and collected into tables. The
// commands parse and hand over to the experiments library; nothing else.
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/catalog.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "experiments/collect.hpp"
#include "experiments/emit.hpp"
#include "experiments/runner.hpp"

namespace interflow::cli {

namespace {

constexpr int kIncomplete = 3, kInterrupted = 130;

std::string this_binary() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError("cannot find the interflow executable (/proc/self/exe): " + ec.message() + "; give --binary");
  return p.string();
}

struct SweepOptions {
  std::string file, out, emit, binary, partition, account;
  std::vector<std::string> sbatch;
  std::uint32_t jobs = 0, throttle = 0;
  std::uint64_t max_runs = 0;
  double memory_gib = 0;
  bool retry_failed = false, list = false, quiet = false, no_progress = false;
};

void print_plan(const experiments::Experiment& e, const std::vector<experiments::Run>& runs,
                const experiments::Layout& layout) {
  std::cout << "sweep '" << e.name << "': " << runs.size() << " runs of `interflow " << e.command << "` into "
            << layout.root().string() << "\n";
  for (const auto& r : runs) {
    const auto state = experiments::state_of(layout, r.id);
    std::cout << "  " << r.id << "  "
              << (state == experiments::RunState::Finished ? "finished"
                  : state == experiments::RunState::Failed ? "failed  "
                                                           : "pending ")
              << "  " << r.swept.dump() << "\n";
  }
}

int emit(const SweepOptions& o, const experiments::Experiment& e, const std::vector<experiments::Run>& runs,
         const experiments::Layout& layout) {
  experiments::EmitSettings s;
  s.binary = o.binary.empty() ? this_binary() : o.binary;
  s.workdir = std::filesystem::current_path().string();
  s.retry_failed = o.retry_failed;
  s.throttle = o.throttle;
  s.partition = o.partition;
  s.account = o.account;
  s.sbatch_options = o.sbatch;
  const auto emitted = o.emit == "slurm" ? experiments::emit_slurm(layout, e, runs, s)
                                         : experiments::emit_parallel(layout, e, runs, s);
  if (!o.quiet) {
    std::cout << "sweep '" << e.name << "': " << emitted.runs << " of " << runs.size() << " runs to run, in";
    for (const auto& f : emitted.files) std::cout << " " << f;
    std::cout << "\nrun them with:\n  " << emitted.how << "\nthen: interflow collect " << layout.root().string() << "\n";
  }
  return 0;
}

int run_here(const SweepOptions& o, const experiments::Experiment& e, const std::vector<experiments::Run>& runs,
             const experiments::Layout& layout) {
  experiments::LocalSettings s;
  s.binary = o.binary.empty() ? this_binary() : o.binary;
  s.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  s.memory_budget = o.memory_gib > 0 ? static_cast<std::uint64_t>(o.memory_gib * 1073741824.0)
                                     : experiments::available_memory() / 10 * 9;
  s.retry_failed = o.retry_failed;
  s.progress = !o.quiet && !o.no_progress;
  s.report_failures = !o.quiet;
  const auto r = experiments::run_local(layout, e, runs, s);
  if (!o.quiet) {
    std::cout << "sweep '" << e.name << "': " << r.total << " runs; " << r.finished_before << " had finished, "
              << r.succeeded << " ran now, " << r.failed << " failed";
    if (r.skipped_failed) std::cout << ", " << r.skipped_failed << " failed before (--retry-failed runs them)";
    if (r.pending) std::cout << ", " << r.pending << " still to run";
    std::cout << "\nresults in " << layout.root().string() << "/runs";
    if (r.pending == 0 && r.failed + r.skipped_failed == 0) std::cout << "; next: interflow collect " << layout.root().string();
    std::cout << "\n";
  }
  if (r.interrupted) {
    std::cerr << "interflow: sweep interrupted; run the same command again to resume\n";
    return kInterrupted;
  }
  return r.failed + r.skipped_failed > 0 ? kIncomplete : 0;
}

int sweep(const Plugins& plugins, const SweepOptions& o) {
  const Catalog catalog(plugins);
  experiments::Experiment e = experiments::load_experiment(o.file, catalog);
  if (o.max_runs) e.max_runs = o.max_runs;
  if (!o.out.empty()) e.out = o.out;
  if (e.out.empty()) throw InputError(o.file + ": no results folder; give out = \"...\" in [experiment] or --out DIR");
  const auto runs = experiments::expand(e, catalog);
  const experiments::Layout layout(e.out);
  experiments::write_plan(layout, e, runs);
  if (o.list) {
    print_plan(e, runs, layout);
    return 0;
  }
  return o.emit.empty() ? run_here(o, e, runs, layout) : emit(o, e, runs, layout);
}

}  // namespace

Command add_sweep_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("sweep",
                                 "run an experiment file's sweep here, several runs at a time, with resume; or emit it "
                                 "as a GNU parallel job file or Slurm job arrays (manual/experiments.md)");
  auto o = std::make_shared<SweepOptions>();
  cmd->add_option("file", o->file, "the experiment file (TOML)")->required();
  cmd->add_option("-o,--out", o->out, "the results folder (default: [experiment] out)");
  cmd->add_option("-j,--jobs", o->jobs, "runs at once (0 = one per core); memory permitting")
      ->check(whole_in(0, 4096))
      ->capture_default_str();
  cmd->add_option("--memory", o->memory_gib, "memory the runs may use together, GiB (default: 90 % of what is available)")
      ->check(real_in(0, 1e6, true));
  cmd->add_option("--max-runs", o->max_runs, "refuse sweeps with more runs (default: [experiment] max-runs, 10000)")
      ->check(whole_in(1, 1000000000));
  cmd->add_flag("--retry-failed", o->retry_failed, "run again the runs that failed before");
  cmd->add_flag("--list", o->list, "write the plan and list the runs with their state; run nothing");
  cmd->add_option("--emit", o->emit, "write the pending runs as jobs instead of running them: parallel or slurm")
      ->check(CLI::IsMember({"parallel", "slurm"}));
  cmd->add_option("--binary", o->binary, "the interflow executable the runs use (default: this one)");
  cmd->add_option("--throttle", o->throttle, "slurm: at most this many tasks of an array at once (--array=...%N)")
      ->check(whole_in(1, 1000000));
  cmd->add_option("--partition", o->partition, "slurm: the partition to submit to");
  cmd->add_option("--account", o->account, "slurm: the account to charge");
  cmd->add_option("--sbatch", o->sbatch, "slurm: a further sbatch option for every array, e.g. --sbatch=--qos=short");
  cmd->add_flag("-q,--quiet", o->quiet, "print nothing on stdout and no progress");
  cmd->add_flag("--no-progress", o->no_progress, "no progress line on stderr");
  return Command{[&plugins, o, cmd]() {
                   for (const char* slurm_only : {"--throttle", "--partition", "--account", "--sbatch"})
                     if (cmd->count(slurm_only) && o->emit != "slurm")
                       throw InputError(std::string(slurm_only) + " applies only with --emit slurm");
                   if (cmd->count("--jobs") && !o->emit.empty())
                     throw InputError("--jobs applies only to a local sweep (GNU parallel and Slurm choose their own)");
                   return sweep(plugins, *o);
                 },
                 nullptr};
}

namespace {

struct CollectOptions {
  std::string dir;
  experiments::CollectSettings settings;
  std::vector<std::string> show;
  bool quiet = false, no_resources = false;
};

int collect(const CollectOptions& o) {
  if (o.quiet && !o.show.empty()) throw InputError("--show and --quiet cannot go together");
  experiments::CollectSettings settings = o.settings;
  settings.resources = !o.no_resources;
  const auto c = experiments::collect(experiments::Layout(o.dir), settings);
  const std::string table = o.show.empty() ? "" : "\n" + experiments::show_table(c, o.show);
  if (!c.missing.empty())
    std::cerr << "interflow: collect: " << c.missing.size() << " of " << c.runs
              << " runs have not finished and are left out (--partial)\n";
  if (c.versions.size() > 1) {
    std::string list;
    for (const auto& v : c.versions) list += (list.empty() ? "" : ", ") + v;
    std::cerr << "interflow: collect: warning: the runs were written by different interflow versions (" << list
              << "); results of different versions may differ\n";
  }
  if (!o.quiet)
    std::cout << "collected " << c.finished << " runs (" << c.configurations << " configurations, " << c.metrics
              << " metrics): " << c.runs_csv << ", " << c.aggregated_csv << "\n"
              << table;
  return 0;
}

}  // namespace

Command add_collect_command(CLI::App& app, const Plugins&) {
  auto* cmd = app.add_subcommand("collect",
                                 "merge a sweep's run summaries into collected.csv (a row per run) and aggregated.csv "
                                 "(mean, sd, 95 % CI over seeds)");
  auto o = std::make_shared<CollectOptions>();
  cmd->add_option("dir", o->dir, "the sweep's results folder")->required();
  cmd->add_flag("--partial", o->settings.partial, "collect although some runs have not finished");
  cmd->add_flag("--no-resources", o->no_resources,
                "leave out run times and peak memory (the metrics alone: identical however the runs ran)");
  cmd->add_option("--show", o->show,
                  "print a table of these metrics (comma-separated collected.csv columns): mean and 95 % CI per "
                  "configuration")
      ->delimiter(',');
  cmd->add_flag("-q,--quiet", o->quiet, "print nothing on stdout");
  return Command{[o]() { return collect(*o); }, nullptr};
}

}  // namespace interflow::cli
