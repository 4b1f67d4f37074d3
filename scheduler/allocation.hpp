#pragma once
// Resource allocation (seed 003 §3.4; manual/scheduler.md "Allocation"): which free nodes a starting
// job gets. Node i is endpoint i of the network.
//   consecutive  the first free nodes in id order
//   random       free nodes drawn from the run's seed
//   locality     the free nodes nearest (in hops) to one switch: the same switch first, then its
//                neighbours (a pod, a group, a compact region of a torus); the switch whose k-th
//                nearest free node is closest wins (needs the network)
//   geometric    clusters of consecutive free nodes whose sizes follow a geometric distribution of
//                mean `geometric_mean`, each starting at a random free node (seed 001 §IV-D)
#include <cstdint>
#include <string>
#include <vector>

#include "engine/network.hpp"
#include "engine/random.hpp"

namespace interflow::scheduler {

class NodeAllocator {
 public:
  // InputError for an unknown policy, or locality without a network.
  NodeAllocator(std::uint32_t nodes, const std::string& policy, std::uint64_t seed, const Network* net = nullptr,
                double geometric_mean = 8);
  std::uint32_t free() const { return count_; }
  // Takes `k` free nodes (k <= free()) into `out`, in the order the policy chose them.
  void take(std::uint32_t k, std::vector<std::uint32_t>& out);
  void give_back(const std::vector<std::uint32_t>& nodes);

 private:
  void take_locality(std::uint32_t k, std::vector<std::uint32_t>& out);
  void take_geometric(std::uint32_t k, std::vector<std::uint32_t>& out);

  enum class Policy { Consecutive, Random, Locality, Geometric } policy_;
  std::vector<std::uint8_t> free_;
  std::uint32_t count_;
  Rng rng_;
  const Network* net_;
  double geometric_mean_;
  std::vector<std::uint32_t> vertex_node_;  // locality: per vertex, the node (endpoint) it is, or kNone
};

}  // namespace interflow::scheduler
