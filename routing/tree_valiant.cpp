// 'treevaliant': Valiant routing on k-ary and k:k'-ary n-trees (topologies/tree.hpp). Valiant's scheme
// (Valiant & Brebner 1981; Valiant 1982) sends each message first to a randomly chosen intermediate
// and only then to its destination, trading path length for an even spread of any traffic; Cano-Cano
// et al. 2024 (§5.2) route their k-ary n-trees with "the valiant routing algorithm" without saying more.
// Here the intermediate is a switch of the top level, as that reading of it: a path climbs from the
// source's leaf to a top switch t, taking at level l the up port given by digit l of t's label (every
// digit of a top label is base k'), then descends on the unique way from t to the destination. So
// each of the k'^(n-1) top switches is reached from every leaf by exactly one way up, and a path has
// 2n links (2(n-1) between switches, plus the two endpoint cables).
//
// The routing is multipath: a flow's paths are those through every top switch, each with the same
// weight, so the flow engines spread the flow evenly and the packet engine, which sends each message
// on one path drawn by weight, sends it through a random top switch: Valiant, message by message.
//
// Pairs whose lowest common ancestors (LCA) are below the top ("local" pairs, a same-leaf pair
// included) follow `local`:
//   top     (default, Valiant as the paper uses it) the path still climbs to the top switch and comes
//           back through the switches it climbed, turning round at t: a walk that visits the
//           switches of levels LCA .. n-2 twice and crosses their cables in both directions;
//   direct  the path turns at the LCA level, on the switch its way up to t reaches there (a same-leaf
//           pair goes straight through its leaf): the k'^LCA minimal paths, each carrying the weight of
//           the top switches above it, so the routing is then 'updown' with other labels.
//
// With P = k'^(turn level) paths > max_paths, max_paths ranks at the quantiles floor((i + o) P /
// max_paths) (o in [0, 1) drawn per flow from the run seed; the rank's base-k' digits, level 0 the
// most significant, are the up ports) carry 1/max_paths each, equal ranks merged, as 'updown' and
// 'ecmp' sample. Paths crossing a failed link are left out and the others share the flow; with none
// left the flow is unroutable. Link ids come from the tree's dense port layout, never from a search.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/tree.hpp"

namespace interflow::routing {

namespace {

using topo::TreeTopology;

// One whole path: the endpoint cable, at most n-1 hops up, n-1 down and the destination's cable.
struct TreePath {
  std::array<LinkId, 2 * TreeTopology::kMaxLevels + 2> links{};
  std::uint32_t size = 0;
  void add(LinkId l) { links[size++] = l; }
};

class TreeValiantRouting : public PerFlowRouting {
 public:
  TreeValiantRouting(const TreeTopology& tree, std::uint32_t max_paths, bool local_to_top)
      : tree_(tree), max_paths_(max_paths), local_to_top_(local_to_top) {}

  bool multipath() const override { return true; }

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t turn = local_to_top_ ? tree_.n() - 1 : tree_.lca_level(src, dst);
    const std::uint64_t paths = tree_.pow_kp(turn);
    const std::uint64_t ranks = std::min<std::uint64_t>(paths, max_paths_);
    const double offset = ranks < paths ? Rng(flow_seed).uniform() : 0.0;
    const std::size_t first_var = sink.num_vars();
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < ranks;) {
      const std::uint64_t r = rank(i, ranks, paths, offset);
      std::uint64_t copies = 1;  // consecutive samples on the same path merge into one variable
      while (i + copies < ranks && rank(i + copies, ranks, paths, offset) == r) ++copies;
      i += copies;
      TreePath path;
      build(net, src, dst, turn, r, path);
      if (!std::all_of(path.links.begin(), path.links.begin() + path.size, [&](LinkId l) { return net.up(l); }))
        continue;  // crosses a failed link: the other paths share the flow
      for (std::uint32_t h = 0; h < path.size; ++h) sink.push(path.links[h]);
      sink.commit(static_cast<double>(copies));
      kept += copies;
    }
    if (kept > 0) sink.rescale_splits(first_var, 1.0 / static_cast<double>(kept));
  }

 private:
  // Rank of sample i of `ranks` among `paths`: i itself when every path is taken, else its quantile.
  static std::uint64_t rank(std::uint64_t i, std::uint64_t ranks, std::uint64_t paths, double offset) {
    if (ranks == paths) return i;
    const double at =
        std::floor((static_cast<double>(i) + offset) * static_cast<double>(paths) / static_cast<double>(ranks));
    return std::min(paths - 1, static_cast<std::uint64_t>(at));
  }

