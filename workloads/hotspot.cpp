// Non-uniform random traffic (INRFlow paper, §3.3.1 "Random"): hot spot (a few endpoints receive a
// given fraction of the flows) and hot region (the first ids of the network do).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "core/random.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

void require_two_endpoints(const PatternContext& ctx, const char* pattern) {
  if (ctx.endpoints < 2)
    throw InputError(std::string("pattern '") + pattern + "' needs at least 2 endpoints, the topology has " +
                     std::to_string(ctx.endpoints));
}

class HotspotPattern : public Pattern {
 public:
  HotspotPattern(double fraction, std::uint32_t hotspots, std::int64_t node, std::uint64_t per_endpoint)
      : fraction_(fraction), hotspots_(hotspots), node_(node), per_endpoint_(per_endpoint) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "hotspot");
    const std::uint32_t n = ctx.endpoints;
    if (node_ >= static_cast<std::int64_t>(n))
      throw InputError("pattern 'hotspot': parameter 'node' is " + std::to_string(node_) +
                       ", expected an endpoint id in 0.." + std::to_string(n - 1));
    if (hotspots_ >= n)
      throw InputError("pattern 'hotspot': parameter 'hotspots' is " + std::to_string(hotspots_) +
                       ", expected fewer than the " + std::to_string(n) + " endpoints");
    const std::uint64_t count = per_endpoint_ * n;
    check_flow_budget(ctx, count, "hotspot");

    // order[0..h) are the hot endpoints, order[h..n) the cold ones; position[e] is e's index in
    // order, so "uniform among e's group except e" is one draw and one comparison.
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    std::vector<EndpointId> order(n);
    std::iota(order.begin(), order.end(), EndpointId{0});
    const std::uint32_t h = hotspots_;
    if (node_ >= 0) {
      std::swap(order[0], order[static_cast<std::size_t>(node_)]);
    } else {
      for (std::uint32_t i = 0; i < h; ++i) std::swap(order[i], order[i + rng.below(n - i)]);
    }
    std::vector<std::uint32_t> position(n);
    for (std::uint32_t i = 0; i < n; ++i) position[order[i]] = i;
    const std::uint32_t cold = n - h;

    out.reserve(out.size() + count);
    for (EndpointId src = 0; src < n; ++src) {
      const bool src_hot = position[src] < h;
      const std::uint32_t rank = src_hot ? position[src] : position[src] - h;  // index inside its group
      // Candidates in each group once the source itself is left out.
      const std::uint32_t hot_choices = src_hot ? h - 1 : h;
      const std::uint32_t cold_choices = src_hot ? cold : cold - 1;
      for (std::uint64_t k = 0; k < per_endpoint_; ++k) {
        bool to_hot = rng.uniform() < fraction_;
        if (to_hot && hot_choices == 0) to_hot = false;   // lone hot spot sending: only cold targets left
        if (!to_hot && cold_choices == 0) to_hot = true;  // lone cold endpoint sending: only hot targets left
        EndpointId dst;
        if (to_hot) {
          auto r = static_cast<std::uint32_t>(rng.below(hot_choices));
          if (src_hot && r >= rank) ++r;
          dst = order[r];
        } else {
          auto r = static_cast<std::uint32_t>(rng.below(cold_choices));
          if (!src_hot && r >= rank) ++r;
          dst = order[h + r];
        }
        out.add(src, dst);
      }
    }

    PatternReport report;
    report.note = "hot endpoints:";
    const std::uint32_t shown = std::min<std::uint32_t>(h, 16);
    for (std::uint32_t i = 0; i < shown; ++i) report.note += " " + std::to_string(order[i]);
    if (shown < h) report.note += " ... (" + std::to_string(h) + " in total)";
    return report;
  }

 private:
  double fraction_;
  std::uint32_t hotspots_;
  std::int64_t node_;
  std::uint64_t per_endpoint_;
};

