#pragma once
// A logical grid of an application's tasks (task id = x + X*(y + Y*z), x fastest), shared by the
// kernels that exchange halos with grid neighbours (stencils, wavefronts, the HPC skeletons).
#include <array>
#include <cstdint>
#include <vector>

#include "core/params.hpp"
#include "core/types.hpp"
#include "workloads/application.hpp"

namespace interflow::workloads {

struct TaskGrid {
  std::vector<std::uint32_t> dims;  // dimension 0 fastest
  bool periodic = true;

  // The neighbour one step along a dimension: kNone off a non-periodic edge or when the neighbour
  // would be the task itself.
  std::uint32_t neighbour(std::uint32_t task, std::size_t dim, int step) const {
    std::uint32_t stride = 1;
    for (std::size_t k = 0; k < dim; ++k) stride *= dims[k];
    const std::uint32_t size = dims[dim], x = (task / stride) % size;
    if (size == 1 || step == 0) return step == 0 ? task : kNone;
    std::uint32_t y;
    if (step > 0)
      y = x + 1 < size ? x + 1 : periodic ? 0 : kNone;
    else
      y = x > 0 ? x - 1 : periodic ? size - 1 : kNone;
    if (y == kNone || y == x) return kNone;
    return task - x * stride + y * stride;
  }

  // The neighbour at offset (dx, dy, dz), each in {-1, 0, 1} (a 3-D grid): kNone when a step leaves a
  // non-periodic edge, or the result is the task itself.
  std::uint32_t neighbour3(std::uint32_t task, const std::array<int, 3>& offset) const {
    std::uint32_t t = task;
    for (std::size_t dim = 0; dim < 3 && t != kNone; ++dim) t = neighbour(t, dim, offset[dim]);
    return t == task ? kNone : t;
  }
};

// The grid of a kernel with an optional `dims` parameter (otherwise the most balanced factorisation).
inline TaskGrid make_task_grid(const ParamSet& p, std::uint32_t tasks, std::size_t d, bool periodic) {
  return {grid_dims(tasks, d, p.has("dims") ? p.get_dims("dims") : std::vector<std::uint32_t>{}, p), periodic};
}

}  // namespace interflow::workloads