  // The path of rank r: up to level `turn` with up port (r / k'^(turn-1-l)) mod k' at level l, then
  // down taking the destination's base-k digit m as the down port at level m, then its cable.
  void build(const Network& net, EndpointId src, EndpointId dst, std::uint32_t turn, std::uint64_t r,
             TreePath& path) const {
    const std::uint32_t k = tree_.k(), kp = tree_.kp();
    path.add(net.out_begin(net.endpoint_vertex(src)));
    std::uint32_t at = tree_.leaf_index(src);
    for (std::uint32_t level = 0; level < turn; ++level) {
      const auto port = static_cast<std::uint32_t>((r / tree_.pow_kp(turn - 1 - level)) % kp);
      path.add(net.out_begin(tree_.switch_vertex(level, at)) + k + port);
      at = tree_.up_index(level, at, port);
    }
    for (std::uint32_t level = turn; level > 0; --level) {
      const std::uint32_t port = base_k_digit(dst, level);
      path.add(net.out_begin(tree_.switch_vertex(level, at)) + port);
      at = tree_.down_index(level, at, port);
    }
    path.add(net.out_begin(tree_.switch_vertex(0, at)) + base_k_digit(dst, 0));
  }

  std::uint32_t base_k_digit(EndpointId e, std::uint32_t position) const {
    return static_cast<std::uint32_t>(e / tree_.pow_k(position) % tree_.k());
  }

  const TreeTopology& tree_;
  std::uint32_t max_paths_;
  bool local_to_top_;
};

const char* const kDetails =
    "Valiant's scheme (Valiant & Brebner 1981; Valiant 1982) as Cano-Cano et al. 2024 (§5.2) use it on k-ary "
    "n-trees, read as: the intermediate is a switch of the top level. A path climbs from the source's leaf to a "
    "top switch t, taking at level l the up port given by digit l of t's label, then descends on the unique "
    "way to the destination (down port e_m, the destination's base-k digit m, at level m). Every one of the "
    "k'^(n-1) top switches is reached from every leaf by exactly one way up; a path has 2n links. A flow has one "
    "path per top switch, each with the same split, so the flow engines spread it evenly and the packet engine "
    "sends each message through a top switch drawn at random (by weight, seeded). Pairs whose lowest common "
    "ancestors are below the top: with local=top (the paper's Valiant) the path still goes to the top and turns "
    "round there, coming back through the switches it climbed (it visits them twice and crosses their cables "
    "both ways); with local=direct it turns at the LCA level (a same-leaf pair goes straight through its leaf), "
    "which gives the k'^LCA minimal paths and the same table as 'updown'. With P = k'^(turn level) > max_paths, "
    "max_paths ranks at the quantiles floor((i + o) P / max_paths) (o in [0, 1) drawn per flow from the run "
    "seed; the rank's base-k' digits, level 0 first, are the up ports) carry 1/max_paths each, equal ranks "
    "merged. Paths crossing a failed link are left out and the others share the flow; with none left the flow "
    "is unroutable. On a k-ary n-tree every permutation without fixed points loads every link with exactly one "
    "flow's worth (k^(n-1) paths of weight 1/k^(n-1)), so every flow runs at full rate; on a k:k'-ary n-tree "
    "the top links limit it to (k'/k)^(n-1).";

}  // namespace

void register_tree_valiant(RoutingRegistry& registry) {
  registry.add(
      {"treevaliant",
       "Valiant routing for fattree and thintree: up to a top switch and down; a flow spread over every top switch, "
       "each message through a random one",
       {int_param("max_paths", "64", "most paths (max-min variables, one per top switch) per flow", 1, 1 << 16),
        choice_param("local", "top", {"top", "direct"},
                     "pairs whose lowest common ancestors are below the top: 'top' climbs to a top switch anyway "
                     "and turns round there (Valiant); 'direct' turns at the LCA level (minimal, as 'updown')")},
       [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
         const auto& tree = require_family<TreeTopology>(t, "treevaliant", "fattree or thintree");
         return std::make_unique<TreeValiantRouting>(tree, static_cast<std::uint32_t>(p.get_int("max_paths")),
                                                     p.get_string("local") == "top");
       },
       kDetails});
}

}  // namespace interflow::routing
