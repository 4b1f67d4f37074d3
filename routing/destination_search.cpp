#include "routing/destination_search.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>

namespace interflow::routing {

namespace {

struct DestinationGroup {
  VertexId target;
  std::uint32_t begin, end;  // range of the group's flows in the grouped flow order
};

VertexId attachment(const Network& net, VertexId v) {
  if (net.kind(v) == VertexKind::Endpoint && net.degree(v) == 1 && !net.endpoints_forward() &&
      net.kind(net.target(net.out_begin(v))) == VertexKind::Switch)
    return net.target(net.out_begin(v));
  return v;
}

// Counting sort of the flows (src != dst) by destination attachment, stable in flow order.
void group_by_destination(const Network& net, const FlowSet& flows, std::vector<FlowId>& order,
                          std::vector<DestinationGroup>& groups) {
  const std::uint32_t vertices = net.num_vertices();
  std::vector<std::uint32_t> start(vertices + 1, 0);
  for (std::size_t f = 0; f < flows.size(); ++f)
    if (flows.src[f] != flows.dst[f]) ++start[attachment(net, net.endpoint_vertex(flows.dst[f])) + 1];
  for (VertexId v = 0; v < vertices; ++v) {
    if (start[v + 1] > 0) groups.push_back({v, start[v], start[v] + start[v + 1]});
    start[v + 1] += start[v];
  }
  order.resize(start[vertices]);
  for (std::size_t f = 0; f < flows.size(); ++f)
    if (flows.src[f] != flows.dst[f])
      order[start[attachment(net, net.endpoint_vertex(flows.dst[f]))]++] = static_cast<FlowId>(f);
}

bool relays(const Network& net, VertexId v, VertexId target) {
  return v == target || net.endpoints_forward() || net.kind(v) != VertexKind::Endpoint;
}

// BFS from the group's target over links that are up. Once every source vertex of the group is
// discovered, goes on until every vertex within `extra` levels beyond the farthest source has its
// final distance (a route that may be `extra` links longer than shortest only looks at those).
// Returns the number of vertices discovered (queue[0..n) must be reset by the caller).
std::uint32_t search(const Network& net, const FlowSet& flows, const std::vector<FlowId>& order,
                     const DestinationGroup& group, std::uint32_t stamp, std::uint32_t extra, SearchScratch& s) {
  std::uint32_t sources_left = 0;
  for (std::uint32_t i = group.begin; i < group.end; ++i) {
    const VertexId v = net.endpoint_vertex(flows.src[order[i]]);
    if (s.source_mark[v] != stamp) {
      s.source_mark[v] = stamp;
      ++sources_left;
    }
  }
  std::uint32_t head = 0, tail = 0;
  std::uint64_t settle_below = kUnreached;  // expand vertices with dist < settle_below once all sources are found
  const auto all_found = [&](std::uint32_t d) {
    settle_below = extra == kUnreached ? std::uint64_t{kUnreached} : std::uint64_t{d} + extra;
  };
  s.dist[group.target] = 0;
  s.queue[tail++] = group.target;
  if (s.source_mark[group.target] == stamp && --sources_left == 0) all_found(0);
  while (head < tail) {
    const VertexId w = s.queue[head++];
    if (s.dist[w] >= settle_below) break;
    if (!relays(net, w, group.target)) continue;
    const std::uint32_t next = s.dist[w] + 1;
    for (LinkId l = net.out_begin(w); l < net.out_end(w); ++l) {
      const VertexId u = net.target(l);
      if (!net.up(l) || s.dist[u] != kUnreached) continue;
      s.dist[u] = next;
      s.queue[tail++] = u;
      if (s.source_mark[u] == stamp && --sources_left == 0) all_found(next);
    }
  }
  return tail;
}

}  // namespace

bool DestinationSearchRouting::append_last_hop(const Network& net, const FlowToRoute& f, PathSink& sink) {
  if (f.destination == f.target) return true;
  return push_or_drop(net, net.find_link(f.target, f.destination), sink);
}

PathTable DestinationSearchRouting::route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const {
  std::vector<FlowId> order;
  std::vector<DestinationGroup> groups;
  group_by_destination(net, flows, order, groups);

  // Chunks of whole groups with at least kChunk flows each (but the last): fixed, so that the table
  // never depends on the thread count.
  std::vector<std::uint32_t> chunk_first_group{0};
  for (std::uint32_t g = 0, flows_in_chunk = 0; g < groups.size(); ++g) {
    flows_in_chunk += groups[g].end - groups[g].begin;
    if (flows_in_chunk >= kChunk || g + 1 == groups.size()) {
      chunk_first_group.push_back(g + 1);
      flows_in_chunk = 0;
    }
  }
  const std::size_t chunks = chunk_first_group.size() - 1;
  std::vector<PathSink> sinks(chunks);
  const std::uint32_t vertices = net.num_vertices();
  const std::uint32_t extra = extra_levels();
  tbb::enumerable_thread_specific<SearchScratch> scratch([vertices] { return SearchScratch(vertices); });
  std::atomic<std::uint64_t> stored_links{0}, stored_vars{0};  // over all chunks, for the memory limit
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    SearchScratch& s = scratch.local();
    std::uint64_t routed = 0, links_before = 0, vars_before = 0;
    for (std::uint32_t g = chunk_first_group[c]; g < chunk_first_group[c + 1]; ++g) {
      const DestinationGroup& group = groups[g];
      const std::uint32_t discovered = search(net, flows, order, group, g + 1, extra, s);
      for (std::uint32_t i = group.begin; i < group.end; ++i) {
        const FlowId f = order[i];
        const FlowToRoute flow{f, net.endpoint_vertex(flows.src[f]), group.target, net.endpoint_vertex(flows.dst[f]),
                               ctx.seed};
        sinks[c].begin_flow();
        if (s.dist[flow.source] != kUnreached) route_flow(net, flow, s, sinks[c]);
        sinks[c].end_flow();
      }
      for (std::uint32_t i = 0; i < discovered; ++i) s.dist[s.queue[i]] = kUnreached;
      routed += group.end - group.begin;
      const std::uint64_t links = stored_links += sinks[c].num_links() - links_before;
      const std::uint64_t vars = stored_vars += sinks[c].num_vars() - vars_before;
      links_before = sinks[c].num_links();
      vars_before = sinks[c].num_vars();
      check_path_memory(links, vars, ctx);
    }
    if (ctx.progress) ctx.progress->fetch_add(routed, std::memory_order_relaxed);
  });
  return PathTableBuilder::merge_scattered(sinks, order, flows.size());
}

}  // namespace interflow::routing
