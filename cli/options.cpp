#include "cli/options.hpp"

#include <cctype>

#include <charconv>
#include <cmath>
#include <toml++/toml.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"
#include "experiments/experiment.hpp"
#include "interflow/version.hpp"

namespace interflow::cli {

namespace {

std::string bound_text(double v) { return std::isinf(v) ? (v > 0 ? "inf" : "-inf") : number_text(v); }

// The long name of an option without dashes ("switch-gbps").
std::string long_name(const CLI::Option* o) { return o->get_lnames().empty() ? o->get_name() : o->get_lnames()[0]; }

std::string json_key(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace

CLI::Validator whole_in(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        const bool whole = !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
        if (whole && v >= min && v <= max) return {};
        return "expected a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "], got '" + text +
               "'";
      },
      "in [" + std::to_string(min) + ", " + std::to_string(max) + "]", "whole");
}

CLI::Validator real_in(double min, double max, bool open_min) {
  const std::string range = (open_min ? "(" : "[") + bound_text(min) + ", " + bound_text(max) + "]";
  return CLI::Validator(
      [min, max, open_min, range](std::string& text) -> std::string {
        double v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        const bool number = !text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size();
        if (number && std::isfinite(v) && (open_min ? v > min : v >= min) && v <= max) return {};
        return "expected a finite number in " + range + ", got '" + text + "'";
      },
      range, "real");
}

OptionTable::OptionTable(CLI::App* command) : command_(command) {}

CLI::Option* OptionTable::add(CLI::Option* option, std::function<Json()> value) {
  entries_.push_back({option, std::move(value)});
  return option;
}

CLI::Option* OptionTable::text(const std::string& names, std::string& value, const std::string& meaning) {
  return add(command_->add_option(names, value, meaning)->capture_default_str(), [&value] { return Json(value); });
}

CLI::Option* OptionTable::whole(const std::string& names, std::uint64_t& value, const std::string& meaning,
                                std::uint64_t min, std::uint64_t max) {
  return add(command_->add_option(names, value, meaning)->check(whole_in(min, max))->capture_default_str(),
             [&value] { return Json(value); });
}

CLI::Option* OptionTable::whole(const std::string& names, std::uint32_t& value, const std::string& meaning,
                                std::uint32_t min, std::uint32_t max) {
  return add(command_->add_option(names, value, meaning)->check(whole_in(min, max))->capture_default_str(),
             [&value] { return Json(value); });
}

CLI::Option* OptionTable::real(const std::string& names, double& value, const std::string& meaning, double min,
                               double max, bool open_min) {
  return add(command_->add_option(names, value, meaning)->check(real_in(min, max, open_min))->capture_default_str(),
             [&value] { return Json(value); });
}

CLI::Option* OptionTable::flag(const std::string& names, bool& value, const std::string& meaning) {
  // A flag takes no value, or one of true / false / 1 / 0 (as config.toml and experiment files write
  // it); CLI11 alone would also read any number (-1, 7, 1e300) as a truth value.
  const CLI::Validator boolean(
      [](std::string& v) {
        std::string lower = v;
        for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return lower.empty() || lower == "true" || lower == "false" || lower == "1" || lower == "0"
                   ? std::string{}
                   : "expected no value, true, false, 1 or 0, got '" + v + "'";
      },
      "BOOLEAN");
  return add(command_->add_flag(names, value, meaning)->check(boolean), [&value] { return Json(value); });
}

CLI::Option* OptionTable::texts(const std::string& names, std::vector<std::string>& value,
                                const std::string& meaning) {
  return add(command_->add_option(names, value, meaning), [&value] { return Json(value); });
}

CLI::Option* OptionTable::reals(const std::string& names, std::vector<double>& value, const std::string& meaning,
                                double min, double max, bool open_min) {
  return add(command_->add_option(names, value, meaning)->delimiter(',')->check(real_in(min, max, open_min)),
             [&value] { return Json(value); });
}

CLI::Option* OptionTable::wholes(const std::string& names, std::vector<std::uint32_t>& value,
                                 const std::string& meaning, std::uint32_t min, std::uint32_t max) {
  return add(command_->add_option(names, value, meaning)->delimiter(',')->check(whole_in(min, max))->capture_default_str(),
             [&value] { return Json(value); });
}

void OptionTable::add_config() {
  command_->add_option("--config", config_,
                       "read options from a TOML experiment file (keys are long option names; the command line wins; "
                       "a results folder's config.toml runs it again)");
}

void OptionTable::add_out(const std::string& meaning) { command_->add_option("-o,--out", out_, meaning); }

void OptionTable::add_output_flags(bool progress) {
  command_->add_flag("--json", json_, "print summary.json on stdout instead of the text summary");
  command_->add_flag("-q,--quiet", quiet_, "print nothing on stdout");
  if (progress) command_->add_flag("--no-progress", no_progress_, "never show the progress line on stderr");
}

