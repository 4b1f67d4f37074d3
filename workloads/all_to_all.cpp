// Collective-like patterns (INRFlow paper, §3.3.1): all-to-one, all-to-all and many-all-to-all.
#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "core/random.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

void require_two_endpoints(const PatternContext& ctx, const std::string& pattern) {
  if (ctx.endpoints < 2)
    throw InputError("pattern '" + pattern + "' needs at least 2 endpoints, the topology has " +
                     std::to_string(ctx.endpoints));
}

class AllToOnePattern : public Pattern {
 public:
  explicit AllToOnePattern(std::int64_t root) : root_(root) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "alltoone");
    const std::uint32_t n = ctx.endpoints;
    if (root_ >= static_cast<std::int64_t>(n))
      throw InputError("pattern 'alltoone': parameter 'root' is " + std::to_string(root_) +
                       ", expected an endpoint id in 0.." + std::to_string(n - 1) + " (or -1 to draw it)");
    check_flow_budget(ctx, n - 1, "alltoone");
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    const auto root = static_cast<EndpointId>(root_ >= 0 ? static_cast<std::uint64_t>(root_) : rng.below(n));
    out.reserve(out.size() + n - 1);
    for (EndpointId src = 0; src < n; ++src)
      if (src != root) out.add(src, root);
    PatternReport report;
    report.idle_endpoints = 1;
    report.note = "root endpoint " + std::to_string(root) + " receives every flow and sends none";
    return report;
  }

 private:
  std::int64_t root_;
};

class AllToAllPattern : public Pattern {
 public:
  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "alltoall");
    const std::uint32_t n = ctx.endpoints;
    const std::uint64_t count = std::uint64_t{n} * (n - 1);
    check_flow_budget(ctx, count, "alltoall");
    out.reserve(out.size() + count);
    for (EndpointId src = 0; src < n; ++src)
      for (EndpointId dst = 0; dst < n; ++dst)
        if (dst != src) out.add(src, dst);
    return {};
  }
};

class ManyAllToAllPattern : public Pattern {
 public:
  explicit ManyAllToAllPattern(std::uint64_t group) : group_(group) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "manyalltoall");
    const std::uint32_t n = ctx.endpoints;
    const std::uint64_t s = std::min<std::uint64_t>(group_, n);
    const std::uint64_t full_groups = n / s;
    const std::uint64_t rest = n % s;  // size of the last, smaller group (0 = none)
    const std::uint64_t count = full_groups * s * (s - 1) + rest * (rest > 0 ? rest - 1 : 0);
    check_flow_budget(ctx, count, "manyalltoall");

    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    std::vector<EndpointId> order(n);
    std::iota(order.begin(), order.end(), EndpointId{0});
    for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);

    out.reserve(out.size() + count);
    for (std::uint64_t begin = 0; begin < n; begin += s) {
      const std::uint64_t end = std::min<std::uint64_t>(begin + s, n);
      for (std::uint64_t a = begin; a < end; ++a)
        for (std::uint64_t b = begin; b < end; ++b)
          if (a != b) out.add(order[a], order[b]);
    }
    PatternReport report;
    report.idle_endpoints = rest == 1 ? 1 : 0;
    report.note = std::to_string(full_groups) + " groups of " + std::to_string(s) + " endpoints";
    if (rest > 0) report.note += " and 1 group of " + std::to_string(rest);
    if (rest == 1) report.note += " (alone, so idle)";
    return report;
  }

 private:
  std::uint64_t group_;
};

}  // namespace

void register_all_to_all(PatternRegistry& registry) {
  registry.add(
      {"alltoone",
       "all-to-one: every endpoint sends one flow to a single root endpoint",
       {int_param("root", "-1", "id of the receiving endpoint (-1 = drawn uniformly by the seed)", -1, 4294967295.0)},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         return std::make_unique<AllToOnePattern>(p.get_int("root"));
       },
       "All N-1 other endpoints send one flow each to the root, which sends nothing (reported as "
       "idle). The root is `root`, or, when -1, drawn uniformly from the pattern stream of the run "
       "seed; the report's note names it. This is the incast worst case: the root's access link is "
       "the bottleneck of every flow."});

  registry.add({"alltoall",
                "all-to-all: every endpoint sends one flow to every other endpoint",
                {},
                [](const ParamSet&) -> std::unique_ptr<Pattern> { return std::make_unique<AllToAllPattern>(); },
                "N(N-1) flows, in increasing order of source then destination. The count is checked against "
                "the flow limit before anything is generated, so a large network is refused with a message "
                "instead of exhausting memory. INRFlow paper §3.3.1."});

  registry.add(
      {"manyalltoall",
       "many all-to-all: random groups of endpoints, all-to-all inside each group",
       {int_param("group", "16", "size s of each group (the last group holds the N mod s left over)", 2, 4294967295.0)},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         return std::make_unique<ManyAllToAllPattern>(static_cast<std::uint64_t>(p.get_int("group")));
       },
       "The ids are shuffled with Fisher–Yates from the pattern stream of the run seed and cut into "
       "consecutive groups of s, which partitions the endpoints uniformly at random into ceil(N/s) "
       "groups: floor(N/s) groups of exactly s and, if N mod s > 0, one group of N mod s (a group of "
       "one is idle). Inside every group each endpoint sends a flow to every other member, so there "
       "are sum over groups of s_i(s_i - 1) flows. A group larger than N is one all-to-all. INRFlow "
       "paper §3.3.1."});
}

}  // namespace interflow::workloads
