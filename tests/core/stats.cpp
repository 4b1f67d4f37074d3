// Student's t quantiles against the tabulated values, the confidence interval of a mean, and the
// nearest-name suggestion.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/stats.hpp"
#include "core/suggest.hpp"

using namespace interflow;

TEST_CASE("stats: Student's t quantiles match the tables") {
  // t(0.975, df), from the standard tables (e.g. Abramowitz and Stegun 1964, table 26.10).
  const std::vector<std::pair<double, double>> table = {{1, 12.7062047}, {2, 4.30265273}, {3, 3.18244631},
                                                        {4, 2.77644511}, {5, 2.57058184}, {9, 2.26215716},
                                                        {10, 2.22813885}, {30, 2.04227246}, {120, 1.97993041}};
  for (const auto& [df, t] : table) {
    INFO("df " << df);
    CHECK(student_t_quantile(0.975, df) == approx(t).epsilon(1e-8));
  }
  CHECK(student_t_quantile(0.95, 3) == approx(2.35336343).epsilon(1e-8));
  CHECK(student_t_quantile(0.995, 7) == approx(3.49948330).epsilon(1e-8));
  CHECK(student_t_quantile(0.5, 4) == 0.0);
  CHECK(student_t_quantile(0.025, 10) == approx(-2.22813885).epsilon(1e-8));
  // Large df tends to the normal quantile 1.959964.
  CHECK(student_t_quantile(0.975, 1e6) == approx(1.959966).epsilon(1e-5));
  CHECK_THROWS(student_t_quantile(1.0, 3));
  CHECK_THROWS(student_t_quantile(0.9, 0.5));
}

TEST_CASE("stats: the 95 % confidence interval of a mean") {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7).
  const std::vector<double> x = {2, 4, 4, 4, 5, 5, 7, 9};
  const MeanCi c = mean_ci95(x);
  CHECK(c.n == 8);
  CHECK(c.defined);
  CHECK(c.mean == approx(5));
  CHECK(c.sd == approx(std::sqrt(32.0 / 7.0)));
  CHECK(c.ci95 == approx(2.36462425 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0)).epsilon(1e-8));
  const std::vector<double> one = {3.5};
  const MeanCi single = mean_ci95(one);
  CHECK_FALSE(single.defined);
  CHECK(single.mean == 3.5);
  CHECK(single.sd == 0);
  CHECK(single.ci95 == 0);
  const std::vector<double> same = {1, 1, 1};
  CHECK(mean_ci95(same).ci95 == 0);
}

TEST_CASE("stats: a running sum of rates that come and go stays at the exact total") {
  // Rates of flows joining and leaving, as the flow transport's total: 200,000 flows at rates that are
  // not binary fractions, each added, changed once and taken off in another order; the exact total is
  // then 0, and with a few flows left, their exact sum. A plain running total drifts (checked, so that
  // the test shows what the compensation is for).
  std::vector<double> rate(200'000), changed(rate.size());
  for (std::size_t i = 0; i < rate.size(); ++i) {
    rate[i] = 100.0 / static_cast<double>(3 + i % 97);
    changed[i] = rate[i] * 1.1 + 1e-3 * static_cast<double>(i % 7);
  }
  RunningSum total;
  double plain = 0;
  for (std::size_t i = 0; i < rate.size(); ++i) {
    total.add(rate[i]);
    plain += rate[i];
  }
  for (std::size_t i = 0; i < rate.size(); ++i) {
    total.add(changed[i] - rate[i]);
    plain += changed[i] - rate[i];
  }
  for (std::size_t k = 0; k < rate.size() - 3; ++k) {  // all but the last three, from the middle out
    const std::size_t i = (k * 7919) % (rate.size() - 3);
    total.add(-changed[i]);
    plain -= changed[i];
  }
  const double left = changed[rate.size() - 3] + changed[rate.size() - 2] + changed[rate.size() - 1];
  CHECK(std::abs(total.value() - left) <= 4 * std::numeric_limits<double>::epsilon() * left);
  CHECK(std::abs(plain - left) > 1e3 * std::numeric_limits<double>::epsilon() * left);
  total.reset();
  CHECK(total.value() == 0.0);
}

TEST_CASE("suggest: the nearest valid name or none") {
  const std::vector<std::string> names = {"pattern", "topology", "routing", "switch-gbps", "max-runs"};
  CHECK(nearest_name("patern", names) == "pattern");
  CHECK(nearest_name("topolgy", names) == "topology");
  CHECK(nearest_name("switch_gbps", names) == "switch-gbps");  // '_' and '-' count equal
  CHECK(nearest_name("max-rusn", names) == "max-runs");         // a swap of neighbours is one edit
  CHECK(nearest_name("bandwidth", names).empty());
  CHECK(did_you_mean("routng", names) == " (did you mean 'routing'?)");
  CHECK(did_you_mean("xyz", names).empty());
}

#include "core/progress.hpp"

TEST_CASE("progress: the terminal bar and the log line say the phase and the time left") {
  const std::string bar = Progress::describe("route", 50, 200, 10, 12, true);
  CHECK(bar == "[#####...............]  25% route, 30s left (12s in all)");
  const std::string line = Progress::describe("route", 50, 200, 10, 12, false);
  CHECK(line == "progress: route 25% (50/200), 10s in the phase, about 30s left");
  CHECK(Progress::describe("schedule", 0, 10, 3, 3, false) == "progress: schedule 0% (0/10), 3s in the phase, about ? left");
  CHECK(Progress::describe("reading", 0, 0, 3, 75, false) == "progress: reading, 1m15s into the run");
}

TEST_CASE("stats: a summary built one value at a time is the summary of the whole sample") {
  // Against the plain formulas over a sample with repeats and negative values, and summarize()
  // without its median bit for bit; the empty summary is all zeros.
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i) values.push_back(std::sin(i * 0.37) * 5.0 + (i % 7 == 0 ? 3.0 : 0.0));
  SummaryBuilder builder;
  double sum = 0, sum_sq = 0;
  for (const double v : values) {
    builder.add(v);
    sum += v;
    sum_sq += v * v;
  }
  const Summary s = builder.finish();
  CHECK(s.count == values.size());
  CHECK(s.min == *std::min_element(values.begin(), values.end()));
  CHECK(s.max == *std::max_element(values.begin(), values.end()));
  CHECK(s.sum == sum);
  CHECK(s.mean == approx(sum / 1000.0));
  CHECK(s.jain == approx(sum * sum / (1000.0 * sum_sq)));
  const Summary whole = summarize(values, false);
  CHECK(whole.sum == s.sum);
  CHECK(whole.mean == s.mean);
  CHECK(whole.jain == s.jain);
  CHECK(whole.min == s.min);
  CHECK(whole.max == s.max);
  const Summary none = SummaryBuilder().finish();
  CHECK(none.count == 0);
  CHECK(none.sum == 0);
  CHECK(none.jain == 0);
}
