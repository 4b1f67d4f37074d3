#include "core/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace interflow {

Progress::Progress(bool enabled) : active_(enabled && isatty(STDERR_FILENO)) {
  if (active_) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() {
  if (!active_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (printed_) std::fprintf(stderr, "\r\033[K");
}

void Progress::phase(const std::string& name, std::uint64_t total) {
  if (!active_) return;
  std::lock_guard lock(mutex_);
  name_ = name;
  total_ = total;
  done_.store(0);
}

void Progress::loop() {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, 500ms);
    if (stop_) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed < 2.0) continue;
    const std::uint64_t done = done_.load();
    if (total_ > 0)
      std::fprintf(stderr, "\r\033[K[%6.1fs] %s %llu/%llu (%.0f%%)", elapsed, name_.c_str(),
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                   100.0 * static_cast<double>(done) / static_cast<double>(total_));
    else
      std::fprintf(stderr, "\r\033[K[%6.1fs] %s", elapsed, name_.c_str());
    std::fflush(stderr);
    printed_ = true;
  }
}

}  // namespace interflow
