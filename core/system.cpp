#include "core/system.hpp"

#include "core/error.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
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

void tune_memory(char** argv) {
  if (!memory_tuning_wanted(std::getenv("INTERFLOW_TUNE_MEMORY"))) return;
#ifndef __SANITIZE_ADDRESS__
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::ostringstream mode;
  mode << in.rdbuf();
  const char* previous = std::getenv("GLIBC_TUNABLES");
  const std::string tunables = tunables_for_huge_pages(mode.str(), previous);
  if (!tunables.empty()) {
    const std::string saved = previous == nullptr ? std::string() : std::string(previous);
    if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) == 0) {
      execv("/proc/self/exe", argv);
      // Not restarted (no /proc, say): the run goes on as it is, its environment as it was.
      if (previous == nullptr)
        unsetenv("GLIBC_TUNABLES");
      else
        setenv("GLIBC_TUNABLES", saved.c_str(), 1);
    }
  }
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
#else
  (void)argv;
#endif
}

}  // namespace interflow
