// FP, full priority: class c at level c (or at --class-priority's level), each level taking what the
// levels before it left (Navaridas et al. 2019, §3.1, Fig. 1).
#include "engine/maxmin/class_policy.hpp"

namespace interflow::maxmin {

namespace {

std::unique_ptr<ClassPolicy> make_fp(const ParamSet&, const ClassPolicyInput& input) {
  if (!input.values.empty()) throw policy_error("fp", "takes no shares or caps (only --class-priority)");
  const std::size_t count = rule_count(input);
  if (!input.priorities.empty() && input.priorities.size() < count)
    throw policy_error("fp", "needs a priority for each of the " + std::to_string(count) + " classes");
  auto p = std::make_unique<ClassPolicy>();
  for (std::size_t c = 0; c < count; ++c)
    p->classes.push_back({input.priorities.empty() ? static_cast<std::uint32_t>(c) : input.priorities[c], 1.0});
  return p;
}

}  // namespace

void register_fp_policy(ClassPolicyRegistry& registry) {
  registry.add({"fp", "full priority: a class takes only what the classes of higher priority left", {}, make_fp,
                "Navaridas et al. 2019, §3.1 and Fig. 1 (FP). Class c is served at level c (0 first), or at the "
                "level --class-priority gives it; no cap."});
}

}  // namespace interflow::maxmin
