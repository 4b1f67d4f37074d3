#pragma once
// Shared machinery of the generic routings (bfs, ecmp, ksp, allpath): flows are grouped by the vertex
// where their destination attaches, one breadth-first search per such vertex gives every vertex its
// distance (in links) to it, and each flow of the group is then routed with that table. Groups run in
// parallel over fixed chunks of flows, each thread reusing one scratch of O(vertices), so results do not
// depend on the thread count.
//
// Attachment: an endpoint on a single cable is reached through its switch, so one search serves every
// endpoint behind that switch (switch-level routing); a multi-homed or forwarding endpoint, or a router
// hosting direct endpoints, is its own attachment. A path only passes through an endpoint vertex other
// than its ends when the topology lets endpoints forward (server-centric networks). Links that are down
// are never used: a failure takes a whole cable down, so the search runs over out-links standing for
// in-links.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/routing.hpp"

namespace interflow::routing {

inline constexpr std::uint32_t kUnreached = kNone;

// A vertex of a depth-first search in progress: its out-links first..first+degree, taken from `next` on
// in an order rotated by `rotate`, with `left` links allowed from it.
struct DfsFrame {
  VertexId vertex;
  LinkId first, degree, rotate, next;
  std::uint32_t left;
};

// Per-thread scratch: distances to the current attachment vertex and room for the per-flow algorithms.
struct SearchScratch {
  explicit SearchScratch(std::uint32_t num_vertices)
      : dist(num_vertices, kUnreached),
        queue(num_vertices),
        source_mark(num_vertices, 0),
        mark(num_vertices, 0),
        local(num_vertices) {}
  std::vector<std::uint32_t> dist;         // links to the current target; kUnreached if not discovered
  std::vector<VertexId> queue;             // discovered vertices in BFS order (exactly those with a dist)
  std::vector<std::uint32_t> source_mark;  // == group stamp: a source vertex of the current group
  // Free for the per-flow algorithms: marks compared with a fresh stamp (next_stamp()), a per-vertex
  // index valid where marked, and growable arrays.
  std::vector<std::uint32_t> mark;
  std::vector<std::uint32_t> local;
  std::vector<VertexId> vertices;
  std::vector<LinkId> links, path;
  std::vector<std::uint32_t> offsets;
  std::vector<double> value, value2;
  std::vector<DfsFrame> frames;
  std::uint32_t next_stamp() {
    if (++stamp == 0) {  // wrapped: clear the marks once every 2^32 flows
      std::fill(mark.begin(), mark.end(), 0);
      stamp = 1;
    }
    return stamp;
  }

 private:
  std::uint32_t stamp = 0;
};

// What a per-flow algorithm is given.
struct FlowToRoute {
  FlowId flow;
  VertexId source;       // the source endpoint's vertex
  VertexId target;       // the destination's attachment vertex (the search root)
  VertexId destination;  // the destination endpoint's vertex (== target or one cable behind it)
  std::uint64_t seed;    // the run seed
};

class DestinationSearchRouting : public Routing {
 public:
  PathTable route_all(const Network& net, const FlowSet& flows, const RouteContext& ctx) const override;

  // Routes one flow with s.dist filled for f.target. Pushes links from f.source to f.target; the engine
  // side (append_last_hop) adds the cable to the destination endpoint when it is not the target itself.
  virtual void route_flow(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const = 0;

  // How many levels past the farthest source of a group the search must settle: 0 when routes only step
  // to closer vertices; d for routes up to d links longer than shortest; kUnreached for a full search.
  virtual std::uint32_t extra_levels() const { return 0; }

  static constexpr std::uint32_t kChunk = 4096;  // flows per parallel chunk (whole groups), fixed

 protected:
  // A vertex that traffic may pass through on its way to `target`.
  static bool may_relay(const Network& net, VertexId v, VertexId target) {
    return v == target || net.endpoints_forward() || net.kind(v) != VertexKind::Endpoint;
  }
  // Whether link l is usable by a route that must reach the target within `budget` more links.
  static bool usable(const Network& net, const SearchScratch& s, LinkId l, VertexId target, std::uint32_t budget) {
    const VertexId x = net.target(l);
    return net.up(l) && s.dist[x] != kUnreached && s.dist[x] < budget + 1 && may_relay(net, x, target);
  }
  // Pushes the cable from the target to the destination endpoint, if any; false (flow dropped) when it
  // is down.
  static bool append_last_hop(const Network& net, const FlowToRoute& f, PathSink& sink);
};

}  // namespace interflow::routing
