// ECMP for any topology: every shortest path (fewest links) of a flow, load balanced, on the
// shortest-path DAG towards the flow's destination attachment (routing/destination_search.hpp).
//
// The DAG of a flow holds the links u -> x with dist(x) = dist(u) - 1 reachable from its source. Two
// splits, both computed on the DAG without listing its (possibly exponentially many) paths:
//   mode=path  equal split over the shortest paths: every path carries 1/P of the flow (P counted by
//              dynamic programming on the DAG). With P > max_paths, max_paths paths spread over the
//              port-ordered list of all paths (ranks (i + o) P / max_paths, o a per-flow offset in
//              [0, 1), by unranking on the path counts) carry 1/max_paths each.
//   mode=hop   hashing ECMP as switches do it: each vertex divides what reaches it equally among its
//              shortest next hops. With at most max_paths shortest paths, that per-link flow is
//              decomposed exactly into weighted paths (each extracted path takes the heaviest remaining
//              next hop and the bottleneck of what remains, zeroing at least one DAG link). With more,
//              max_paths walks at the quantiles (i + o) / max_paths of the per-hop distribution carry
//              1/max_paths each (stratified: the split follows per-hop up to that granularity).
// Every path becomes one max-min variable with its weight as split (engine/maxmin/maxmin.hpp).
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/random.hpp"
#include "routing/destination_search.hpp"
#include "routing/registry.hpp"

namespace interflow::routing {

namespace {

class EcmpRouting : public DestinationSearchRouting {
 public:
  EcmpRouting(bool per_hop, std::uint32_t max_paths) : per_hop_(per_hop), max_paths_(max_paths) {}

  bool multipath() const override { return true; }

  void route_flow(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const override {
    if (f.source == f.target) {  // e.g. two endpoints on one switch: the empty path, or just the last hop
      if (append_last_hop(net, f, sink)) sink.commit(1.0);
      return;
    }
    if (!collect_dag(net, f, s)) {  // a link down in one direction only left a dead end: unroutable
      sink.drop_flow();
      return;
    }
    // Path counts beyond double range (huge meshes) cannot be ranked: per-hop walks instead.
    if (per_hop_ || !std::isfinite(s.value[0]))
      per_hop_paths(net, f, s, sink);
    else
      per_path_paths(net, f, s, sink);
  }

 private:
  // DAG vertices in s.vertices (BFS order from the source, so by decreasing distance), s.local[v] their
  // position, the DAG out-links of vertex i in s.links[s.offsets[i] .. s.offsets[i+1]), and in s.value the
  // number of DAG paths from each vertex to the target. False when a vertex other than the target has no
  // way on (only possible when a link is down in one direction but not the other).
  bool collect_dag(const Network& net, const FlowToRoute& f, SearchScratch& s) const {
    const std::uint32_t stamp = s.next_stamp();
    s.vertices.assign(1, f.source);
    s.links.clear();
    s.offsets.clear();
    s.mark[f.source] = stamp;
    s.local[f.source] = 0;
    for (std::size_t i = 0; i < s.vertices.size(); ++i) {
      const VertexId u = s.vertices[i];
      s.offsets.push_back(static_cast<std::uint32_t>(s.links.size()));
      if (u == f.target) continue;
      const std::uint32_t want = s.dist[u] - 1;
      for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
        if (!usable(net, s, l, f.target, want) || s.dist[net.target(l)] != want) continue;
        s.links.push_back(l);
        const VertexId x = net.target(l);
        if (s.mark[x] != stamp) {
          s.mark[x] = stamp;
          s.local[x] = static_cast<std::uint32_t>(s.vertices.size());
          s.vertices.push_back(x);
        }
      }
    }
    s.offsets.push_back(static_cast<std::uint32_t>(s.links.size()));
    s.value.assign(s.vertices.size(), 0.0);
    for (std::size_t i = s.vertices.size(); i-- > 0;) {
      if (s.vertices[i] == f.target) {
        s.value[i] = 1.0;
        continue;
      }
      if (s.offsets[i] == s.offsets[i + 1]) return false;
      for (std::uint32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j)
        s.value[i] += s.value[s.local[net.target(s.links[j])]];
    }
    return true;
  }

