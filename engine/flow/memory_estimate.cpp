#include "engine/flow/memory_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "core/random.hpp"
#include "engine/flow/streamed_maxmin.hpp"
#include "engine/flow/static_engine.hpp"
#include "engine/maxmin/maxmin.hpp"
#include "engine/maxmin/path_runs.hpp"

namespace interflow::flow {

namespace {

// The program before any model: code, libraries, the allocator's arenas and thread stacks, as
// measured by peak_rss_bytes on a tiny run (about 10 MiB), rounded up.
constexpr std::uint64_t kProcessBytes = 16ULL << 20;

std::uint64_t scaled(double per_flow, std::uint64_t flows) {
  return static_cast<std::uint64_t>(std::ceil(per_flow * static_cast<double>(flows)));
}

// Path variables and links of a sample of flows spread evenly over the list; flow_at(f, set)
// appends flow f to `set`.
template <class FlowAt>
void measure_paths(const Network& net, const Routing& routing, std::uint64_t n, FlowAt&& flow_at, std::uint64_t seed,
                   MemoryEstimate& e) {
  // Routings that route flows together (a search per destination) cost far more per flow: fewer.
  const bool per_flow_routing = dynamic_cast<const PerFlowRouting*>(&routing) != nullptr;
  const std::uint64_t k = std::min<std::uint64_t>(n, per_flow_routing ? kSample : kSampleTogether);
  e.sampled = k;
  if (k == 0) return;
  FlowSet sample;
  sample.reserve(k);
  for (std::uint64_t i = 0; i < k; ++i) flow_at(i * n / k, sample);
  std::uint64_t vars = 0, links = 0, run_bytes = 0;
  const auto note_split = [&](double split) {
    if (split > 0) e.split_unit_exponent = std::min(e.split_unit_exponent, maxmin::lowest_bit_exponent(split));
  };
  const auto add_runs = [&](std::span<const LinkId> path) {
    run_bytes += maxmin::PathRuns::encoded_bytes(path) + 12;  // the bytes, an offset and a length
  };
  if (const auto* per_flow = dynamic_cast<const PerFlowRouting*>(&routing)) {
    PathSink sink;
    for (std::uint64_t i = 0; i < k; ++i) {
      sink.clear();
      sink.begin_flow();
      if (sample.src[i] != sample.dst[i])
        per_flow->route(net, sample.src[i], sample.dst[i], derive_seed(seed, Stream::Routing, i * n / k), sink);
      sink.end_flow();
      vars += sink.num_vars();
      links += sink.num_links();
      for (const float split : sink.splits()) note_split(split);
      std::size_t first = 0;
      for (const std::uint32_t length : sink.var_lengths()) {
        add_runs(sink.links().subspan(first, length));
        first += length;
      }
    }
  } else {  // routings that route flows together: route the sample as a list of its own
    const PathTable table = routing.route_all(net, sample, RouteContext{seed, nullptr, ~std::uint64_t{0}});
    vars = table.num_vars();
    links = table.num_link_entries();
    for (std::uint32_t v = 0; v < table.num_vars(); ++v) note_split(table.split(v));
    for (std::uint32_t v = 0; v < table.num_vars(); ++v) add_runs(table.links(v));
  }
  e.vars_per_flow = static_cast<double>(vars) / static_cast<double>(k);
  e.links_per_flow = static_cast<double>(links) / static_cast<double>(k);
  e.run_bytes_per_flow = static_cast<double>(run_bytes) / static_cast<double>(k);
}

// Weights whose sums may round make the solver keep each link's last summed weight (8 bytes per
// solved link; maxmin.hpp). A variable's weight is its flow's times its split, a multiple of 2^(the
// sum of their lowest bits); a link's sum is at most twice the flows' total weight (each flow's
// splits sum to one; a path may cross a link twice). `weights`: the flows' (empty: all 1).
void note_weight_sums(std::span<const float> weights, MemoryEstimate& e) {
  constexpr int kNone = std::numeric_limits<int>::max();
  if (e.split_unit_exponent == kNone) return;  // no variable sampled: nothing known, nothing counted
  int flow_unit = 0;
  double heaviest = 1;
  if (!weights.empty()) {
    flow_unit = kNone;
    heaviest = 0;
    for (const float w : weights)
      if (w > 0 && std::isfinite(w)) {
        flow_unit = std::min(flow_unit, maxmin::lowest_bit_exponent(w));
        heaviest = std::max(heaviest, static_cast<double>(w));
      }
    if (flow_unit == kNone) return;
  }
  e.exact_weight_sums = maxmin::weight_sums_exact(2 * heaviest * static_cast<double>(e.flows),
                                                  e.split_unit_exponent + flow_unit);
}

}  // namespace

std::uint64_t MemoryEstimate::peak() const {
  const std::uint64_t solve_paths = paths_kept ? paths : path_runs;
  const std::uint64_t result_paths = paths_kept ? paths : 0;
  return process + network + flow_set +
         std::max({paths + routing, paths + path_runs, solve_paths + solver, result_paths + results});
}

MemoryEstimate estimate_held_run(const Network& net, const Routing& routing, const FlowSet& flows,
                                 std::uint64_t seed, bool keep_paths) {
  MemoryEstimate e;
  e.paths_kept = keep_paths;
  e.flows = flows.size();
  e.process = kProcessBytes;
  e.network = net.memory_bytes();
  e.flow_set = flows.src.capacity() * sizeof(EndpointId) * 2 + flows.weight.capacity() * sizeof(float);
  measure_paths(
      net, routing, flows.size(), [&](std::uint64_t f, FlowSet& set) { set.add(flows.src[f], flows.dst[f]); }, seed,
      e);
  const std::uint64_t n = e.flows, v = scaled(e.vars_per_flow, n), entries = scaled(e.links_per_flow, n);
  const std::uint64_t l = net.num_links();
  // PathTable: 4 per link entry, 8 + 4 per variable (offset, split), 4 per flow.
  e.paths = path_bytes(entries, v) + 4 * (n + 1);
  // Without the table kept, a run-coded copy replaces it in the solve if it is small enough
  // (static_engine.hpp).
  if (!keep_paths) {
    const std::uint64_t runs = scaled(e.run_bytes_per_flow, n);
    e.paths_kept = runs > run_coding_limit(entries, v);
    e.path_runs = e.paths_kept ? 0 : runs;
  }
  // route_all: per-flow counts of variables and links while the table is filled.
  e.routing = 8 * n;
  // The links some path crosses, if the entries fall on links evenly at random (the expected number
  // of distinct links; paths that concentrate on fewer links use fewer). The solver keeps its
  // per-link state for those only when at least a tenth of the links is unused (maxmin.cpp).
  const double spread = static_cast<double>(entries) / std::max<double>(1.0, static_cast<double>(l));
  e.used_links = std::min<std::uint64_t>(l, scaled(1 - std::exp(-spread), l));
  const bool compacted = e.paths_kept && e.used_links <= l - l / 10;
  const std::uint64_t u = compacted ? e.used_links : l;
  // The engine's weights (8 per variable), and copies of the splits and each flow's first variable
  // when the table is freed (4 per variable and flow; static_engine.cpp); the solver's rates,
  // bottlenecks and frozen flags (13 per variable), its incidence (4 per entry), per solved link its
  // offset, state and heap entry (4 + 20 + 12), two bitmaps (2 bits per link), and when compacted
  // the used-link ranks (2 bits per link) and capacities (4 per used link).
  const std::uint64_t copies = e.paths_kept ? 0 : 4 * v + 4 * n;
  e.solver = 8 * v + copies + 13 * v + 4 * entries + 36 * u + l / 4 + (compacted ? l / 4 + 4 * u : 0);
  note_weight_sums(flows.weight, e);
  if (!e.exact_weight_sums) e.solver += 8 * u;
  // After the solve: weights, rates and bottlenecks still alive; per flow its rate, length and
  // bottleneck (16) and the routed rates summarised (8); per link paths and load (12), made from
  // those of the used links when compacted (12 per used link alive at once).
  e.results = 20 * v + copies + 24 * n + 12 * l + (compacted ? 12 * u : 0);
  return e;
}

MemoryEstimate estimate_streamed_run(const Network& net, const Routing& routing, const FlowStream& flows,
                                     std::uint64_t seed, std::uint64_t buffer_bytes) {
  MemoryEstimate e;
  e.streamed = true;
  e.flows = flows.size();
  e.process = kProcessBytes;
  e.network = net.memory_bytes();
  measure_paths(
      net, routing, e.flows, [&](std::uint64_t f, FlowSet& set) { flows.fill(f, f + 1, set); }, seed, e);
  const std::uint64_t l = net.num_links();
  const std::uint64_t parts = StreamedMaxMin::parts_for(net.num_links());
  // What the buffer can hold at most: every flow open, with its links, variables and rate.
  const std::uint64_t all_open = scaled(4 * e.links_per_flow + 16 * e.vars_per_flow + 36, e.flows);
  const std::uint64_t buffer = std::min(buffer_bytes, all_open);
  // Per part and link: closed and open loads, weights and path counts (28), and two weights per
  // predicted group (closable and open flows); merged: sums, levels (24 per link), a weight per group, the links' groups (2) and
  // the shares in order (16); the closed and pending bitmaps; the buffer, and the in-memory solve of
  // what it holds (its incidence and working arrays, about twice the buffer, plus per-link state).
  const std::uint64_t groups = StreamedMaxMin::groups_for(net.num_links());
  e.solver = parts * l * (28 + 16 * groups) + l * (24 + 8 * groups + 2 + 16) + 2 * ((e.flows + 63) / 64 * 8) +
             3 * buffer + 64 * l;
  note_weight_sums({}, e);  // streamed flows have weight 1
  if (!e.exact_weight_sums) e.solver += 8 * l;
  e.results = 12 * l;
  return e;
}

}  // namespace interflow::flow
