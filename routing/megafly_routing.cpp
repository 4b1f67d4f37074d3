// Routings for the megafly / dragonfly+ (topologies/megafly.hpp).
//   mfmin      minimal: source leaf -> a spine of the source group holding one of the m global links to
//              the destination group -> that link -> the spine it lands on -> destination leaf. Inside
//              one group: leaf -> any spine -> leaf. At most 5 links (3 router-to-router hops).
//   mfvaliant  Valiant (Valiant & Brebner 1981, as used on dragonflies by Kim et al. 2008): minimal to a
//              random intermediate group, then minimal to the destination; in the intermediate group the
//              path turns at a leaf when the spine it lands on has no link to the destination group.
//              At most 8 links.
//   mfugal     UGAL-style per-flow choice between the two from the links' current loads.
// Link ids are computed from the dense port layout of MegaflyTopology, never searched.
#include <algorithm>
#include <array>
#include <vector>

#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/megafly.hpp"

namespace interflow::routing {

namespace {

enum class Parallel { Destination, Random };

// A path of at most 8 links, built on the stack.
struct ShortPath {
  std::array<LinkId, 8> links{};
  std::uint32_t length = 0;
  void add(LinkId l) { links[length++] = l; }
  bool usable(const Network& net) const {
    for (std::uint32_t i = 0; i < length; ++i)
      if (!net.up(links[i])) return false;
    return true;
  }
};

class MegaflyPaths {
 public:
  MegaflyPaths(const topo::MegaflyTopology& mf, Parallel parallel) : mf_(mf), parallel_(parallel) {}

  // Minimal path; `rng` is the flow's own stream (used with parallel=random only).
  ShortPath minimal(const Network& net, EndpointId src, EndpointId dst, Rng& rng) const {
    const std::uint32_t n = parallel_choices(src, dst);
    return minimal_via(net, src, dst, n > 1 ? pick(dst, n, rng) : 0);
  }

  // How many minimal paths a flow has: the spines between two leaves of a group, the m parallel global
  // links between groups, 1 on one leaf.
  std::uint32_t parallel_choices(EndpointId src, EndpointId dst) const {
    if (mf_.group_of(src) != mf_.group_of(dst)) return mf_.links_per_pair();
    return mf_.leaf_in_group(src) != mf_.leaf_in_group(dst) ? mf_.spines() : 1;
  }

  // The minimal path through parallel choice `c` (< parallel_choices): the spine inside a group, the
  // copy of the global links between groups.
  ShortPath minimal_via(const Network& net, EndpointId src, EndpointId dst, std::uint32_t c) const {
    ShortPath path;
    path.add(mf_.injection_link(net, src));
    const std::uint32_t from = mf_.group_of(src), to = mf_.group_of(dst);
    const std::uint32_t src_leaf = mf_.leaf_in_group(src), dst_leaf = mf_.leaf_in_group(dst);
    if (from == to) {
      if (src_leaf != dst_leaf) {
        path.add(mf_.leaf_to_spine(net, from, src_leaf, c));
        path.add(mf_.spine_to_leaf(net, from, c, dst_leaf));
      }
    } else {
      const std::uint32_t spine = cross(net, from, src_leaf, to, c, path);
      path.add(mf_.spine_to_leaf(net, to, spine, dst_leaf));
    }
    path.add(mf_.leaf_to_endpoint(net, dst));
    return path;
  }

  // Valiant path through `via`, a group other than both endpoints' groups.
  ShortPath valiant(const Network& net, EndpointId src, EndpointId dst, std::uint32_t via, Rng& rng) const {
    ShortPath path;
    path.add(mf_.injection_link(net, src));
    const std::uint32_t from = mf_.group_of(src), to = mf_.group_of(dst);
    const std::uint32_t m = mf_.links_per_pair();
    const std::uint32_t landed = cross(net, from, mf_.leaf_in_group(src), via, pick(dst, m, rng), path);
    const std::uint32_t copy = pick(dst, m, rng);
    const std::uint32_t port = mf_.group_port_toward(via, to, copy);
    const std::uint32_t onward = port / mf_.global_per_spine();
    if (onward != landed) {  // spines are not joined to each other: turn at a leaf of the group
      const std::uint32_t leaf = pick(dst, mf_.leaves(), rng);
      path.add(mf_.spine_to_leaf(net, via, landed, leaf));
      path.add(mf_.leaf_to_spine(net, via, leaf, onward));
    }
    path.add(mf_.global_link(net, via, port));
    const std::uint32_t back = mf_.group_port_toward(to, via, copy);
    path.add(mf_.spine_to_leaf(net, to, back / mf_.global_per_spine(), mf_.leaf_in_group(dst)));
    path.add(mf_.leaf_to_endpoint(net, dst));
    return path;
  }

