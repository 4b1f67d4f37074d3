// 'messages': independent messages on one SL, a Bernoulli process (a message in each cycle with
// probability load / message flits; the gaps drawn geometric, the same process) or a constant
// interval, each to a destination drawn by the run's destination rule.
#include <algorithm>
#include <cmath>

#include "engine/packet/traffic.hpp"

namespace interflow::packet {

namespace {

class Messages final : public SlGenerator {
 public:
  Messages(SlSettings s, const TrafficContext& c, bool constant)
      : SlGenerator(std::move(s)), rule_(*c.rule), constant_(constant),
        rate_(message_rate(settings_, c.flit_bytes, 1)) {}

  bool start(EndpointId e, Rng&) override { return !rule_.silent(e); }

  Emission next(EndpointId e, Cycle previous, bool, Rng& rng) override {
    const Cycle gap = constant_ ? static_cast<Cycle>(std::max(1.0, std::round(1.0 / rate_))) : geometric_gap(rate_, rng);
    return {previous + gap, rule_.draw(e, rng), 1};
  }

 private:
  const DestinationRule& rule_;
  bool constant_;
  double rate_;
};

}  // namespace

void register_messages_traffic(TrafficRegistry& registry) {
  registry.add({"messages", "independent messages, Bernoulli or constant interval, destinations by the rule",
                sl_params({choice_param("process", "bernoulli", {"bernoulli", "constant"},
                                        "bernoulli: a message each cycle with probability load / message flits; "
                                        "constant: one every message flits / load cycles")}),
                [](const ParamSet& p, const TrafficContext& c) {
                  return std::make_unique<Messages>(read_sl_settings(p), c, p.get_string("process") == "constant");
                },
                "The destination of each message is drawn by the run's rule (--pattern): uniform among the other "
                "endpoints, or among the source's destinations in a static pattern.",
                "messages:load=0.2,bytes=256"});
}

}  // namespace interflow::packet
