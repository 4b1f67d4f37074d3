// Zoom selection `congestion-tree`: the switches where the queues behind the run's hottest links
// build. In a network that does not drop packets, a link offered more than it can carry fills its
// source's buffers, and the credits it withholds fill the buffers of every switch feeding it, back
// along the routes of the messages that cross it to their sources (tree saturation: Pfister and
// Norton 1985). Messages that merely pass one of those switches are then blocked behind the tree's
// packets; a packet-level model there shows it, a flow model cannot.
#include <algorithm>
#include <span>
#include <string>

#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomCongestionTree final : public ZoomSelection {
 public:
  explicit ZoomCongestionTree(std::uint32_t links) : links_(links) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    const std::vector<std::uint8_t> hot = hottest_links(c);
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    for (FlowId f = 0; f < c.paths.num_flows(); ++f)
      for (std::uint32_t v = c.paths.first_var(f); v < c.paths.end_var(f); ++v) mark_upstream(c, c.paths.links(v), hot, zoomed);
    return zoomed;
  }

 private:
  // The links_ links out of a switch with the most routed bytes per capacity (ties to the lower id);
  // links no message crosses are never hot. An endpoint's own cable into the network is left out: no
  // switch lies before it, and its queue is its NIC's (a tree of nothing would zoom nothing).
  std::vector<std::uint8_t> hottest_links(const ZoomContext& c) const {
    const std::vector<double> heat = link_heat(c);
    std::vector<LinkId> order;
    for (LinkId l = 0; l < c.net.num_links(); ++l)
      if (c.net.kind(c.net.source(l)) == VertexKind::Switch) order.push_back(l);
    std::sort(order.begin(), order.end(), [&](LinkId a, LinkId b) { return heat[a] != heat[b] ? heat[a] > heat[b] : a < b; });
    std::vector<std::uint8_t> hot(c.net.num_links(), 0);
    for (std::size_t i = 0; i < std::min<std::size_t>(links_, order.size()) && heat[order[i]] > 0; ++i) hot[order[i]] = 1;
    return hot;
  }
  // The switches of one route from its start to the source of its last hot link.
  static void mark_upstream(const ZoomContext& c, std::span<const LinkId> route, const std::vector<std::uint8_t>& hot,
                            std::vector<std::uint8_t>& zoomed) {
    std::size_t last = route.size();
    for (std::size_t i = 0; i < route.size(); ++i)
      if (hot[route[i]]) last = i;
    if (last == route.size()) return;
    for (std::size_t i = 0; i <= last; ++i)
      if (c.net.kind(c.net.source(route[i])) == VertexKind::Switch) zoomed[c.net.source(route[i])] = 1;
  }

  std::uint32_t links_;
};

}  // namespace

void register_zoom_congestion_tree(ZoomSelectionRegistry& registry) {
  registry.add({"congestion-tree",
                "the switches on the routes into the run's hottest links, up to them: where their queues spread",
                {int_param("links", "1", "how many of the hottest links", 1, 4294967295.0)},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomCongestionTree>(static_cast<std::uint32_t>(p.get_int("links")));
                },
                "A link's heat is the bytes the run's messages route over it divided by its capacity (as for "
                "`hottest`). For each of the `links` hottest links out of a switch (a switch's cable down to an "
                "endpoint included, an endpoint's cable into the network not: no switch lies before it), every "
                "switch that a route crossing it passes before it, the link's own source included, is zoomed: the tree over which "
                "a saturated link's back-pressure spreads in a lossless network (Pfister and Norton 1985), where "
                "other messages are blocked behind its packets. Switches after the hot link are not zoomed. Ties "
                "go to the lower link id.",
                "congestion-tree:links=1"});
}

}  // namespace interflow::hybrid
