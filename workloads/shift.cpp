// Shift permutation: every endpoint sends to the endpoint a fixed id offset away.
#include "core/error.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

class ShiftPattern : public Pattern {
 public:
  explicit ShiftPattern(std::int64_t shift) : shift_(shift) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2) throw InputError("pattern 'shift' needs at least 2 endpoints, the topology has " + std::to_string(n));
    const std::int64_t offset = ((shift_ % n) + n) % n;  // in 0..n-1, also for negative shifts
    if (offset == 0)
      throw InputError("pattern 'shift': parameter 's' is " + std::to_string(shift_) + ", a multiple of the " +
                       std::to_string(n) + " endpoints, so every flow would be a self flow; expected s mod " +
                       std::to_string(n) + " != 0");
    check_flow_budget(ctx, n, "shift");
    out.reserve(out.size() + n);
    for (EndpointId src = 0; src < n; ++src)
      out.add(src, static_cast<EndpointId>((src + static_cast<std::uint64_t>(offset)) % n));
    return {};
  }

 private:
  std::int64_t shift_;
};

}  // namespace

void register_shift(PatternRegistry& registry) {
  registry.add(
      {"shift",
       "shift permutation: every endpoint sends to the endpoint s ids further (cyclically)",
       {int_param("s", "1", "id offset of the destination; negative shifts go backwards; s mod N must not be 0",
                  -4294967295.0, 4294967295.0)},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         const auto s = p.get_int("s");
         if (s == 0) p.fail("s", "a shift of 0 makes every flow a self flow; expected a non-zero offset");
         return std::make_unique<ShiftPattern>(s);
       },
       "Endpoint i sends one flow to endpoint (i + s) mod N, taking the mathematical modulo so that "
       "s = -1 sends to the previous id. It is a permutation: every endpoint receives exactly one "
       "flow. A shift that is a multiple of N is rejected once N is known. Ids follow the "
       "topology's numbering (tori: dimension 0 fastest), so s = 1 is a ring along dimension 0."});
}

}  // namespace interflow::workloads
