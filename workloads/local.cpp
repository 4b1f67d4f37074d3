// Local random traffic (INRFlow paper, §3.3.1 "Random"): the probability of a destination decays
// geometrically with its endpoint-id distance from the source.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/random.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

class LocalPattern : public Pattern {
 public:
  LocalPattern(double decay, std::uint64_t per_endpoint) : decay_(decay), per_endpoint_(per_endpoint) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2) throw InputError("pattern 'local' needs at least 2 endpoints, the topology has " + std::to_string(n));
    const std::uint64_t count = per_endpoint_ * n;
    check_flow_budget(ctx, count, "local");
    const std::uint32_t max_distance = n / 2;  // circular distance: min(|a-b|, n-|a-b|)
    // Inverse transform of the geometric law truncated to 1..D: P(d <= k) = (1 - q^k) / (1 - q^D),
    // so d = floor(log(1 - u (1 - q^D)) / log q) + 1 for u uniform in [0,1).
    const double log_decay = std::log(decay_);
    const double mass = 1.0 - std::pow(decay_, static_cast<double>(max_distance));
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    out.reserve(out.size() + count);
    for (EndpointId src = 0; src < n; ++src) {
      for (std::uint64_t k = 0; k < per_endpoint_; ++k) {
        const double x = 1.0 - rng.uniform() * mass;  // in (q^D, 1]
        const double raw = std::floor(std::log(x) / log_decay) + 1.0;
        const auto d = static_cast<std::uint32_t>(std::clamp(raw, 1.0, static_cast<double>(max_distance)));
        const bool forward = (rng() >> 63) != 0;
        // With n even, both directions at d = n/2 reach the same endpoint, as they should.
        const auto dst =
            static_cast<EndpointId>(forward ? (std::uint64_t{src} + d) % n : (std::uint64_t{src} + n - d) % n);
        out.add(src, dst);
      }
    }
    return {};
  }

 private:
  double decay_;
  std::uint64_t per_endpoint_;
};

}  // namespace

void register_local(PatternRegistry& registry) {
  registry.add(
      {"local",
       "local random: the destination's probability decays geometrically with its id distance",
       {real_param("decay", "0.5", "ratio of the probabilities of distance d+1 and d, in (0,1); smaller is more local",
                   0, 1),
        int_param("flows_per_endpoint", "1", "flows sent by every endpoint, each drawn independently", 1, 1e6)},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         const double decay = p.get_real("decay");
         if (decay <= 0 || decay >= 1) p.fail("decay", "expected a real strictly between 0 and 1");
         return std::make_unique<LocalPattern>(decay, static_cast<std::uint64_t>(p.get_int("flows_per_endpoint")));
       },
       "Every endpoint sends flows_per_endpoint flows. Each flow draws a distance d in 1..floor(N/2) with "
       "P(d) proportional to decay^(d-1) (a geometric law truncated at the largest circular distance), "
       "then a direction (+d or -d, probability 1/2 each) and goes to endpoint (src +- d) mod N. "
       "\"Distance\" is endpoint-id distance on the circle of ids, not hop count: it is topological "
       "locality where the topology numbers endpoints by position (tori: dimension 0 fastest, so small d "
       "stays along dimension 0; trees: endpoints of one leaf switch are consecutive, so small d stays "
       "under the same leaf first). For a large network the mean distance is about 1/(1-decay). "
       "INRFlow paper §3.3.1."});
}

}  // namespace interflow::workloads
