// Generic single shortest-path routing (fewest links) for any topology. Flows are grouped by the
// vertex where their destination attaches; one breadth-first search per such vertex gives every
// vertex its distance to it, and each flow of the group then walks from its source, always to a
// neighbour one hop closer. Groups run in parallel; each thread reuses one scratch (distances,
// queue, marks: O(vertices) per thread).
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <memory>
#include <vector>

#include "engine/random.hpp"
#include "routing/registry.hpp"

namespace interflow::routing {

namespace {

constexpr std::uint32_t kUnreached = kNone;

// Scratch space of one thread, reused for every destination it handles.
struct BfsScratch {
  explicit BfsScratch(std::uint32_t vertices) : dist(vertices, kUnreached), queue(vertices), source_mark(vertices, 0) {}
  std::vector<std::uint32_t> dist;         // links to the current destination; kUnreached if not discovered
  std::vector<VertexId> queue;             // discovered vertices in BFS order (exactly those with a dist)
  std::vector<std::uint32_t> source_mark;  // == group stamp: a source vertex of the current group
};

struct DestinationGroup {
  VertexId target;
  std::uint32_t begin, end;  // range of the group's flows in the grouped flow order
};

class BfsRouting : public Routing {
 public:
  explicit BfsRouting(bool random_ties) : random_ties_(random_ties) {}

  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override {
    std::vector<FlowId> order;
    std::vector<DestinationGroup> groups;
    group_by_destination(net, flows, order, groups);

    // Chunks of whole groups with at least kChunk flows each (but the last): fixed, so that the
    // table never depends on the thread count.
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
    tbb::enumerable_thread_specific<BfsScratch> scratch([vertices] { return BfsScratch(vertices); });
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
      BfsScratch& s = scratch.local();
      std::uint64_t routed = 0;
      for (std::uint32_t g = chunk_first_group[c]; g < chunk_first_group[c + 1]; ++g) {
        const DestinationGroup& group = groups[g];
        const std::uint32_t discovered = search(net, flows, order, group, g + 1, s);
        for (std::uint32_t i = group.begin; i < group.end; ++i) {
          sinks[c].begin_flow();
          walk(net, flows, order[i], group.target, ctx.seed, s, sinks[c]);
          sinks[c].end_flow();
        }
        for (std::uint32_t i = 0; i < discovered; ++i) s.dist[s.queue[i]] = kUnreached;
        routed += group.end - group.begin;
      }
      if (ctx.progress) ctx.progress->fetch_add(routed, std::memory_order_relaxed);
    });
    return PathTableBuilder::merge_scattered(sinks, order, flows.size());
  }

  static constexpr std::uint32_t kChunk = 4096;

