#pragma once
// Weighted max-min fair rates by progressive filling (water-filling).
//
// Every path variable v has a weight w_v > 0 and crosses a set of links. The solver raises a common
// level t; each unfrozen variable gets w_v * t. The link whose fair share
//   share_l = (capacity_l - rate already frozen on l) / (sum of weights of unfrozen vars on l)
// is smallest is the next bottleneck: its variables freeze at w_v * share_l. Links live in a
// min-heap keyed by share; a link's share only grows as variables elsewhere freeze, so heap keys
// are lower bounds and are refreshed lazily when popped (a link touched since its key was computed
// is re-pushed with its new share). The result is the unique weighted max-min fair allocation
// (Bertsekas & Gallager, Data Networks, 2nd ed., §6.5.2), up to floating-point rounding.
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace interflow::maxmin {

class PathRuns;

// The exponent of the lowest set bit of a finite w > 0: w is a whole multiple of 2^that.
int lowest_bit_exponent(double w);
// Whether every sum of weights that are whole multiples of 2^unit_exponent, none above heaviest_sum,
// is a double (below 2^53 units), so that adding and subtracting such weights is exact.
bool weight_sums_exact(double heaviest_sum, int unit_exponent);

struct MaxMinInput {
  std::span<const float> capacity_gbps;            // per link
  std::span<const std::uint64_t> var_offsets;      // per variable, size V+1, into `links`
  std::span<const LinkId> links;                   // link ids of all variables, concatenated
  std::span<const double> weight;                  // per variable, > 0
  std::span<const std::uint8_t> link_up = {};      // per link, 0 = down (capacity 0); empty = all up
  std::span<const double> capacity_exact = {};     // if given, used instead of capacity_gbps (residuals)
  std::atomic<std::uint64_t>* progress = nullptr;  // variables frozen so far (optional)
  // If given, the variables' links are read from this run-coded copy (path_runs.hpp) and
  // var_offsets and links are not used, so the caller may have freed the table they came from. The
  // results are bit-identical either way.
  const PathRuns* runs = nullptr;
  // If given, the same array as `links`, writable. When many links carry no variable (a third of a
  // fat tree's under a random pattern), the solver then renumbers the ids in it to the links in use
  // and keeps its per-link state for those only (UsedLinks in maxmin.cpp); the ids are restored
  // before run() returns, and the results are bit-identical either way. If run() throws, the ids
  // may be left renumbered.
  std::span<LinkId> renumberable_links = {};
};

class MaxMinSolver {
 public:
  void run(const MaxMinInput& input);

  // Rate of each variable in Gbit/s. A variable with no link gets +infinity.
  const std::vector<double>& rates() const { return rate_; }
  // The link that froze each variable (kNone for a variable with no link).
  const std::vector<LinkId>& bottlenecks() const { return bottleneck_; }
  // Per link: how many variables cross it, and the sum of their rates (Gbit/s).
  const std::vector<std::uint32_t>& link_paths() const { return link_paths_; }
  const std::vector<double>& link_load() const { return link_load_; }
  // Hands the per-link results over (the solver keeps none).
  std::vector<std::uint32_t> take_link_paths() { return std::move(link_paths_); }
  std::vector<double> take_link_load() { return std::move(link_load_); }
  // Number of bottleneck links found (distinct freezing steps).
  std::uint64_t bottleneck_steps() const { return steps_; }
  std::uint64_t heap_refreshes() const { return refreshes_; }
  // Links the solve kept per-link state for: all of them, or those some variable crosses when the
  // solve renumbered them (MaxMinInput::renumberable_links).
  std::uint64_t solved_links() const { return solved_links_; }

 private:
  template <class Paths>
  void solve(const MaxMinInput& input, const Paths& paths);
  bool solve_on_used_links(const MaxMinInput& input);

  std::vector<double> rate_;
  std::vector<LinkId> bottleneck_;
  std::vector<std::uint32_t> link_paths_;
  std::vector<double> link_load_;
  std::uint64_t steps_ = 0;
  std::uint64_t refreshes_ = 0;
  std::uint64_t solved_links_ = 0;
  // Whether the links' weight sums are exact whatever weights freeze (every weight a multiple of one
  // power of two, and every link's sum below 2^53 of that unit): then they are kept by subtraction
  // alone. Otherwise a sum that has fallen below 1/kResumFall of its last summing is summed again
  // from the link's unfrozen variables (see solve()).
  static constexpr double kResumFall = 16;
  bool exact_sums_ = true;
  int unit_exponent_ = 0;  // every weight is a whole multiple of 2^unit_exponent_
};

}  // namespace interflow::maxmin
