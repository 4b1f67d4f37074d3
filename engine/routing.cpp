#include "engine/routing.hpp"

#include <tbb/parallel_for.h>

#include "engine/random.hpp"

namespace interflow {

PathTable PerFlowRouting::route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const {
  const std::size_t n = flows.size();
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<PathSink> sinks(chunks);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    PathSink& sink = sinks[c];
    const std::size_t end = std::min(n, (c + 1) * kChunk);
    for (std::size_t f = c * kChunk; f < end; ++f) {
      sink.begin_flow();
      if (flows.src[f] != flows.dst[f])
        route(net, flows.src[f], flows.dst[f], derive_seed(ctx.seed, Stream::Routing, f), sink);
      sink.end_flow();
    }
    if (ctx.progress) ctx.progress->fetch_add(end - c * kChunk, std::memory_order_relaxed);
  });
  return PathTableBuilder::merge(sinks);
}

}  // namespace interflow
