#pragma once
// How service classes share a link (INRFlow's NP/BA/FP, Navaridas et al. 2019, §3.1
// and Fig. 1, and the traffic classes with a bandwidth cap and a priority of Mubarak et al. 2019, §II).
//
// Every policy is one rule per class: a priority level (0 = served first) and a cap, the fraction of
// each link's capacity the class may take at its level. Rates are the result of a sequence of max-min
// problems:
//   1. priority levels in increasing order: the classes of a level share, max-min fairly, what the
//      levels before them left on every link, each class also bounded by cap x capacity per link;
//   2. then, if any cap is below 1, what is left on each link goes to every flow that can still grow,
//      max-min fairly over the increments, whatever its class (a class above its cap drops to the
//      lowest priority and the leftover is shared round-robin among those classes).
// NP:  one level, cap 1: plain max-min.
// FP:  class c at level c, cap 1: strict priority.
// BA:  every class at level 0 with cap = its share (shares sum to at most 1); step 2 hands the unused
//      shares to whoever can use them, so a class alone on a link takes all of it.
// QoS: each class its own priority and cap (Mubarak et al. 2019: a capped high-priority class, the rest below).
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/registry.hpp"

namespace interflow::maxmin {

struct ClassRule {
  std::uint32_t priority = 0;  // 0 is served first
  double cap = 1.0;            // fraction of each link's capacity, in (0, 1]
};

struct ClassPolicy {
  std::string name = "np";
  std::vector<ClassRule> classes;  // empty: every flow in one class (NP)

  bool plain() const;  // every class alike: one level, no cap below 1
  // The rule of a class; throws InputError if the policy names fewer classes.
  const ClassRule& rule(std::uint32_t service_class) const;
};

// What a policy is built from: the per-class values of --class-share (ba) or --class-cap (qos), the
// levels of --class-priority, and the number of classes the workload uses (rules are made for at least
// that many).
struct ClassPolicyInput {
  std::vector<double> values;
  std::vector<std::uint32_t> priorities;
  std::uint32_t classes = 1;
};

// Class policies are plugins (one file each: policy_np.cpp, policy_fp.cpp, policy_ba.cpp,
// policy_qos.cpp): the factory checks the input and returns the rules, throwing InputError naming
// the policy and the problem.
using ClassPolicyRegistry = Registry<ClassPolicy, const ClassPolicyInput&>;
void register_class_policies(ClassPolicyRegistry& registry);
void register_np_policy(ClassPolicyRegistry& registry);
void register_fp_policy(ClassPolicyRegistry& registry);
void register_ba_policy(ClassPolicyRegistry& registry);
void register_qos_policy(ClassPolicyRegistry& registry);

// The policy `name` of the registry, built from `input` (InputError for an unknown name: the list of
// valid ones).
ClassPolicy make_class_policy(const ClassPolicyRegistry& registry, const std::string& name,
                              const ClassPolicyInput& input);

// Shared by the factories: an InputError "class policy '<name>': <what>", the number of classes to
// make rules for, and the check that every value is a fraction in (0, 1].
InputError policy_error(const std::string& name, const std::string& what);
std::size_t rule_count(const ClassPolicyInput& input);
void check_fractions(const std::string& name, const char* what, const ClassPolicyInput& input);

}  // namespace interflow::maxmin
