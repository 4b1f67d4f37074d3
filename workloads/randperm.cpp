// Random permutation: every endpoint sends one flow and receives one flow, the pairing drawn by
// the seed.
#include <numeric>

#include "core/error.hpp"
#include "core/random.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

class RandpermPattern : public Pattern {
 public:
  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2) throw InputError("pattern 'randperm' needs at least 2 endpoints, the topology has " + std::to_string(n));
    check_flow_budget(ctx, n, "randperm");
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    std::vector<EndpointId> target(n);
    std::iota(target.begin(), target.end(), EndpointId{0});
    // Fisher–Yates, from the top (Knuth, TAOCP vol. 2, Algorithm P).
    for (std::uint32_t i = n - 1; i > 0; --i) std::swap(target[i], target[rng.below(std::uint64_t{i} + 1)]);
    // Repair fixed points: swapping target[i] == i with the next endpoint's target never makes a new
    // fixed point (target[i+1] != i, and the next endpoint now targets i), so one pass suffices.
    std::uint64_t repaired = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (target[i] != i) continue;
      std::swap(target[i], target[(i + 1) % n]);
      ++repaired;
    }
    out.reserve(out.size() + n);
    for (EndpointId src = 0; src < n; ++src) out.add(src, target[src]);
    PatternReport report;
    report.note = std::to_string(repaired) + " fixed points repaired by swapping targets with the next endpoint";
    return report;
  }
};

}  // namespace

void register_randperm(PatternRegistry& registry) {
  registry.add({"randperm",
                "random permutation: every endpoint sends to and receives from exactly one other endpoint",
                {},
                [](const ParamSet&) -> std::unique_ptr<Pattern> { return std::make_unique<RandpermPattern>(); },
                "A uniform random permutation is drawn with Fisher–Yates from the pattern stream of the run "
                "seed. Its fixed points (endpoints mapped to themselves, about one on average) are then "
                "repaired in one pass over the ids in increasing order: if endpoint i targets itself, it "
                "swaps targets with endpoint (i+1) mod N. The swap never creates a new fixed point, so the "
                "result is a permutation without fixed points (a derangement) and no flow is dropped; it is "
                "not exactly uniform over derangements. The report's note gives the number of repairs."});
}

}  // namespace interflow::workloads
