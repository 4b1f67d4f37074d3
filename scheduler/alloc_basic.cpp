// consecutive (the first free nodes in id order) and random (free nodes drawn at random).
#include <algorithm>

#include "scheduler/allocation.hpp"

namespace interflow::scheduler {

namespace {

class Consecutive : public AllocationPolicy {
 public:
  void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) override {
    for (std::uint32_t v = 0; out.size() < k; ++v)
      if (s.free[v]) out.push_back(v);
  }
};

class RandomNodes : public AllocationPolicy {
 public:
  void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) override {
    std::vector<std::uint32_t> candidates;
    candidates.reserve(s.count);
    for (std::uint32_t v = 0; v < s.free.size(); ++v)
      if (s.free[v]) candidates.push_back(v);
    for (std::uint32_t i = 0; i < k; ++i) std::swap(candidates[i], candidates[i + s.rng.below(candidates.size() - i)]);
    out.insert(out.end(), candidates.begin(), candidates.begin() + k);
  }
};

}  // namespace

void register_basic_allocations(AllocationRegistry& registry) {
  registry.add({"consecutive",
                "the first free nodes in id order",
                {},
                [](const ParamSet&, const AllocationContext&) -> std::unique_ptr<AllocationPolicy> {
                  return std::make_unique<Consecutive>();
                },
                "The sequential allocation of Navaridas et al. 2019, §3.4."});
  registry.add({"random",
                "free nodes drawn uniformly at random from the run's seed",
                {},
                [](const ParamSet&, const AllocationContext&) -> std::unique_ptr<AllocationPolicy> {
                  return std::make_unique<RandomNodes>();
                },
                "A partial Fisher-Yates shuffle of the free nodes."});
}

}  // namespace interflow::scheduler
