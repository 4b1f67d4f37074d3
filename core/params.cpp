#include "core/params.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace interflow {

namespace {

std::string number_text(double v) {
  if (v <= -1e299) return "-inf";
  if (v >= 1e299) return "inf";
  std::ostringstream out;
  if (v == std::floor(v) && std::fabs(v) < 9.0e15)
    out << static_cast<long long>(v);  // integers in full, not as 4.29497e+09
  else
    out << v;
  return out.str();
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

}  // namespace

std::string ParamSpec::type_name() const {
  switch (type) {
    case ParamType::Int:
      return "int";
    case ParamType::Real:
      return "real";
    case ParamType::Bool:
      return "bool";
    case ParamType::String:
      return "string";
    case ParamType::Choice:
      return "choice";
    case ParamType::Dims:
      return "dims";
  }
  return "?";
}

std::string ParamSpec::range_text() const {
  switch (type) {
    case ParamType::Int:
    case ParamType::Real:
      return number_text(min) + ".." + number_text(max);
    case ParamType::Bool:
      return "true|false";
    case ParamType::String:
      return "text";
    case ParamType::Choice:
      return join(choices, "|");
    case ParamType::Dims:
      return "AxBx... each >= " + number_text(min);
  }
  return "";
}

ParamSpec int_param(std::string name, std::string def, std::string description, double min, double max) {
  return ParamSpec{std::move(name), ParamType::Int, std::move(def), std::move(description), min, max, {}, false};
}
ParamSpec real_param(std::string name, std::string def, std::string description, double min, double max) {
  return ParamSpec{std::move(name), ParamType::Real, std::move(def), std::move(description), min, max, {}, false};
}
ParamSpec bool_param(std::string name, std::string def, std::string description) {
  return ParamSpec{std::move(name), ParamType::Bool, std::move(def), std::move(description), 0, 1, {}, false};
}
ParamSpec string_param(std::string name, std::string def, std::string description) {
  return ParamSpec{std::move(name), ParamType::String, std::move(def), std::move(description), 0, 0, {}, false};
}
ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string description) {
  return ParamSpec{
      std::move(name), ParamType::Choice, std::move(def), std::move(description), 0, 0, std::move(choices), false};
}
ParamSpec dims_param(std::string name, std::string def, std::string description, double min_entry) {
  return ParamSpec{
      std::move(name), ParamType::Dims, std::move(def), std::move(description), min_entry, 1e300, {}, false};
}

namespace {

// The digits of a number: one optional '+' is skipped (from_chars takes none), but not a sign after
// it ("+-5"), which from_chars would read as -5.
const char* skip_plus(const char* first, const char* last) {
  if (first != last && *first == '+') {
    ++first;
    if (first != last && *first == '-') return last;  // nothing left: refused as empty
  }
  return first;
}

// Why `text` is not a 64-bit integer, or "" when it is one.
std::string int_problem(const std::string& text, std::int64_t& v) {
  const char* last = text.data() + text.size();
  const char* first = skip_plus(text.data(), last);
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (first == last || ptr != last || ec == std::errc::invalid_argument) return "not a whole number";
  if (ec == std::errc::result_out_of_range) return "out of the range of a 64-bit integer";
  return "";
}

// Why `text` is not a finite real number, or "" when it is one. from_chars reads "nan", "inf" and
// "infinity" as numbers and refuses hexadecimal ("0x1p3" stops after the 0); an overflow ("1e999")
// or an underflow below the smallest double ("1e-400") is out of range, never rounded to inf or 0.
std::string real_problem(const std::string& text, double& v) {
  const char* last = text.data() + text.size();
  const char* first = skip_plus(text.data(), last);
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (first == last || ptr != last || ec == std::errc::invalid_argument) return "not a number";
  if (ec == std::errc::result_out_of_range) return "out of the range of a double";
  if (!std::isfinite(v)) return "not a finite number";
  return "";
}

// Why `text` is not "AxBx..." of entries 0..2^32-1, or "" when it is.
std::string dims_problem(const std::string& text, std::vector<std::uint32_t>& dims) {
  dims.clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    const std::string where = "entry " + std::to_string(dims.size() + 1) + " '" + entry + "' ";
    std::int64_t v = 0;
    if (const std::string problem = int_problem(entry, v); !problem.empty()) return where + "is " + problem;
    if (v < 0 || v > 0xffffffffLL) return where + "is out of the range 0..4294967295";
    dims.push_back(static_cast<std::uint32_t>(v));
    start = end + 1;
  }
  return "";
}

}  // namespace

