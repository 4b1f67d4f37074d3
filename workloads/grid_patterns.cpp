// Patterns defined on a grid of endpoints (dimension 0 fastest): nearest neighbour and tornado
// (Dally & Towles, "Principles and Practices of Interconnection Networks", §3.2).
#include "core/error.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

std::string dims_text(const std::vector<std::uint32_t>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "x" : "") + std::to_string(dims[i]);
  return text;
}

// The grid a pattern runs on: its own `dims`, else the topology's endpoint grid, else a ring of N.
std::vector<std::uint32_t> resolve_grid(const PatternContext& ctx, const std::vector<std::uint32_t>& dims,
                                        const std::string& pattern) {
  const std::uint32_t n = ctx.endpoints;
  if (n < 2)
    throw InputError("pattern '" + pattern + "' needs at least 2 endpoints, the topology has " + std::to_string(n));
  const bool own = !dims.empty();
  const std::vector<std::uint32_t>& grid = own ? dims : ctx.grid;
  if (grid.empty()) return {n};
  std::uint64_t product = 1;
  for (auto k : grid)
    if (product <= n) product *= k;  // stop once too large: no overflow with k < 2^32
  if (product != n)
    throw InputError("pattern '" + pattern + "': " + (own ? "parameter 'dims'" : "the topology's endpoint grid") +
                     " is " + dims_text(grid) + ", expected the product of its sizes to equal the " +
                     std::to_string(n) + " endpoints");
  return grid;
}

// Id distance between neighbours along each dimension (dimension 0 fastest).
std::vector<std::uint64_t> strides_of(const std::vector<std::uint32_t>& grid) {
  std::vector<std::uint64_t> stride(grid.size());
  std::uint64_t s = 1;
  for (std::size_t d = 0; d < grid.size(); ++d) {
    stride[d] = s;
    s *= grid[d];
  }
  return stride;
}

// Endpoint reached from `id` by moving `step` (0 <= step < k) positions along dimension d, wrapping.
EndpointId moved(EndpointId id, std::uint64_t stride, std::uint32_t k, std::uint64_t step) {
  const std::uint64_t c = (id / stride) % k;
  const std::uint64_t c2 = (c + step) % k;
  return static_cast<EndpointId>(id - c * stride + c2 * stride);
}

class NeighborPattern : public Pattern {
 public:
  explicit NeighborPattern(std::vector<std::uint32_t> dims) : dims_(std::move(dims)) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::vector<std::uint32_t> grid = resolve_grid(ctx, dims_, "neighbor");
    const std::vector<std::uint64_t> stride = strides_of(grid);
    const std::uint32_t n = ctx.endpoints;
    std::uint64_t per_endpoint = 0;
    for (auto k : grid) per_endpoint += k >= 3 ? 2 : (k == 2 ? 1 : 0);
    check_flow_budget(ctx, per_endpoint * n, "neighbor");
    out.reserve(out.size() + per_endpoint * n);
    for (EndpointId src = 0; src < n; ++src) {
      for (std::size_t d = 0; d < grid.size(); ++d) {
        const std::uint32_t k = grid[d];
        if (k >= 2) out.add(src, moved(src, stride[d], k, 1));
        if (k >= 3) out.add(src, moved(src, stride[d], k, k - 1));
      }
    }
    PatternReport report;
    report.note = "grid " + dims_text(grid) + ", " + std::to_string(per_endpoint) + " neighbours per endpoint";
    return report;
  }

 private:
  std::vector<std::uint32_t> dims_;
};

class TornadoPattern : public Pattern {
 public:
  explicit TornadoPattern(std::vector<std::uint32_t> dims) : dims_(std::move(dims)) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::vector<std::uint32_t> grid = resolve_grid(ctx, dims_, "tornado");
    const std::vector<std::uint64_t> stride = strides_of(grid);
    const std::uint32_t n = ctx.endpoints;
    std::vector<std::uint64_t> offset(grid.size());
    bool any = false;
    for (std::size_t d = 0; d < grid.size(); ++d) {
      offset[d] = (std::uint64_t{grid[d]} + 1) / 2 - 1;  // ceil(k/2) - 1
      any = any || offset[d] > 0;
    }
    if (!any)
      throw InputError("pattern 'tornado': on grid " + dims_text(grid) +
                       " every offset ceil(k/2)-1 is 0 (all dimensions have size 1 or 2), so every flow would be a "
                       "self flow; expected a dimension of size 3 or more");
    check_flow_budget(ctx, n, "tornado");
    out.reserve(out.size() + n);
    for (EndpointId src = 0; src < n; ++src) {
      EndpointId dst = src;
      for (std::size_t d = 0; d < grid.size(); ++d)
        if (offset[d] > 0) dst = moved(dst, stride[d], grid[d], offset[d]);
      out.add(src, dst);
    }
    PatternReport report;
    report.note = "grid " + dims_text(grid) + ", offsets";
    for (auto o : offset) report.note += " " + std::to_string(o);
    return report;
  }

 private:
  std::vector<std::uint32_t> dims_;
};

ParamSpec grid_dims_param() {
  ParamSpec spec = dims_param("dims", "",
                              "endpoint grid AxBx... (dimension 0 first and fastest), product = N; unset = the "
                              "topology's endpoint grid, or a ring of N endpoints if it has none",
                              1);
  spec.optional = true;
  return spec;
}

std::vector<std::uint32_t> given_dims(const ParamSet& p) {
  return p.has("dims") ? p.get_dims("dims") : std::vector<std::uint32_t>{};
}

const char* const kGridRule =
    " Endpoint ids map to grid coordinates with dimension 0 fastest: id = c0 + k0*(c1 + k1*(c2 + ...)). "
    "The grid is `dims` if given (its product must equal N), otherwise the topology's endpoint grid "
    "(a torus or mesh reports its own), otherwise a 1-D ring of N endpoints. Moves wrap around.";

}  // namespace

void register_grid_patterns(PatternRegistry& registry) {
  registry.add(
      {"neighbor",
       "nearest neighbour: every endpoint sends to its +1 and -1 neighbours in each grid dimension",
       {grid_dims_param()},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> { return std::make_unique<NeighborPattern>(given_dims(p)); },
       std::string("Every endpoint sends one flow to each neighbour one step away along each dimension, "
                   "+1 first then -1, dimensions in increasing order: a dimension of size k >= 3 gives "
                   "two neighbours, size 2 gives one (+1 and -1 coincide), size 1 none. So a 4x4x4 grid "
                   "gives 6 flows per endpoint.") +
           kGridRule});
  registry.add(
      {"tornado",
       "tornado: every endpoint sends to the one ceil(k/2)-1 positions ahead in every dimension",
       {grid_dims_param()},
       [](const ParamSet& p) -> std::unique_ptr<Pattern> { return std::make_unique<TornadoPattern>(given_dims(p)); },
       std::string("Tornado (Dally & Towles §3.2): the destination's coordinate in every dimension of "
                   "size k is (c + ceil(k/2) - 1) mod k, just under half way round, which loads one "
                   "direction of a torus ring. Dimensions where that offset is 0 (size 1 or 2) are left "
                   "unchanged; if every offset is 0 the pattern is rejected. It is a permutation without "
                   "fixed points: one flow per endpoint (ring of 8: i -> i+3).") +
           kGridRule});
}

}  // namespace interflow::workloads
