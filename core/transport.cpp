#include "core/transport.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/error.hpp"

namespace interflow {

void TransportProfile::count_batch(std::uint64_t solved, std::uint64_t changed) {
  max_solved = std::max(max_solved, solved);
  max_changed = std::max(max_changed, changed);
  const std::size_t bucket = solved == 0 ? 0 : static_cast<std::size_t>(std::bit_width(solved));
  if (solved_log2.size() <= bucket) solved_log2.resize(bucket + 1, 0);
  ++solved_log2[bucket];
}

bool TransportResult::start_series(std::uint32_t bins) {
  bins = std::max<std::uint32_t>(1, bins);
  bin_s = makespan_s > 0 ? makespan_s / bins : 0;
  series_gbps.assign(bins, 0);
  series_active.assign(bins, 0);
  return bin_s > 0;
}

PathTable route_messages(const Network& net, const Routing& routing, const MessageTable& messages,
                         const RouteContext& ctx) {
  const std::size_t n = messages.size();
  if (messages.route_index.empty()) return routing.route_all(net, messages.ends, ctx);
  if (messages.route_index.size() != n) throw InputError("messages: the route index needs one entry per message");
  // Route in route-index order (so every message gets the random stream, and an adaptive routing the
  // turn, of its route index), then renumber the paths into message order.
  std::vector<FlowId> by_index(n, kNone);
  for (std::size_t m = 0; m < n; ++m) {
    const std::uint32_t i = messages.route_index[m];
    if (i >= n || by_index[i] != kNone) throw InputError("messages: the route index is not a permutation");
    by_index[i] = static_cast<FlowId>(m);
  }
  FlowSet ordered;
  ordered.reserve(n);
  for (FlowId m : by_index) ordered.add(messages.ends.src[m], messages.ends.dst[m]);
  if (!messages.ends.weight.empty())
    for (FlowId m : by_index) ordered.weight.push_back(messages.ends.weight[m]);
  const PathTable routed = routing.route_all(net, ordered, ctx);
  ordered = FlowSet();
  return PathTableBuilder::permuted(routed, messages.route_index);
}

}  // namespace interflow
