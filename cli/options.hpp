#pragma once
// The options of a subcommand, each declared once with its kind and range, so that every subcommand
// gets the same checks and the same configuration handling from one place:
//   - every number is checked where it is read: whole numbers must be whole and in range (no sign for
//     counts, no overflow), real numbers finite and in range (NaN, inf, 1e999 refused), naming the
//     option; the same checks apply to values from an experiment file;
//   - `--config FILE` reads a TOML experiment file (keys are long option names, at the top level or
//     in a table named after the subcommand; the command line wins), with toml++'s line and column;
//   - the run-defining options (all but the output ones) are echoed, typed, in summary.json and
//     written as config.toml, which `interflow SUBCOMMAND --config config.toml` runs again.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace interflow::cli {

using Json = nlohmann::ordered_json;

class OptionTable {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  explicit OptionTable(CLI::App* command);

  // Run-defining options (echoed and written to config.toml). `names` as CLI11 takes them ("-s,--seed").
  CLI::Option* text(const std::string& names, std::string& value, const std::string& meaning);
  CLI::Option* whole(const std::string& names, std::uint64_t& value, const std::string& meaning,
                     std::uint64_t min = 0, std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
  CLI::Option* whole(const std::string& names, std::uint32_t& value, const std::string& meaning,
                     std::uint32_t min = 0, std::uint32_t max = std::numeric_limits<std::uint32_t>::max());
  // A real in [min, max]; `open_min` excludes min itself (e.g. a capacity > 0).
  CLI::Option* real(const std::string& names, double& value, const std::string& meaning, double min, double max,
                    bool open_min = false);
  CLI::Option* flag(const std::string& names, bool& value, const std::string& meaning);
  CLI::Option* texts(const std::string& names, std::vector<std::string>& value, const std::string& meaning);
  CLI::Option* reals(const std::string& names, std::vector<double>& value, const std::string& meaning, double min,
                     double max, bool open_min = false);
  CLI::Option* wholes(const std::string& names, std::vector<std::uint32_t>& value, const std::string& meaning,
                      std::uint32_t min = 0, std::uint32_t max = std::numeric_limits<std::uint32_t>::max());

  // Output options (not part of the run's configuration): --out DIR, --json, -q/--quiet,
  // --no-progress; and --config FILE. Each subcommand calls the ones it has.
  void add_config();
  void add_out(const std::string& meaning);
  void add_output_flags(bool progress = true);
  void add_json(const std::string& meaning);
  CLI::Option* output_flag(const std::string& names, bool& value, const std::string& meaning);

  // Options that cannot go together: an InputError naming both when both were given (on the command
  // line or in the experiment file). Call after parsing (apply_config first).
  void refuse_together(const std::string& a, const std::string& b, const std::string& why = "") const;
  // `option` given while `condition` is false: an InputError "<option> applies only <when>".
  void refuse_unless(const std::string& option, bool condition, const std::string& when) const;
  bool given(const std::string& name) const;

  // Applies the options `interflow run FILE` read (checked there with their lines); `source` names
  // the file in messages. apply_config() applies them.
  void preset(const Json& options, const std::string& source);
  // Reads the preset options and --config if one was given. Values go through the same checks as on
  // the command line; the command line wins.
  void apply_config();
  // "" when `value` is a valid value of option `name`, otherwise what was expected (the command
  // line's own check; for experiment files). Leaves the option unset.
  std::string check_value(const std::string& name, const Json& value) const;
  // The long names of the run-defining options, in declaration order.
  std::vector<std::string> run_option_names() const;
  // The run-defining options with their effective values (given or default), typed, in declaration
  // order; keys are long names with '_' for '-'. `overrides` replaces values the run resolved (e.g.
  // the routing chosen when none was given); an override of null leaves the option out.
  Json echo(const std::map<std::string, Json>& overrides = {}) const;
  // config.toml: a comment line, then a table named after the subcommand with every run-defining
  // option (long names, as on the command line) but those left empty (no file, no list).
  std::string config_toml(const std::map<std::string, Json>& overrides = {}) const;

  const std::string& out_dir() const { return out_; }
  bool json() const { return json_; }
  bool quiet() const { return quiet_; }
  bool progress() const { return !no_progress_; }
  const std::string& config_file() const { return config_; }

 private:
  struct Entry {
    CLI::Option* option;
    std::function<Json()> value;  // the bound variable's current value, typed
  };
  CLI::Option* add(CLI::Option* option, std::function<Json()> value);
  // (long name, value) of every run-defining option, overrides applied, those overridden by null left out.
  std::vector<std::pair<std::string, Json>> effective(const std::map<std::string, Json>& overrides) const;
  CLI::Option* find(const std::string& name) const;
  void apply_value(const std::string& key, const Json& value, const std::string& where);

  CLI::App* command_;
  std::vector<Entry> entries_;
  std::string config_, out_;
  Json preset_ = Json::object();
  std::string preset_source_;
  bool json_ = false, quiet_ = false, no_progress_ = false;
};

// An option value that gives nothing: an empty text or list (no file, no application given).
inline bool is_none(const Json& v) {
  return (v.is_string() && v.get<std::string>().empty()) || (v.is_array() && v.empty());
}

// Validators: a whole number in [min, max] written without sign, exponent or fraction; a finite real
// in [min, max] (min excluded when open_min).
CLI::Validator whole_in(std::uint64_t min, std::uint64_t max);
CLI::Validator real_in(double min, double max, bool open_min);

}  // namespace interflow::cli
