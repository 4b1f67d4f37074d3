// Zoom selection `hottest`: the k switches with the most loaded output link, by the bytes the run's
// messages route over it.
#include <algorithm>
#include <numeric>
#include <string>

#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomHottest final : public ZoomSelection {
 public:
  explicit ZoomHottest(std::uint32_t k) : k_(k) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    const std::vector<double> link = link_heat(c);
    std::vector<double> heat(c.net.num_vertices(), 0.0);
    std::vector<VertexId> switches;
    for (VertexId v = 0; v < c.net.num_vertices(); ++v) {
      if (c.net.kind(v) != VertexKind::Switch) continue;
      switches.push_back(v);
      for (LinkId l = c.net.out_begin(v); l < c.net.out_end(v); ++l)
        heat[v] = std::max(heat[v], link[l]);
    }
    // The hottest first; ties by the lower vertex id (the order does not depend on the sort).
    std::sort(switches.begin(), switches.end(),
              [&](VertexId a, VertexId b) { return heat[a] != heat[b] ? heat[a] > heat[b] : a < b; });
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    for (std::size_t i = 0; i < std::min<std::size_t>(k_, switches.size()); ++i) zoomed[switches[i]] = 1;
    return zoomed;
  }

 private:
  std::uint32_t k_;
};

}  // namespace

void register_zoom_hottest(ZoomSelectionRegistry& registry) {
  registry.add({"hottest",
                "the k switches whose most loaded output link carries the most of the run's bytes",
                {int_param("k", "4", "how many switches", 1, 4294967295.0)},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomHottest>(static_cast<std::uint32_t>(p.get_int("k")));
                },
                "A switch's heat is the largest, over its output links, of the bytes the run's messages route over "
                "the link (each path's share of its message's bytes) divided by the link's capacity: the time the "
                "link would need for the whole run's traffic. This ranks the offered load, not max-min rates, since "
                "a dynamic run's rates change over time. Ties go to the lower vertex id; k larger than the number of "
                "switches zooms them all.",
                "hottest:k=2"});
}

}  // namespace interflow::hybrid
