// KSP and AllPath-d for any topology: simple paths listed shortest first by a bounded depth-first
// enumeration guided by the per-destination distance tables of routing/destination_search.hpp.
//
// With unit link costs, the simple paths of exactly L links from s to t are listed in port order by a
// depth-first search that only steps to a vertex x when dist(x) <= links left - 1 (so it never follows a
// branch that cannot reach t in time) and never revisits a vertex of the current path. Taking L =
// dist(s), dist(s) + 1, ... in turn gives the paths in order of length, ties in that order:
//   ksp      the first k of them, i.e. the k shortest simple paths (what Yen's algorithm gives with unit
//            costs, in a fixed tie order), looking at most max_extra links past the shortest;
//            tie=spread (default) rotates each vertex's port order per flow, so that flows with many
//            equally short paths (fat trees) do not all take the lowest ports;
//            disjoint=true keeps only paths sharing no cable with a path kept before (greedy, in that
//            order).
//   allpath  every simple path of at most dist(s) + d links, at most max_paths of them (shortest first).
// Splits: equal, or weighted by 1/length (shorter paths carry more). Each path is one max-min variable.
// Work is bounded: a flow's search stops after kMaxSteps link visits with the paths found so far.
#include <algorithm>
#include <memory>

#include "core/random.hpp"
#include "routing/destination_search.hpp"
#include "routing/registry.hpp"

namespace interflow::routing {

namespace {

struct EnumerationOptions {
  std::uint32_t max_paths;  // paths per flow
  std::uint32_t max_extra;  // links beyond the shortest
  bool disjoint;            // cable-disjoint paths only
  bool length_weighted;     // split 1/length instead of equal
  bool spread;              // ties in a per-flow rotated port order instead of port order
};

class PathEnumerationRouting : public DestinationSearchRouting {
 public:
  explicit PathEnumerationRouting(const EnumerationOptions& o) : o_(o) {}

  bool multipath() const override { return true; }
  std::uint32_t extra_levels() const override { return o_.max_extra; }

  static constexpr std::uint64_t kMaxSteps = 1ULL << 22;

  void route_flow(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const override {
    // Found paths: links in s.links, path i = s.links[s.offsets[i] .. s.offsets[i+1]).
    s.links.clear();
    s.offsets.assign(1, 0);
    s.path.clear();  // the current path's links
    const std::uint32_t stamp = s.next_stamp();
    Search search{net, f, s, stamp, 0, o_.spread ? derive_seed(f.seed, Stream::Routing, f.flow) : 0};
    s.mark[f.source] = stamp;
    for (std::uint32_t extra = 0; extra <= o_.max_extra && found(s) < o_.max_paths && search.steps < kMaxSteps; ++extra)
      descend(search, s.dist[f.source] + extra);
    s.mark[f.source] = 0;
    emit(net, f, s, sink);
  }

 private:
  struct Search {
    const Network& net;
    const FlowToRoute& f;
    SearchScratch& s;
    std::uint32_t stamp;
    std::uint64_t steps;
    std::uint64_t rotation_seed;  // 0: plain port order
  };

  static std::size_t found(const SearchScratch& s) { return s.offsets.size() - 1; }

  // Lists the simple paths from the source that reach the target in exactly `length` links; false once
  // enough paths were found or the step budget is spent. Depth-first with an explicit stack (paths may be
  // far longer than a thread's stack could recurse): each frame is a vertex of the current path, its
  // out-links taken in port order, rotated by a per-flow, per-vertex amount with tie=spread so that flows
  // with many equally short paths do not all take the lowest ports.
  bool descend(Search& q, std::uint32_t length) const {
    SearchScratch& s = q.s;
    const VertexId target = q.f.target;
    if (q.f.source == target) {
      if (length == 0) keep_current(q);
      return found(s) < o_.max_paths;
    }
    auto& frames = s.frames;
    frames.clear();
    const auto open = [&](VertexId u, std::uint32_t left) {
      const LinkId first = q.net.out_begin(u), degree = q.net.out_end(u) - first;
      const LinkId rotate =
          q.rotation_seed == 0 || degree == 0 ? 0 : static_cast<LinkId>(mix64(q.rotation_seed ^ u) % degree);
      frames.push_back({u, first, degree, rotate, 0, left});
    };
    const auto unwind = [&] {  // unmarks the path's vertices (not the source) and empties it
      for (std::size_t i = 1; i < frames.size(); ++i) s.mark[frames[i].vertex] = 0;
      frames.clear();
      s.path.clear();
    };
    if (length > 0) open(q.f.source, length);
    while (!frames.empty()) {
      DfsFrame& top = frames.back();
      if (top.next == top.degree) {  // every out-link tried: back up one vertex
        if (frames.size() > 1) {
          s.mark[top.vertex] = 0;
          s.path.pop_back();
        }
        frames.pop_back();
        continue;
      }
      const LinkId l = top.first + (top.next++ + top.rotate) % top.degree;
      const std::uint32_t left = top.left - 1;
      if (++q.steps > kMaxSteps) {
        unwind();
        return false;
      }
      const VertexId x = q.net.target(l);
      if (!usable(q.net, s, l, target, left) || s.mark[x] == q.stamp) continue;
      if (x == target) {  // a path ends here (a simple path cannot pass through its end)
        if (left > 0) continue;
        s.path.push_back(l);
        keep_current(q);
        s.path.pop_back();
        if (found(s) >= o_.max_paths) {
          unwind();
          return false;
        }
        continue;
      }
      if (left == 0) continue;
      s.mark[x] = q.stamp;
      s.path.push_back(l);
      open(x, left);
    }
    return true;
  }

  // Keeps the current path unless it must be cable-disjoint from the kept ones and is not. A single-homed
  // source endpoint's cable is shared by every path and left out of the comparison (the destination's
  // last hop is added later and never compared).
  void keep_current(Search& q) const {
    SearchScratch& s = q.s;
    if (o_.disjoint) {
      const bool access = q.net.kind(q.f.source) == VertexKind::Endpoint && q.net.degree(q.f.source) == 1;
      for (std::size_t i = access ? 1 : 0; i < s.path.size(); ++i) {
        const LinkId l = s.path[i], back = q.net.reverse(l);
        for (LinkId k : s.links)
          if (k == l || k == back) return;
      }
    }
    s.links.insert(s.links.end(), s.path.begin(), s.path.end());
    s.offsets.push_back(static_cast<std::uint32_t>(s.links.size()));
  }

  void emit(const Network& net, const FlowToRoute& f, const SearchScratch& s, PathSink& sink) const {
    const std::size_t n = found(s);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) total += weight(s, i, net, f);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::uint32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j) sink.push(s.links[j]);
      if (!append_last_hop(net, f, sink)) return;
      sink.commit(weight(s, i, net, f) / total);
    }
  }

