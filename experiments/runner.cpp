#include "experiments/runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <thread>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"
#include "core/system.hpp"

extern char** environ;

namespace interflow::experiments {

namespace {

std::atomic<int> g_interrupt{0};
extern "C" void on_interrupt(int signal) { g_interrupt.store(signal); }

// Installs the interrupt handlers for the sweep's lifetime and restores the old ones.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupt.store(0);
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
    sigaction(SIGHUP, &action, &old_hup_);  // a closed terminal or a dropped ssh session
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {}, old_hup_ {};
};

// The last non-empty line of a log, for the failure note.
std::string last_line(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

// The pool: the named steps of run_local.
class Pool {
 public:
  Pool(const Layout& layout, const Experiment& e, const std::vector<Run>& runs, const LocalSettings& s)
      : layout_(layout), runs_(runs), s_(s), estimates_(layout, e, runs), tty_(isatty(STDERR_FILENO) != 0) {}

  // An exception (a failed spawn, a note that cannot be written) must not leave runs behind.
  ~Pool() { stop_all(); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  SweepOutcome run() {
    plan_queue();
    InterruptGuard guard;
    while ((!queue_.empty() || !running_.empty())) {
      if (g_interrupt.load() != 0) {
        stop_all();
        break;
      }
      start_what_fits();
      reap();
      show_progress(false);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    out_.pending = queue_.size() + stopped_;
    out_.interrupted = g_interrupt.load() != 0;
    show_progress(true);
    return out_;
  }

 private:
  struct Child {
    pid_t pid;
    std::size_t run;
    std::uint64_t memory;
    Stopwatch clock;
  };

  void plan_queue() {
    out_.total = runs_.size();
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const RunState state = state_of(layout_, runs_[i].id);
      if (state == RunState::Finished) {
        ++out_.finished_before;
      } else if (state == RunState::Failed && !s_.retry_failed) {
        ++out_.skipped_failed;
      } else {
        queue_.push_back(i);
      }
    }
    to_run_ = queue_.size();
  }

  // Starts queued runs, in order, while they fit; a run whose configuration has no measurement yet
  // waits while another run of that configuration is running (its measurement comes first).
  void start_what_fits() {
    for (auto it = queue_.begin(); it != queue_.end() && running_.size() < s_.jobs;) {
      if (can_start(runs_[*it])) {
        start(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
  }

  bool can_start(const Run& run) const {
    if (running_.size() >= s_.jobs) return false;
    if (running_.empty()) return true;  // one run always goes, whatever its estimate
    const Estimate e = estimates_.of(run);
    if (!e.measured)
      for (const Child& c : running_)
        if (runs_[c.run].group == run.group) return false;
    return memory_in_use() + e.memory_bytes <= s_.memory_budget;
  }

  std::uint64_t memory_in_use() const {
    std::uint64_t sum = 0;
    for (const Child& c : running_) sum += c.memory;
    return sum;
  }

  void start(std::size_t index) {
    const Run& run = runs_[index];
    std::error_code ec;
    std::filesystem::remove(layout_.failed(run.id), ec);
    const std::vector<std::string> args = run_argv(s_.binary, layout_, run.id);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    const std::string log = layout_.log(run.id).string();
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setpgroup(&attributes, 0);  // its own group: a terminal's Ctrl-C reaches the sweep only
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], &files, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (error != 0)
      throw InputError("cannot start '" + s_.binary + "' for run " + run.id + ": " + std::strerror(error));
    running_.push_back({pid, index, estimates_.of(run).memory_bytes, Stopwatch()});
  }

  // Collects the runs that ended.
  void reap() {
    for (std::size_t i = 0; i < running_.size();) {
      int status = 0;
      const pid_t done = waitpid(running_[i].pid, &status, WNOHANG);
      if (done == 0 || (done < 0 && errno == EINTR)) {
        ++i;
        continue;
      }
      finish(running_[i], done < 0 ? -1 : status);
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  void finish(const Child& c, int status) {
    const Run& run = runs_[c.run];
    const bool ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                    state_of(layout_, run.id) == RunState::Finished;
    durations_ += c.clock.seconds();
    ++ended_;
    if (ok) {
      ++out_.succeeded;
      estimates_.add(layout_, run);
      return;
    }
    ++out_.failed;
    std::string why = status < 0                 ? "lost (waitpid failed)"
                      : WIFSIGNALED(status)      ? "killed by signal " + std::to_string(WTERMSIG(status))
                      : WEXITSTATUS(status) == 0 ? "exited 0 without summary.json"
                                                 : "exit status " + std::to_string(WEXITSTATUS(status));
    OutputFile note(layout_.failed(run.id).string(), "the sweep's results folder");
    note << why << '\n' << last_line(layout_.log(run.id)) << '\n';
    note.commit();
    if (s_.report_failures) {
      clear_line();
      std::fprintf(stderr, "sweep: run %s failed (%s): %s\n", run.id.c_str(), why.c_str(),
                   last_line(layout_.log(run.id)).c_str());
    }
  }

  // Interrupted: the running runs are stopped and stay pending (their folders hold no summary.json).
  void stop_all() {
    for (const Child& c : running_) {
      kill(c.pid, SIGTERM);
      kill(c.pid, SIGCONT);  // a stopped run would never see the SIGTERM
    }
    for (const Child& c : running_) {
      int status = 0;
      // Ten seconds to end, then SIGKILL.
      for (int i = 0; i < 200 && waitpid(c.pid, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (waitpid(c.pid, &status, WNOHANG) == 0) {
        kill(c.pid, SIGKILL);
        while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
      if (state_of(layout_, runs_[c.run].id) == RunState::Finished)
        ++out_.succeeded;  // it finished before the signal reached it
      else
        ++stopped_;
    }
    running_.clear();
  }

  void clear_line() {
    if (tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

  void show_progress(bool last) {
    if (!s_.progress) return;
    const double now = clock_.seconds();
    if (!last && now - shown_at_ < (tty_ ? 0.5 : s_.log_every_s)) return;
    if (!last && !tty_ && out_.succeeded + out_.failed == 0 && now < 1) return;  // a log line says something
    shown_at_ = now;
    const std::size_t done = out_.succeeded + out_.failed;
    std::string eta = "?";
    if (ended_ > 0 && s_.jobs > 0) {
      const double mean = durations_ / static_cast<double>(ended_);
      const double left = static_cast<double>(to_run_ - done) * mean /
                          static_cast<double>(std::max<std::size_t>(1, std::min<std::size_t>(s_.jobs, to_run_ - done)));
      eta = duration_text(left);
    }
    char text[256];
    std::snprintf(text, sizeof text, "sweep: %zu/%zu done, %zu running, %zu failed, %s elapsed%s%s",
                  out_.finished_before + out_.succeeded, out_.total, running_.size(), out_.failed + out_.skipped_failed,
                  duration_text(now).c_str(), last ? "" : ", ETA ", last ? "" : eta.c_str());
    if (tty_) {
      std::fprintf(stderr, "\r\033[K%s", text);
      drawn_ = true;
      if (last) clear_line();
    } else {
      std::fprintf(stderr, "%s\n", text);
    }
    std::fflush(stderr);
  }

  const Layout& layout_;
  const std::vector<Run>& runs_;
  const LocalSettings& s_;
  Estimates estimates_;
  bool tty_;
  std::deque<std::size_t> queue_;
  std::vector<Child> running_;
  SweepOutcome out_;
  std::size_t to_run_ = 0, ended_ = 0, stopped_ = 0;
  double durations_ = 0, shown_at_ = -1e9;
  bool drawn_ = false;
  Stopwatch clock_;
};

}  // namespace

SweepOutcome run_local(const Layout& layout, const Experiment& e, const std::vector<Run>& runs,
                       const LocalSettings& settings) {
  // One sweep at a time in a folder: two would run the same runs into the same folders.
  const std::string lock_path = (layout.root() / ".lock").string();
  const int lock = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0) throw OutputError("'" + lock_path + "': cannot create: " + std::strerror(errno));
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    close(lock);
    throw InputError("another sweep is running in '" + layout.root().string() + "'; wait for it or stop it");
  }
  try {
    SweepOutcome out = Pool(layout, e, runs, settings).run();
    close(lock);
    return out;
  } catch (...) {
    close(lock);
    throw;
  }
}

std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size) : (1ull << 30);
}

}  // namespace interflow::experiments
