#include "core/application.hpp"

#include <algorithm>

namespace interflow {

OpGraph graph_form(const Application& app, bool sends_in_order) {
  if (app.is_graph()) return app.graph;
  return graph_of(app.program, "application " + app.name, sends_in_order);
}

std::uint32_t service_classes(const std::vector<Application>& apps) {
  std::uint32_t classes = 1;
  for (const Application& app : apps) {
    classes = std::max(classes, app.service_class + 1);
    for (std::uint8_t k : app.is_graph() ? app.graph.klass : app.program.klass)
      if (k != kAppClass) classes = std::max<std::uint32_t>(classes, k + 1u);
  }
  return classes;
}

}  // namespace interflow
