// Bisection traffic (INRFlow paper, §3.3.1 "Bisection"): the endpoints are split into two halves
// and traffic crosses between them.
#include "workloads/bisection.hpp"

#include <numeric>

#include "core/error.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

std::vector<EndpointId> bisection_order(std::uint32_t n, BisectionHalves halves, Rng& rng) {
  std::vector<EndpointId> order(n);
  std::iota(order.begin(), order.end(), EndpointId{0});
  if (halves == BisectionHalves::Random)
    for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  return order;
}

std::vector<std::uint8_t> bisection_halves(std::uint32_t n, BisectionHalves halves, std::uint64_t run_seed) {
  Rng rng(derive_seed(run_seed, Stream::Pattern));
  const std::vector<EndpointId> order = bisection_order(n, halves, rng);
  const std::uint32_t h = n / 2;
  std::vector<std::uint8_t> half(n, kIdleHalf);
  for (std::uint32_t i = 0; i < 2 * h; ++i) half[order[i]] = i < h ? 0 : 1;
  return half;
}

namespace {

enum class BisectionMode { All, Pairs };

class BisectionPattern : public Pattern {
 public:
  BisectionPattern(BisectionHalves halves, BisectionMode mode) : halves_(halves), mode_(mode) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2)
      throw InputError("pattern 'bisection' needs at least 2 endpoints, the topology has " + std::to_string(n));
    const std::uint32_t h = n / 2;
    const std::uint64_t count = mode_ == BisectionMode::All ? 2 * std::uint64_t{h} * h : 2 * std::uint64_t{h};
    check_flow_budget(ctx, count, "bisection");

    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    std::vector<EndpointId> order = bisection_order(n, halves_, rng);
    // half_of and the partner/peer lists all index by endpoint so flows come out grouped by source.
    std::vector<std::uint8_t> half_of(n, kIdleHalf);
    for (std::uint32_t i = 0; i < 2 * h; ++i) half_of[order[i]] = i < h ? 0 : 1;
    out.reserve(out.size() + count);

    if (mode_ == BisectionMode::All) {
      for (EndpointId src = 0; src < n; ++src) {
        if (half_of[src] == kIdleHalf) continue;
        const std::size_t other = half_of[src] == 0 ? h : 0;  // first position of the other half
        for (std::uint32_t i = 0; i < h; ++i) out.add(src, order[other + i]);
      }
    } else {
      // A uniformly random perfect matching between the halves: shuffle half 1, pair position i
      // of half 0 with position i of half 1 (needed for split halves, harmless for random ones).
      for (std::uint32_t i = h; i > 1; --i) std::swap(order[h + i - 1], order[h + rng.below(i)]);
      std::vector<EndpointId> partner(n, kNone);
      for (std::uint32_t i = 0; i < h; ++i) {
        partner[order[i]] = order[h + i];
        partner[order[h + i]] = order[i];
      }
      for (EndpointId src = 0; src < n; ++src)
        if (partner[src] != kNone) out.add(src, partner[src]);
    }

    PatternReport report;
    report.idle_endpoints = n - 2 * h;
    report.note = std::string(halves_ == BisectionHalves::Random ? "random" : "split") + " halves of " +
                  std::to_string(h) + " endpoints";
    if (n % 2 == 1) report.note += "; endpoint " + std::to_string(order[n - 1]) + " idle (odd number of endpoints)";
    return report;
  }

 private:
  BisectionHalves halves_;
  BisectionMode mode_;
};

}  // namespace

void register_bisection(PatternRegistry& registry) {
  registry.add({"bisection",
                "bisection: traffic between two halves of the endpoints, all pairs or a matching",
                {choice_param("halves", "random", {"random", "split"},
                              "how the halves are chosen: random = uniformly at random by the seed, split = lower ids "
                              "against upper ids"),
                 choice_param("mode", "all", {"all", "pairs"},
                              "all = every endpoint sends to every endpoint of the other half (N^2/2 flows); pairs = "
                              "each endpoint sends to its partner in a random matching between the halves (N flows)")},
                [](const ParamSet& p) -> std::unique_ptr<Pattern> {
                  return std::make_unique<BisectionPattern>(
                      p.get_string("halves") == "random" ? BisectionHalves::Random : BisectionHalves::Split,
                      p.get_string("mode") == "all" ? BisectionMode::All : BisectionMode::Pairs);
                },
                "The endpoints are split into two halves of h = floor(N/2) endpoints; for odd N one endpoint "
                "(the last id for split halves, a random one otherwise) sends and receives nothing and is reported "
                "idle. halves=random shuffles the ids with Fisher–Yates from the pattern stream of the run seed and "
                "takes the first h as half 0; halves=split takes ids 0..h-1 as half 0 and h..2h-1 as half 1. "
                "mode=all is INRFlow's bisection (paper §3.3.1): every endpoint sends a flow to every endpoint of "
                "the other half, 2h^2 flows, checked against the flow limit. mode=pairs draws a uniformly random "
                "perfect matching between the halves and each matched pair exchanges one flow in each direction, "
                "so every endpoint sends and receives exactly one flow. Every flow crosses the cut between the "
                "halves; workloads/bisection.hpp exposes the halves so the cut capacity can be computed."});
}

}  // namespace interflow::workloads
