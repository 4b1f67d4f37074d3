// HPC application skeletons after Mubarak et al. 2019, §IV-C (its foreground workloads, there replayed from
// Scalable Workload Models): a LAMMPS-like molecular-dynamics step, a Nekbone-like conjugate-gradient
// iteration and a 3-D nearest-neighbour exchange. They keep the communication structure the paper
// describes (message kinds, blocking behaviour, collectives), with sizes as parameters.
#include <array>

#include "workloads/application.hpp"
#include "workloads/collectives.hpp"
#include "workloads/task_grid.hpp"

namespace interflow::workloads {

namespace {

Collective small_allreduce(const ParamSet& p) {
  return {CollectiveOp::Allreduce, algorithm_from_name(p.get_string("alg")), p.get_real("allreduce_bytes"), 0,
          collective_class(p)};
}

// The 6 face, 12 edge and 8 corner offsets of a 3-D grid cell.
std::vector<std::array<int, 3>> offsets_3d(std::int64_t neighbours) {
  std::vector<std::array<int, 3>> out;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonzero == 0 || (neighbours == 6 && nonzero > 1)) continue;
        out.push_back({dx, dy, dz});
      }
  return out;
}

// Non-blocking exchange with the 6 or 26 neighbours of a 3-D grid: post every receive, send to every
// neighbour, wait. The message for offset o carries tag base + index(o), and the receive for it is
// posted at the neighbour at -o, so a task that is its neighbour's neighbour twice (a side of 2) still
// matches each message. bytes_of(number of nonzero coordinates) gives the size (face, edge, corner).
template <class BytesOf>
void exchange_3d(ProgramBuilder& b, const TaskGrid& g, std::uint32_t t, const std::vector<std::array<int, 3>>& offsets,
                 std::uint32_t tag_base, BytesOf bytes_of) {
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const std::array<int, 3> o = offsets[k];
    const std::uint32_t from = g.neighbour3(t, {-o[0], -o[1], -o[2]});
    const int kind = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (from != kNone) b.irecv(t, from, bytes_of(kind), tag_base + static_cast<std::uint32_t>(k));
  }
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const std::array<int, 3> o = offsets[k];
    const std::uint32_t to = g.neighbour3(t, o);
    const int kind = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (to != kNone) b.isend(t, to, bytes_of(kind), tag_base + static_cast<std::uint32_t>(k));
  }
  b.wait(t);
}

// LAMMPS-like timestep on a 3-D spatial decomposition. Forward communication of ghost atoms in the
// LAMMPS "swap" order — along x, then y, then z, each direction as post-receive, blocking send, wait —
// so that edge and corner ghosts travel through the face neighbours; then the force computation;
// then the reverse communication of ghost forces in the opposite order; and every `allreduce_every`
// steps `allreduces` small allreduces (thermodynamic output, energy and pressure sums).
class Lammps : public AppKernel {
 public:
  explicit Lammps(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const TaskGrid g = make_task_grid(p_, ctx.tasks, 3, true);
    const double forward = p_.get_real("bytes"), reverse = p_.get_real("reverse_bytes");
    const double compute = p_.get_real("compute");
    const auto every = p_.get_int("allreduce_every"), count = p_.get_int("allreduces");
    const std::vector<std::uint32_t> members = all_task_ids(ctx.tasks);
    const Collective reduce = small_allreduce(p_);
    for (std::int64_t step = 0; step < p_.get_int("iters"); ++step) {
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) {
        for (std::size_t dim = 0; dim < 3; ++dim) swap(b, g, t, dim, forward, 0);
        b.compute(t, compute);
        for (std::size_t dim = 3; dim-- > 0;) swap(b, g, t, dim, reverse, 6);
      }
      if ((step + 1) % every == 0)
        for (std::int64_t k = 0; k < count; ++k) add_collective(b, members, reduce);
    }
  }

 private:
  // One dimension's two swaps: to the upper neighbour (receiving from the lower), then the reverse.
  static void swap(ProgramBuilder& b, const TaskGrid& g, std::uint32_t t, std::size_t dim, double bytes,
                   std::uint32_t tag_base) {
    if (bytes <= 0) return;
    for (int step : {1, -1}) {
      const auto tag = tag_base + static_cast<std::uint32_t>(2 * dim + (step > 0 ? 0 : 1));
      const std::uint32_t from = g.neighbour(t, dim, -step), to = g.neighbour(t, dim, step);
      if (from != kNone) b.irecv(t, from, bytes, tag);
      if (to != kNone) b.send(t, to, bytes, tag);
      b.wait(t);
    }
  }

  ParamSet p_;
};

