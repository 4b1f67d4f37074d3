// Zoom selection `all`: every switch (a hybrid run that is a packet run fed by flow-level sources).
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
                "Every switch is simulated at packet level and the flow level only supplies the endpoints' "
                "departures (at their max-min rates over the endpoint cables) and takes back the arrivals: the "
                "check of the coupling against a full packet run.",
                "all"});
}

}  // namespace interflow::hybrid
