#include "core/format.hpp"

#include <charconv>
#include <cmath>

namespace interflow {

std::string number_text(double v) {
  if (!std::isfinite(v)) return {};
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace interflow