// Nekbone-like conjugate-gradient iteration on a 3-D element decomposition: the gather-scatter
// exchange of shared faces (and, with 26 neighbours, edges and corners) by non-blocking sends and
// receives, the local operator, and `allreduces` 8-byte allreduces for the dot products.
class Nekbone : public AppKernel {
 public:
  explicit Nekbone(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const TaskGrid g = make_task_grid(p_, ctx.tasks, 3, true);
    const auto offsets = offsets_3d(p_.get_string("neighbours") == "6" ? 6 : 26);
    const std::array<double, 4> bytes{0, p_.get_real("bytes"), p_.get_real("edge_bytes"), p_.get_real("corner_bytes")};
    const double compute = p_.get_real("compute");
    const std::vector<std::uint32_t> members = all_task_ids(ctx.tasks);
    const Collective reduce = small_allreduce(p_);
    for (std::int64_t it = 0; it < p_.get_int("iters"); ++it) {
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) {
        b.compute(t, compute);
        exchange_3d(b, g, t, offsets, 0, [&](int kind) { return bytes[static_cast<std::size_t>(kind)]; });
      }
      for (std::int64_t k = 0; k < p_.get_int("allreduces"); ++k) add_collective(b, members, reduce);
    }
  }

 private:
  ParamSet p_;
};

// 3-D nearest neighbour: iterations of non-blocking sends and receives with the grid neighbours
// followed by a wait-all, as in the nearest-neighbour SWM of Mubarak et al. 2019 (64 or 128 KiB messages).
class NearestNeighbour3d : public AppKernel {
 public:
  explicit NearestNeighbour3d(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const TaskGrid g = make_task_grid(p_, ctx.tasks, 3, true);
    const auto offsets = offsets_3d(p_.get_string("neighbours") == "6" ? 6 : 26);
    const double bytes = p_.get_real("bytes"), compute = p_.get_real("compute");
    for (std::int64_t it = 0; it < p_.get_int("iters"); ++it)
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) {
        b.compute(t, compute);
        exchange_3d(b, g, t, offsets, 0, [&](int) { return bytes; });
      }
  }

 private:
  ParamSet p_;
};

ParamSpec grid_dims_param() {
  ParamSpec dims = dims_param("dims", "", "3-D task grid, e.g. 16x16x8 (default: the most balanced factorisation)");
  dims.optional = true;
  return dims;
}

std::vector<ParamSpec> allreduce_params(const char* count_default, const char* count_meaning) {
  return {int_param("allreduces", count_default, count_meaning, 0, 1e6),
          real_param("allreduce_bytes", "8", "bytes of each allreduce", 0, kMaxBytes),
          choice_param("alg", "default", {"default", "recdoubling", "ring", "binomial"},
                       "allreduce algorithm (manual/collectives.md)"),
          collective_class_param("the allreduce messages")};
}

