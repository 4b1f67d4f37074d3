#include "core/routing.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <iomanip>
#include <numeric>
#include <sstream>

#include "core/error.hpp"
#include "core/random.hpp"

namespace interflow {

void check_path_memory(std::uint64_t link_entries, std::uint64_t vars, const RouteContext& ctx) {
  const std::uint64_t bytes = path_bytes(link_entries, vars);
  if (bytes <= ctx.max_path_bytes) return;
  const auto gib = [](std::uint64_t b) {
    std::ostringstream text;
    text << std::setprecision(3) << static_cast<double>(b) / static_cast<double>(1ULL << 30);
    return text.str();
  };
  throw InputError("the routed paths need at least " + gib(bytes) + " GiB (" + std::to_string(vars) +
                   " path variables, " + std::to_string(link_entries) + " link entries), more than the limit " +
                   gib(ctx.max_path_bytes) +
                   " GiB (--max-path-memory); lower the routing's max_paths or k, or raise the limit if memory allows");
}

// Two passes over fixed chunks of flows: the first only measures each flow's paths, the second
// routes again and writes them straight into the final table. Routing twice is cheaper than
// holding every path twice (once per chunk, once merged), which at a million flows of 80 links
// would cost hundreds of MiB of peak memory.
PathTable PerFlowRouting::route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const {
  const std::size_t n = flows.size();
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  tbb::enumerable_thread_specific<PathSink> sinks;
  auto route_one = [&](PathSink& sink, std::size_t f) {
    sink.clear();
    sink.begin_flow();
    if (flows.src[f] != flows.dst[f])
      route(net, flows.src[f], flows.dst[f], derive_seed(ctx.seed, Stream::Routing, f), sink);
    sink.end_flow();
  };
  std::vector<std::uint32_t> vars(n), links(n);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    PathSink& sink = sinks.local();
    for (std::size_t f = c * kChunk; f < std::min(n, (c + 1) * kChunk); ++f) {
      route_one(sink, f);
      vars[f] = static_cast<std::uint32_t>(sink.num_vars());
      links[f] = static_cast<std::uint32_t>(sink.num_links());
    }
  });
  std::uint64_t total_links = 0, total_vars = 0;
  for (std::size_t f = 0; f < n; ++f) total_links += links[f], total_vars += vars[f];
  check_path_memory(total_links, total_vars, ctx);
  PathTable table = PathTableBuilder::allocate(vars, links);
  vars = {};
  links = {};
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    PathSink& sink = sinks.local();
    const std::size_t end = std::min(n, (c + 1) * kChunk);
    for (std::size_t f = c * kChunk; f < end; ++f) {
      route_one(sink, f);
      PathTableBuilder::store(table, static_cast<FlowId>(f), sink);
    }
    if (ctx.progress) ctx.progress->fetch_add(end - c * kChunk, std::memory_order_relaxed);
  });
  return table;
}

PathTable LoadAwareRouting::route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const {
  std::vector<std::uint32_t> paths_on_link(net.num_links(), 0);
  std::vector<PathSink> sinks(1);
  PathSink& sink = sinks[0];
  for (std::size_t f = 0; f < flows.size(); ++f) {
    sink.begin_flow();
    if (flows.src[f] != flows.dst[f]) {
      route(net, flows.src[f], flows.dst[f], derive_seed(ctx.seed, Stream::Routing, f), paths_on_link, sink);
      for (LinkId l : sink.current_flow_links()) ++paths_on_link[l];
    }
    sink.end_flow();
    if (f % kProgressStep == 0) check_path_memory(sink.num_links(), sink.num_vars(), ctx);
    if (ctx.progress && (f + 1) % kProgressStep == 0) ctx.progress->fetch_add(kProgressStep, std::memory_order_relaxed);
  }
  if (ctx.progress) ctx.progress->fetch_add(flows.size() % kProgressStep, std::memory_order_relaxed);
  std::vector<FlowId> order(flows.size());
  std::iota(order.begin(), order.end(), FlowId{0});
  return PathTableBuilder::merge_scattered(sinks, order, flows.size());
}

}  // namespace interflow
