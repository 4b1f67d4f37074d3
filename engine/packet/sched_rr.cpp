// Round robin over the lanes that can send: the lane after the last one served (Cano-Cano et al.
// 2024, §2.1: the OB stage releases the lane after a packet's tail, so every lane gets its turn).
#include "core/types.hpp"
#include "engine/packet/output_scheduler.hpp"

namespace interflow::packet {

namespace {

class RoundRobin final : public OutputScheduler {
 public:
  explicit RoundRobin(std::uint32_t lanes) : last_(lanes - 1) {}  // lane 0 is served first
  std::uint32_t next(const LaneOffer& offer) override {
    const auto lanes = static_cast<std::uint32_t>(offer.ready.size());
    for (std::uint32_t k = 1; k <= lanes; ++k) {
      const std::uint32_t lane = (last_ + k) % lanes;
      if (offer.ready[lane]) return last_ = lane;
    }
    return kNone;
  }

 private:
  std::uint32_t last_;
};

}  // namespace

void register_rr_scheduler(OutputSchedulerRegistry& registry) {
  registry.add({"rr", "round robin over the lanes that can send", {},
                [](const ParamSet&, const SchedulerContext& c) { return std::make_unique<RoundRobin>(c.lanes); },
                "Cano-Cano et al. 2024 §2.1 (the OB stage) and OpaSim (Cano et al. 2018, §2.1)."});
}

}  // namespace interflow::packet
