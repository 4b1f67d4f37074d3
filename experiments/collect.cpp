#include "experiments/collect.hpp"

#include <map>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"
#include "core/stats.hpp"

namespace interflow::experiments {

namespace {

void flatten(const Json& j, const std::string& prefix, std::vector<std::pair<std::string, double>>& out) {
  if (j.is_number()) {
    out.emplace_back(prefix, j.get<double>());
  } else if (j.is_boolean()) {
    out.emplace_back(prefix, j.get<bool>() ? 1.0 : 0.0);
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array() && j.size() <= kMaxArray) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "." + std::to_string(i), out);
  }
}

// A swept value as a CSV cell: strings as they are, numbers in their shortest form.
std::string value_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) return number_text(v.get<double>());
  return v.dump();
}

std::string row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_cell(cells[i]);
  return line + "\n";
}

}  // namespace

bool is_resource(const std::string& name) {
  for (const char* prefix : {"time_s.", "build_seconds", "peak_rss_bytes", "simulation.events_per_second",
                             "simulation.solve_share"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::pair<std::string, double>> summary_metrics(const Json& summary, bool resources) {
  std::vector<std::pair<std::string, double>> all, out, tail;
  for (const auto& [k, v] : summary.items()) {
    if (k == "interflow_version" || k == "engine" || k == "seed" || k == "threads" || k == "config") continue;
    flatten(v, k, all);
  }
  for (auto& m : all) (is_resource(m.first) ? tail : out).push_back(std::move(m));
  if (resources) out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

Collected collect(const Layout& layout, const CollectSettings& settings) {
  const Plan plan = read_plan(layout);
  Collected c;
  c.runs = plan.runs.size();
  std::vector<std::string> metric_names;
  std::map<std::string, std::size_t> column;  // metric -> index in metric_names
  std::vector<std::vector<std::pair<std::size_t, double>>> values(plan.runs.size());
  std::vector<bool> finished(plan.runs.size(), false);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (state_of(layout, plan.runs[i].id) != RunState::Finished) {
      c.missing.push_back(plan.runs[i].id);
      continue;
    }
    finished[i] = true;
    ++c.finished;
    for (const auto& [name, v] : summary_metrics(read_json_file(layout.summary(plan.runs[i].id)), settings.resources)) {
      const auto [it, added] = column.emplace(name, metric_names.size());
      if (added) metric_names.push_back(name);
      values[i].emplace_back(it->second, v);
    }
  }
  if (!c.missing.empty() && !settings.partial) {
    std::string ids;
    for (std::size_t i = 0; i < c.missing.size() && i < 5; ++i) ids += (i ? ", " : "") + c.missing[i];
    throw InputError("'" + layout.root().string() + "': " + std::to_string(c.missing.size()) + " of " +
                     std::to_string(c.runs) + " runs have not finished (" + ids + (c.missing.size() > 5 ? ", ..." : "") +
                     "); run the sweep again to finish them (failed ones: --retry-failed), or collect with --partial");
  }
  c.metrics = metric_names.size();

  // collected.csv
  std::vector<std::string> header = {"id"};
  header.insert(header.end(), plan.axes.begin(), plan.axes.end());
  header.insert(header.end(), metric_names.begin(), metric_names.end());
  std::string text = row(header);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (!finished[i]) continue;
    std::vector<std::string> cells = {plan.runs[i].id};
    for (const std::string& a : plan.axes) cells.push_back(value_text(plan.runs[i].swept.at(a)));
    std::vector<std::string> metric_cells(metric_names.size());
    for (const auto& [m, v] : values[i]) metric_cells[m] = number_text(v);
    cells.insert(cells.end(), metric_cells.begin(), metric_cells.end());
    text += row(cells);
  }
  c.runs_csv = (layout.root() / "collected.csv").string();
  OutputFile runs_out(c.runs_csv, "collect");
  runs_out << text;
  runs_out.commit();

  // aggregated.csv: the configurations in plan order of their first run.
  std::vector<std::string> keys;
  for (const std::string& a : plan.axes)
    if (a != "seed") keys.push_back(a);
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (!finished[i]) continue;
    auto& m = members[plan.runs[i].group];
    if (m.empty()) groups.push_back(plan.runs[i].group);
    m.push_back(i);
  }
  c.configurations = groups.size();
  header = keys;
  header.push_back("runs");
  for (const std::string& m : metric_names)
    for (const char* stat : {".mean", ".sd", ".ci95"}) header.push_back(m + stat);
  text = row(header);
  for (const std::string& g : groups) {
    const std::vector<std::size_t>& idx = members[g];
    std::vector<std::string> cells;
    for (const std::string& k : keys) cells.push_back(value_text(plan.runs[idx.front()].swept.at(k)));
    cells.push_back(std::to_string(idx.size()));
    std::vector<std::vector<double>> samples(metric_names.size());
    for (std::size_t i : idx)
      for (const auto& [m, v] : values[i]) samples[m].push_back(v);
    for (const auto& s : samples) {
      const MeanCi ci = mean_ci95(s);
      cells.push_back(s.empty() ? "" : number_text(ci.mean));
      cells.push_back(ci.defined ? number_text(ci.sd) : "");
      cells.push_back(ci.defined ? number_text(ci.ci95) : "");
    }
    text += row(cells);
  }
  c.aggregated_csv = (layout.root() / "aggregated.csv").string();
  OutputFile agg_out(c.aggregated_csv, "collect");
  agg_out << text;
  agg_out.commit();
  return c;
}

}  // namespace interflow::experiments