  // The intermediate group of a Valiant path, uniform over the groups other than src's and dst's;
  // kNone when there is none (intra-group flows, or only two groups): such flows go minimally.
  std::uint32_t intermediate(EndpointId src, EndpointId dst, Rng& rng) const {
    const std::uint32_t a = mf_.group_of(src), b = mf_.group_of(dst);
    if (a == b || mf_.groups() < 3) return kNone;
    std::uint32_t via = static_cast<std::uint32_t>(rng.below(mf_.groups() - 2));
    const std::uint32_t low = a < b ? a : b, high = a < b ? b : a;
    if (via >= low) ++via;
    if (via >= high) ++via;
    return via;
  }

  // Path the given flow would take under Valiant (minimal when no intermediate group exists).
  ShortPath valiant_or_minimal(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed) const {
    Rng rng(flow_seed);
    const std::uint32_t via = intermediate(src, dst, rng);
    return via == kNone ? minimal(net, src, dst, rng) : valiant(net, src, dst, via, rng);
  }

 private:
  // leaf -> spine holding copy `copy` of the links toward `to` -> across; returns the spine landed on.
  std::uint32_t cross(const Network& net, std::uint32_t from, std::uint32_t leaf, std::uint32_t to, std::uint32_t copy,
                      ShortPath& path) const {
    const std::uint32_t port = mf_.group_port_toward(from, to, copy);
    path.add(mf_.leaf_to_spine(net, from, leaf, port / mf_.global_per_spine()));
    path.add(mf_.global_link(net, from, port));
    return mf_.group_port_toward(to, from, copy) / mf_.global_per_spine();
  }

  std::uint32_t pick(EndpointId dst, std::uint32_t choices, Rng& rng) const {
    return parallel_ == Parallel::Destination ? dst % choices : static_cast<std::uint32_t>(rng.below(choices));
  }

  const topo::MegaflyTopology& mf_;
  Parallel parallel_;
};

void emit(const Network& net, const ShortPath& path, PathSink& sink) {
  if (!path.usable(net)) {
    sink.drop_flow();
    return;
  }
  for (std::uint32_t i = 0; i < path.length; ++i) sink.push(path.links[i]);
  sink.commit(1.0);
}

class MegaflyMinimal : public PerFlowRouting {
 public:
  MegaflyMinimal(const topo::MegaflyTopology& mf, Parallel parallel, bool all = false)
      : paths_(mf, parallel), all_(all) {}
  bool multipath() const override { return all_; }
  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    if (all_) return emit_all(net, src, dst, sink);
    Rng rng(flow_seed);
    emit(net, paths_.minimal(net, src, dst, rng), sink);
  }

 private:
  // Every parallel minimal path, equal split over those whose links are all up.
  void emit_all(const Network& net, EndpointId src, EndpointId dst, PathSink& sink) const {
    const std::uint32_t n = paths_.parallel_choices(src, dst);
    std::uint32_t usable = 0;
    for (std::uint32_t c = 0; c < n; ++c) usable += paths_.minimal_via(net, src, dst, c).usable(net);
    for (std::uint32_t c = 0; c < n; ++c) {
      const ShortPath path = paths_.minimal_via(net, src, dst, c);
      if (!path.usable(net)) continue;
      for (std::uint32_t i = 0; i < path.length; ++i) sink.push(path.links[i]);
      sink.commit(1.0 / usable);
    }
  }

  MegaflyPaths paths_;
  bool all_;
};

class MegaflyValiant : public PerFlowRouting {
 public:
  MegaflyValiant(const topo::MegaflyTopology& mf, Parallel parallel) : paths_(mf, parallel) {}
  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    emit(net, paths_.valiant_or_minimal(net, src, dst, flow_seed), sink);
  }

 private:
  MegaflyPaths paths_;
};

// Flows are placed one by one in flow-index order; each takes its Valiant path only when that path's
// cost (largest count of already placed paths on one of its router-to-router links, times its
// length in links) is strictly below the minimal path's. Sequential, hence independent of the
// thread count.
class MegaflyUgal : public LoadAwareRouting {
 public:
  MegaflyUgal(const topo::MegaflyTopology& mf, Parallel parallel) : paths_(mf, parallel) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t seed,
             std::span<const std::uint32_t> load, PathSink& sink) const override {
    Rng rng(seed);
    const ShortPath minimal = paths_.minimal(net, src, dst, rng);
    const ShortPath detour = paths_.valiant_or_minimal(net, src, dst, seed);
    const bool minimal_ok = minimal.usable(net), detour_ok = detour.usable(net);
    const bool take_detour = detour_ok && (!minimal_ok || cost(detour, load) < cost(minimal, load));
    if (!take_detour && !minimal_ok) return;
    const ShortPath& chosen = take_detour ? detour : minimal;
    for (std::uint32_t i = 0; i < chosen.length; ++i) sink.push(chosen.links[i]);
    sink.commit(1.0);
  }

 private:
  // The first and last links are the endpoints' own, shared by both candidates: left out.
  static std::uint64_t cost(const ShortPath& path, std::span<const std::uint32_t> load) {
    std::uint32_t worst = 0;
    for (std::uint32_t i = 1; i + 1 < path.length; ++i) worst = std::max(worst, load[path.links[i]]);
    return (std::uint64_t{worst} + 1) * path.length;
  }

  MegaflyPaths paths_;
};

