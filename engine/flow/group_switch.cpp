#include "engine/flow/group_switch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace interflow::flow {

GroupSwitch::Settings GroupSwitch::Settings::always(std::uint32_t window) {
  Settings s;
  s.window = window;
  s.min_changed = 0;
  s.per_level = std::numeric_limits<double>::infinity();
  s.clustered_over_rest = s.clustered_batches = 0;
  s.back_clustered_over_rest = s.back_min_rest = 0;
  return s;
}

GroupSwitch::GroupSwitch(const Settings& settings, Towards towards) : settings_(settings), towards_(towards) {
  if (settings.window == 0) throw std::logic_error("GroupSwitch: a window of at least one batch");
}

std::uint64_t GroupSwitch::in_large_levels(std::span<double> levels, double at_least) {
  std::sort(levels.begin(), levels.end());
  std::uint64_t in_large = 0;
  std::size_t first = 0;  // of the current level's run
  for (std::size_t i = 1; i <= levels.size(); ++i) {
    if (i < levels.size() && levels[i] - levels[i - 1] <= kSameLevel * std::abs(levels[i])) continue;
    if (static_cast<double>(i - first) >= at_least) in_large += i - first;
    first = i;
  }
  return in_large;
}

bool GroupSwitch::observe(std::uint64_t clustered, std::uint64_t rest) {
  clustered_sum_ += static_cast<double>(clustered);
  rest_sum_ += static_cast<double>(rest);
  if (clustered > 0) ++clustered_batches_;
  if (++batches_ < settings_.window) return false;
  const bool decide = decides();
  batches_ = clustered_batches_ = 0;
  clustered_sum_ = rest_sum_ = 0;
  return decide;
}

bool GroupSwitch::decides() const {
  const Settings& s = settings_;
  if (towards_ == Towards::variables)
    return clustered_sum_ <= s.back_clustered_over_rest * rest_sum_ && rest_sum_ >= s.back_min_rest;
  return clustered_sum_ >= s.clustered_over_rest * rest_sum_ && clustered_batches_ >= s.clustered_batches * s.window &&
         clustered_sum_ >= s.window * s.min_changed / 2;
}

}  // namespace interflow::flow
