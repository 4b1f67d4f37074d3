#pragma once
// Experiment files: one TOML file describes a study — the subcommand every run uses, the options
// the runs share, the axes they vary (lists or ranges of any option, or of any parameter of a
// plugin spec), the seeds, zipped axes and exclusions — and expands to the runs, each named by a
// stable hash of its configuration (manual/experiments.md has the format with a worked example).
//
//   [experiment]                 command, name, out, seeds, max-runs, memory, time
//   [<command>]                  the options every run shares (long names, as in config.toml)
//   [axes]                       key = [values] or { from, to, step } or { from, to, count, scale }
//   [[zip]]                      keys whose value lists advance together
//   [[exclude]]                  key = value pairs; a run matching all of them is left out
//
// A key is a long option name ("load", "switch-gbps"), OPTION:PARAMETER, a parameter of the plugin
// spec that option holds ("routing:k", "topology:dims"), or tag:NAME, a label that only names the
// points of an axis in the tables and plots (zipped with what it names: "tag:family" = ["3-D torus",
// ...]). Every value is checked where it is read, by
// the command's own checks, and a mistake names the file, the line and what was expected. A
// results folder's config.toml is an experiment file with no axes.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "experiments/toml_json.hpp"

namespace interflow::experiments {

// What experiments need to know of the subcommands; the CLI gives it (cli/catalog.hpp), so that an
// experiment is checked by exactly the checks a run applies.
class CommandCatalog {
 public:
  virtual ~CommandCatalog() = default;
  // The subcommands that run from an experiment file.
  virtual std::vector<std::string> commands() const = 0;
  // The long names of the run-defining options of `command` (what config.toml holds).
  virtual std::vector<std::string> options(const std::string& command) const = 0;
  // "" when `value` is a valid value of `option`, otherwise what was expected.
  virtual std::string check(const std::string& command, const std::string& option, const Json& value) const = 0;
  // Whether `option` holds a plugin spec (NAME:key=value,...), or a list of them.
  virtual bool takes_plugin(const std::string& command, const std::string& option) const = 0;
  // The parameters declared by plugin `plugin` of the kind `option` takes; nullptr when the option
  // takes no plugin spec. InputError when there is no such plugin.
  virtual const std::vector<ParamSpec>* plugin_params(const std::string& command, const std::string& option,
                                                      const std::string& plugin) const = 0;
};

// One axis: a single key, or the keys of a [[zip]] table, with its points in order.
struct Axis {
  std::vector<std::string> keys;
  std::vector<std::vector<Json>> points;  // points[i][k]: the value of keys[k] at point i
  std::size_t line = 0;                   // where it was declared, for messages
};

struct Exclusion {
  Json match = Json::object();  // key -> value
  std::size_t line = 0;
};

struct Experiment {
  std::string file;     // the experiment file as given
  std::string command;  // static, dynamic, schedule, topo
  std::string name;     // default: the file's name without .toml
  std::string out;      // the results folder of the sweep ("" if none was given)
  Json base = Json::object();  // option -> value, shared by every run
  std::map<std::string, std::size_t> lines;  // option -> its line in the file, for messages
  std::vector<Axis> axes;      // file order, seeds last
  std::vector<Exclusion> exclusions;
  std::uint64_t max_runs = 10000;
  std::uint64_t memory_bytes = 2ull << 30;  // a run's memory before one has been measured
  double time_s = 3600;                     // a run's time before one has been measured
};

// One run of a sweep.
struct Run {
  std::string id;     // 16 hex digits: FNV-1a of the command and the options (sorted keys, numbers as
                      // doubles, without threads and empty lists: what does not change results)
  std::string group;  // the same hash without the seed: the runs that differ only in their seed
  Json options = Json::object();  // what its run.toml holds: the shared options, then the swept ones
  Json swept = Json::object();    // axis key -> value at this run (plugin parameters as given)
};

// Reads and checks an experiment file (InputError naming file:line and what was expected).
Experiment load_experiment(const std::string& file, const CommandCatalog& catalog);

// The runs, in order: seed by seed (so each configuration's first seed runs, and is measured, before
// the others), then the axes in file order, the first varying slowest. InputError when the product
// exceeds max_runs, when an exclusion matches no run, or when a run's plugin spec is invalid.
std::vector<Run> expand(const Experiment& e, const CommandCatalog& catalog);

// The run's configuration as TOML: a comment and a table named after the command, the form of a
// results folder's config.toml (`interflow run` runs either).
std::string run_toml(const std::string& command, const Json& options, const std::string& comment);

// Keys of every axis in order (zip keys one by one, "seed" last when seeds are swept).
std::vector<std::string> axis_keys(const Experiment& e);

// FNV-1a (64 bits) of a text as 16 hex digits.
std::string stable_hash(const std::string& text);

}  // namespace interflow::experiments
