// Causality-enhanced static patterns (Navaridas et al. 2019, §3.3.3): the flows of any static pattern, among the
// application's tasks, in phases of a given number of flows.
#include "core/error.hpp"
#include "workloads/application.hpp"

namespace interflow::workloads {

namespace {

class PhasedPattern : public AppKernel {
 public:
  explicit PhasedPattern(const ParamSet& p) : p_(p) {}
  void generate(const AppContext& ctx, ProgramBuilder& b) const override {
    if (!ctx.patterns) throw InputError("application 'pattern': no pattern registry available");
    const Spec spec = Spec::parse(p_.get_string("pattern"), "pattern of application 'pattern'");
    PatternContext pc;
    pc.endpoints = ctx.tasks;
    pc.seed = ctx.seed;
    FlowSet flows;
    ctx.patterns->create(spec)->generate(pc, flows);
    const double bytes = p_.get_real("bytes");
    const std::size_t n = flows.size();
    const auto k = static_cast<std::size_t>(p_.get_int("phase_size"));
    const std::size_t per_phase = k == 0 ? std::max<std::size_t>(n, 1) : k;
    for (std::size_t first = 0, phase = 0; first < n; first += per_phase, ++phase)
      exchange_phase(b, ctx.tasks, flows, first, std::min(n, first + per_phase), bytes,
                     static_cast<std::uint32_t>(phase));
  }

 private:
  ParamSet p_;
};

}  // namespace

void register_phased_pattern_app(AppRegistry& registry) {
  registry.add(
      {"pattern",
       "a static pattern's flows among the tasks, in phases: a task's phase p+1 starts when its "
       "messages of phase p are sent and received",
       app_params(
           {string_param("pattern", "uniform", "static pattern name (its default parameters; see `interflow list`)"),
            real_param("bytes", "1e6", "bytes per flow", 0, kMaxBytes),
            int_param("phase_size", "0", "flows per phase, in pattern order (0 = one phase)", 0, 1e12)}),
       [](const ParamSet& p) -> std::unique_ptr<AppKernel> { return std::make_unique<PhasedPattern>(p); },
       "The pattern is generated for an application-sized set of endpoints (task ids) from the "
       "application's seed. Its flows, in pattern order, form phases of `phase_size` flows; in each "
       "phase every task posts receives for its incoming flows, sends its outgoing ones "
       "(non-blocking) and waits for both. Self flows are dropped. For the flow-level variant in "
       "which a phase starts only when the whole previous phase is delivered, use `interflow "
       "dynamic -p PATTERN --phase-size K`."});
}

}  // namespace interflow::workloads
