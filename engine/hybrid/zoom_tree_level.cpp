// Zoom selection `tree-level`: the switches at one level of an indirect network such as a k-ary
// n-tree, levels counted from the endpoints (leaves are level 0).
#include <string>

#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomTreeLevel final : public ZoomSelection {
 public:
  explicit ZoomTreeLevel(std::uint32_t level) : level_(level) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    const std::vector<std::uint32_t> d = endpoint_distance(c.net);
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    std::uint32_t count = 0, top = 0;
    for (VertexId v = 0; v < c.net.num_vertices(); ++v) {
      if (c.net.kind(v) != VertexKind::Switch || d[v] == kNone) continue;
      const std::uint32_t level = d[v] == 0 ? 0 : d[v] - 1;  // a router hosting endpoints is a leaf too
      top = std::max(top, level);
      if (level == level_) zoomed[v] = 1, ++count;
    }
    if (count == 0)
      throw InputError("zoom 'tree-level': no switch at level " + std::to_string(level_) + "; this network's levels are 0.." +
                       std::to_string(top));
    return zoomed;
  }

 private:
  std::uint32_t level_;
};

}  // namespace

void register_zoom_tree_level(ZoomSelectionRegistry& registry) {
  registry.add({"tree-level",
                "the switches at one level, counted from the endpoints (leaf switches are level 0)",
                {int_param("level", "0", "the level: a switch's distance in links from the nearest endpoint, less one",
                           0, 64)},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomTreeLevel>(static_cast<std::uint32_t>(p.get_int("level")));
                },
                "Levels come from the network alone (a breadth-first search from the endpoints), so any indirect "
                "network has them: in a k-ary n-tree level i is the i-th row of switches from the bottom, in a "
                "megafly the leaves are level 0 and the spines level 1. A router that hosts endpoints (a torus) is "
                "level 0. A level with no switch is refused, naming the levels there are.",
                "tree-level:level=1"});
}

}  // namespace interflow::hybrid
