// List scheduling: FCFS (submit order) and SJF (shortest estimate first). Jobs start in the policy's
// order while they fit; the first that does not fit blocks the rest.
#include "scheduler/selection.hpp"

namespace interflow::scheduler {

namespace {

void start_in_order(const QueueState& s, std::span<const std::uint32_t> order, std::vector<std::uint32_t>& start) {
  std::uint32_t free = s.free_nodes;
  for (std::uint32_t j : order) {
    const std::uint32_t nodes = (*s.jobs)[j].nodes;
    if (nodes > free) return;
    free -= nodes;
    start.push_back(j);
  }
}

class Fcfs : public SelectionPolicy {
 public:
  void select(const QueueState& s, std::vector<std::uint32_t>& start) const override {
    start_in_order(s, s.queue, start);
  }
};

class Sjf : public SelectionPolicy {
 public:
  void select(const QueueState& s, std::vector<std::uint32_t>& start) const override {
    start_in_order(s, by_estimate(s, s.queue), start);
  }
};

}  // namespace

void register_list_policies(SelectionRegistry& registry) {
  registry.add({"fcfs",
                "first come, first served: jobs start in submit order; the first that does not fit blocks",
                {},
                [](const ParamSet&) -> std::unique_ptr<SelectionPolicy> { return std::make_unique<Fcfs>(); },
                "Strict submit order, no overtaking (Navaridas et al. 2019, §3.4)."});
  registry.add({"sjf",
                "shortest job first: jobs start in order of estimate; the first that does not fit blocks",
                {},
                [](const ParamSet&) -> std::unique_ptr<SelectionPolicy> { return std::make_unique<Sjf>(); },
                "The queue is ordered by estimated run time (shortest first, ties in submit order) and run "
                "as a list: no backfilling (Navaridas et al. 2019, §3.4)."});
}

}  // namespace interflow::scheduler
