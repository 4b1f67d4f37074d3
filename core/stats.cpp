#include "core/stats.hpp"

#include <algorithm>

namespace interflow {

Summary summarize(std::span<const double> values, bool want_median) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  s.min = values[0];
  s.max = values[0];
  double sum_sq = 0;
  for (double v : values) {
    s.sum += v;
    sum_sq += v * v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = s.sum / static_cast<double>(values.size());
  s.jain = sum_sq > 0 ? s.sum * s.sum / (static_cast<double>(values.size()) * sum_sq) : 1.0;
  if (want_median) {
    std::vector<double> copy(values.begin(), values.end());
    const std::size_t mid = copy.size() / 2;
    std::nth_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(mid), copy.end());
    double m = copy[mid];
    if (copy.size() % 2 == 0) {
      const double lower = *std::max_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(mid));
      m = 0.5 * (m + lower);
    }
    s.median = m;
  }
  return s;
}

}  // namespace interflow
