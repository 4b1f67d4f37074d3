#include "scheduler/allocation.hpp"

#include <stdexcept>

namespace interflow::scheduler {

void register_allocation_policies(AllocationRegistry& registry) {
  register_basic_allocations(registry);
  register_locality_allocation(registry);
  register_geometric_allocation(registry);
}

AllocationContext allocation_context_of(const Topology& topology) {
  AllocationContext ctx;
  ctx.network = &topology.network();
  const BlockGrid grid = topology.block_grid();
  ctx.grid = grid.dims;
  ctx.wraps = grid.wraps;
  return ctx;
}

NodeAllocator::NodeAllocator(std::uint32_t nodes, std::unique_ptr<AllocationPolicy> policy, std::uint64_t seed,
                             const Network* network)
    : free_(nodes, 1), count_(nodes), policy_(std::move(policy)), rng_(seed), network_(network) {}

void NodeAllocator::take(std::uint32_t k, std::vector<std::uint32_t>& out) {
  out.clear();
  policy_->choose({free_, count_, rng_, network_}, k, out);
  if (out.size() != k) throw std::logic_error("allocation policy returned the wrong number of nodes");
  for (std::uint32_t v : out) {
    if (!free_[v]) throw std::logic_error("allocation policy returned a busy node");
    free_[v] = 0;
  }
  count_ -= k;
}

void NodeAllocator::give_back(const std::vector<std::uint32_t>& nodes) {
  for (std::uint32_t v : nodes) free_[v] = 1;
  count_ += static_cast<std::uint32_t>(nodes.size());
}

}  // namespace interflow::scheduler
