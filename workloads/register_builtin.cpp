#include "workloads/pattern.hpp"

namespace interflow::workloads {

void register_builtin(PatternRegistry& registry) {
  register_uniform(registry);
}

}  // namespace interflow::workloads
