// NP, no priority: every class alike, one plain max-min problem (Navaridas et al. 2019, §3.1, Fig. 1).
#include "engine/maxmin/class_policy.hpp"

namespace interflow::maxmin {

namespace {

std::unique_ptr<ClassPolicy> make_np(const ParamSet&, const ClassPolicyInput& input) {
  if (!input.values.empty() || !input.priorities.empty())
    throw policy_error("np", "takes no shares, caps or priorities");
  return std::make_unique<ClassPolicy>();
}

}  // namespace

void register_np_policy(ClassPolicyRegistry& registry) {
  registry.add({"np", "no priority: every class shares links alike (plain max-min)", {}, make_np,
                "Navaridas et al. 2019, §3.1 and Fig. 1 (NP). Takes no --class-share, --class-cap or "
                "--class-priority."});
}

}  // namespace interflow::maxmin