  double weight(const SearchScratch& s, std::size_t i, const Network&, const FlowToRoute& f) const {
    if (!o_.length_weighted) return 1.0;
    const double length = s.offsets[i + 1] - s.offsets[i] + (f.destination != f.target ? 1.0 : 0.0);
    return 1.0 / std::max(1.0, length);
  }

  EnumerationOptions o_;
};

ParamSpec tie_param() {
  return choice_param("tie", "spread", {"spread", "port"},
                      "order among paths of equal length: spread = port order rotated per flow and vertex (flows "
                      "with many equal paths spread over them); port = plain port order");
}

ParamSpec split_param() {
  return choice_param("split", "equal", {"equal", "length"},
                      "how a flow is divided among its paths: equal, or in proportion to 1/length (links)");
}

}  // namespace

void register_path_enumeration(RoutingRegistry& registry) {
  const std::string common =
      " Paths come from a depth-first enumeration of simple paths of exactly L links for L = shortest, "
      "shortest + 1, ..., stepping only to vertices whose distance to the destination's attachment vertex fits "
      "in the links left (distances from one breadth-first search per attachment vertex, shared by its flows, as "
      "for 'bfs'); among paths of equal length, tie=spread (default) takes the out-links of every vertex in port "
      "order rotated by an amount drawn from the flow's seed and the vertex, tie=port in plain port order. Each path "
      "is one max-min variable weighted by its split, and the flow's "
      "rate is the sum of its paths' rates. split=equal gives every path the same share, split=length a share "
      "proportional to 1/links. Failed links are avoided; a flow with no path is unroutable. A flow's "
      "enumeration stops after 2^22 link visits, keeping the paths found so far.";
  registry.add(
      {"ksp",
       "the k shortest simple paths of every flow, for any topology",
       {int_param("k", "8", "paths per flow", 1, 1 << 16),
        int_param("max_extra", "4", "look at paths at most this many links longer than the shortest", 0, 64),
        bool_param("disjoint", "false", "keep only paths that share no cable with a path kept before (greedy)"),
        split_param(), tie_param()},
       [](const ParamSet& p, const Topology&) -> std::unique_ptr<Routing> {
         return std::make_unique<PathEnumerationRouting>(EnumerationOptions{
             static_cast<std::uint32_t>(p.get_int("k")), static_cast<std::uint32_t>(p.get_int("max_extra")),
             p.get_bool("disjoint"), p.get_string("split") == "length", p.get_string("tie") == "spread"});
       },
       "K shortest simple paths with unit link costs: the first k simple paths in order of length (the set "
       "Yen's algorithm gives; ties in the order set by `tie`), among paths at most max_extra links longer "
       "than the shortest; fewer when fewer exist. disjoint=true keeps, in that order, only paths sharing no "
       "cable with a path already kept." +
           common});
  registry.add({"allpath",
                "every simple path at most d links longer than the shortest (AllPath-d), for any topology",
                {int_param("d", "2", "extra links allowed beyond the shortest path", 0, 64),
                 int_param("max_paths", "64", "most paths per flow (the shortest ones are kept)", 1, 1 << 16),
                 split_param(), tie_param()},
                [](const ParamSet& p, const Topology&) -> std::unique_ptr<Routing> {
                  return std::make_unique<PathEnumerationRouting>(EnumerationOptions{
                      static_cast<std::uint32_t>(p.get_int("max_paths")), static_cast<std::uint32_t>(p.get_int("d")),
                      false, p.get_string("split") == "length", p.get_string("tie") == "spread"});
                },
                "AllPath-d: every simple path of at most shortest + d links, capped at max_paths per flow (shortest "
                "first, ties in the order set by `tie`)." +
                    common});
}

}  // namespace interflow::routing
