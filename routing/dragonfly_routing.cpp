// Routings for the 1-D dragonfly (topologies/dragonfly.hpp; Kim, Dally, Scott & Abts, ISCA 2008, §4):
//   dfmin      minimal: local hop to the source-group router holding a global link to the destination
//              group, the global hop, local hop to the destination router (at most 3 router hops);
//   dfvaliant  Valiant: minimal to a random intermediate group, then minimal to the destination
//              (at most 5 router hops);
//   dfugal     UGAL-style choice per flow between the minimal path and the flow's Valiant path,
//              from the number of paths already placed on their links (flows in index order).
// Link ids come from the dragonfly's dense port layout, never searched.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/dragonfly.hpp"

namespace interflow::routing {

namespace {

using topo::DragonflyTopology;

// A whole flow path: at most 2 endpoint links + 5 router hops.
struct DragonflyPath {
  std::array<LinkId, 8> links{};
  std::uint32_t size = 0;
  void push(LinkId l) { links[size++] = l; }
};

enum class Tie { Lowest, Random };

class DragonflyPaths {
 public:
  DragonflyPaths(const DragonflyTopology& df, Tie tie) : df_(df), tie_(tie) {}

  // The global port of group `from` towards group `to` for a flow now at router `at` (in group
  // `from`) heading for router `dest` (in group `to`, or kNone when any router of `to` will do):
  // the one needing fewest local hops (held by `at`: one fewer; landing on `dest`: one fewer);
  // ties to the lowest port, or uniformly from the flow's stream with Tie::Random.
  std::uint32_t choose_global(std::uint32_t from, std::uint32_t to, std::uint32_t at, std::uint32_t dest,
                              Rng& rng) const {
    const std::uint32_t k = df_.links_per_group_pair();
    if (k == 1) return df_.port_to_group(from, to, 0);
    std::uint32_t best_cost = 3, candidates = 0, chosen = kNone;
    for (int pass = 0; pass < 2; ++pass) {
      std::uint64_t pick = pass == 1 && tie_ == Tie::Random ? rng.below(candidates) : 0;
      for (std::uint32_t m = 0; m < k; ++m) {
        const std::uint32_t j = df_.port_to_group(from, to, m);
        const std::uint32_t cost = local_hops(from, j, to, at, dest);
        if (pass == 0) {
          if (cost < best_cost) {
            best_cost = cost;
            candidates = 0;
            chosen = j;
          }
          candidates += cost == best_cost;
        } else if (cost == best_cost && pick-- == 0) {
          return j;
        }
      }
      if (tie_ == Tie::Lowest || candidates == 1) break;
    }
    return chosen;
  }

  // Minimal router path from router `from` to router `to`.
  void minimal(std::uint32_t from, std::uint32_t to, Rng& rng, DragonflyPath& path) const {
    if (from == to) return;
    const std::uint32_t gf = df_.group_of_router(from), gt = df_.group_of_router(to);
    if (gf == gt) {
      path.push(df_.local_link(from, to));
      return;
    }
    const std::uint32_t landing = global_hop(gf, gt, from, choose_global(gf, gt, from, to, rng), path);
    if (landing != to) path.push(df_.local_link(landing, to));
  }

  // Minimal from router `from` to any router of group `to` (!= its own); returns the router reached.
  std::uint32_t to_group(std::uint32_t from, std::uint32_t to, Rng& rng, DragonflyPath& path) const {
    const std::uint32_t gf = df_.group_of_router(from);
    return global_hop(gf, to, from, choose_global(gf, to, from, kNone, rng), path);
  }

  // Whether flow src -> dst has a Valiant detour: different groups and a third group to go through.
  bool has_detour(EndpointId src, EndpointId dst) const {
    return df_.g() >= 3 && df_.group_of_router(df_.router_of(src)) != df_.group_of_router(df_.router_of(dst));
  }

