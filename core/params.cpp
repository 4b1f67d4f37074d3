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

std::optional<std::int64_t> parse_int(const std::string& text) {
  std::int64_t v = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || first == last) return std::nullopt;
  return v;
}

std::optional<double> parse_real(const std::string& text) {
  double v = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || first == last || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::vector<std::uint32_t>> parse_dims(const std::string& text) {
  std::vector<std::uint32_t> dims;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string::npos) end = text.size();
    auto v = parse_int(text.substr(start, end - start));
    if (!v || *v < 0 || *v > 0xffffffffLL) return std::nullopt;
    dims.push_back(static_cast<std::uint32_t>(*v));
    start = end + 1;
  }
  if (dims.empty()) return std::nullopt;
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
    const std::string expect = "expected " + d.type_name() + " in " + d.range_text() + ", got '" + v + "'";
    switch (d.type) {
      case ParamType::Int: {
        auto x = parse_int(v);
        if (!x || static_cast<double>(*x) < d.min || static_cast<double>(*x) > d.max) fail(d.name, expect);
        break;
      }
      case ParamType::Real: {
        auto x = parse_real(v);
        if (!x || *x < d.min || *x > d.max) fail(d.name, expect);
        break;
      }
      case ParamType::Bool:
        if (v != "true" && v != "false" && v != "1" && v != "0" && v != "yes" && v != "no") fail(d.name, expect);
        break;
      case ParamType::String:
        break;
      case ParamType::Choice: {
        bool ok = false;
        for (const auto& c : d.choices) ok = ok || c == v;
        if (!ok) fail(d.name, expect);
        break;
      }
      case ParamType::Dims: {
        auto x = parse_dims(v);
        bool ok = x.has_value();
        if (ok)
          for (auto e : *x) ok = ok && e >= d.min && e <= d.max;
        if (!ok) fail(d.name, expect);
        break;
      }
    }
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
