#include "engine/flow/group_switch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace interflow::flow {

GroupSwitch::GroupSwitch(const Settings& settings) : settings_(settings) {
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
  if (wants_levels(changed) &&
      static_cast<double>(sampled) >= settings_.per_level * static_cast<double>(sampled_levels))
    ++grouped_batches_;
  if (++batches_ < settings_.window) return false;
  const bool decide = decides(grouped_batches_);
  batches_ = grouped_batches_ = 0;
  return decide;
}

}  // namespace interflow::flow
