#pragma once
// Progress of a long run on stderr, in phases ("route", "simulate", ...) of known or unknown size:
//   - on a terminal, a bar redrawn twice a second with the phase, its share done and an estimate of
//     the time left (from the phase's rate so far), erased when the run ends;
//   - otherwise (a log file, a pipe), one line every `log_every_s` seconds (INTERFLOW_PROGRESS_SECONDS,
//     default 30), so that a batch job's log shows how far it got.
// Nothing is shown during the first two seconds, so short runs print nothing. Workers advance
// counter() (an atomic), so reporting costs the run one relaxed increment per unit of work.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace interflow {

class Progress {
 public:
  // enabled=false makes every call a no-op.
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a phase with `total` work units (0: unknown); counter() is what workers advance.
  void phase(const std::string& name, std::uint64_t total = 0);
  std::atomic<std::uint64_t>* counter() { return &done_; }

  // "[#####.....]  45% route, 12s left" (terminal) or "progress: route 45% (1200/2667), 9.8s in
  // the phase, about 12s left" (log): the text for a phase state; exposed for tests.
  static std::string describe(const std::string& name, std::uint64_t done, std::uint64_t total, double phase_s,
                              double run_s, bool terminal);

 private:
  void loop();
  bool active_ = false, terminal_ = false;
  double log_every_s_ = 30;
  std::atomic<std::uint64_t> done_{0};
  std::uint64_t total_ = 0;
  std::string name_;
  std::chrono::steady_clock::time_point phase_start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool printed_ = false;
  std::thread thread_;
};

}  // namespace interflow
