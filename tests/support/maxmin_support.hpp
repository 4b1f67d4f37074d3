#pragma once
// Two max-min solves that must agree bit for bit (thread counts, run-coded paths, the solve on the
// links in use): every result and counter of the one equal to the other's.
#include <doctest/doctest.h>

#include "engine/maxmin/maxmin.hpp"

namespace interflow::test {

inline void check_identical_solves(const maxmin::MaxMinSolver& a, const maxmin::MaxMinSolver& b) {
  CHECK(a.rates() == b.rates());  // exact equality, infinities included
  CHECK(a.bottlenecks() == b.bottlenecks());
  CHECK(a.link_load() == b.link_load());
  CHECK(a.link_paths() == b.link_paths());
  CHECK(a.bottleneck_steps() == b.bottleneck_steps());
  CHECK(a.heap_refreshes() == b.heap_refreshes());
}

}  // namespace interflow::test
