#pragma once
// Summary statistics of a sample, computed in a fixed order (thread-count independent).
#include <cstdint>
#include <span>
#include <vector>

namespace interflow {

struct Summary {
  std::uint64_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0, sum = 0;
  double jain = 0;  // Jain's fairness index (sum x)^2 / (n sum x^2); 1 when all equal
};

// `median` needs a copy of the sample; pass want_median=false to skip it.
Summary summarize(std::span<const double> values, bool want_median = true);

}  // namespace interflow