  void minimal_flow(EndpointId src, EndpointId dst, std::uint64_t flow_seed, DragonflyPath& path) const {
    Rng rng(flow_seed);
    path.push(df_.endpoint_link(src));
    minimal(df_.router_of(src), df_.router_of(dst), rng, path);
    path.push(df_.down_link(dst));
  }

  // The minimal flow path through the m-th of the k global links joining the two groups (different).
  void minimal_flow_via(EndpointId src, EndpointId dst, std::uint32_t m, DragonflyPath& path) const {
    const std::uint32_t rs = df_.router_of(src), rd = df_.router_of(dst);
    const std::uint32_t gs = df_.group_of_router(rs), gd = df_.group_of_router(rd);
    path.push(df_.endpoint_link(src));
    const std::uint32_t landing = global_hop(gs, gd, rs, df_.port_to_group(gs, gd, m), path);
    if (landing != rd) path.push(df_.local_link(landing, rd));
    path.push(df_.down_link(dst));
  }
  bool same_group(EndpointId src, EndpointId dst) const {
    return df_.group_of_router(df_.router_of(src)) == df_.group_of_router(df_.router_of(dst));
  }

  // Valiant: intermediate group uniform among the g-2 groups other than the source's and the
  // destination's, drawn first from the flow's stream; flows without a detour route minimally.
  void valiant_flow(EndpointId src, EndpointId dst, std::uint64_t flow_seed, DragonflyPath& path) const {
    if (!has_detour(src, dst)) return minimal_flow(src, dst, flow_seed, path);
    Rng rng(flow_seed);
    const std::uint32_t rs = df_.router_of(src), rd = df_.router_of(dst);
    const std::uint32_t gs = df_.group_of_router(rs), gd = df_.group_of_router(rd);
    auto mid = static_cast<std::uint32_t>(rng.below(df_.g() - 2));
    const std::uint32_t low = gs < gd ? gs : gd, high = gs < gd ? gd : gs;
    if (mid >= low) ++mid;
    if (mid >= high) ++mid;
    path.push(df_.endpoint_link(src));
    const std::uint32_t at = to_group(rs, mid, rng, path);
    minimal(at, rd, rng, path);
    path.push(df_.down_link(dst));
  }

 private:
  // Local hops a path via global port j of group `from` needs around it.
  std::uint32_t local_hops(std::uint32_t from, std::uint32_t j, std::uint32_t to, std::uint32_t at,
                           std::uint32_t dest) const {
    const std::uint32_t owner = from * df_.a() + j / df_.h();
    const std::uint32_t landing = to * df_.a() + df_.peer_port(from, j) / df_.h();
    return (owner != at ? 1u : 0u) + (dest != kNone && landing != dest ? 1u : 0u);
  }

  // Local hop to the owner of global port j (if needed) and the global hop; returns the landing router.
  std::uint32_t global_hop(std::uint32_t from, std::uint32_t to, std::uint32_t at, std::uint32_t j,
                           DragonflyPath& path) const {
    const std::uint32_t owner = from * df_.a() + j / df_.h();
    if (owner != at) path.push(df_.local_link(at, owner));
    path.push(df_.global_link(from, j));
    return to * df_.a() + df_.peer_port(from, j) / df_.h();
  }

