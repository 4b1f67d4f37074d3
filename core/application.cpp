#include "core/application.hpp"

namespace interflow {

OpGraph graph_form(const Application& app, bool sends_in_order) {
  if (app.is_graph()) return app.graph;
  return graph_of(app.program, "application " + app.name, sends_in_order);
}

}  // namespace interflow
