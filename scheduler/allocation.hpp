#pragma once
// Resource allocation (seed 003 §3.4): which free nodes a starting job gets. consecutive = the first
// free nodes in id order; random = free nodes drawn from the run's seed.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/random.hpp"

namespace interflow::scheduler {

class NodeAllocator {
 public:
  // `policy`: consecutive or random (InputError otherwise).
  NodeAllocator(std::uint32_t nodes, const std::string& policy, std::uint64_t seed);
  std::uint32_t free() const { return count_; }
  // Takes `k` free nodes (k <= free()) into `out`, in the order the tasks are mapped to them.
  void take(std::uint32_t k, std::vector<std::uint32_t>& out);
  void give_back(const std::vector<std::uint32_t>& nodes);

 private:
  std::vector<std::uint8_t> free_;
  std::uint32_t count_;
  bool random_;
  Rng rng_;
};

}  // namespace interflow::scheduler