std::optional<std::int64_t> parse_int(const std::string& text) {
  std::int64_t v = 0;
  if (!int_problem(text, v).empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(const std::string& text) {
  double v = 0;
  if (!real_problem(text, v).empty()) return std::nullopt;
  return v;
}

std::optional<std::vector<std::uint32_t>> parse_dims(const std::string& text) {
  std::vector<std::uint32_t> dims;
  if (!dims_problem(text, dims).empty()) return std::nullopt;
  return dims;
}

Spec Spec::parse(const std::string& text, const std::string& what) {
  Spec spec;
  spec.text = text;
  const std::size_t colon = text.find(':');
  spec.name = text.substr(0, colon);
  if (spec.name.empty()) throw InputError(what + " '" + text + "': expected NAME or NAME:key=value,key=value");
  if (colon == std::string::npos) return spec;
  const std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {  // "<=": a trailing comma is an empty item, reported below
    std::size_t end = rest.find(',', start);
    if (end == std::string::npos) end = rest.size();
    const std::string item = rest.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(what + " '" + text + "': expected key=value, got '" + item + "'");
    spec.values.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = end + 1;
  }
  return spec;
}

std::string Spec::canonical() const {
  std::string out = name;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : ":") + values[i].first + "=" + values[i].second;
  return out;
}

namespace {

// Written as "inside" so that a NaN bound or value is never in range. Long double holds every int64
// exactly, so an integer just above a bound is not rounded onto it.
bool below(long double x, double min) { return !(x >= static_cast<long double>(min)); }
bool above(long double x, double max) { return !(x <= static_cast<long double>(max)); }

std::string range_problem(long double x, const ParamSpec& d) {
  if (below(x, d.min)) return "below the minimum " + number_text(d.min);
  if (above(x, d.max)) return "above the maximum " + number_text(d.max);
  return "";
}

// Why `v` is not a valid value of `d`: nothing when it is valid, "" when the expected form says all.
std::optional<std::string> value_problem(const ParamSpec& d, const std::string& v) {
  const auto problem_or_valid = [](std::string problem) -> std::optional<std::string> {
    if (problem.empty()) return std::nullopt;
    return problem;
  };
  switch (d.type) {
    case ParamType::Int: {
      std::int64_t x = 0;
      const std::string problem = int_problem(v, x);
      return problem_or_valid(problem.empty() ? range_problem(static_cast<long double>(x), d) : problem);
    }
    case ParamType::Real: {
      double x = 0;
      const std::string problem = real_problem(v, x);
      return problem_or_valid(problem.empty() ? range_problem(x, d) : problem);
    }
    case ParamType::Bool:
      if (v == "true" || v == "false" || v == "1" || v == "0" || v == "yes" || v == "no") return std::nullopt;
      return "";
    case ParamType::String:
      return std::nullopt;
    case ParamType::Choice:
      for (const auto& c : d.choices)
        if (c == v) return std::nullopt;
      return "";
    case ParamType::Dims: {
      std::vector<std::uint32_t> dims;
      if (std::string problem = dims_problem(v, dims); !problem.empty()) return problem;
      for (std::size_t i = 0; i < dims.size(); ++i)
        if (below(dims[i], d.min) || above(dims[i], d.max))
          return "entry " + std::to_string(i + 1) + " '" + std::to_string(dims[i]) + "' is " +
                 (below(dims[i], d.min) ? "below " + number_text(d.min) : "above " + number_text(d.max));
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

ParamSet::ParamSet(const std::string& context, const Spec& spec, const std::vector<ParamSpec>& declared)
    : context_(context) {
  for (const auto& [key, value] : spec.values) {
    const ParamSpec* decl = nullptr;
    for (const auto& d : declared)
      if (d.name == key) decl = &d;
    if (!decl) {
      std::vector<std::string> names;
      for (const auto& d : declared) names.push_back(d.name);
      throw InputError(context_ + ": unknown parameter '" + key +
                       "'; valid parameters: " + (names.empty() ? std::string("(none)") : join(names, ", ")));
    }
    if (given_.count(key)) throw InputError(context_ + ": parameter '" + key + "' given twice");
    values_[key] = value;
    given_[key] = true;
  }
  for (const auto& d : declared) {
    auto it = values_.find(d.name);
    if (it == values_.end()) {
      if (d.default_value.empty()) {
        if (d.optional) continue;
        throw InputError(context_ + ": missing required parameter '" + d.name + "' (" + d.type_name() + ", " +
                         d.range_text() + "): " + d.description);
      }
      it = values_.emplace(d.name, d.default_value).first;
    }
    const std::string& v = it->second;
    if (const auto problem = value_problem(d, v))
      fail(d.name, "expected " + d.type_name() + " in " + d.range_text() + ", got '" + v + "'" +
                       (problem->empty() ? "" : " (" + *problem + ")"));
    effective_.emplace_back(d.name, v);
  }
}

void ParamSet::fail(const std::string& name, const std::string& what) const {
  throw InputError(context_ + ": parameter '" + name + "': " + what);
}

const std::string& ParamSet::raw(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error(context_ + ": parameter '" + name + "' read but has no value");
  return it->second;
}

bool ParamSet::has(const std::string& name) const { return values_.count(name) != 0; }
bool ParamSet::given(const std::string& name) const { return given_.count(name) != 0; }
std::int64_t ParamSet::get_int(const std::string& name) const { return *parse_int(raw(name)); }
double ParamSet::get_real(const std::string& name) const { return *parse_real(raw(name)); }
bool ParamSet::get_bool(const std::string& name) const {
  const auto& v = raw(name);
  return v == "true" || v == "1" || v == "yes";
}
const std::string& ParamSet::get_string(const std::string& name) const { return raw(name); }
std::vector<std::uint32_t> ParamSet::get_dims(const std::string& name) const { return *parse_dims(raw(name)); }

}  // namespace interflow
