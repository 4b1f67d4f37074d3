// Scientific pseudo-applications (Navaridas et al. 2019, §3.3.3): halo-exchange stencils, wavefront sweeps and an
// n-body ring pipeline, on a logical grid of tasks (task id = x + X*(y + Y*z), x fastest).
#include <array>

#include "workloads/application.hpp"
#include "workloads/task_grid.hpp"

namespace interflow::workloads {

namespace {

std::vector<ParamSpec> grid_params(const char* bytes_default, const char* meaning) {
  ParamSpec dims = dims_param("dims", "", "task grid, e.g. 16x16 (default: the most balanced factorisation of tasks)");
  dims.optional = true;
  return {dims, real_param("bytes", bytes_default, meaning, 0, kMaxBytes), int_param("iters", "10", "iterations", 1, 1e9),
          real_param("compute", "0", "computation per task and iteration (seconds)", 0)};
}

// Halo exchange: every iteration each task computes, then exchanges `bytes` with each of its 2d
// neighbours (irecv from all, isend to all, wait). The message sent along direction k carries tag k,
// so a task that is its neighbour's neighbour twice (a side of 2) still matches each message.
class Stencil : public AppKernel {
 public:
  Stencil(std::size_t d, const ParamSet& p) : d_(d), p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const TaskGrid g = make_task_grid(p_, ctx.tasks, d_, p_.get_bool("periodic"));
    const double bytes = p_.get_real("bytes"), compute = p_.get_real("compute");
    const auto iters = p_.get_int("iters");
    for (std::int64_t it = 0; it < iters; ++it)
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) {
        b.compute(t, compute);
        for (std::size_t dim = 0; dim < d_; ++dim)
          for (int step : {1, -1}) {  // the message travelling `step` along dim came from the -step neighbour
            const std::uint32_t from = g.neighbour(t, dim, -step);
            if (from != kNone) b.irecv(t, from, bytes, static_cast<std::uint32_t>(2 * dim + (step > 0 ? 0 : 1)));
          }
        for (std::size_t dim = 0; dim < d_; ++dim)
          for (int step : {1, -1}) {
            const std::uint32_t to = g.neighbour(t, dim, step);
            if (to != kNone) b.isend(t, to, bytes, static_cast<std::uint32_t>(2 * dim + (step > 0 ? 0 : 1)));
          }
        b.wait(t);
      }
  }

 private:
  std::size_t d_;
  ParamSet p_;
};

// Wavefront sweep from the corner task 0: a task receives from its lower neighbour along every
// dimension, computes, and sends to its upper neighbours; iterations are successive sweeps.
class Wavefront : public AppKernel {
 public:
  Wavefront(std::size_t d, const ParamSet& p) : d_(d), p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const TaskGrid g = make_task_grid(p_, ctx.tasks, d_, false);
    const double bytes = p_.get_real("bytes"), compute = p_.get_real("compute");
    const auto iters = p_.get_int("iters");
    for (std::int64_t it = 0; it < iters; ++it)
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) {
        for (std::size_t dim = 0; dim < d_; ++dim)
          if (const std::uint32_t from = g.neighbour(t, dim, -1); from != kNone)
            b.recv(t, from, bytes, static_cast<std::uint32_t>(dim));
        b.compute(t, compute);
        for (std::size_t dim = 0; dim < d_; ++dim)
          if (const std::uint32_t to = g.neighbour(t, dim, 1); to != kNone)
            b.isend(t, to, bytes, static_cast<std::uint32_t>(dim));
        b.wait(t);
      }
  }

 private:
  std::size_t d_;
  ParamSet p_;
};

// N-body ring pipeline: in each of n-1 steps a task passes the block it holds to its right neighbour,
// receives one from its left, and computes with it; `iters` full rotations.
class NBody : public AppKernel {
 public:
  explicit NBody(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::uint32_t n = ctx.tasks;
    const double bytes = p_.get_real("bytes"), compute = p_.get_real("compute");
    const auto iters = p_.get_int("iters");
    for (std::int64_t it = 0; it < iters; ++it)
      for (std::uint32_t step = 0; step + 1 < n; ++step)
        for (std::uint32_t t = 0; t < n; ++t) {
          b.irecv(t, (t + n - 1) % n, bytes, 0);
          b.isend(t, (t + 1) % n, bytes, 0);
          b.wait(t);
          b.compute(t, compute);
        }
  }

 private:
  ParamSet p_;
};

}  // namespace

void register_scientific_apps(AppRegistry& registry) {
  for (std::size_t d : {2, 3}) {
    auto params = grid_params("65536", "halo bytes sent to each neighbour per iteration");
    params.push_back(bool_param("periodic", "true", "wrap around the grid's edges (a torus of tasks)"));
    const std::string name = "stencil" + std::to_string(d) + "d";
    registry.add({name,
                  std::to_string(d) + "-D stencil: every iteration, compute then exchange halos with the " +
                      std::to_string(2 * d) + " grid neighbours",
                  app_params(params),
                  [d](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<Stencil>(d, p); },
                  "Tasks form a " + std::to_string(d) +
                      "-D grid (`dims`, or the most balanced factorisation of the task count; task id = x + X*y" +
                      (d == 3 ? " + X*Y*z" : "") +
                      "). Each iteration every task computes for `compute` seconds, posts a receive from each "
                      "neighbour, sends `bytes` to each neighbour (non-blocking) and waits for all of them. "
                      "Without `periodic` the edge tasks have fewer neighbours."});
    const std::string wave = "wavefront" + std::to_string(d) + "d";
    registry.add({wave,
                  std::to_string(d) + "-D wavefront sweep from the corner task: receive from the lower neighbours, "
                                      "compute, send to the upper ones",
                  app_params(grid_params("16384", "bytes sent to each upper neighbour")),
                  [d](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<Wavefront>(d, p); },
                  "A sweep (as in transport codes such as Sweep3D): the task at grid position x waits for "
                  "the message of its lower neighbour along every dimension, computes for `compute` seconds and "
                  "sends `bytes` to its upper neighbours; the diagonal front crosses the grid once per "
                  "iteration, so the run's critical path has (X + Y" +
                      std::string(d == 3 ? " + Z" : "") + " - " + std::to_string(d - 1) + ") steps per sweep."});
  }
  registry.add({"nbody", "n-body ring pipeline: n-1 steps of passing a block to the right neighbour and computing",
                app_params({real_param("bytes", "65536", "bytes of the block passed at each step", 0, kMaxBytes),
                            int_param("iters", "1", "full rotations of the ring", 1, 1e9),
                            real_param("compute", "0", "computation per task and step (seconds)", 0)}),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<NBody>(p); },
                "All-pairs interactions by a systolic ring: each of the n-1 steps of a rotation, every task "
                "receives a block from task t-1, sends the block it holds to t+1 (non-blocking), waits, then "
                "computes. Every step is a shift permutation, and each task's step k waits for its neighbour's "
                "step k-1, so the pipeline's causality dominates."});
}

}  // namespace interflow::workloads
