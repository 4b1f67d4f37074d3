#include "core/format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace interflow {

std::string number_text(double v) {
  if (!std::isfinite(v)) return {};
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string duration_text(double s) {
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%.0fs", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(text, sizeof text, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return text;
}

}  // namespace interflow
