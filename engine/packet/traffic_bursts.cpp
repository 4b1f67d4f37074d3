// 'bursts': bursts of `size` messages generated in the same cycle to one destination (Bursts4 of
// Cano-Cano et al. 2024 §5.1 with size 4: "bursts of 4 messages generated at the same time heading
// to the same destination"); bursts start as a Bernoulli process of probability
// load / (size x message flits) per cycle, each to a destination drawn by the run's rule.
#include "engine/packet/traffic.hpp"

namespace interflow::packet {

namespace {

class Bursts final : public SlGenerator {
 public:
  Bursts(SlSettings s, const TrafficContext& c, std::uint32_t size)
      : SlGenerator(std::move(s)), rule_(*c.rule), size_(size), rate_(message_rate(settings_, c.flit_bytes, size)) {}

  bool start(EndpointId e, Rng&) override { return !rule_.silent(e); }

  Emission next(EndpointId e, Cycle previous, bool, Rng& rng) override {
    return {previous + geometric_gap(rate_, rng), rule_.draw(e, rng), size_};
  }

 private:
  const DestinationRule& rule_;
  std::uint32_t size_;
  double rate_;
};

}  // namespace

void register_bursts_traffic(TrafficRegistry& registry) {
  registry.add({"bursts", "bursts of messages generated together to one destination (Bursts4: size=4)",
                sl_params({int_param("size", "4", "messages per burst", 1, 1 << 20)}),
                [](const ParamSet& p, const TrafficContext& c) {
                  return std::make_unique<Bursts>(read_sl_settings(p), c, static_cast<std::uint32_t>(p.get_int("size")));
                },
                "Cano-Cano et al. 2024 §5.1 (EE, BE, BK). Bursts are Bernoulli with probability load / (size x "
                "message flits) per cycle.",
                "bursts:load=0.2,bytes=256,size=4"});
}

}  // namespace interflow::packet
