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

// Flow f of all-to-all among n endpoints: source f / (n-1), and the (f mod (n-1))-th other endpoint.
class AllToAllStream : public FlowStream {
 public:
  explicit AllToAllStream(std::uint32_t n) : n_(n) {}
  std::uint64_t size() const override { return std::uint64_t{n_} * (n_ - 1); }
  void fill(std::uint64_t first, std::uint64_t last, FlowSet& out) const override {
    auto src = static_cast<EndpointId>(first / (n_ - 1));
    auto j = static_cast<EndpointId>(first % (n_ - 1));
    for (std::uint64_t f = first; f < last; ++f) {
      out.add(src, j + (j >= src ? 1 : 0));
      if (++j == n_ - 1) j = 0, ++src;
    }
  }

 private:
  std::uint32_t n_;
};

class AllToAllPattern : public Pattern {
 public:
  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "alltoall");
    const std::uint32_t n = ctx.endpoints;
    const std::uint64_t count = std::uint64_t{n} * (n - 1);
    check_flow_budget(ctx, count, "alltoall");
    out.reserve(out.size() + count);
    AllToAllStream(n).fill(0, count, out);
    return {};
  }
  std::unique_ptr<FlowStream> stream(const PatternContext& ctx, PatternReport&) const override {
    require_two_endpoints(ctx, "alltoall");
    return std::make_unique<AllToAllStream>(ctx.endpoints);
  }
};

// Many all-to-all: the endpoints shuffled and cut into consecutive groups of s (the last holds the
// rest); all-to-all inside each group, groups in order, then sources, then destinations.
class ManyAllToAllStream : public FlowStream {
 public:
  ManyAllToAllStream(std::vector<EndpointId> order, std::uint64_t group)
      : order_(std::move(order)), s_(std::min<std::uint64_t>(group, order_.size())) {}
  std::uint64_t full_groups() const { return order_.size() / s_; }
  std::uint64_t rest() const { return order_.size() % s_; }
  std::uint64_t size() const override {
    return full_groups() * s_ * (s_ - 1) + rest() * (rest() > 0 ? rest() - 1 : 0);
  }
  void fill(std::uint64_t first, std::uint64_t last, FlowSet& out) const override {
    const std::uint64_t per_group = s_ * (s_ - 1);
    std::uint64_t f = first;
    while (f < last) {
      const std::uint64_t g = std::min(f / per_group, full_groups());  // the rest group after the full ones
      const std::uint64_t begin = g * s_, size = g < full_groups() ? s_ : rest();
      const std::uint64_t group_first = g * per_group;
      const std::uint64_t group_end = std::min(last, group_first + size * (size - 1));
      for (; f < group_end; ++f) {
        const std::uint64_t k = f - group_first, a = k / (size - 1), b = k % (size - 1);
        out.add(order_[begin + a], order_[begin + b + (b >= a ? 1 : 0)]);
      }
    }
  }

 private:
  std::vector<EndpointId> order_;
  std::uint64_t s_;
};

class ManyAllToAllPattern : public Pattern {
 public:
  explicit ManyAllToAllPattern(std::uint64_t group) : group_(group) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    PatternReport report;
    const auto flows = stream(ctx, report);
    check_flow_budget(ctx, flows->size(), "manyalltoall");
    out.reserve(out.size() + flows->size());
    flows->fill(0, flows->size(), out);
    return report;
  }

  std::unique_ptr<FlowStream> stream(const PatternContext& ctx, PatternReport& report) const override {
    require_two_endpoints(ctx, "manyalltoall");
    const std::uint32_t n = ctx.endpoints;
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    std::vector<EndpointId> order(n);
    std::iota(order.begin(), order.end(), EndpointId{0});
    for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    auto flows = std::make_unique<ManyAllToAllStream>(std::move(order), group_);
    const std::uint64_t full = flows->full_groups(), rest = flows->rest();
    report.idle_endpoints = rest == 1 ? 1 : 0;
    report.note = std::to_string(full) + " groups of " + std::to_string(std::min<std::uint64_t>(group_, n)) +
                  " endpoints";
    if (rest > 0) report.note += " and 1 group of " + std::to_string(rest);
    if (rest == 1) report.note += " (alone, so idle)";
    return flows;
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
                "N(N-1) flows, in increasing order of source then destination. The static engine streams them "
                "by default (generated and routed again on each pass, never held: manual/static-engine.md, "
                "\"Streamed solve\"); where flows are held, the count is checked against the flow limit before "
                "anything is generated, so a large network is refused with a message instead of exhausting "
                "memory. INRFlow paper §3.3.1."});

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
       "are sum over groups of s_i(s_i - 1) flows. A group larger than N is one all-to-all. The static "
       "engine streams it like alltoall. INRFlow paper §3.3.1."});
}

}  // namespace interflow::workloads
