// An application that repeats one MPI collective among all its tasks (workloads/collectives.hpp), with
// computation between repetitions; its messages may travel in their own service class.
#include <numeric>

#include "workloads/application.hpp"
#include "workloads/collectives.hpp"

namespace interflow::workloads {

namespace {

class CollectiveApp : public AppKernel {
 public:
  explicit CollectiveApp(const ParamSet& p)
      : p_(p), op_(collective_op_from_name(p.get_string("op"))), alg_(algorithm_from_name(p.get_string("alg"))) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    const std::vector<std::uint32_t> members = all_task_ids(ctx.tasks);
    const Collective c{op_, alg_, p_.get_real("bytes"), static_cast<std::uint32_t>(p_.get_int("root")),
                       collective_class(p_)};
    for (std::int64_t it = 0; it < p_.get_int("iters"); ++it) {
      for (std::uint32_t t = 0; t < ctx.tasks; ++t) b.compute(t, p_.get_real("compute"));
      add_collective(b, members, c);
    }
  }

 private:
  ParamSet p_;
  CollectiveOp op_;
  CollectiveAlgorithm alg_;
};

}  // namespace

std::vector<std::uint32_t> all_task_ids(std::uint32_t n) {
  std::vector<std::uint32_t> members(n);
  std::iota(members.begin(), members.end(), 0u);
  return members;
}

ParamSpec collective_class_param(const std::string& messages) {
  return int_param("collective_class", "-1", "service class of " + messages + " (-1: the application's)", -1, 254);
}

std::uint8_t collective_class(const ParamSet& params) {
  const auto klass = params.get_int("collective_class");
  return klass >= 0 ? static_cast<std::uint8_t>(klass) : kAppClass;
}

void register_collective_app(AppRegistry& registry) {
  registry.add(
      {"collective",
       "one MPI collective among all tasks, repeated: barrier, bcast, reduce, allreduce, allgather, alltoall, "
       "gather or scatter with a selectable algorithm",
       app_params(
           {choice_param("op", "allreduce",
                         {"barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "gather", "scatter"},
                         "the collective operation"),
            choice_param("alg", "default",
                         {"default", "linear", "binomial", "recdoubling", "ring", "pairwise", "dissemination"},
                         "the algorithm (manual/collectives.md lists which apply to which operation)"),
            real_param("bytes", "8", "message size as the operation defines it (manual/collectives.md)", 0, kMaxBytes),
            int_param("root", "0", "root rank of bcast, reduce, gather and scatter", 0, 4294967295.0),
            int_param("iters", "1", "repetitions", 1, 1e9),
            real_param("compute", "0", "computation per task before each repetition (seconds)", 0),
            collective_class_param("the collective's messages")}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<CollectiveApp>(p); },
       "Every repetition each task computes for `compute` seconds, then all tasks run the collective, "
       "expanded into point-to-point messages by the chosen algorithm (binomial trees, recursive doubling, "
       "ring, pairwise exchange, dissemination or linear; see manual/collectives.md for message counts and "
       "sizes). An algorithm that does not apply to the operation, or a root outside the tasks, is refused."});
}

}  // namespace interflow::workloads
