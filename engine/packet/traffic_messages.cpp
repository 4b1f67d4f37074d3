// 'messages': independent messages on one SL, a Bernoulli process (a message in each cycle with
// probability load / message flits; the gaps drawn geometric, the same process) or a constant
// interval, each to a destination drawn by the run's destination rule. Optionally OpaSim's short
// and long messages (Cano et al. 2018 §2.3: SHORT_MESSAGE_SIZE, LONG_MESSAGE_SIZE,
// PERCENTAGE_SHORT_MESSAGES): each message is `bytes` with probability short-percent / 100 and
// long-bytes otherwise, and the rate follows the mean size.
#include <algorithm>
#include <cmath>

#include "engine/packet/traffic.hpp"

namespace interflow::packet {

namespace {

class Messages final : public SlGenerator {
 public:
  Messages(SlSettings s, const TrafficContext& c, bool constant, std::uint64_t long_bytes, double short_share)
      : SlGenerator(std::move(s)), rule_(*c.rule), constant_(constant), long_bytes_(long_bytes),
        short_share_(long_bytes == 0 ? 1.0 : short_share) {
    const auto flits = [&](std::uint64_t bytes) { return std::ceil(static_cast<double>(bytes) / c.flit_bytes); };
    rate_ = emission_rate(settings_, short_share_ * flits(settings_.bytes) + (1 - short_share_) * flits(long_bytes));
  }

  bool start(EndpointId e, Rng&) override { return !rule_.silent(e); }

  Emission next(EndpointId e, Cycle previous, bool, Rng& rng) override {
    const Cycle gap = constant_ ? static_cast<Cycle>(std::max(1.0, std::round(1.0 / rate_))) : geometric_gap(rate_, rng);
    const EndpointId dst = rule_.draw(e, rng);
    const std::uint64_t bytes = short_share_ < 1 && rng.uniform() >= short_share_ ? long_bytes_ : 0;
    return {previous + gap, dst, 1, bytes};
  }

 private:
  const DestinationRule& rule_;
  bool constant_;
  std::uint64_t long_bytes_;
  double short_share_;
  double rate_ = 0;
};

}  // namespace

void register_messages_traffic(TrafficRegistry& registry) {
  registry.add({"messages", "independent messages, Bernoulli or constant interval, destinations by the rule",
                sl_params({choice_param("process", "bernoulli", {"bernoulli", "constant"},
                                        "bernoulli: a message each cycle with probability load / mean message "
                                        "flits; constant: one every mean message flits / load cycles"),
                           int_param("long-bytes", "0",
                                     "OpaSim's long messages: bytes of a long message (0: every message is `bytes`)",
                                     0, 1ll << 40),
                           int_param("short-percent", "100",
                                     "with long-bytes: percentage of messages that are short (`bytes`), the rest long",
                                     0, 100)}),
                [](const ParamSet& p, const TrafficContext& c) {
                  return std::make_unique<Messages>(read_sl_settings(p), c, p.get_string("process") == "constant",
                                                    static_cast<std::uint64_t>(p.get_int("long-bytes")),
                                                    static_cast<double>(p.get_int("short-percent")) / 100.0);
                },
                "The destination of each message is drawn by the run's rule (--pattern): uniform among the other "
                "endpoints, or among the source's destinations in a static pattern.",
                "messages:load=0.2,bytes=256"});
}

}  // namespace interflow::packet
