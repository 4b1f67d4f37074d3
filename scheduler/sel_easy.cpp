// Aggressive (EASY) backfilling with one reservation, for the first waiting job (Lifka 1995; Mu'alem
// & Feitelson 2001): later jobs may start now if they do not delay it. easy-sjf tries the later jobs
// in order of estimate instead of submit order.
#include <algorithm>

#include "scheduler/selection.hpp"

namespace interflow::scheduler {

namespace {

class Easy : public SelectionPolicy {
 public:
  explicit Easy(bool shortest_first) : shortest_first_(shortest_first) {}
  void select(const QueueState& s, std::vector<std::uint32_t>& start) const override {
    const auto& jobs = *s.jobs;
    std::uint32_t free = s.free_nodes;
    std::size_t head = 0;
    for (; head < s.queue.size() && jobs[s.queue[head]].nodes <= free; ++head) {  // the head starts while it fits
      free -= jobs[s.queue[head]].nodes;
      start.push_back(s.queue[head]);
    }
    if (head == s.queue.size()) return;
    // The reservation of the blocked head: when enough nodes will be free (the shadow time), and how
    // many nodes it leaves over then (the extra nodes).
    std::vector<RunningJob> running(s.running.begin(), s.running.end());
    for (std::uint32_t j : start) running.push_back({j, s.now + jobs[j].estimate, jobs[j].nodes});
    std::sort(running.begin(), running.end(),
              [](const RunningJob& a, const RunningJob& b) { return a.predicted_end < b.predicted_end; });
    const std::uint32_t need = jobs[s.queue[head]].nodes;
    std::int64_t available = free;
    double shadow = s.now;
    std::size_t k = 0;
    while (available < need && k < running.size()) {
      shadow = release_time(s, running[k]);
      // Every job predicted to end at the same time frees its nodes together.
      while (k < running.size() && release_time(s, running[k]) == shadow) available += running[k++].nodes;
    }
    if (available < need) return;  // cannot happen for a job the machine can hold
    std::int64_t extra = available - need;
    std::vector<std::uint32_t> candidates(s.queue.begin() + static_cast<std::ptrdiff_t>(head) + 1, s.queue.end());
    if (shortest_first_) candidates = by_estimate(s, candidates);
    for (std::uint32_t j : candidates) {
      const Job& job = jobs[j];
      if (job.nodes > free) continue;
      const bool ends_before_shadow = s.now + job.estimate <= shadow;
      if (!ends_before_shadow && job.nodes > extra) continue;
      if (!ends_before_shadow) extra -= job.nodes;
      free -= job.nodes;
      start.push_back(j);
    }
  }

 private:
  bool shortest_first_;
};

}  // namespace

void register_easy_policies(SelectionRegistry& registry) {
  registry.add({"easy",
                "aggressive (EASY) backfilling: one reservation for the first waiting job",
                {},
                [](const ParamSet&) -> std::unique_ptr<SelectionPolicy> { return std::make_unique<Easy>(false); },
                "Jobs start in submit order while they fit. The first that does not gets a reservation at the "
                "shadow time (the earliest time enough nodes are free, from the running jobs' start + "
                "estimate); later jobs, in submit order, start now if they fit and either end by the shadow "
                "time or use only the extra nodes the reservation leaves (Navaridas et al. 2019, §3.4; aggressive "
                "backfilling)."});
  registry.add({"easy-sjf",
                "EASY backfilling that tries the later jobs shortest estimate first",
                {},
                [](const ParamSet&) -> std::unique_ptr<SelectionPolicy> { return std::make_unique<Easy>(true); },
                "As easy, but the backfill candidates are tried in order of estimate (shortest first, ties in "
                "submit order)."});
}

}  // namespace interflow::scheduler
