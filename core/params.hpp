#pragma once
// Self-describing plugin parameters. Every plugin declares its parameters (type, default, range,
// meaning); `interflow list` and the manual's reference pages are generated from these
// declarations, and a spec string such as "torus:dims=8x8x8,c=1" is validated against them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace interflow {

enum class ParamType { Int, Real, Bool, String, Choice, Dims };

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Int;
  std::string default_value;  // empty: the parameter is required (or optional, see `optional`)
  std::string description;
  double min = -1e300;  // Int/Real: inclusive range; Dims: minimum of each entry
  double max = 1e300;
  std::vector<std::string> choices;  // Choice only
  bool optional = false;             // no default and may be left out

  std::string type_name() const;   // "int", "real", "dims", ...
  std::string range_text() const;  // "2..inf", "one of: a|b", ...
};

// Helpers that keep plugin declarations short.
ParamSpec int_param(std::string name, std::string def, std::string description, double min = -1e300,
                    double max = 1e300);
ParamSpec real_param(std::string name, std::string def, std::string description, double min = -1e300,
                     double max = 1e300);
ParamSpec bool_param(std::string name, std::string def, std::string description);
ParamSpec string_param(std::string name, std::string def, std::string description);
ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string description);
ParamSpec dims_param(std::string name, std::string def, std::string description, double min_entry = 1);

// A parsed "name:key=value,key=value" string, not yet checked against any declaration.
struct Spec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> values;
  std::string text;  // the original string, for messages

  static Spec parse(const std::string& text, const std::string& what);
  std::string canonical() const;
};

// The validated parameters of one plugin instance: every declared parameter has a value (given or
// default), every given key is declared, and every value parses as its type and lies in its range.
class ParamSet {
 public:
  ParamSet() = default;
  ParamSet(const std::string& context, const Spec& spec, const std::vector<ParamSpec>& declared);

  bool has(const std::string& name) const;  // has a value (given or default)
  bool given(const std::string& name) const;
  std::int64_t get_int(const std::string& name) const;
  double get_real(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  const std::string& get_string(const std::string& name) const;
  std::vector<std::uint32_t> get_dims(const std::string& name) const;

  // Effective values of all parameters, in declaration order (for echoing configurations).
  const std::vector<std::pair<std::string, std::string>>& effective() const { return effective_; }
  const std::string& context() const { return context_; }
  // An InputError naming this plugin and parameter; for cross-parameter checks in factories.
  [[noreturn]] void fail(const std::string& name, const std::string& what) const;

 private:
  const std::string& raw(const std::string& name) const;
  std::string context_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> given_;
  std::vector<std::pair<std::string, std::string>> effective_;
};

// Parses "8x8x8" (also "8,8,8" is not accepted: commas separate parameters).
std::optional<std::vector<std::uint32_t>> parse_dims(const std::string& text);
std::optional<std::int64_t> parse_int(const std::string& text);
std::optional<double> parse_real(const std::string& text);

}  // namespace interflow