 private:
  // Counting sort of the flows (src != dst) by destination vertex, stable in flow order.
  static void group_by_destination(const Network& net, const FlowSet& flows, std::vector<FlowId>& order,
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

  // Where the searches start for a destination vertex: an endpoint on a single cable is reached
  // through its switch, so one search serves every endpoint behind that switch (switch-level
  // routing); a multi-homed or forwarding endpoint, or a router, is its own attachment.
  static VertexId attachment(const Network& net, VertexId v) {
    if (net.kind(v) == VertexKind::Endpoint && net.degree(v) == 1 && !net.endpoints_forward())
      return net.target(net.out_begin(v));
    return v;
  }

  // A vertex that traffic may pass through on its way to `target`.
  static bool may_relay(const Network& net, VertexId v, VertexId target) {
    return v == target || net.endpoints_forward() || net.kind(v) != VertexKind::Endpoint;
  }

  // BFS from the group's target over links that are up. Cables are symmetric, so the out-links of
  // w stand for the links into w; a failure takes a whole cable down (engine/failures.hpp). Stops
  // once every source vertex of the group is discovered: all vertices nearer than the farthest
  // source then have their final distance, and a walk only looks at nearer vertices. Returns the
  // number of vertices discovered (queue[0..n) must be reset by the caller).
  static std::uint32_t search(const Network& net, const FlowSet& flows, const std::vector<FlowId>& order,
                              const DestinationGroup& group, std::uint32_t stamp, BfsScratch& s) {
    std::uint32_t sources_left = 0;
    for (std::uint32_t i = group.begin; i < group.end; ++i) {
      const VertexId v = net.endpoint_vertex(flows.src[order[i]]);
      if (s.source_mark[v] != stamp) {
        s.source_mark[v] = stamp;
        ++sources_left;
      }
    }
    std::uint32_t head = 0, tail = 0;
    s.dist[group.target] = 0;
    s.queue[tail++] = group.target;
    if (s.source_mark[group.target] == stamp) --sources_left;
    while (head < tail && sources_left > 0) {
      const VertexId w = s.queue[head++];
      if (!may_relay(net, w, group.target)) continue;
      const std::uint32_t next = s.dist[w] + 1;
      for (LinkId l = net.out_begin(w); l < net.out_end(w); ++l) {
        const VertexId u = net.target(l);
        if (!net.up(l) || s.dist[u] != kUnreached) continue;
        s.dist[u] = next;
        s.queue[tail++] = u;
        if (s.source_mark[u] == stamp && --sources_left == 0) break;
      }
    }
    return tail;
  }

  // Follows decreasing distance from the flow's source to `target`. Leaves the sink empty when the
  // source was not reached (the flow is unroutable).
  void walk(const Network& net, const FlowSet& flows, FlowId f, VertexId target, std::uint64_t seed,
            const BfsScratch& s, PathSink& sink) const {
    VertexId at = net.endpoint_vertex(flows.src[f]);
    if (s.dist[at] == kUnreached) return;
    Rng rng(random_ties_ ? derive_seed(seed, Stream::Routing, f) : 0);
    while (at != target) {
      const std::uint32_t want = s.dist[at] - 1;
      auto closer = [&](LinkId l) {
        const VertexId x = net.target(l);
        return net.up(l) && s.dist[x] == want && may_relay(net, x, target);
      };
      std::uint32_t candidates = 0;
      LinkId chosen = kNone;
      for (LinkId l = net.out_begin(at); l < net.out_end(at); ++l)
        if (closer(l) && candidates++ == 0) chosen = l;
      if (candidates == 0) {  // only possible if a link is down in one direction but not the other
        sink.drop_flow();
        return;
      }
      if (random_ties_ && candidates > 1) {
        std::uint64_t pick = rng.below(candidates);
        for (LinkId l = net.out_begin(at);; ++l)
          if (closer(l) && pick-- == 0) {
            chosen = l;
            break;
          }
      }
      sink.push(chosen);
      at = net.target(chosen);
    }
    // Last hop from the attachment switch to the destination endpoint, if it is not the switch itself.
    const VertexId destination = net.endpoint_vertex(flows.dst[f]);
    if (destination != target && !push_or_drop(net, net.find_link(target, destination), sink)) return;
    sink.commit(1.0);
  }

  bool random_ties_;
};

}  // namespace

void register_bfs(RoutingRegistry& registry) {
  registry.add(
      {"bfs",
       "single shortest path (fewest links) by breadth-first search, for any topology",
       {choice_param("tie", "lowest", {"lowest", "random"},
                     "which neighbour to take when several are one hop closer to the destination: lowest = the "
                     "lowest out-link id (the lowest port); random = uniformly, from the flow's own seeded stream")},
       [](const ParamSet& p, const Topology&) -> std::unique_ptr<Routing> {
         return std::make_unique<BfsRouting>(p.get_string("tie") == "random");
       },
       "Distances are in links and computed per destination attachment vertex, shared by every flow to "
       "it: the switch of an endpoint that hangs off one switch on a single cable (so one search serves "
       "every endpoint behind that switch), the router of a direct endpoint, or the endpoint's own vertex "
       "when it is multi-homed or forwards. A path never passes "
       "through an endpoint vertex other than its source and destination unless the topology lets "
       "endpoints forward (server-centric networks). Links that are down are avoided; a flow whose "
       "destination cannot be reached is unroutable. With tie=lowest the path is the lexicographically "
       "smallest in port order among the shortest ones; with tie=random each hop is drawn uniformly among "
       "the closer neighbours from derive_seed(seed, routing stream, flow index), so the same seed gives the "
       "same paths for any thread count. Two distinct endpoints hosted by the same vertex get an empty "
       "path (zero links)."});
}

}  // namespace interflow::routing
