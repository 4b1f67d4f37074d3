#include "experiments/toml_json.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"

namespace interflow::experiments {

std::string where(const std::string& file, const toml::node& node) {
  return file + ":" + std::to_string(node.source().begin.line);
}

Json to_json(const toml::node& node, const std::string& where) {
  if (const auto* s = node.as_string()) return Json(s->get());
  if (const auto* i = node.as_integer()) return Json(i->get());
  if (const auto* f = node.as_floating_point()) return Json(f->get());
  if (const auto* b = node.as_boolean()) return Json(b->get());
  if (const auto* a = node.as_array()) {
    Json out = Json::array();
    for (const toml::node& n : *a) out.push_back(to_json(n, where));
    return out;
  }
  throw InputError(where + ": expected a string, a number, a boolean or an array of them");
}

void put_toml(toml::table& table, const std::string& key, const Json& v) {
  if (v.is_string()) {
    table.insert_or_assign(key, v.get<std::string>());
  } else if (v.is_boolean()) {
    table.insert_or_assign(key, v.get<bool>());
  } else if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      table.insert_or_assign(key, std::to_string(u));
    else
      table.insert_or_assign(key, static_cast<std::int64_t>(u));
  } else if (v.is_number_integer()) {
    table.insert_or_assign(key, v.get<std::int64_t>());
  } else if (v.is_number()) {
    table.insert_or_assign(key, v.get<double>());
  } else if (v.is_array()) {
    toml::array a;
    for (const Json& e : v) {
      if (e.is_string())
        a.push_back(e.get<std::string>());
      else if (e.is_boolean())
        a.push_back(e.get<bool>());
      else if (e.is_number_integer())
        a.push_back(e.get<std::int64_t>());
      else if (e.is_number())
        a.push_back(e.get<double>());
      else if (e.is_array()) {
        toml::table holder;
        put_toml(holder, "x", e);
        a.push_back(*holder["x"].as_array());
      }
    }
    table.insert_or_assign(key, std::move(a));
  }
}

std::vector<std::string> option_texts(const Json& value) {
  const auto one = [](const Json& v) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number()) {
      const double d = v.get<double>();
      return std::isfinite(d) ? number_text(d) : std::string(std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
    }
    return v.dump();  // a nested array: the option's own check refuses it
  };
  std::vector<std::string> out;
  if (value.is_array())
    for (const Json& e : value) out.push_back(one(e));
  else
    out.push_back(one(value));
  return out;
}

toml::table parse_toml_file(const std::string& file, const std::string& what) {
  check_readable(file, what);
  try {
    return toml::parse_file(file);
  } catch (const toml::parse_error& e) {
    throw InputError(file + ":" + std::to_string(e.source().begin.line) + ":" +
                     std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
  }
}

}  // namespace interflow::experiments
