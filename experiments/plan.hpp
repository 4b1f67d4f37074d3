#pragma once
// The results folder of a sweep, the same whether its runs ran here, under GNU parallel or as a
// Slurm array (manual/experiments.md "The results folder"):
//
//   OUT/experiment.toml     a copy of the experiment file
//   OUT/plan.json           {"command", "name", "axes": [keys], "runs": [{"id", "group", "swept"}]}
//   OUT/runs/ID/run.toml    the run's configuration: `interflow run` reads it
//   OUT/runs/ID/...         the run's results; summary.json, written last, marks it finished
//   OUT/runs/ID/log.txt     what the run printed
//   OUT/runs/ID/failed      exit status and last line of the log of a run that failed here
//
// A run's state is read from its folder alone, so a sweep resumes from whatever ran before, by any
// of the three ways.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "experiments/experiment.hpp"

namespace interflow::experiments {

class Layout {
 public:
  explicit Layout(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path run_dir(const std::string& id) const { return root_ / "runs" / id; }
  std::filesystem::path run_toml(const std::string& id) const { return run_dir(id) / "run.toml"; }
  std::filesystem::path summary(const std::string& id) const { return run_dir(id) / "summary.json"; }
  std::filesystem::path log(const std::string& id) const { return run_dir(id) / "log.txt"; }
  std::filesystem::path failed(const std::string& id) const { return run_dir(id) / "failed"; }
  std::filesystem::path plan() const { return root_ / "plan.json"; }

 private:
  std::filesystem::path root_;
};

enum class RunState { Pending, Finished, Failed };
RunState state_of(const Layout& layout, const std::string& id);

// Writes experiment.toml, plan.json and every run's run.toml (each whole or not at all). Run folders
// of an earlier plan that are not in this one are left alone (collect reads the plan only).
void write_plan(const Layout& layout, const Experiment& e, const std::vector<Run>& runs);

struct PlannedRun {
  std::string id, group;
  Json swept;
};
struct Plan {
  std::string command, name;
  std::vector<std::string> axes;
  std::vector<PlannedRun> runs;
};
// Reads OUT/plan.json; InputError when it is missing ("not a sweep's results folder") or malformed.
Plan read_plan(const Layout& layout);

// What one run needs, as the sweep plans it: measured on an earlier run of the same configuration
// (another seed) when one has finished, the experiment's memory and time otherwise.
struct Estimate {
  std::uint64_t memory_bytes = 0;
  double seconds = 0;
  bool measured = false;
};
class Estimates {
 public:
  // Reads peak_rss_bytes and time_s of every finished run of the plan.
  Estimates(const Layout& layout, const Experiment& e, const std::vector<Run>& runs);
  Estimate of(const Run& run) const;
  // Records a run that has just finished.
  void add(const Layout& layout, const Run& run);

 private:
  std::uint64_t default_memory_;
  double default_seconds_;
  std::map<std::string, Estimate> by_group_;  // the largest measured over the group's runs
};

// The command that runs one run of the plan: BINARY run OUT/runs/ID/run.toml --out OUT/runs/ID
// --quiet --no-progress (its output goes to log.txt, arranged by whoever starts it).
std::vector<std::string> run_argv(const std::string& binary, const Layout& layout, const std::string& id);

// Reads a JSON file; InputError naming it when it cannot be read or parsed.
Json read_json_file(const std::filesystem::path& file);

// The files of a sweep's folder: a folder made with its parents, a file written whole or not at all
// (core/io.hpp OutputFile; `what` names it in errors); OutputError naming the path when it fails.
void make_folder(const std::filesystem::path& dir);
void write_whole(const std::filesystem::path& file, const std::string& text, const std::string& what);

}  // namespace interflow::experiments