  // Follows the DAG from the source to the path of the given rank (0-based, in port order).
  void push_ranked(const Network& net, const FlowToRoute& f, const SearchScratch& s, double rank,
                   PathSink& sink) const {
    std::uint32_t i = 0;
    while (s.vertices[i] != f.target) {
      std::uint32_t j = s.offsets[i];
      for (; j + 1 < s.offsets[i + 1]; ++j) {
        const double below = s.value[s.local[net.target(s.links[j])]];
        if (rank < below) break;
        rank -= below;
      }
      sink.push(s.links[j]);
      i = s.local[net.target(s.links[j])];
    }
  }

  void per_path_paths(const Network& net, const FlowToRoute& f, const SearchScratch& s, PathSink& sink) const {
    const double paths = s.value[0];  // >= 1: collect_dag() refused dead ends
    const bool all = paths <= max_paths_;
    const double offset = all ? 0.0 : flow_offset(f);
    const std::uint32_t n = all ? static_cast<std::uint32_t>(paths) : max_paths_;
    for (std::uint32_t i = 0; i < n; ++i) {
      push_ranked(net, f, s, all ? i : std::floor((i + offset) * paths / n), sink);
      if (!append_last_hop(net, f, sink)) return;
      sink.commit(1.0 / n);
    }
  }

