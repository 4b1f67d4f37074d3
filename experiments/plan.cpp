#include "experiments/plan.hpp"

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/io.hpp"
#include "interflow/version.hpp"

namespace interflow::experiments {

namespace {

std::string read_text(const std::filesystem::path& file, const std::string& what) {
  std::ifstream in = open_input(file.string(), what);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

RunState state_of(const Layout& layout, const std::string& id) {
  std::error_code ec;
  // A run that ended badly but wrote its summary (a deadlock: exit status 3) is failed, not finished.
  if (std::filesystem::exists(layout.failed(id), ec)) return RunState::Failed;
  if (std::filesystem::exists(layout.summary(id), ec)) return RunState::Finished;
  return RunState::Pending;
}

void make_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError("'" + dir.string() + "': cannot create the folder: " + ec.message());
}

void write_whole(const std::filesystem::path& file, const std::string& text, const std::string& what) {
  OutputFile out(file.string(), what);
  out << text;
  out.commit();
}

void write_plan(const Layout& layout, const Experiment& e, const std::vector<Run>& runs) {
  const std::string what = "the sweep's results folder";
  make_folder(layout.root() / "runs");
  write_whole(layout.root() / "experiment.toml", read_text(e.file, "experiment file"), what);
  Json plan = Json::object();
  plan["interflow_version"] = kVersion;
  plan["command"] = e.command;
  plan["name"] = e.name;
  plan["axes"] = axis_keys(e);
  plan["runs"] = Json::array();
  for (const Run& r : runs) {
    plan["runs"].push_back(Json{{"id", r.id}, {"group", r.group}, {"swept", r.swept}});
    make_folder(layout.run_dir(r.id));
    const std::string comment = "# run " + r.id + " of the sweep '" + e.name + "' (" + e.file + "): " + r.swept.dump() +
                                "\n# run it alone with: interflow run " + layout.run_toml(r.id).string() + "\n";
    const std::string text = run_toml(e.command, r.options, comment);
    // Rewritten only when it differs, so an unchanged plan leaves the files as they were.
    std::error_code exists_ec;
    if (!std::filesystem::exists(layout.run_toml(r.id), exists_ec) || read_text(layout.run_toml(r.id), "run.toml") != text)
      write_whole(layout.run_toml(r.id), text, what);
  }
  const std::string text = plan.dump(2) + "\n";
  std::error_code ec;
  if (std::filesystem::exists(layout.plan(), ec) && read_text(layout.plan(), "plan.json") != text) {
    // Another plan: the tables of the previous one would be mistaken for this one's.
    for (const char* table : {"collected.csv", "aggregated.csv"}) std::filesystem::remove(layout.root() / table, ec);
  }
  write_whole(layout.plan(), text, what);
}

Json read_json_file(const std::filesystem::path& file) {
  const std::string text = read_text(file, "results file");
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw InputError("'" + file.string() + "': not valid JSON: " + e.what());
  }
}

Plan read_plan(const Layout& layout) {
  std::error_code ec;
  if (!std::filesystem::exists(layout.plan(), ec))
    throw InputError("'" + layout.root().string() + "' is not a sweep's results folder (no plan.json; `interflow sweep "
                                                    "FILE` writes one)");
  const Json j = read_json_file(layout.plan());
  Plan plan;
  try {
    plan.command = j.at("command").get<std::string>();
    plan.name = j.at("name").get<std::string>();
    plan.axes = j.at("axes").get<std::vector<std::string>>();
    for (const Json& r : j.at("runs")) {
      plan.runs.push_back({r.at("id").get<std::string>(), r.at("group").get<std::string>(), r.at("swept")});
      for (const std::string& a : plan.axes)
        if (!plan.runs.back().swept.contains(a)) throw InputError("'" + layout.plan().string() + "': run " + plan.runs.back().id + " has no value of axis " + a);
    }
  } catch (const Json::exception& e) {
    throw InputError("'" + layout.plan().string() + "': not a plan written by `interflow sweep`: " + e.what());
  }
  return plan;
}

Estimates::Estimates(const Layout& layout, const Experiment& e, const std::vector<Run>& runs)
    : default_memory_(e.memory_bytes), default_seconds_(e.time_s) {
  for (const Run& r : runs)
    if (state_of(layout, r.id) == RunState::Finished) add(layout, r);
}

Estimate Estimates::of(const Run& run) const {
  const auto it = by_group_.find(run.group);
  if (it != by_group_.end()) return it->second;
  return {default_memory_, default_seconds_, false};
}

void Estimates::add(const Layout& layout, const Run& run) {
  Json summary;
  try {
    summary = read_json_file(layout.summary(run.id));
  } catch (const InputError&) {
    return;  // an unreadable summary measures nothing; collect will report it
  }
  Estimate measured{0, 0, true};
  if (summary.contains("peak_rss_bytes") && summary["peak_rss_bytes"].is_number_unsigned())
    measured.memory_bytes = summary["peak_rss_bytes"].get<std::uint64_t>();
  if (summary.contains("time_s") && summary["time_s"].is_object()) {
    const Json& t = summary["time_s"];
    if (t.contains("total") && t["total"].is_number()) {
      measured.seconds = t["total"].get<double>();
    } else {
      for (const auto& [k, v] : t.items())
        if (v.is_number()) measured.seconds += v.get<double>();
    }
  }
  if (measured.memory_bytes == 0) return;
  Estimate& e = by_group_[run.group];
  e.measured = true;
  e.memory_bytes = std::max(e.memory_bytes, measured.memory_bytes);
  e.seconds = std::max(e.seconds, measured.seconds);
}

std::vector<std::string> run_argv(const std::string& binary, const Layout& layout, const std::string& id) {
  return {binary, "run", layout.run_toml(id).string(), "--out", layout.run_dir(id).string(), "--quiet",
          "--no-progress"};
}

}  // namespace interflow::experiments
