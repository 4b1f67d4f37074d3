// Strict priority: the lowest-numbered lane that can send (lane 0 first).
#include "core/types.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

namespace {

class Priority final : public OutputScheduler {
 public:
  std::uint32_t next(const LaneOffer& offer) override {
    for (std::uint32_t lane = 0; lane < offer.ready.size(); ++lane)
      if (offer.ready[lane]) return lane;
    return kNone;
  }
};

}  // namespace

void register_priority_scheduler(OutputSchedulerRegistry& registry) {
  registry.add({"priority", "strict priority: the lowest-numbered lane that can send", {},
                [](const ParamSet&, const SchedulerContext&) { return std::make_unique<Priority>(); },
                "Lane 0 has the highest priority; a lane waits while a lower-numbered one can send."});
}

}  // namespace interflow::packet
