// Traffic classes with a bandwidth cap and a priority each (Mubarak et al. 2019, §II: a capped
// high-priority class, the others below it).
#include "engine/maxmin/class_policy.hpp"

namespace interflow::maxmin {

namespace {

std::unique_ptr<ClassPolicy> make_qos(const ParamSet&, const ClassPolicyInput& input) {
  check_fractions("qos", "cap", input);
  if (input.priorities.size() != input.values.size())
    throw policy_error("qos", "needs as many priorities as caps (" + std::to_string(input.values.size()) + "), got " +
                                  std::to_string(input.priorities.size()));
  auto p = std::make_unique<ClassPolicy>();
  for (std::size_t c = 0; c < input.values.size(); ++c) p->classes.push_back({input.priorities[c], input.values[c]});
  return p;
}

}  // namespace

void register_qos_policy(ClassPolicyRegistry& registry) {
  registry.add({"qos", "traffic classes: each a priority (--class-priority) and a bandwidth cap (--class-cap)", {},
                make_qos,
                "Mubarak et al. 2019, §II. Each class is served at its priority level (0 first) and takes at most "
                "its cap (a fraction of every link's capacity) there; what all levels leave goes to every flow "
                "that can still grow."});
}

}  // namespace interflow::maxmin
