#pragma once
// A registry of named plugins of one kind (topologies, routings, patterns, ...). Each folder
// exposes register_builtin(Registry&), called from one place at start-up; there are no
// self-registering static objects.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/params.hpp"

namespace interflow {

template <class Product, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const ParamSet&, Args...)>;
  struct Entry {
    std::string name;
    std::string summary;  // one line
    std::vector<ParamSpec> params;
    Factory make;
    std::string details;  // optional longer text for the manual (model, source, tie rules)
    // Optional: a small instance of the plugin as a spec (e.g. "torus:dims=4x4x4"), built by the
    // contract tests (tests/contract) and shown by `interflow list`. Relative file paths in it are
    // relative to the source tree (tests/fixtures/...).
    std::string example = {};
  };

  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  void add(Entry entry) {
    if (find_or_null(entry.name)) throw std::logic_error(kind_ + " '" + entry.name + "' registered twice");
    entries_.push_back(std::move(entry));
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  }

  const Entry* find_or_null(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  const Entry& find(const std::string& name) const {
    if (const Entry* e = find_or_null(name)) return *e;
    std::string names;
    for (const auto& e : entries_) names += (names.empty() ? "" : ", ") + e.name;
    throw InputError("unknown " + kind_ + " '" + name + "'; valid " + kind_ + " names: " + names);
  }

  // Validates the spec against the entry's declared parameters and builds the product.
  std::unique_ptr<Product> create(const Spec& spec, Args... args) const {
    const Entry& entry = find(spec.name);
    ParamSet params(kind_ + " '" + spec.text + "'", spec, entry.params);
    return entry.make(params, args...);
  }

  ParamSet validate(const Spec& spec) const {
    const Entry& entry = find(spec.name);
    return ParamSet(kind_ + " '" + spec.text + "'", spec, entry.params);
  }

  const std::vector<Entry>& entries() const { return entries_; }
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
  std::vector<Entry> entries_;
};

}  // namespace interflow