  const DragonflyTopology& df_;
  Tie tie_;
};

bool emit(const Network& net, const DragonflyPath& path, PathSink& sink) {
  for (std::uint32_t i = 0; i < path.size; ++i)
    if (!push_or_drop(net, path.links[i], sink)) return false;
  sink.commit(1.0);
  return true;
}

// Every parallel global link of a minimal route as its own path, equal split over those whose links are
// all up (dfmin:global=all).
void emit_all_globals(const Network& net, const DragonflyPaths& paths, std::uint32_t k, EndpointId src, EndpointId dst,
                      PathSink& sink) {
  std::uint32_t usable = 0;
  for (std::uint32_t m = 0; m < k; ++m) {
    DragonflyPath path;
    paths.minimal_flow_via(src, dst, m, path);
    usable += std::all_of(path.links.begin(), path.links.begin() + path.size, [&](LinkId l) { return net.up(l); });
  }
  for (std::uint32_t m = 0; m < k; ++m) {
    DragonflyPath path;
    paths.minimal_flow_via(src, dst, m, path);
    if (!std::all_of(path.links.begin(), path.links.begin() + path.size, [&](LinkId l) { return net.up(l); })) continue;
    for (std::uint32_t i = 0; i < path.size; ++i) sink.push(path.links[i]);
    sink.commit(1.0 / usable);
  }
}

class DragonflyPerFlow : public PerFlowRouting {
 public:
  DragonflyPerFlow(const DragonflyTopology& df, Tie tie, bool valiant, bool all_globals = false)
      : paths_(df, tie), valiant_(valiant), all_globals_(all_globals), k_(df.links_per_group_pair()) {}

  bool multipath() const override { return all_globals_ && k_ > 1; }

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    if (all_globals_ && !paths_.same_group(src, dst)) return emit_all_globals(net, paths_, k_, src, dst, sink);
    DragonflyPath path;
    if (valiant_)
      paths_.valiant_flow(src, dst, flow_seed, path);
    else
      paths_.minimal_flow(src, dst, flow_seed, path);
    emit(net, path, sink);
  }

 private:
  DragonflyPaths paths_;
  bool valiant_, all_globals_;
  std::uint32_t k_;
};

// UGAL in the static engine: flows in index order, one at a time (sequential, so the table never
// depends on the thread count). Each flow compares (most paths already placed on one of the
// path's links + 1) x (links in the path) of its minimal and its Valiant path (both exactly as
// dfmin and dfvaliant would route it with the same seed), takes Valiant only when strictly
// cheaper, and adds its path to the link counts.
class DragonflyUgal : public LoadAwareRouting {
 public:
  DragonflyUgal(const DragonflyTopology& df, Tie tie) : paths_(df, tie) {}

  void route(const Network& net, EndpointId s, EndpointId d, std::uint64_t seed, std::span<const std::uint32_t> placed,
             PathSink& sink) const override {
    DragonflyPath minimal, detour;
    paths_.minimal_flow(s, d, seed, minimal);
    const DragonflyPath* chosen = &minimal;
    if (paths_.has_detour(s, d)) {
      paths_.valiant_flow(s, d, seed, detour);
      if (cost(net, detour, placed) < cost(net, minimal, placed)) chosen = &detour;
    }
    if (cost(net, *chosen, placed) != kUnusable) emit(net, *chosen, sink);
  }

 private:
  static constexpr std::uint64_t kUnusable = ~0ULL;

  // (max paths on a link of the path + 1) x length; kUnusable when a link is down.
  static std::uint64_t cost(const Network& net, const DragonflyPath& path, std::span<const std::uint32_t> placed) {
    std::uint32_t most = 0;
    for (std::uint32_t i = 0; i < path.size; ++i) {
      if (!net.up(path.links[i])) return kUnusable;
      // The endpoint links (first and last) are common to both candidates: only router links count.
      if (i > 0 && i + 1 < path.size) most = std::max(most, placed[path.links[i]]);
    }
    return (std::uint64_t{most} + 1) * path.size;
  }

  DragonflyPaths paths_;
};

ParamSpec tie_param() {
  return choice_param("tie", "lowest", {"lowest", "random"},
                      "which global link to take when k = a*h/(g-1) > 1 links join the two groups and several "
                      "need the fewest local hops: lowest = the lowest global port of the group (lowest router, "
                      "then lowest port); random = uniformly, from the flow's own seeded stream");
}

Tie tie_of(const ParamSet& p) { return p.get_string("tie") == "random" ? Tie::Random : Tie::Lowest; }

const char* const kCommon =
    " A global link between groups G and T is chosen among the k = a*h/(g-1) joining them as the one needing "
    "the fewest local hops (held by the current router: no hop before it; landing on the destination router: "
    "no hop after it), ties broken by `tie`. A single path with split 1. Kim, Dally, Scott & Abts, ISCA 2008, "
    "section 4.";
const char* const kNoDetour = " A flow whose path crosses a failed link is unroutable (no alternative is tried).";

}  // namespace

