// Zoom selection `class-paths`: the switches on the routes of one service class's messages (a
// foreground application's, when it runs in its own class).
#include <string>

#include "engine/hybrid/zoom_selection.hpp"

namespace interflow::hybrid {

namespace {

class ZoomClassPaths final : public ZoomSelection {
 public:
  explicit ZoomClassPaths(std::uint32_t cls) : class_(cls) {}
  std::vector<std::uint8_t> select(const ZoomContext& c) const override {
    std::vector<std::uint8_t> zoomed(c.net.num_vertices(), 0);
    for (FlowId f = 0; f < c.paths.num_flows(); ++f) {
      if (c.messages.class_of(f) != class_) continue;
      for (std::uint32_t v = c.paths.first_var(f); v < c.paths.end_var(f); ++v)
        for (LinkId l : c.paths.links(v))
          for (VertexId x : {c.net.source(l), c.net.target(l)})
            if (c.net.kind(x) == VertexKind::Switch) zoomed[x] = 1;
    }
    return zoomed;
  }

 private:
  std::uint32_t class_;
};

}  // namespace

void register_zoom_class_paths(ZoomSelectionRegistry& registry) {
  registry.add({"class-paths",
                "the switches on the routes of one service class's messages",
                {int_param("class", "0", "the service class (an application's `class`)", 0, 15)},
                [](const ParamSet& p) -> std::unique_ptr<ZoomSelection> {
                  return std::make_unique<ZoomClassPaths>(static_cast<std::uint32_t>(p.get_int("class")));
                },
                "Every switch that a path of a message of the class enters or leaves, so that the class's packets "
                "meet the others' in packet-level queues wherever they go: a foreground application in class 0 with "
                "its background in class 1 zooms the foreground's routers. A class without messages zooms nothing "
                "(the run is then the flow run).",
                "class-paths:class=0"});
}

}  // namespace interflow::hybrid
