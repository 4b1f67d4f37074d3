#pragma once
// Process facts: peak memory and wall-clock timing.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace interflow {

// Peak resident set size of this process so far, in bytes (getrusage ru_maxrss).
std::uint64_t peak_rss_bytes();

// Memory the system can give a new run without swapping (MemAvailable of /proc/meminfo), in bytes;
// 0 when it cannot be read.
std::uint64_t available_memory_bytes();

// How this process's memory is obtained (manual/static-engine.md "Huge pages and reuse"). A
// million-endpoint run touches hundreds of MiB once or more: first touches of 4-KiB pages are
// faults (10^5 a second of its life, slow on virtual machines), and glibc's malloc maps each large
// block on its own (from 128 KiB, a limit that rises to at most 32 MiB) and unmaps it when freed,
// so an array freed and another made (a growing vector, a table freed for the solver's) touches
// fresh pages again. Two remedies:
//   - huge pages: the kernel backs memory with 2 MiB pages always, never, or ("madvise") only where
//     a program asks; glibc's malloc asks for every block when the tunable glibc.malloc.hugetlb=1
//     is set, and tunables are read only when a program starts;
//   - reuse: blocks come from malloc's heaps, not mapped one by one (M_MMAP_MAX 0; malloc still maps
//     a block that no heap can hold), and freed memory is kept for the next blocks
//     (M_TRIM_THRESHOLD 2 GiB) instead of going back to the system.
// Neither changes what a run computes. INTERFLOW_TUNE_MEMORY=0 turns both off.

// Whether INTERFLOW_TUNE_MEMORY's value (null when unset) asks for the tuning: unset, "" or "1"
// yes, "0" no; anything else is an InputError naming the variable.
bool memory_tuning_wanted(const char* value);

// The text of /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never": the mode in
// brackets), or "" when it cannot be read.
std::string transparent_huge_page_mode();

// Whether this is an AddressSanitizer build (GCC or clang), whose allocator ignores glibc's tunables
// and malloc's settings: tune_memory does nothing there.
bool address_sanitizer_build();

// The GLIBC_TUNABLES value to restart with: `current` (the variable's value, or null) with
// glibc.malloc.hugetlb=1 appended; or "" when nothing is to change: the kernel's mode (`thp_mode`,
// the text of /sys/kernel/mm/transparent_hugepage/enabled, the mode in brackets) is not "madvise",
// or `current` already sets glibc.malloc.hugetlb (the user's choice, or this program restarted).
std::string tunables_for_huge_pages(std::string_view thp_mode, const char* current);

// Called first in main, before any thread or file exists. When tunables_for_huge_pages gives a
// value, sets GLIBC_TUNABLES to it and executes this program again (/proc/self/exe, the same
// arguments), marked by INTERFLOW_RESTARTED so that it happens once; if the exec fails the run goes
// on without huge pages. No restart for a set-user-ID or capability-raised program (whose loader
// drops the tunable) or under valgrind. Then sets malloc to reuse its memory, as above. Does nothing
// in AddressSanitizer builds (whose allocator ignores both) or when INTERFLOW_TUNE_MEMORY is "0";
// throws InputError when that variable is neither 0 nor 1.
void tune_memory(char** argv);

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
