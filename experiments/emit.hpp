#pragma once
// A sweep's pending runs as jobs for the tools clusters already run, writing into the same results
// folder (plan.hpp) as a local sweep, so that collect reads the runs whichever way they ran:
//
//   GNU parallel: OUT/parallel/jobs.txt, one POSIX shell command per run (cd to the folder the
//     sweep was started in, then `interflow run` with its output in the run's log.txt); run it with
//     `PARALLEL_SHELL=/bin/sh parallel --jobs N --joblog OUT/parallel/joblog < OUT/parallel/jobs.txt`.
//   Slurm: job arrays of at most 1000 tasks per resource class (OUT/slurm/array-K.sh, with its run
//     ids in the script): --array=0-(n-1)%throttle, --mem and --time from the runs' estimates
//     (plan.hpp Estimates) with a margin, --cpus-per-task from the runs' threads, one Slurm output
//     file per task (OUT/slurm/logs/); OUT/slurm/submit.sh submits them all with sbatch. A task
//     whose run has finished since the emit does nothing.
// Either way a run that fails leaves its `failed` note, as in a local sweep.
//
// Every script is written whole or not at all, with the paths quoted for the shell.
#include <string>
#include <vector>

#include "experiments/plan.hpp"

namespace interflow::experiments {

struct EmitSettings {
  std::string binary;   // the interflow executable, as the cluster's nodes see it
  std::string workdir;  // the folder the runs start in (relative paths of the experiment)
  bool retry_failed = false;
  // Slurm
  unsigned throttle = 0;  // at most this many tasks of an array at once (0: no limit)
  std::string partition, account;
  std::vector<std::string> sbatch_options;  // further "#SBATCH" options, e.g. "--qos=short"
  double memory_margin = 1.5;               // request = estimate x margin (at least 64 MiB)
  double time_margin = 3.0;                 // request = estimate x margin (at least 5 min)
};

struct Emitted {
  std::size_t runs = 0;                // pending runs written into jobs
  std::vector<std::string> files;      // what was written (the scripts to run first)
  std::string how;                     // the command that runs them
};

Emitted emit_parallel(const Layout& layout, const Experiment& e, const std::vector<Run>& runs,
                      const EmitSettings& settings);
Emitted emit_slurm(const Layout& layout, const Experiment& e, const std::vector<Run>& runs,
                   const EmitSettings& settings);

// A word quoted for the POSIX shell ('...' with ' written as '\'').
std::string shell_quote(const std::string& word);

// A Slurm time request: minutes rounded up to a step of a ladder (5, 15, 30 min, 1, 2, 4, 8, 12,
// 24, 48 h, then whole days), written D-HH:MM:SS.
std::string slurm_time(double seconds);

}  // namespace interflow::experiments