void OptionTable::add_json(const std::string& meaning) { command_->add_flag("--json", json_, meaning); }

CLI::Option* OptionTable::output_flag(const std::string& names, bool& value, const std::string& meaning) {
  return command_->add_flag(names, value, meaning);
}

CLI::Option* OptionTable::find(const std::string& name) const {
  if (name.rfind("-", 0) == 0) return command_->get_option_no_throw(name);
  CLI::Option* o = command_->get_option_no_throw("--" + name);
  return o ? o : command_->get_option_no_throw(name);  // a positional argument
}

bool OptionTable::given(const std::string& name) const {
  const CLI::Option* o = find(name);
  return o && o->count() > 0;
}

void OptionTable::refuse_together(const std::string& a, const std::string& b, const std::string& why) const {
  if (given(a) && given(b)) throw InputError(a + " and " + b + " cannot go together" + (why.empty() ? "" : ": " + why));
}

void OptionTable::refuse_unless(const std::string& option, bool condition, const std::string& when) const {
  if (given(option) && !condition) throw InputError(option + " applies only " + when);
}

void OptionTable::apply_value(const std::string& key, const Json& value, const std::string& where) {
  std::string name = key;
  std::replace(name.begin(), name.end(), '_', '-');
  CLI::Option* option = name == "config" ? nullptr : find(name);
  if (!option)
    throw InputError(where + ": not an option of `interflow " + command_->get_name() +
                     "`; keys are long option names such as " + long_name(entries_.front().option));
  if (option->count() > 0) return;  // the command line wins
  if (value.is_array() && value.empty()) return;  // an empty list: none given
  try {
    option->add_result(experiments::option_texts(value));
    option->run_callback();
  } catch (const CLI::Error& e) {
    throw InputError(where + ": " + e.what());
  }
}

std::string OptionTable::check_value(const std::string& name, const Json& value) const {
  CLI::Option* option = find(name);
  if (!option) return "not an option of `interflow " + command_->get_name() + "`";
  if (value.is_array() && value.empty()) return {};  // an empty list: none given
  option->clear();
  try {
    option->add_result(experiments::option_texts(value));
    option->run_callback();
  } catch (const CLI::Error& e) {
    option->clear();
    return e.what();
  }
  option->clear();
  return {};
}

std::vector<std::string> OptionTable::run_option_names() const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(long_name(e.option));
  return names;
}

void OptionTable::preset(const Json& options, const std::string& source) {
  preset_ = options;
  preset_source_ = source;
}

void OptionTable::apply_config() {
  if (!preset_.empty() && !config_.empty())
    throw InputError("--config and " + preset_source_ + " cannot go together: the file already gives the options");
  for (const auto& [key, value] : preset_.items()) apply_value(key, value, preset_source_ + ": key '" + key + "'");
  if (config_.empty()) return;
  const toml::table table = experiments::parse_toml_file(config_, "--config");
  const auto apply = [&](const std::string& key, const toml::node& node) {
    const std::string where = experiments::where(config_, node) + ": key '" + key + "'";
    apply_value(key, experiments::to_json(node, where), where);
  };
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    if (const toml::table* section = node.as_table()) {
      if (k != command_->get_name())
        throw InputError(config_ + ":" + std::to_string(node.source().begin.line) + ": unexpected table [" + k +
                         "]; expected keys at the top level or in a [" + command_->get_name() + "] table" +
                         (k == "experiment" || k == "axes" ? " (an experiment file: run it with `interflow run` or "
                                                             "`interflow sweep`)"
                                                           : ""));
      for (const auto& [inner, value] : *section) apply(std::string(inner.str()), value);
    } else {
      apply(k, node);
    }
  }
}

std::vector<std::pair<std::string, Json>> OptionTable::effective(const std::map<std::string, Json>& overrides) const {
  std::vector<std::pair<std::string, Json>> out;
  for (const Entry& e : entries_) {
    const std::string name = long_name(e.option);
    const auto it = overrides.find(name);
    if (it == overrides.end())
      out.emplace_back(name, e.value());
    else if (!it->second.is_null())  // null: left out
      out.emplace_back(name, it->second);
  }
  return out;
}

Json OptionTable::echo(const std::map<std::string, Json>& overrides) const {
  Json j = Json::object();
  for (auto& [name, value] : effective(overrides)) j[json_key(name)] = std::move(value);
  return j;
}

std::string OptionTable::config_toml(const std::map<std::string, Json>& overrides) const {
  Json options = Json::object();
  for (auto& [name, value] : effective(overrides))
    if (!is_none(value)) options[name] = std::move(value);  // none given: nothing to repeat
  const std::string name = command_->get_name();
  return experiments::run_toml(name, options,
                               "# interflow " + std::string(kVersion) + " " + name +
                                   " run; run it again, from the folder it was started in (relative file paths are "
                                   "relative to it), with:\n#   interflow run config.toml   (or: interflow " +
                                   name + " --config config.toml)\n");
}

}  // namespace interflow::cli
