// Zoom selection `all`: every switch (a hybrid run that is the packet run).
#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomAll final : public ZoomSelection {
 public:
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    for (VertexId v = 0; v < c.net.num_vertices(); ++v) zoomed[v] = c.net.kind(v) == VertexKind::Switch;
    return zoomed;
  }
};

}  // namespace

void register_zoom_all(ZoomSelectionRegistry& registry) {
  registry.add({"all",
                "every switch",
                {},
                [](const ParamSet&) -> std::unique_ptr<ZoomSelection> { return std::make_unique<ZoomAll>(); },
                "Every switch is simulated at packet level. Every message then lies inside the zoom from end to "
                "end and runs whole as a packet message, so the run is the packet transport's run (a test checks "
                "every time): the check of the hybrid transport against a full packet run.",
                "all"});
}

}  // namespace interflow::hybrid
