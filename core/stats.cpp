#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace interflow {

Summary SummaryBuilder::finish() const {
  Summary s = s_;
  if (s.count == 0) return s;
  const auto n = static_cast<double>(s.count);
  s.mean = s.sum / n;
  s.jain = sum_sq_ > 0 ? s.sum * s.sum / (n * sum_sq_) : 1.0;
  return s;
}

Summary summarize(std::span<const double> values, bool want_median) {
  SummaryBuilder builder;
  for (const double v : values) builder.add(v);
  Summary s = builder.finish();
  if (values.empty()) return s;
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

Summary summarize_counted(std::vector<Counted>& values) {
  std::sort(values.begin(), values.end(), [](const Counted& a, const Counted& b) { return a.value < b.value; });
  Summary s;
  double sum_sq = 0;
  for (const Counted& c : values) {
    if (c.count == 0) continue;
    if (s.count == 0) s.min = c.value;
    s.max = c.value;
    s.count += c.count;
    const auto n = static_cast<double>(c.count);
    s.sum += c.value * n;
    sum_sq += c.value * c.value * n;
  }
  if (s.count == 0) return s;
  s.mean = s.sum / static_cast<double>(s.count);
  s.jain = sum_sq > 0 ? s.sum * s.sum / (static_cast<double>(s.count) * sum_sq) : 1.0;
  // The median: the middle element (0-based rank count/2), averaged with the one below it when the
  // count is even, as summarize() does.
  const std::uint64_t mid = s.count / 2;
  std::uint64_t seen = 0;
  double below = s.min;
  for (const Counted& c : values) {
    if (c.count == 0) continue;
    if (seen + c.count > mid) {
      const bool mid_starts_run = seen == mid;
      s.median = s.count % 2 == 1 ? c.value : 0.5 * (c.value + (mid_starts_run ? below : c.value));
      break;
    }
    seen += c.count;
    below = c.value;
  }
  return s;
}

}  // namespace interflow

namespace interflow {

namespace {

// The continued fraction of the incomplete beta function (Abramowitz and Stegun 26.5.8), by the
// modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300, eps = 1e-15;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 1000; ++m) {
    const double md = m;
    // even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m))
    double num = md * (b - md) * x / ((a + 2 * md - 1) * (a + 2 * md));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    d = 1.0 / (std::abs(d) < tiny ? tiny : d);
    c = std::abs(c) < tiny ? tiny : c;
    h *= d * c;
    // odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
    num = -(a + md) * (a + b + md) * x / ((a + 2 * md) * (a + 2 * md + 1));
    d = 1.0 + num * d;
    c = 1.0 + num / c;
    d = 1.0 / (std::abs(d) < tiny ? tiny : d);
    c = std::abs(c) < tiny ? tiny : c;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < eps) break;
  }
  return h;
}

// The regularised incomplete beta function I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;  // symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
}

// P(T <= t) for Student's t with df degrees of freedom (A&S 26.7.1 through the incomplete beta).
double student_t_cdf(double t, double df) {
  const double tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
  return t >= 0 ? 1.0 - tail : tail;
}

}  // namespace

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df >= 1)) throw std::invalid_argument("student_t_quantile: p in (0, 1), df >= 1");
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, df);
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, df) < p) hi *= 2;  // df = 1, p = 0.999999: hi about 3e5
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

MeanCi mean_ci95(std::span<const double> values) {
  MeanCi r;
  r.n = values.size();
  if (values.empty()) return r;
  double sum = 0;
  for (double v : values) sum += v;
  r.mean = sum / static_cast<double>(r.n);
  if (r.n < 2) return r;
  r.defined = true;
  if (std::all_of(values.begin(), values.end(), [&](double v) { return v == values[0]; })) {
    r.mean = values[0];  // exactly, without the rounding of the sum
    return r;
  }
  double squares = 0;
  for (double v : values) squares += (v - r.mean) * (v - r.mean);
  const double n = static_cast<double>(r.n);
  r.sd = std::sqrt(squares / (n - 1));
  r.ci95 = student_t_quantile(0.975, n - 1) * r.sd / std::sqrt(n);
  r.defined = true;
  return r;
}

void add_to_bins(std::vector<double>& series, double bin_s, double a, double b, double value) {
  const std::size_t bins = series.size();
  if (bins == 0 || !(bin_s > 0)) return;
  for (double t = a; t < b;) {
    auto bin = std::min<std::size_t>(bins - 1, static_cast<std::size_t>(t / bin_s));
    while (bin + 1 < bins && static_cast<double>(bin + 1) * bin_s <= t) ++bin;
    const double end = bin + 1 == bins ? b : std::min(b, static_cast<double>(bin + 1) * bin_s);
    series[bin] += value * ((end - t) / bin_s);
    t = end;
  }
}

}  // namespace interflow
