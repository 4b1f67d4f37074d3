#pragma once
// A crew for many small parallel jobs in a row: W - 1 helper tasks that spin-wait for the caller to
// post a job of W parts, claim parts, and do them, while the caller claims parts too. The max-min
// solver's bottleneck loop posts one job per step, tens of thousands of steps a second; waking
// sleeping TBB workers for each (a parallel_for) cost more than the job itself.
//
// Correctness: claims are compare-and-swaps on one counter that holds the job's number and its next
// part, so every part of a job is done exactly once, and a helper late for a job can never take a
// part of the next one (the job number differs). run() posts a job with a release store after
// writing everything the parts read, a claim acquires it, and run() returns only after acquiring
// the count of finished parts: so the parts see what the caller wrote before, and the caller sees
// what they wrote. The caller can do every part alone: if a helper task never starts (the arena is
// busy elsewhere) nothing waits for it, and the destructor runs any helper not started, which then
// sees the stop flag and returns at once. Helpers spin with a pause instruction while work is
// likely, then yield their core between jobs far apart. Tested in tests/core/crew.cpp.
#include <tbb/task_group.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

namespace interflow {

class Crew {
 public:
  // parts: workers taking part in each job, the caller included (1: the caller alone, no helper).
  explicit Crew(std::size_t parts) : parts_(parts < 1 ? 1 : parts) {
    for (std::size_t h = 1; h < parts_; ++h) group_.run([this] { help(); });
  }
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;
  ~Crew() {
    stop_.store(true, std::memory_order_release);
    group_.wait();
  }
  std::size_t parts() const { return parts_; }

  // Runs part(p) for p in 0..parts-1, each exactly once, on this thread and any helper that is free;
  // returns when all are done.
  template <class Part>
  void run(Part& part) {
    job_ = &part;
    call_ = [](void* job, std::size_t p) { (*static_cast<Part*>(job))(p); };
    done_.store(0, std::memory_order_relaxed);
    next_.store(++jobs_ << 32, std::memory_order_release);
    claim_all();
    while (done_.load(std::memory_order_acquire) < parts_) pause();
  }

 private:
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();  // tells the core this is a spin-wait
#endif
  }

  // Claims and does parts of the posted job until none is left; returns whether it did any.
  bool claim_all() {
    bool any = false;
    for (std::uint64_t c = next_.load(std::memory_order_acquire); (c & kPart) < parts_;) {
      if (!next_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      call_(job_, static_cast<std::size_t>(c & kPart));
      done_.fetch_add(1, std::memory_order_release);
      any = true;
      c = next_.load(std::memory_order_acquire);
    }
    return any;
  }
  void help() {
    for (unsigned idle = 0; !stop_.load(std::memory_order_acquire);) {
      if (claim_all()) {
        idle = 0;
      } else if (++idle < (1u << 12)) {
        pause();
      } else {
        std::this_thread::yield();  // a long sequential stretch: leave the core to others
      }
    }
  }

  static constexpr std::uint64_t kPart = 0xffffffffULL;
  std::size_t parts_;
  tbb::task_group group_;
  std::atomic<std::uint64_t> next_{kPart};  // job number << 32 | next part to claim; no job before the first
  std::atomic<std::size_t> done_{0};
  std::atomic<bool> stop_{false};
  std::uint64_t jobs_ = 0;
  void* job_ = nullptr;
  void (*call_)(void*, std::size_t) = nullptr;
};

}  // namespace interflow
