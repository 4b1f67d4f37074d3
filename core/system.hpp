#pragma once
// Process facts: peak memory and wall-clock timing.
#include <chrono>
#include <cstdint>

namespace interflow {

// Peak resident set size of this process so far, in bytes (getrusage ru_maxrss).
std::uint64_t peak_rss_bytes();

// Memory the system can give a new run without swapping (MemAvailable of /proc/meminfo), in bytes;
// 0 when it cannot be read.
std::uint64_t available_memory_bytes();

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void reset() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Adds the seconds it lives to `total` when `on`, and costs nothing more than a branch when not
// (a step of a profiled run: `const ProfileClock clock(profiling, step_seconds);`).
class ProfileClock {
 public:
  ProfileClock(bool on, double& total) : total_(on ? &total : nullptr) {
    if (total_) start_ = std::chrono::steady_clock::now();
  }
  ~ProfileClock() {
    if (total_) *total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  ProfileClock(const ProfileClock&) = delete;
  ProfileClock& operator=(const ProfileClock&) = delete;

 private:
  double* total_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace interflow