std::vector<ParamSpec> concat(std::vector<ParamSpec> a, const std::vector<ParamSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

void register_hpc_apps(AppRegistry& registry) {
  registry.add({"lammps",
                "LAMMPS-like molecular dynamics (Mubarak et al. 2019): staged 3-D ghost exchange with blocking "
                "sends, forces, reverse exchange, small allreduces",
                app_params(concat(
                    {grid_dims_param(), real_param("bytes", "65536", "bytes of each forward (ghost-atom) message", 0, kMaxBytes),
                     real_param("reverse_bytes", "32768", "bytes of each reverse (ghost-force) message", 0, kMaxBytes),
                     int_param("iters", "10", "timesteps", 1, 1e9),
                     real_param("compute", "0", "force computation per task and timestep (seconds)", 0),
                     int_param("allreduce_every", "1", "timesteps between the groups of allreduces", 1, 1e9)},
                    allreduce_params("2", "allreduces in each group"))),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<Lammps>(p); },
                "Tasks form a periodic 3-D grid (a spatial decomposition). Each timestep every task exchanges "
                "ghost atoms with its neighbours in LAMMPS's swap order: along x, y and z in turn, and in each "
                "dimension first to the upper neighbour then to the lower one, every swap as post-receive, "
                "blocking send of `bytes`, wait (so corner ghosts travel through faces and the dimensions are "
                "serialised); then it computes for `compute` seconds and returns ghost forces (`reverse_bytes`) in "
                "the opposite order (z, y, x). Every `allreduce_every` timesteps all tasks run `allreduces` "
                "allreduces of `allreduce_bytes` (thermodynamic sums). Mubarak et al. 2019, §IV-C: point-to-point "
                "with large messages, blocking sends and non-blocking receives, plus small allreduces."});
  registry.add(
      {"nekbone",
       "Nekbone-like conjugate gradient (Mubarak et al. 2019): gather-scatter with 3-D neighbours and many 8-byte "
       "allreduces",
       app_params(concat(
           {grid_dims_param(), real_param("bytes", "16384", "bytes of each face message of the gather-scatter", 0, kMaxBytes),
            real_param("edge_bytes", "1024", "bytes of each edge message (26 neighbours)", 0, kMaxBytes),
            real_param("corner_bytes", "64", "bytes of each corner message (26 neighbours)", 0, kMaxBytes),
            choice_param("neighbours", "26", {"6", "26"}, "faces only, or faces, edges and corners"),
            int_param("iters", "50", "CG iterations", 1, 1e9),
            real_param("compute", "0", "local operator per task and iteration (seconds)", 0)},
           allreduce_params("3", "allreduces per iteration (the CG dot products)"))),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<Nekbone>(p); },
       "Tasks form a periodic 3-D grid of element blocks. Each CG iteration every task computes for "
       "`compute` seconds, then runs the gather-scatter: it posts receives from and sends (non-blocking) "
       "to each neighbour — face neighbours `bytes`, and with `neighbours=26` edge neighbours "
       "`edge_bytes` and corner neighbours `corner_bytes` — and waits; then all tasks run `allreduces` "
       "allreduces of `allreduce_bytes` (8: one double per dot product). Mubarak et al. 2019, §IV-C: many 8-byte "
       "collectives and medium-sized non-blocking point-to-point messages."});
  registry.add(
      {"nn3d",
       "3-D nearest neighbour (Mubarak et al. 2019): iterations of non-blocking 64/128 KiB exchanges with the grid "
       "neighbours and a wait-all",
       app_params({grid_dims_param(), real_param("bytes", "131072", "bytes to each neighbour per iteration", 0, kMaxBytes),
                   choice_param("neighbours", "6", {"6", "26"}, "face neighbours, or also edges and corners"),
                   int_param("iters", "10", "iterations", 1, 1e9),
                   real_param("compute", "0", "computation per task and iteration (seconds)", 0)}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<NearestNeighbour3d>(p); },
       "Tasks form a periodic 3-D grid; every iteration each task computes for `compute` seconds, "
       "posts a receive from each neighbour, sends `bytes` to each (non-blocking) and waits for all "
       "(MPI_Waitall). Mubarak et al. 2019 use 64 KiB and 128 KiB messages (run it twice, or two "
       "applications, for both)."});
}

}  // namespace interflow::workloads
