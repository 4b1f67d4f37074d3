#pragma once
// Pseudo-applications (Navaridas et al. 2019, §3.3.3; Mubarak et al. 2019, §IV-C): kernels that write
// a program for each task (core/program.hpp), and their placement on the network's endpoints.
//
// An application spec is a kernel name with its parameters plus the parameters every kernel takes:
//   stencil3d:tasks=512,bytes=65536,iters=10,placement=random,class=1,arrival=0.5
// Adding a kernel: one file with a register_...() function plus one line in register_apps.cpp.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/program.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "core/application.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

class AppKernel;

struct AppContext {
  std::uint32_t tasks = 0;
  std::uint64_t seed = 1;                     // derived per application; kernels draw from it
  double endpoint_gbps = 100;                 // injection capacity, for kernels with an injection rate
  const PatternRegistry* patterns = nullptr;  // for the phased-pattern kernel
  std::uint32_t free_endpoints = 0;           // trace kernels: the most ranks a trace may have
  const Registry<AppKernel>* apps = nullptr;  // kernels that run other kernels (markov's comm_app)
};

class AppKernel {
 public:
  virtual ~AppKernel() = default;
  virtual void generate(const AppContext& ctx, ProgramBuilder& b) const = 0;
  // Trace kernels read the whole application as an operation graph (its ranks fix the task count;
  // ctx.tasks is 0) and never generate(); the others return nothing.
  virtual std::optional<OpGraph> trace(const AppContext&) const { return std::nullopt; }
  // Ranks beyond ctx.tasks that stand for where the tasks' data lives (Application::data_ranks):
  // generate() writes ctx.tasks + data_ranks() programs; the data ranks stay unplaced here.
  virtual std::uint32_t data_ranks(const AppContext&) const { return 0; }
  // The phases the application goes through, for the results (Application::phases); none by default.
  virtual std::vector<std::string> phases(const AppContext&) const { return {}; }
};

using AppRegistry = Registry<AppKernel>;

// The largest message size a kernel parameter may give (bytes): 8 x this is still far from overflowing
// a double, and the file readers take the same bound.
inline constexpr double kMaxBytes = 1e18;

// The kernel's own parameters followed by those every application takes: tasks, placement, class,
// arrival.
std::vector<ParamSpec> app_params(std::vector<ParamSpec> own);

// Endpoints not yet given to an application.
class EndpointPool {
 public:
  explicit EndpointPool(std::uint32_t endpoints);
  std::uint32_t free() const { return free_count_; }
  // `count` free endpoints: the first ones in id order, or drawn at random; InputError if too few.
  std::vector<EndpointId> take_consecutive(std::uint32_t count, const std::string& who);
  std::vector<EndpointId> take_random(std::uint32_t count, Rng& rng, const std::string& who);
  // The endpoints listed in a mapping file (one endpoint id per task, whitespace-separated, '#'
  // comments); InputError naming the file and line for an id out of range or already taken.
  std::vector<EndpointId> take_mapped(std::uint32_t count, const std::string& path, const std::string& who);

 private:
  void check(std::uint32_t count, const std::string& who) const;
  std::vector<std::uint8_t> used_;
  std::uint32_t free_count_;
};

struct AppSettings {
  std::uint64_t seed = 1;
  double endpoint_gbps = 100;
  const PatternRegistry* patterns = nullptr;
};

// Builds application number `index` from its spec: the kernel writes the programs, the tasks are
// placed on endpoints from `pool`.
Application make_application(const AppRegistry& registry, const Spec& spec, std::uint32_t index, EndpointPool& pool,
                             const AppSettings& settings);

void register_apps(AppRegistry& registry);
void register_phased_pattern_app(AppRegistry& registry);  // pattern
void register_scientific_apps(AppRegistry& registry);     // stencil2d/3d, wavefront2d/3d, nbody
void register_datacentre_apps(AppRegistry& registry);     // mapreduce, graph, dcntraffic
void register_collective_app(AppRegistry& registry);      // collective
void register_hpc_apps(AppRegistry& registry);            // lammps, nekbone, nn3d
void register_background_apps(AppRegistry& registry);     // uniform_bg, permutation_bg
void register_trace_apps(AppRegistry& registry);          // goal, vef, trc
void register_markov_app(AppRegistry& registry);          // markov

// For kernels that run MPI collectives: the tasks 0..n-1 as a communicator, and the
// `collective_class` parameter (the service class of the collectives' messages; -1 = the
// application's) with its reader, giving kAppClass for -1.
std::vector<std::uint32_t> all_task_ids(std::uint32_t n);
ParamSpec collective_class_param(const std::string& messages);
std::uint8_t collective_class(const ParamSet& params);

// One phase of flows [first, last) of `flows` (task ids) in the program: every task posts receives
// for its incoming flows, then starts its outgoing ones (non-blocking), and the tasks involved wait
// for both; self flows are dropped. `bytes` per flow, all with `tag`.
void exchange_phase(ProgramBuilder& b, std::uint32_t tasks, const FlowSet& flows, std::size_t first, std::size_t last,
                    double bytes, std::uint32_t tag);

// Grid helpers for the kernels: the most balanced factorisation of `tasks` into `d` dimensions
// (largest first), or `given` if not empty (its product must be `tasks`).
std::vector<std::uint32_t> grid_dims(std::uint32_t tasks, std::size_t d, const std::vector<std::uint32_t>& given,
                                     const ParamSet& params);

}  // namespace interflow::workloads
