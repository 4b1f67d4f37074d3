#pragma once
// The tolerances and bounds shared by the two incremental solvers (engine/maxmin/incremental_maxmin.hpp
// over variables, engine/maxmin/grouped_maxmin.hpp over bottleneck groups), which apply the same
// rules (steps 0-4 of incremental_maxmin.hpp) and must keep the same values.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace interflow::maxmin::rules {

constexpr double kRelative = 1e-9;  // saturation tolerance, relative
// A rate change smaller than this (relative) is rounding noise of the solve: not applied, not reported.
constexpr double kRateChange = 1e-12;
constexpr double kNoFloor = std::numeric_limits<double>::infinity();
// A level is above another when it exceeds it by more than this (relative) plus kTieAbsolute × the
// largest capacity: beyond the rounding of a solve. Leaving out a variable so close to a tie moves the
// rates on that link by at most as much: 1e-12 relative, or 1e-14 × the largest capacity for a rate
// far below it (the same order as kRateChange's floor).
constexpr double kTie = 1e-12, kTieAbsolute = 1e-14;
// The rules that keep S small compare rates with tolerances partly absolute (kRateChange's floor,
// scaled by weight / heaviest; kTieAbsolute; the margins of at_least). Divided by weights far apart
// these become level differences as large as the light variables' own levels, so that a variable at
// the top of a link can be taken for one below it. The random tests against a solve from scratch
// hold up to a spread of 2^30 and fail beyond; so once the weights activated lie further apart,
// update() solves every active variable (solve_all, which the same tests find exact up to 2^60).
// ECMP's per-hop splits on a large mesh reach 2^-63.
constexpr double kWeightSpread = 0x1p30;
// The first closure of an update stops at kCloseFactor × |S| + kCloseAtLeast (variables, or pairs
// over groups); later ones, when taken (LaterClosures), do not stop. On a megafly where a uniform
// background saturates most links, the unbounded first closure took 41 variables to 12,000 for 52
// that changed (bench/RESULTS.md).
constexpr std::size_t kCloseFactor = 16, kCloseAtLeast = 256;
// Above 0 the first closure is not bounded either (learn_closure_bound); the score stays within ±this.
constexpr int kClosureScoreMax = 8;

// Whether the closures after an update's first solve are taken (step 4 of incremental_maxmin.hpp:
// the variables a solve brings in are closed over their saturated links as in step 2), learned per
// run from the updates that solved S more than once. Leaving them out keeps the result exact (a
// closure only takes variables in ahead of the solve that would find them); it costs a round per
// ring of variables the change reaches, and saves the variables a closure takes in that do not
// change. Judged by the share of S whose rate changed:
//   - closures taken: S holds what they took in ahead of the solves; when fewer than half of S
//     changed, they were mostly speculation. On the seed-001 megafly with a uniform background
//     (bench/RESULTS.md) an update that solved S twice or more re-solved 8,071 variables for 92 that
//     changed, as the closures ran through the saturated links of the whole network;
//   - closures left out: S grew a ring at a time, each found by a solve, so it is near what had to
//     be re-solved; when three quarters of it changed anyway, the change spreads through the
//     saturated links and closing at once saves the rounds (a contended fat tree: 5.3 rounds per
//     such update without the closures, 2.0 with them).
// The two thresholds differ so that a run between them keeps the mode it has. Each judged update
// moves the score by one within ±kClosureScoreMax; the closures are taken at 0 and above (the
// start). Updates that ended with S below kLaterClosureJudgedAt variables are not judged.
constexpr std::size_t kLaterClosureJudgedAt = 64;
class LaterClosures {
 public:
  bool taken() const { return score_ >= 0; }
  // After an update that solved S more than once: S held `solved` variables at the end, of which
  // `changed` changed rate.
  void learn(std::uint64_t solved, std::uint64_t changed) {
    if (pinned_ || solved < kLaterClosureJudgedAt) return;
    const bool paid = taken() ? 2 * changed >= solved : 4 * changed >= 3 * solved;
    score_ = std::clamp(score_ + (paid ? 1 : -1), -kClosureScoreMax, kClosureScoreMax);
  }
  // For tests: one mode for the rest of the run.
  void pin(bool taken) {
    pinned_ = true;
    score_ = taken ? kClosureScoreMax : -kClosureScoreMax;
  }

 private:
  int score_ = 0;
  bool pinned_ = false;
};

// The load at which a link counts as saturated: tolerance relative to the larger of its current and
// its initial capacity (a residual capacity handed down by a class policy can be a rounding error
// away from 0).
inline double saturation(double capacity, double initial_capacity) {
  return capacity - kRelative * std::max(capacity, initial_capacity);
}

// Refuses a weight that is not finite and positive, naming the solver.
inline void check_weight(double weight, std::string_view solver) {
  if (weight > 0 && std::isfinite(weight)) return;
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", weight);
  throw InputError(std::string(solver) + ": a weight of " + text + "; weights must be finite and > 0");
}

}  // namespace interflow::maxmin::rules