ParamSpec parallel_param() {
  return choice_param("parallel", "dest", {"dest", "random"},
                      "how a flow picks among parallel choices (the m global links between two groups, the spine "
                      "inside a group, the turning leaf of a Valiant path): dest = destination endpoint id modulo "
                      "the number of choices; random = uniformly from the flow's own seeded stream");
}

Parallel parallel_of(const ParamSet& p) {
  return p.get_string("parallel") == "random" ? Parallel::Random : Parallel::Destination;
}

template <class R>
RoutingRegistry::Factory make(const char* name) {
  return [name](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
    const auto& mf = require_family<topo::MegaflyTopology>(t, name, "megafly");
    return std::make_unique<R>(mf, parallel_of(p));
  };
}

const char* const kMinimalRule =
    " Minimal path: endpoint -> its leaf -> spine of the source group that owns parallel copy c of the m "
    "global links to the destination group (group port o*m + c, spine (o*m + c) div h) -> that global link "
    "-> the spine it lands on -> destination leaf -> endpoint: 5 links. Within a group: leaf -> spine -> "
    "leaf (4 links), or 2 links on the same leaf. With parallel=dest, c = dst mod m and the spine inside a "
    "group is dst mod spines.";
const char* const kNoDetour = " A flow whose path crosses a failed link is unroutable (no alternative is tried).";

}  // namespace

void register_megafly_routing(RoutingRegistry& registry) {
  registry.add({"mfmin",
                "minimal routing for megafly (dragonfly+), choosing among parallel spine paths",
                {parallel_param(),
                 choice_param("paths", "one", {"one", "all"},
                              "one = a single minimal path chosen by `parallel`; all = every parallel minimal path "
                              "(each spine inside a group, each of the m global links between groups), equal split "
                              "(multipath)")},
                [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
                  const auto& mf = require_family<topo::MegaflyTopology>(t, "mfmin", "megafly");
                  return std::make_unique<MegaflyMinimal>(mf, parallel_of(p), p.get_string("paths") == "all");
                },
                std::string("One path per flow, split 1; with paths=all one path per parallel choice (the spine "
                            "inside a group, the copy of the m global links between groups), split equally among "
                            "those whose links are all up, each a max-min variable (the flow's rate is their sum); "
                            "unroutable only when every one is cut.") +
                    kMinimalRule + kNoDetour});
  registry.add(
      {"mfvaliant",
       "Valiant routing for megafly through a random intermediate group",
       {parallel_param()},
       make<MegaflyValiant>("mfvaliant"),
       std::string("A flow between two groups goes minimally to an intermediate group drawn uniformly from the "
                   "other g-2 groups with the flow's own stream (derive_seed(seed, routing, flow index)), then "
                   "minimally to the destination. In the intermediate group it lands on a spine; if that spine "
                   "does not own the chosen link toward the destination group it turns at a leaf (dst mod leaves "
                   "with parallel=dest): at most 8 links. Flows inside one group, and every flow when g = 2, take "
                   "the minimal path (a detour through another group could not be shorter or less shared than "
                   "the group's own spines).") +
           kMinimalRule + kNoDetour});
  registry.add(
      {"mfugal",
       "UGAL-style adaptive routing for megafly: minimal or Valiant per flow from current link loads",
       {parallel_param()},
       make<MegaflyUgal>("mfugal"),
       std::string("Flows are placed one at a time in flow-index order (sequentially, so the result does not "
                   "depend on the thread count), keeping a count of the paths already placed on every link. "
                   "Each flow computes its minimal path and its mfvaliant path (same seed, same choices); cost "
                   "= (largest count on a router-to-router link of the path + 1) x (path length in links); the "
                   "endpoint links, common to both, are left out. The Valiant path is taken only when its cost "
                   "is strictly lower (ties go to minimal), or when the minimal path crosses a failed link.") +
           kMinimalRule});
}

}  // namespace interflow::routing
