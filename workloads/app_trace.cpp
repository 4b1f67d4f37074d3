// Trace applications: a GOAL schedule, a VEF trace or an INRFlow trace replayed as an application
// (manual/traces.md). Their rank count fixes the task count; placement, mapping, class and arrival
// work as for every application.
#include <sstream>

#include "core/error.hpp"
#include "workloads/application.hpp"
#include "workloads/traces.hpp"

namespace interflow::workloads {

namespace {

class GoalTrace : public AppKernel {
 public:
  explicit GoalTrace(const ParamSet& p) : p_(p) {}
  void generate(const AppContext&, ProgramBuilder&) const override {}
  std::optional<OpGraph> trace(const AppContext& ctx) const override {
    GoalOptions o;
    o.max_ranks = ctx.free_endpoints;
    o.calc_unit_s = p_.get_real("calc_unit");
    return read_goal(file(p_), o);
  }
  static std::string file(const ParamSet& p) {
    const std::string& f = p.get_string("file");
    if (f.empty()) p.fail("file", "expected the path of the trace");
    return f;
  }

 private:
  ParamSet p_;
};

// "a,b,c" -> its comma-... separated items; the spec syntax keeps commas for parameters, so lists use '/'.
std::vector<std::string> items(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, '/');) out.push_back(item);
  return out;
}

class VefTrace : public AppKernel {
 public:
  explicit VefTrace(const ParamSet& p) : p_(p) {}
  void generate(const AppContext&, ProgramBuilder&) const override {}
  std::optional<OpGraph> trace(const AppContext& ctx) const override {
    VefOptions o;
    o.max_ranks = ctx.free_endpoints;
    o.time_unit_s = p_.get_real("time_unit");
    o.algorithm = algorithm_from_name(p_.get_string("alg"));
    const std::vector<std::string> deps = items(p_.get_string("dep_codes"));
    if (deps.size() != 4) p_.fail("dep_codes", "expected 4 codes a/b/c/d: independent/receive/send/collective");
    for (std::size_t k = 0; k < 4; ++k) {
      try {
        o.codes.dependency[k] = static_cast<std::uint32_t>(std::stoul(deps[k]));
      } catch (const std::exception&) {
        p_.fail("dep_codes", "'" + deps[k] + "' is not a whole number");
      }
    }
    o.codes.operations.clear();
    for (const std::string& name : items(p_.get_string("op_codes"))) {
      try {
        o.codes.operations.push_back(collective_op_from_name(name));
      } catch (const InputError& e) {
        p_.fail("op_codes", e.what());
      }
    }
    return read_vef(GoalTrace::file(p_), o);
  }

 private:
  ParamSet p_;
};

class InrflowTrace : public AppKernel {
 public:
  explicit InrflowTrace(const ParamSet& p) : p_(p) {}
  void generate(const AppContext&, ProgramBuilder&) const override {}
  std::optional<OpGraph> trace(const AppContext& ctx) const override {
    TrcOptions o;
    o.max_ranks = ctx.free_endpoints;
    o.swapped = p_.get_string("order") == "swapped";
    o.compute_unit_s = p_.get_real("compute_unit");
    o.ranks = static_cast<std::uint32_t>(p_.get_int("ranks"));
    return read_trc(GoalTrace::file(p_), o);
  }

 private:
  ParamSet p_;
};

}  // namespace

void register_trace_apps(AppRegistry& registry) {
  registry.add({"goal", "a GOAL schedule (LogGOPSim / Schedgen text format) replayed with its dependencies",
                app_params({string_param("file", "", "the schedule's path"),
                            real_param("calc_unit", "1e-9", "seconds per unit of a calc's time", 0)}),
                [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<GoalTrace>(p); },
                "Reads `file` (manual/traces.md): `num_ranks`, then per rank its send, recv and calc operations "
                "with labels and requires/irequires dependencies. The trace's ranks fix the task count."});
  registry.add(
      {"vef", "a VEF trace (UCLM VEF framework) replayed with its dependencies; collectives expand into messages",
       app_params({string_param("file", "", "the trace's path"),
                   real_param("time_unit", "1e-9", "seconds per unit of time_ns", 0),
                   string_param("dep_codes", "0/1/2/3",
                                "dependency type codes of independent/receive/send/collective, '/'-separated"),
                   string_param("op_codes", "bcast/reduce/allreduce/gather/scatter/allgather/barrier/alltoall",
                                "the collective operation of each code 0, 1, ..., '/'-separated"),
                   choice_param("alg", "default",
                                {"default", "linear", "binomial", "recdoubling", "ring", "pairwise", "dissemination"},
                                "the algorithm collectives expand with (default: each operation's own)")}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<VefTrace>(p); },
       "Reads `file` (manual/traces.md): the header, the communicators, the messages with one dependency "
       "each and the collectives, one line per member. The numeric codes of dependency types and "
       "collective operations are not all public: the defaults are documented assumptions, overridden "
       "with dep_codes and op_codes."});
  registry.add(
      {"trc", "an INRFlow / FSIN plain trace (s, r, c lines) replayed: sends do not block, receives do",
       app_params({string_param("file", "", "the trace's path"),
                   choice_param("order", "fsin", {"fsin", "swapped"},
                                "field order of s and r lines: fsin = sender receiver, swapped = receiver sender"),
                   real_param("compute_unit", "1e-9", "seconds per unit of a c line's time", 0),
                   int_param("ranks", "0", "ranks of the trace (0 = the largest rank named + 1)", 0, 2147483647.0)}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<InrflowTrace>(p); },
       "Reads `file` (manual/traces.md): `s <sender> <receiver> <tag> <bytes>` injects a message and "
       "goes on, `r <sender> <receiver> <tag> <bytes>` waits for it at the receiver, `c <rank> <time>` "
       "computes. order=swapped reads the two ranks the other way round."});
}

}  // namespace interflow::workloads
