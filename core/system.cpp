#include "core/system.hpp"

#include "core/error.hpp"

#include <malloc.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace interflow {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024ULL;  // Linux reports KiB
}

std::uint64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t value = 0;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return value * 1024ULL;  // reported in kB
  }
  return 0;
}

bool memory_tuning_wanted(const char* value) {
  if (value == nullptr || *value == '\0' || std::strcmp(value, "1") == 0) return true;
  if (std::strcmp(value, "0") == 0) return false;
  throw InputError(std::string("environment variable INTERFLOW_TUNE_MEMORY: expected 0 or 1, got '") + value + "'");
}

std::string tunables_for_huge_pages(std::string_view thp_mode, const char* current) {
  if (thp_mode.find("[madvise]") == std::string_view::npos) return {};
  const std::string tunables = current == nullptr ? std::string() : std::string(current);
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return {};
  return tunables + (tunables.empty() ? "" : ":") + "glibc.malloc.hugetlb=1";
}

std::string transparent_huge_page_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");  // closed on return: before any exec
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool address_sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

namespace {

// Whether this process may start itself again. Not when it did once already (the restarted one
// finds INTERFLOW_RESTARTED, whatever became of GLIBC_TUNABLES); not when set-user-ID or with file
// capabilities (AT_SECURE: glibc's loader drops the tunable, so each start would restart again);
// not under valgrind, where /proc/self/exe is valgrind's tool, not this program.
bool may_restart() {
  if (std::getenv("INTERFLOW_RESTARTED") != nullptr) {
    unsetenv("INTERFLOW_RESTARTED");  // the programs this one runs decide for themselves
    return false;
  }
  if (getauxval(AT_SECURE) != 0) return false;
  const char* preload = std::getenv("LD_PRELOAD");
  return preload == nullptr || std::strstr(preload, "vgpreload") == nullptr;
}

// Sets GLIBC_TUNABLES to `tunables` and executes this program again; returns only when that fails,
// with the environment as it was.
void restart_with(const std::string& tunables, char** argv) {
  const char* previous = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> saved = previous ? std::optional<std::string>(previous) : std::nullopt;
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) == 0 && setenv("INTERFLOW_RESTARTED", "1", 1) == 0)
    execv("/proc/self/exe", argv);
  unsetenv("INTERFLOW_RESTARTED");
  if (saved)
    setenv("GLIBC_TUNABLES", saved->c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace

void tune_memory(char** argv) {
  if (!memory_tuning_wanted(std::getenv("INTERFLOW_TUNE_MEMORY"))) return;
  if (address_sanitizer_build()) return;
  if (may_restart()) {
    const std::string tunables = tunables_for_huge_pages(transparent_huge_page_mode(), std::getenv("GLIBC_TUNABLES"));
    if (!tunables.empty()) restart_with(tunables, argv);  // returns only if it failed: no huge pages
  }
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

}  // namespace interflow
