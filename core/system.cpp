#include "core/system.hpp"

#include <sys/resource.h>

#include <fstream>
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

}  // namespace interflow
