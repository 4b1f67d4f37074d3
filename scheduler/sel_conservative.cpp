// Conservative backfilling: every waiting job, in submit order, gets the earliest reservation that
// delays none of the jobs before it; those whose reservation is now start. Reservations are
// recomputed at every scheduling point from the running jobs' predicted ends (so they only move
// earlier when jobs end before their estimates).
#include <limits>

#include "scheduler/selection.hpp"

namespace interflow::scheduler {

namespace {

class Conservative : public SelectionPolicy {
 public:
  void select(const QueueState& s, std::vector<std::uint32_t>& start) const override {
    Profile profile = Profile::of(s);
    for (std::uint32_t j : s.queue) {
      const Job& job = (*s.jobs)[j];
      const double at = profile.earliest(job.nodes, job.estimate);
      if (at == std::numeric_limits<double>::infinity()) continue;
      profile.reserve(at, job.estimate, job.nodes);
      if (at == s.now) start.push_back(j);
    }
  }
};

}  // namespace

void register_conservative_policy(SelectionRegistry& registry) {
  registry.add({"conservative",
                "conservative backfilling: every waiting job holds a reservation",
                {},
                [](const ParamSet&) -> std::unique_ptr<SelectionPolicy> { return std::make_unique<Conservative>(); },
                "In submit order each waiting job gets the earliest start at which its nodes stay free for its "
                "estimate without moving an earlier job's reservation; the jobs whose start is now run. "
                "Reservations are rebuilt at every scheduling point (Mu'alem & Feitelson 2001)."});
}

}  // namespace interflow::scheduler
