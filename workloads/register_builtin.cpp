#include "workloads/arrival.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

void register_builtin(PatternRegistry& registry) {
  register_uniform(registry);
  register_hot_patterns(registry);
  register_local(registry);
  register_bit_permutations(registry);
  register_shift(registry);
  register_randperm(registry);
  register_bisection(registry);
  register_all_to_all(registry);
  register_grid_patterns(registry);
}

void register_arrivals(ArrivalRegistry& registry) {
  register_zero_arrival(registry);
  register_poisson_arrival(registry);
}

}  // namespace interflow::workloads
