#include "core/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/format.hpp"

namespace interflow {

namespace {

double log_period() {
  const char* env = std::getenv("INTERFLOW_PROGRESS_SECONDS");
  if (!env || !*env) return 30;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  return (end && *end == '\0' && std::isfinite(v) && v >= 0.1) ? v : 30;
}

}  // namespace

Progress::Progress(bool enabled)
    : active_(enabled), terminal_(isatty(STDERR_FILENO) != 0), log_every_s_(log_period()),
      phase_start_(std::chrono::steady_clock::now()) {
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
  if (printed_ && terminal_) std::fprintf(stderr, "\r\033[K");
}

void Progress::phase(const std::string& name, std::uint64_t total) {
  if (!active_) return;
  std::lock_guard lock(mutex_);
  name_ = name;
  total_ = total;
  phase_start_ = std::chrono::steady_clock::now();
  done_.store(0);
}

std::string Progress::describe(const std::string& name, std::uint64_t done, std::uint64_t total, double phase_s,
                               double run_s, bool terminal) {
  char text[256];
  if (total == 0) {
    if (terminal)
      std::snprintf(text, sizeof text, "[%s] %s", duration_text(run_s).c_str(), name.c_str());
    else
      std::snprintf(text, sizeof text, "progress: %s, %s into the run", name.c_str(), duration_text(run_s).c_str());
    return text;
  }
  const double share = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
  const std::string left = done > 0 && share < 1 ? duration_text(phase_s * (1 - share) / share) : "?";
  if (terminal) {
    std::string bar(20, '.');
    for (std::size_t i = 0; i < static_cast<std::size_t>(share * 20); ++i) bar[i] = '#';
    std::snprintf(text, sizeof text, "[%s] %3.0f%% %s, %s left (%s in all)", bar.c_str(), 100 * share, name.c_str(),
                  left.c_str(), duration_text(run_s).c_str());
  } else {
    std::snprintf(text, sizeof text, "progress: %s %.0f%% (%llu/%llu), %s in the phase, about %s left", name.c_str(),
                  100 * share, static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                  duration_text(phase_s).c_str(), left.c_str());
  }
  return text;
}

void Progress::loop() {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  double logged_at = 0;
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, 500ms);
    if (stop_) break;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (elapsed < 2.0) continue;
    if (!terminal_ && elapsed - logged_at < log_every_s_) continue;
    logged_at = elapsed;
    const double phase_s = std::chrono::duration<double>(now - phase_start_).count();
    const std::string text = describe(name_, done_.load(std::memory_order_relaxed), total_, phase_s, elapsed, terminal_);
    if (terminal_)
      std::fprintf(stderr, "\r\033[K%s", text.c_str());
    else
      std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
    printed_ = true;
  }
}

}  // namespace interflow
