// 'cbr': constant-bit-rate connections (Cano-Cano et al. 2024 §5.1: VO, VI and CL "composed of
// multiple point-to-point connections ... selected at the simulation beginning and up until the
// simulation ends"). Each NIC opens `connections` connections, to destinations drawn by the run's
// rule when the run starts (or, with targets=permutation, along random cycles through all NICs, so
// that every NIC also receives exactly `connections` connections and no receiver is overloaded by
// chance), and sends one message every message flits / load cycles, on its
// connections in turn (each connection carries load / connections). The first message of a NIC
// goes at a random phase within one interval, so that the NICs do not all send in the same cycle.
#include <cmath>

#include "engine/packet/traffic.hpp"

namespace interflow::packet {

namespace {

class ConstantBitRate final : public SlGenerator {
 public:
  ConstantBitRate(SlSettings s, const TrafficContext& c, std::uint32_t connections, bool permutation)
      : SlGenerator(std::move(s)), rule_(*c.rule), connections_(connections), permutation_(permutation),
        interval_(std::max(1.0, std::round(1.0 / message_rate(settings_, c.flit_bytes, 1)))),
        targets_(static_cast<std::size_t>(c.rule->endpoints()) * connections, kNone),
        turn_(c.rule->endpoints(), 0) {}

  bool start(EndpointId e, Rng& rng) override {
    if (permutation_) {
      if (!cycles_made_) make_cycles(rng);
      return true;
    }
    if (rule_.silent(e)) return false;
    for (std::uint32_t k = 0; k < connections_; ++k) targets_[e * connections_ + k] = rule_.draw(e, rng);
    return true;
  }

  Emission next(EndpointId e, Cycle previous, bool first, Rng& rng) override {
    const Cycle interval = static_cast<Cycle>(interval_);
    const Cycle at = first ? previous + 1 + rng.below(interval) : previous + interval;
    const std::uint32_t k = turn_[e];
    turn_[e] = (k + 1) % connections_;
    return {at, targets_[e * connections_ + k], 1};
  }

 private:
  // Connection k of every NIC: the next NIC on a random cycle through all of them.
  void make_cycles(Rng& rng) {
    const std::uint32_t n = rule_.endpoints();
    std::vector<EndpointId> order(n);
    for (std::uint32_t k = 0; k < connections_; ++k) {
      for (EndpointId e = 0; e < n; ++e) order[e] = e;
      for (std::uint32_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
      for (std::uint32_t i = 0; i < n; ++i) targets_[order[i] * connections_ + k] = order[(i + 1) % n];
    }
    cycles_made_ = true;
  }

  const DestinationRule& rule_;
  std::uint32_t connections_;
  bool permutation_, cycles_made_ = false;
  double interval_;
  std::vector<EndpointId> targets_;  // NIC x connection
  std::vector<std::uint32_t> turn_;
};

}  // namespace

void register_cbr_traffic(TrafficRegistry& registry) {
  registry.add({"cbr", "constant-bit-rate connections opened at the start and kept to the end (Cano-Cano et al. 2024)",
                sl_params({int_param("connections", "1", "connections per NIC, destinations drawn at the start", 1,
                                     1 << 16),
                           choice_param("targets", "permutation", {"permutation", "rule"},
                                        "permutation: connection k of every NIC follows a random cycle through all "
                                        "NICs (each receives as many as it sends); rule: drawn by --pattern")}),
                [](const ParamSet& p, const TrafficContext& c) {
                  return std::make_unique<ConstantBitRate>(read_sl_settings(p), c,
                                                           static_cast<std::uint32_t>(p.get_int("connections")),
                                                           p.get_string("targets") == "permutation");
                },
                "Cano-Cano et al. 2024 §5.1 (VO, VI, CL). A message every message flits / load cycles (rounded to "
                "whole cycles), on the connections in turn; the first at a random phase.",
                "cbr:load=0.2,bytes=512,connections=2"});
}

}  // namespace interflow::packet
