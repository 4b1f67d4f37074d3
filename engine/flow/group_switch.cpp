#include "engine/flow/group_switch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace interflow::flow {

GroupSwitch::GroupSwitch(const Settings& settings, Towards towards) : settings_(settings), towards_(towards) {
  if (settings.window == 0) throw std::logic_error("GroupSwitch: a window of at least one batch");
}

std::uint64_t GroupSwitch::distinct(std::span<double> levels) {
  std::sort(levels.begin(), levels.end());
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (i == 0 || levels[i] - levels[i - 1] > kSameLevel * std::abs(levels[i])) ++count;
  return count;
}

bool GroupSwitch::observe(std::uint64_t changed, std::uint64_t sampled, std::uint64_t sampled_levels) {
  if (towards_ == Towards::variables) {
    changed_sum_ += static_cast<double>(changed);
    levels_sum_ += static_cast<double>(sampled_levels);
  } else if (wants_levels(changed) &&
             static_cast<double>(sampled) >= settings_.per_level * static_cast<double>(sampled_levels)) {
    ++grouped_batches_;
  }
  if (++batches_ < settings_.window) return false;
  const bool decide = towards_ == Towards::groups ? decides(grouped_batches_) : decides_back();
  batches_ = grouped_batches_ = 0;
  changed_sum_ = levels_sum_ = 0;
  return decide;
}

bool GroupSwitch::decides_back() const {
  return levels_sum_ >= settings_.back_min_levels && changed_sum_ < settings_.back_per_level * levels_sum_;
}

}  // namespace interflow::flow
