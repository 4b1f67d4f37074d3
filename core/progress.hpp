#pragma once
// A progress line on stderr for long runs: shown only when stderr is a terminal and the run has
// taken more than a couple of seconds, updated twice a second, erased when done.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace interflow {

class Progress {
 public:
  // enabled=false (or stderr not a terminal) makes every call a no-op.
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a phase with `total` work units (0: unknown); counter() is what workers advance.
  void phase(const std::string& name, std::uint64_t total = 0);
  std::atomic<std::uint64_t>* counter() { return &done_; }

 private:
  void loop();
  bool active_ = false;
  std::atomic<std::uint64_t> done_{0};
  std::uint64_t total_ = 0;
  std::string name_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool printed_ = false;
  std::thread thread_;
};

}  // namespace interflow
