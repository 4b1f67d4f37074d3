#include "engine/maxmin/class_policy.hpp"

#include <algorithm>

namespace interflow::maxmin {

bool ClassPolicy::plain() const {
  for (const ClassRule& c : classes)
    if (c.priority != classes.front().priority || c.cap < 1.0) return false;
  return true;
}

const ClassRule& ClassPolicy::rule(std::uint32_t service_class) const {
  static const ClassRule kShared{};
  if (classes.empty()) return kShared;
  if (service_class >= classes.size())
    throw InputError("class policy '" + name + "': a flow of class " + std::to_string(service_class) +
                     " but the policy defines classes 0.." + std::to_string(classes.size() - 1));
  return classes[service_class];
}

void register_class_policies(ClassPolicyRegistry& registry) {
  register_np_policy(registry);
  register_fp_policy(registry);
  register_ba_policy(registry);
  register_qos_policy(registry);
}

ClassPolicy make_class_policy(const ClassPolicyRegistry& registry, const std::string& name,
                              const ClassPolicyInput& input) {
  ClassPolicy policy = *registry.create(Spec::parse(name, "--policy"), input);
  policy.name = name;
  return policy;
}

InputError policy_error(const std::string& name, const std::string& what) {
  return InputError("class policy '" + name + "': " + what);
}

std::size_t rule_count(const ClassPolicyInput& input) {
  return std::max<std::size_t>({input.classes, input.values.size(), input.priorities.size(), 1});
}

void check_fractions(const std::string& name, const char* what, const ClassPolicyInput& input) {
  const std::size_t count = rule_count(input);
  if (input.values.size() < count)
    throw policy_error(name, "needs a " + std::string(what) + " for each of the " + std::to_string(count) +
                                 " classes, got " + std::to_string(input.values.size()));
  for (std::size_t c = 0; c < input.values.size(); ++c)
    if (!(input.values[c] > 0 && input.values[c] <= 1))
      throw policy_error(name, std::string(what) + " of class " + std::to_string(c) + " is " +
                                   std::to_string(input.values[c]) + "; expected a fraction in (0, 1]");
}

}  // namespace interflow::maxmin
