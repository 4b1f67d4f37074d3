#pragma once
// Resource allocation (Navaridas et al. 2019, §3.4; manual/scheduler.md "Allocation"): which free nodes a starting
// job gets. Node i is endpoint i of the network. Policies are registered by name (one file plus one
// line in register_allocation_policies): consecutive, random, locality, geometric.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/network.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "core/topology.hpp"

namespace interflow::scheduler {

// What a policy sees: the free nodes (1 = free), the run's random stream and the network (nullptr in
// the network-agnostic mode).
struct FreeNodes {
  const std::vector<std::uint8_t>& free;
  std::uint32_t count;
  Rng& rng;
  const Network* network;
};

class AllocationPolicy {
 public:
  virtual ~AllocationPolicy() = default;
  // Appends `k` distinct free nodes (k <= s.count) to `out`.
  virtual void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) = 0;
};

// What a factory may use: the network (nullptr in the network-agnostic mode: a policy that needs it
// throws InputError) and, for grid topologies (tori, meshes), the endpoints' grid (dimension 0
// fastest, as Topology::endpoint_grid) and whether it wraps around.
struct AllocationContext {
  const Network* network = nullptr;
  std::vector<std::uint32_t> grid;
  bool wraps = false;
};
using AllocationRegistry = Registry<AllocationPolicy, const AllocationContext&>;
// The context of a topology: its network, and its grid of neighbouring routers if it has one
// (Topology::block_grid: tori and meshes).
AllocationContext allocation_context_of(const Topology& topology);
void register_allocation_policies(AllocationRegistry& registry);
void register_basic_allocations(AllocationRegistry& registry);     // consecutive, random
void register_locality_allocation(AllocationRegistry& registry);   // locality
void register_geometric_allocation(AllocationRegistry& registry);  // geometric


// The machine's nodes and one allocation policy.
class NodeAllocator {
 public:
  NodeAllocator(std::uint32_t nodes, std::unique_ptr<AllocationPolicy> policy, std::uint64_t seed,
                const Network* network = nullptr);
  std::uint32_t free() const { return count_; }
  // Takes `k` free nodes (k <= free()) into `out`, in the order the policy chose them.
  void take(std::uint32_t k, std::vector<std::uint32_t>& out);
  void give_back(const std::vector<std::uint32_t>& nodes);

 private:
  std::vector<std::uint8_t> free_;
  std::uint32_t count_;
  std::unique_ptr<AllocationPolicy> policy_;
  Rng rng_;
  const Network* network_;
};

}  // namespace interflow::scheduler
