// Uniform random traffic: every endpoint sends `flows_per_endpoint` flows (or `flows` in total,
// sources drawn uniformly), each to a destination drawn uniformly among the other endpoints.
#include "core/error.hpp"
#include "core/random.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

class UniformPattern : public Pattern {
 public:
  UniformPattern(std::uint64_t per_endpoint, std::uint64_t total) : per_endpoint_(per_endpoint), total_(total) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2) throw InputError("pattern 'uniform' needs at least 2 endpoints, the topology has " + std::to_string(n));
    const std::uint64_t count = total_ > 0 ? total_ : per_endpoint_ * n;
    check_flow_budget(ctx, count, "uniform");
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    out.reserve(out.size() + count);
    for (std::uint64_t i = 0; i < count; ++i) {
      const auto src = static_cast<EndpointId>(total_ > 0 ? rng.below(n) : i / per_endpoint_);
      // Draw among the n-1 other endpoints: no self flows, no rejection loop.
      auto dst = static_cast<EndpointId>(rng.below(n - 1));
      if (dst >= src) ++dst;
      out.add(src, dst);
    }
    return {};
  }

 private:
  std::uint64_t per_endpoint_;
  std::uint64_t total_;
};

}  // namespace

void register_uniform(PatternRegistry& registry) {
  registry.add({"uniform",
                "uniform random: each flow goes to a destination drawn uniformly among the other endpoints",
                {int_param("flows_per_endpoint", "1", "flows sent by every endpoint", 1, 1e6),
                 int_param("flows", "0",
                           "total number of flows with uniformly drawn sources (0 = use flows_per_endpoint)", 0, 4e9)},
                [](const ParamSet& p) -> std::unique_ptr<Pattern> {
                  return std::make_unique<UniformPattern>(static_cast<std::uint64_t>(p.get_int("flows_per_endpoint")),
                                                          static_cast<std::uint64_t>(p.get_int("flows")));
                },
                "Destinations never equal the source. Random draws use the pattern stream of the run seed."});
}

}  // namespace interflow::workloads