void register_dragonfly_routing(RoutingRegistry& registry) {
  registry.add(
      {"dfmin",
       "dragonfly minimal routing: local, global, local (at most 3 router hops)",
       {tie_param(), choice_param("global", "best", {"best", "all"},
                                  "best = one path over the global link needing the fewest local hops; all = one "
                                  "path per parallel global link between the two groups, equal split (multipath)")},
       [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
         const auto& df = require_family<DragonflyTopology>(t, "dfmin", "dragonfly");
         return std::make_unique<DragonflyPerFlow>(df, tie_of(p), false, p.get_string("global") == "all");
       },
       std::string("Same router: endpoint link in, endpoint link out. Same group: one local hop. Otherwise "
                   "a local hop to the source-group router holding the chosen global link to the "
                   "destination group (if it is not the source router), the global hop, and a local hop "
                   "to the destination router (if the link lands elsewhere): at most 3 router-to-router "
                   "links plus the 2 endpoint links. With global=all a flow between groups gets one such "
                   "path through each of the k parallel global links joining the two groups (each with its "
                   "own local hops), split equally among those whose links are up; it is unroutable only "
                   "when all k are cut. Each path is one max-min variable; the flow's rate is their sum.") +
           kCommon + kNoDetour});
  registry.add({"dfvaliant",
                "dragonfly Valiant routing: minimal to a random intermediate group, then minimal to the destination",
                {tie_param()},
                [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
                  const auto& df = require_family<DragonflyTopology>(t, "dfvaliant", "dragonfly");
                  return std::make_unique<DragonflyPerFlow>(df, tie_of(p), true);
                },
                std::string("The intermediate group is drawn uniformly among the g-2 groups other than the source's "
                            "and the destination's, from the flow's own stream (derive_seed(run seed, routing "
                            "stream, flow index)), so the same seed gives the same paths for any thread count. The "
                            "flow goes minimally to whichever router of that group its chosen global link lands on, "
                            "then minimally to the destination: at most 5 router hops (local, global, local, "
                            "global, local) plus 2 endpoint links. Flows inside one group, and every flow when g = "
                            "2, route minimally.") +
                    kCommon + kNoDetour});
  registry.add({"dfugal",
                "dragonfly UGAL-style adaptive routing: per flow, minimal or Valiant by the paths already placed",
                {tie_param()},
                [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
                  const auto& df = require_family<DragonflyTopology>(t, "dfugal", "dragonfly");
                  return std::make_unique<DragonflyUgal>(df, tie_of(p));
                },
                std::string("A static stand-in for UGAL (Singh 2005; Kim et al. 2008 section 4.2). Flows are routed "
                            "one at a time in flow-index order, keeping a count per directed link of the paths "
                            "already placed on it. For each flow the candidates are its dfmin path and its "
                            "dfvaliant path (exactly as those routings give them for the same run seed); each costs "
                            "(largest count on one of its router-to-router links + 1) x (its number of links); the "
                            "endpoint links, common to both, are left out of the count. Valiant is taken only when "
                            "strictly cheaper (ties to minimal). The "
                            "chosen path's links then count one more path. Flows without a detour (same group, or "
                            "g = 2) route minimally; a candidate crossing a failed link is not used. The routing is "
                            "sequential, so its result never depends on the thread count, but it depends on the "
                            "order of the flows.") +
                    kCommon});
}

}  // namespace interflow::routing
