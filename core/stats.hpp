#pragma once
// Summary statistics of a sample, computed in a fixed order (thread-count independent).
#include <algorithm>
#include <cmath>
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

// The same summary without the median, of values given one at a time, so that no copy of a large
// sample (one value per link of a 10M-endpoint network) is held: bit-identical to summarize(values,
// false) over the values in the order given (summarize runs on it).
class SummaryBuilder {
 public:
  void add(double v) {
    if (s_.count++ == 0) s_.min = s_.max = v;
    s_.sum += v;
    sum_sq_ += v * v;
    s_.min = std::min(s_.min, v);
    s_.max = std::max(s_.max, v);
  }
  Summary finish() const;

 private:
  Summary s_;
  double sum_sq_ = 0;
};

// A running total of many additions and subtractions (the total rate of the flows in transfer as
// they come, go and change rate), with Neumaier's compensation (Neumaier 1974): each addition's
// rounding error is kept apart and added back, so the total stays within a few units in the last
// place of the exact sum of its terms instead of drifting with their number (a plain running total
// of the rates of an 80,000-batch run read 100.000003 Gbit/s on a 100 Gbit/s link).
class RunningSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    lost_ += std::abs(sum_) >= std::abs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + lost_; }
  void reset() { sum_ = lost_ = 0; }

 private:
  double sum_ = 0, lost_ = 0;
};

// A value and how many times it occurs in a sample.
struct Counted {
  double value;
  std::uint64_t count;
};
// The same summary of a sample given as counted values (in any order, a value possibly listed more
// than once): the sample is each value repeated `count` times. Sums run in increasing value order,
// so they may differ from summarize() over the same sample in the last bits only. Sorts `values`.
Summary summarize_counted(std::vector<Counted>& values);

}  // namespace interflow

namespace interflow {

// The mean and the 95 % confidence interval of the mean of a small sample (e.g. one metric over the
// seeds of a sweep), assuming the runs are independent and their mean roughly normal: half-width
// t(0.975, n-1) * sd / sqrt(n) with the sample standard deviation sd (n-1 in the denominator).
// n = 1 gives sd = ci95 = 0 and `defined` = false: one run says nothing of the spread.
struct MeanCi {
  std::uint64_t n = 0;
  double mean = 0, sd = 0, ci95 = 0;
  bool defined = false;  // n >= 2
};
MeanCi mean_ci95(std::span<const double> values);

// The p-quantile of Student's t distribution with `df` degrees of freedom (df >= 1, 0 < p < 1), by
// bisection on the distribution function, which is the regularised incomplete beta function
// I_x(df/2, 1/2) evaluated by its continued fraction (Abramowitz and Stegun 1964, 26.5.8 and 26.7.1).
// Accurate to about 1e-10; tests check it against the tabulated values.
double student_t_quantile(double p, double df);

// Time series in equal bins: adds `value` x (the share of each bin that [a, b) covers) into
// `series`, whose bins are `bin_s` long; the last bin takes whatever lies beyond it. A time on a bin's
// boundary belongs to the later bin (the quotient t / bin_s may round either way there). A
// piecewise-constant rate added piece by piece gives each bin its time-averaged rate.
void add_to_bins(std::vector<double>& series, double bin_s, double a, double b, double value);

}  // namespace interflow
