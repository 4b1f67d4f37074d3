// Zoom selection `ids`: the routers named by their vertex ids.
#include <string>

#include "engine/hybrid/zoom_selection.hpp"
#include "engine/packet/switch_model.hpp"

namespace interflow::hybrid {

namespace {

class ZoomIds final : public ZoomSelection {
 public:
  explicit ZoomIds(std::string ids) : ids_(std::move(ids)) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    const std::vector<std::uint32_t> ids =
        packet::parse_table(ids_, "zoom 'ids'", c.net.num_vertices(), "a vertex id", c.net.num_vertices());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (c.net.kind(ids[i]) != VertexKind::Switch)
        throw InputError("zoom 'ids': entry " + std::to_string(i) + " (vertex " + std::to_string(ids[i]) +
                         ") is an endpoint; only switches can be zoomed");
      zoomed[ids[i]] = 1;
    }
    return zoomed;
  }

 private:
  std::string ids_;
};

}  // namespace

void register_zoom_ids(ZoomSelectionRegistry& registry) {
  registry.add({"ids",
                "the switches given by vertex id",
                {string_param("ids", "", "vertex ids of the switches to zoom, separated by ';' (as `interflow topo` "
                                         "numbers vertices)")},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomIds>(p.get_string("ids"));
                },
                "Each id must be a switch (or router) vertex; an endpoint vertex is refused with its position in the "
                "list. Zoomed switches that are adjacent form one region.",
                "ids:ids=16;17"});
}

}  // namespace interflow::hybrid
