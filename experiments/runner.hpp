#pragma once
// Runs a sweep's pending runs on this machine, several at a time, each as its own process
// (`interflow run`, plan.hpp run_argv) with its output in its log.txt:
//   - at most `jobs` at once, and only while the memory estimates of the running ones (plan.hpp
//     Estimates) fit in `memory_budget`; a run whose estimate alone exceeds the budget still runs,
//     alone;
//   - finished runs are skipped; failed ones (a `failed` file) too, unless retry_failed;
//   - an interrupt (SIGINT, SIGTERM) stops the running runs, which stay pending (not failed): the
//     same command resumes;
//   - progress: done / running / failed / ETA, a line redrawn on a terminal, a line every
//     `log_every_s` seconds otherwise.
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/plan.hpp"

namespace interflow::experiments {

struct LocalSettings {
  std::string binary;  // the interflow executable the runs use
  unsigned jobs = 1;
  std::uint64_t memory_budget = 0;  // bytes
  bool retry_failed = false;
  bool progress = true;         // show the progress line or lines on stderr
  bool report_failures = true;  // a line on stderr for each run that fails
  double log_every_s = 30;  // the period of progress lines when stderr is not a terminal
};

struct SweepOutcome {
  std::size_t total = 0;           // runs in the plan
  std::size_t finished_before = 0;  // already finished when the sweep started
  std::size_t skipped_failed = 0;   // failed before and not retried
  std::size_t succeeded = 0, failed = 0;
  std::size_t pending = 0;  // left to run (after an interrupt)
  bool interrupted = false;
};

SweepOutcome run_local(const Layout& layout, const Experiment& e, const std::vector<Run>& runs,
                       const LocalSettings& settings);

// The memory this machine can give to runs now (MemAvailable of /proc/meminfo), in bytes.
std::uint64_t available_memory();

}  // namespace interflow::experiments
