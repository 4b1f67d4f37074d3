#include "scheduler/allocation.hpp"

#include <algorithm>

#include "engine/error.hpp"

namespace interflow::scheduler {

NodeAllocator::NodeAllocator(std::uint32_t nodes, const std::string& policy, std::uint64_t seed)
    : free_(nodes, 1), count_(nodes), random_(policy == "random"), rng_(seed) {
  if (policy != "consecutive" && policy != "random")
    throw InputError("allocation '" + policy + "': expected consecutive or random");
}

void NodeAllocator::take(std::uint32_t k, std::vector<std::uint32_t>& out) {
  out.clear();
  if (random_) {
    std::vector<std::uint32_t> candidates;
    candidates.reserve(count_);
    for (std::uint32_t v = 0; v < free_.size(); ++v)
      if (free_[v]) candidates.push_back(v);
    for (std::uint32_t i = 0; i < k; ++i) std::swap(candidates[i], candidates[i + rng_.below(candidates.size() - i)]);
    out.assign(candidates.begin(), candidates.begin() + k);
  } else {
    for (std::uint32_t v = 0; out.size() < k; ++v)
      if (free_[v]) out.push_back(v);
  }
  for (std::uint32_t v : out) free_[v] = 0;
  count_ -= k;
}

void NodeAllocator::give_back(const std::vector<std::uint32_t>& nodes) {
  for (std::uint32_t v : nodes) free_[v] = 1;
  count_ += static_cast<std::uint32_t>(nodes.size());
}

}  // namespace interflow::scheduler
