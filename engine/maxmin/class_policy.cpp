#include "engine/maxmin/class_policy.hpp"

#include <algorithm>

#include "core/error.hpp"

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

ClassPolicy make_class_policy(const std::string& name, const std::vector<double>& values,
                              const std::vector<std::uint32_t>& priorities, std::uint32_t classes) {
  ClassPolicy p;
  p.name = name;
  const auto fail = [&](const std::string& what) { return InputError("class policy '" + name + "': " + what); };
  const std::size_t count = std::max<std::size_t>({classes, values.size(), priorities.size(), 1});
  if (name == "np") {
    if (!values.empty() || !priorities.empty()) throw fail("takes no shares, caps or priorities");
    return p;
  }
  if (name == "fp") {
    if (!values.empty()) throw fail("takes no shares or caps (only --class-priority)");
    if (!priorities.empty() && priorities.size() < count)
      throw fail("needs a priority for each of the " + std::to_string(count) + " classes");
    for (std::size_t c = 0; c < count; ++c)
      p.classes.push_back({priorities.empty() ? static_cast<std::uint32_t>(c) : priorities[c], 1.0});
    return p;
  }
  if (name != "ba" && name != "qos") throw fail("unknown policy; expected np, fp, ba or qos");
  const char* what = name == "ba" ? "share" : "cap";
  if (values.size() < count)
    throw fail("needs a " + std::string(what) + " for each of the " + std::to_string(count) + " classes, got " +
               std::to_string(values.size()));
  double sum = 0;
  for (std::size_t c = 0; c < values.size(); ++c) {
    if (!(values[c] > 0 && values[c] <= 1))
      throw fail(std::string(what) + " of class " + std::to_string(c) + " is " + std::to_string(values[c]) +
                 "; expected a fraction in (0, 1]");
    sum += values[c];
  }
  if (name == "ba") {
    if (!priorities.empty()) throw fail("takes no priorities (all classes are served at one level)");
    if (sum > 1 + 1e-9) throw fail("the shares add up to " + std::to_string(sum) + "; expected at most 1");
    for (double share : values) p.classes.push_back({0, share});
    return p;
  }
  if (priorities.size() != values.size())
    throw fail("needs as many priorities as caps (" + std::to_string(values.size()) + "), got " +
               std::to_string(priorities.size()));
  for (std::size_t c = 0; c < values.size(); ++c) p.classes.push_back({priorities[c], values[c]});
  return p;
}

}  // namespace interflow::maxmin
