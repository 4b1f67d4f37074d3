#include "core/system.hpp"

#include <sys/resource.h>

namespace interflow {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024ULL;  // Linux reports KiB
}

}  // namespace interflow