class HotregionPattern : public Pattern {
 public:
  HotregionPattern(double fraction, double region, std::uint64_t per_endpoint)
      : fraction_(fraction), region_(region), per_endpoint_(per_endpoint) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    require_two_endpoints(ctx, "hotregion");
    const std::uint32_t n = ctx.endpoints;
    const std::uint32_t size = region_size(n);
    const std::uint64_t count = per_endpoint_ * n;
    check_flow_budget(ctx, count, "hotregion");
    Rng rng(derive_seed(ctx.seed, Stream::Pattern));
    out.reserve(out.size() + count);
    for (EndpointId src = 0; src < n; ++src) {
      const bool src_inside = src < size;
      const std::uint32_t region_choices = src_inside ? size - 1 : size;
      for (std::uint64_t k = 0; k < per_endpoint_; ++k) {
        EndpointId dst;
        if (region_choices > 0 && rng.uniform() < fraction_) {
          dst = static_cast<EndpointId>(rng.below(region_choices));
        } else {
          dst = static_cast<EndpointId>(rng.below(n - 1));
        }
        if (dst >= src) ++dst;  // both draws skip the source: ids above it shift by one
        out.add(src, dst);
      }
    }
    PatternReport report;
    report.note = "hot region: endpoints 0.." + std::to_string(size - 1);
    return report;
  }

  std::uint32_t region_size(std::uint32_t n) const {
    const auto rounded = static_cast<std::uint32_t>(std::llround(region_ * n));
    return std::clamp<std::uint32_t>(rounded, 1, n);
  }

 private:
  double fraction_;
  double region_;
  std::uint64_t per_endpoint_;
};

ParamSpec fraction_param() {
  return real_param("fraction", "0.25", "probability that a flow's destination is drawn among the hot endpoints", 0, 1);
}

ParamSpec per_endpoint_param() {
  return int_param("flows_per_endpoint", "1", "flows sent by every endpoint, each drawn independently", 1, 1e6);
}

}  // namespace

void register_hot_patterns(PatternRegistry& registry) {
  registry.add(
      {"hotspot",
       "hot spot: a fraction of the flows goes to a few hot endpoints, the rest to the other endpoints",
       {fraction_param(),
        int_param("hotspots", "1", "number of hot endpoints, drawn uniformly by the seed", 1, 4294967295.0),
        int_param("node", "-1", "the hot endpoint's id (-1 = drawn by the seed; needs hotspots=1)", -1, 4294967295.0),
        per_endpoint_param()},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         const auto node = p.get_int("node");
         const auto hotspots = p.get_int("hotspots");
         if (node >= 0 && hotspots != 1) p.fail("node", "a given node is the single hot spot, so hotspots must be 1");
         return std::make_unique<HotspotPattern>(p.get_real("fraction"), static_cast<std::uint32_t>(hotspots), node,
                                                 static_cast<std::uint64_t>(p.get_int("flows_per_endpoint")));
       },
       "Every endpoint sends flows_per_endpoint flows. For each flow, with probability `fraction` the "
       "destination is drawn uniformly among the hot endpoints, otherwise uniformly among the cold "
       "(non-hot) endpoints; the source itself is never drawn. So exactly a `fraction` share of the "
       "flows of every cold source goes to the hot spots. A hot source draws among the other hot "
       "endpoints; when it is the only hot endpoint (hotspots=1) all its flows go to cold endpoints. "
       "The hot endpoints are `node` if given, otherwise `hotspots` ids drawn without replacement from "
       "the pattern stream of the run seed; the report's note lists them. INRFlow paper §3.3.1."});

  registry.add(
      {"hotregion",
       "hot region: a fraction of the flows goes to the first ids of the network, the rest anywhere",
       {real_param("fraction", "0.25", "probability that a flow's destination is drawn inside the hot region", 0, 1),
        real_param("region", "0.125", "size of the hot region as a fraction of the endpoints (the lowest ids)", 0, 1),
        per_endpoint_param()},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> {
         if (p.get_real("region") <= 0) p.fail("region", "expected a fraction greater than 0");
         return std::make_unique<HotregionPattern>(p.get_real("fraction"), p.get_real("region"),
                                                   static_cast<std::uint64_t>(p.get_int("flows_per_endpoint")));
       },
       "The hot region is endpoints 0..R-1 with R = round(region * N), at least 1. Every endpoint sends "
       "flows_per_endpoint flows. For each flow, with probability `fraction` the destination is drawn "
       "uniformly inside the hot region, otherwise uniformly over all endpoints; the source itself is "
       "never drawn (if the source is the region's only endpoint, every draw is over all endpoints). The "
       "region therefore receives, from a source outside it, a share fraction + (1 - fraction) * R/(N-1) "
       "of the flows. Endpoint ids follow the topology's numbering (for tori dimension 0 fastest, for "
       "trees endpoints of one leaf switch consecutive), so the region is usually a topological block. "
       "INRFlow paper §3.3.1."});
}

}  // namespace interflow::workloads
