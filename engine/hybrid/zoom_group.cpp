// Zoom selection `group`: every switch of one group of a dragonfly (Kim et al. 2008) or a megafly
// (Flajslik et al., ISC 2018).
#include <string>

#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomGroup final : public ZoomSelection {
 public:
  explicit ZoomGroup(std::uint32_t group) : group_(group) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    const std::vector<std::vector<VertexId>> groups = c.topology.switch_groups();
    if (groups.empty())
      throw InputError("zoom 'group': the " + c.topology.family() +
                       " topology has no groups (dragonfly and megafly have); use ids, tree-level or hottest");
    if (group_ >= groups.size())
      throw InputError("zoom 'group': group " + std::to_string(group_) + " does not exist; this " + c.topology.family() +
                       " has groups 0.." + std::to_string(groups.size() - 1));
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    for (VertexId v : groups[group_]) zoomed[v] = 1;
    return zoomed;
  }

 private:
  std::uint32_t group_;
};

}  // namespace

void register_zoom_group(ZoomSelectionRegistry& registry) {
  registry.add({"group",
                "every switch of one group of a dragonfly or megafly",
                {int_param("group", "0", "the group's number", 0, 4294967295.0)},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomGroup>(static_cast<std::uint32_t>(p.get_int("group")));
                },
                "A dragonfly group's routers, or a megafly group's leaves and spines; the group's switches are "
                "joined, so they form one region. Other families are refused.",
                "group:group=1"});
}

}  // namespace interflow::hybrid
