// BA, bandwidth allocation: every class at one level with a guaranteed share of each link; shares a
// class leaves unused go to whoever can use them (Navaridas et al. 2019, §3.1, Fig. 1).
#include "engine/maxmin/class_policy.hpp"

namespace interflow::maxmin {

namespace {

std::unique_ptr<ClassPolicy> make_ba(const ParamSet&, const ClassPolicyInput& input) {
  check_fractions("ba", "share", input);
  if (!input.priorities.empty()) throw policy_error("ba", "takes no priorities (all classes are served at one level)");
  double sum = 0;
  for (double share : input.values) sum += share;
  if (sum > 1 + 1e-9) throw policy_error("ba", "the shares add up to " + std::to_string(sum) + "; expected at most 1");
  auto p = std::make_unique<ClassPolicy>();
  for (double share : input.values) p->classes.push_back({0, share});
  return p;
}

}  // namespace

void register_ba_policy(ClassPolicyRegistry& registry) {
  registry.add({"ba", "bandwidth allocation: guaranteed shares of every link (--class-share), unused shares handed on",
                {}, make_ba,
                "Navaridas et al. 2019, §3.1 and Fig. 1 (BA). --class-share gives each class its fraction of every "
                "link (in (0, 1], summing to at most 1); a class alone on a link takes all of it."});
}

}  // namespace interflow::maxmin