  void per_hop_paths(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const {
    const std::size_t n = s.vertices.size();
    if (!(s.value[0] <= max_paths_)) {  // also an infinite count
      stratified_per_hop_paths(net, f, s, sink);
      return;
    }
    // Flow of each DAG link under per-hop equal splitting (vertices come in decreasing distance).
    std::vector<double>& reach = s.value;  // path counts no longer needed
    std::fill(reach.begin(), reach.end(), 0.0);
    reach[0] = 1.0;
    s.value2.assign(s.links.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t out = s.offsets[i + 1] - s.offsets[i];
      for (std::uint32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j) {
        s.value2[j] = reach[i] / out;
        reach[s.local[net.target(s.links[j])]] += s.value2[j];
      }
    }
    // Exact decomposition into paths, heaviest next hop first; stops when (almost) nothing is left.
    constexpr double kLeft = 1e-12;
    double total = 0;
    const std::size_t first_var = sink.num_vars();
    for (std::uint32_t k = 0; k < max_paths_; ++k) {
      double bottleneck = 1.0;
      const std::size_t path_begin = n + 1;  // the path's DAG links go past the end of s.offsets
      std::uint32_t i = 0;
      while (s.vertices[i] != f.target) {
        std::uint32_t best = s.offsets[i];
        for (std::uint32_t j = s.offsets[i] + 1; j < s.offsets[i + 1]; ++j)
          if (s.value2[j] > s.value2[best]) best = j;
        if (s.value2[best] <= kLeft) break;
        bottleneck = std::min(bottleneck, s.value2[best]);
        s.offsets.push_back(best);
        i = s.local[net.target(s.links[best])];
      }
      if (s.vertices[i] != f.target || s.offsets.size() == path_begin) {  // nothing (but rounding) left
        s.offsets.resize(path_begin);
        break;
      }
      for (std::size_t j = path_begin; j < s.offsets.size(); ++j) {
        s.value2[s.offsets[j]] -= bottleneck;
        sink.push(s.links[s.offsets[j]]);
      }
      s.offsets.resize(path_begin);
      if (!append_last_hop(net, f, sink)) return;
      sink.commit(bottleneck);
      total += bottleneck;
    }
    rescale(sink, first_var, total);
  }

  // More shortest paths than max_paths: max_paths walks at the quantiles u = (i + o) / max_paths (o: flow_offset) of
  // the per-hop distribution. At a vertex with m next hops a walk at u takes next hop floor(u m) and goes on with u m -
  // floor(u m), so the walks spread over the next hops of every vertex in proportion to the per-hop split. Walks are
  // monotone in u, so equal paths are consecutive and merged; each walk carries 1/max_paths.
  void stratified_per_hop_paths(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const {
    s.path.clear();
    std::size_t last_begin = 0, last_end = 0;  // the previous walk's links in s.path
    double weight = 0;
    const auto flush = [&]() -> bool {
      if (weight == 0) return true;
      for (std::size_t j = last_begin; j < last_end; ++j) sink.push(s.path[j]);
      if (!append_last_hop(net, f, sink)) return false;
      sink.commit(weight);
      return true;
    };
    const double offset = flow_offset(f);
    for (std::uint32_t k = 0; k < max_paths_; ++k) {
      double u = (k + offset) / max_paths_;
      const std::size_t begin = s.path.size();
      for (std::uint32_t i = 0; s.vertices[i] != f.target;) {
        const std::uint32_t out = s.offsets[i + 1] - s.offsets[i];
        const auto pick = std::min(out - 1, static_cast<std::uint32_t>(u * out));
        u = u * out - pick;
        const LinkId l = s.links[s.offsets[i] + pick];
        s.path.push_back(l);
        i = s.local[net.target(l)];
      }
      if (weight > 0 && std::equal(s.path.begin() + static_cast<std::ptrdiff_t>(begin), s.path.end(),
                                   s.path.begin() + static_cast<std::ptrdiff_t>(last_begin),
                                   s.path.begin() + static_cast<std::ptrdiff_t>(last_end))) {
        s.path.resize(begin);  // the same path as the previous walk
        weight += 1.0 / max_paths_;
        continue;
      }
      if (!flush()) return;
      last_begin = begin;
      last_end = s.path.size();
      weight = 1.0 / max_paths_;
    }
    flush();
  }

  // A flow's own offset in [0, 1) for the capped cases: the quantiles (i + offset) / max_paths differ from
  // flow to flow, so that flows do not all pick the same subset of paths (in a fat tree, the same
  // max_paths core switches).
  static double flow_offset(const FlowToRoute& f) {
    return Rng(derive_seed(f.seed, Stream::Routing, f.flow)).uniform();
  }

  // Divides the splits of the flow's variables from first_var by their total (a capped decomposition).
  static void rescale(PathSink& sink, std::size_t first_var, double total) {
    if (total > 0 && std::abs(total - 1.0) > 1e-9) sink.rescale_splits(first_var, 1.0 / total);
  }

  bool per_hop_;
  std::uint32_t max_paths_;
};

}  // namespace

void register_ecmp(RoutingRegistry& registry) {
  registry.add(
      {"ecmp",
       "every shortest path of a flow, load balanced per hop (hashing ECMP) or per path, for any topology",
       {choice_param("mode", "hop", {"hop", "path"},
                     "hop = each vertex splits equally among its shortest next hops (as hashing switches do); path = "
                     "equal split over the shortest paths"),
        int_param("max_paths", "64", "most paths (max-min variables) per flow", 1, 1 << 16)},
       [](const ParamSet& p, const Topology&) -> std::unique_ptr<Routing> {
         return std::make_unique<EcmpRouting>(p.get_string("mode") == "hop",
                                              static_cast<std::uint32_t>(p.get_int("max_paths")));
       },
       "Equal-cost multipath on the shortest-path DAG (links u -> x with dist(x) = dist(u) - 1, distances in "
       "links to the destination's attachment vertex, shared by every flow to it as for 'bfs'), computed "
       "without listing the paths. mode=path: each of the P shortest paths carries 1/P (P by dynamic "
       "programming); with P > max_paths, max_paths paths evenly spread over the port-ordered list of all "
       "paths (ranks (i + o) P / max_paths, o in [0, 1) drawn per flow from the run seed) carry 1/max_paths each. "
       "mode=hop: each vertex divides what "
       "reaches it equally among its shortest next hops. With at most max_paths shortest paths that per-link "
       "flow is decomposed exactly into weighted paths (heaviest remaining next hop, bottleneck weight). With "
       "more, max_paths walks at the quantiles (i + o) / max_paths of the per-hop distribution (at a vertex "
       "with m next hops a walk at u takes next hop floor(u m) and goes on with u m - floor(u m)) carry "
       "1/max_paths each, equal walks merged: the split of every vertex follows per-hop up to the 1/max_paths "
       "granularity. In "
       "symmetric networks (fat trees) both modes coincide. Each path is one max-min variable weighted by "
       "its split; the flow's rate is the sum of its paths' rates. Failed links are avoided; a flow with no "
       "remaining path is unroutable. Cost per flow: O(DAG links + paths x length)."});
}

}  // namespace interflow::routing
