#include "experiments/collect.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/io.hpp"
#include "core/stats.hpp"
#include "core/suggest.hpp"

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

// Characters on screen of UTF-8 text ("±" is one).
static std::size_t text_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

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
  c.keys = keys;
  c.metric_names = metric_names;
  header = keys;
  header.push_back("runs");
  for (const std::string& m : metric_names)
    for (const char* stat : {".mean", ".sd", ".ci95"}) header.push_back(m + stat);
  text = row(header);
  for (const std::string& g : groups) {
    const std::vector<std::size_t>& idx = members[g];
    Collected::Row r;
    for (const std::string& k : keys) r.keys.push_back(value_text(plan.runs[idx.front()].swept.at(k)));
    r.runs = idx.size();
    std::vector<std::vector<double>> samples(metric_names.size());
    for (std::size_t i : idx)
      for (const auto& [m, v] : values[i]) samples[m].push_back(v);
    for (const auto& s : samples) {
      const MeanCi ci = mean_ci95(s);
      r.stats.push_back({s.empty() ? "" : number_text(ci.mean), ci.defined ? number_text(ci.sd) : "",
                         ci.defined ? number_text(ci.ci95) : ""});
    }
    std::vector<std::string> cells = r.keys;
    cells.push_back(std::to_string(r.runs));
    for (const auto& s : r.stats) cells.insert(cells.end(), s.begin(), s.end());
    text += row(cells);
    c.rows.push_back(std::move(r));
  }
  c.aggregated_csv = (layout.root() / "aggregated.csv").string();
  OutputFile agg_out(c.aggregated_csv, "collect");
  agg_out << text;
  agg_out.commit();
  return c;
}

std::string show_table(const Collected& c, const std::vector<std::string>& metrics) {
  std::vector<std::size_t> columns;
  for (const std::string& m : metrics) {
    const auto it = std::find(c.metric_names.begin(), c.metric_names.end(), m);
    if (it == c.metric_names.end())
    {
      std::vector<std::string> like;
      for (const std::string& name : c.metric_names)
        if (name.find(m) != std::string::npos && like.size() < 6) like.push_back(name);
      std::string similar;
      for (const std::string& name : like) similar += (similar.empty() ? "" : ", ") + name;
      throw InputError("--show: '" + m + "' is not a metric of this sweep" + did_you_mean(m, c.metric_names) +
                       (similar.empty() ? "" : " (metrics with that name in them: " + similar + ")") +
                       "; the metrics are the columns of collected.csv after the swept keys");
    }
    columns.push_back(static_cast<std::size_t>(it - c.metric_names.begin()));
  }
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> head = c.keys;
  head.push_back("runs");
  head.insert(head.end(), metrics.begin(), metrics.end());
  table.push_back(head);
  for (const Collected::Row& r : c.rows) {
    std::vector<std::string> cells = r.keys;
    cells.push_back(std::to_string(r.runs));
    for (std::size_t m : columns) {
      const auto& s = r.stats[m];
      const auto short_text = [](const std::string& t) {
        if (t.empty()) return t;
        char out[32];
        std::snprintf(out, sizeof out, "%.4g", std::stod(t));
        return std::string(out);
      };
      cells.push_back(short_text(s[0]) + (s[2].empty() ? "" : " ± " + short_text(s[2])));
    }
    table.push_back(cells);
  }
  std::vector<std::size_t> width(head.size(), 0);
  for (const auto& row_cells : table)
    for (std::size_t i = 0; i < row_cells.size(); ++i) width[i] = std::max(width[i], text_width(row_cells[i]));
  std::string out;
  for (const auto& row_cells : table) {
    for (std::size_t i = 0; i < row_cells.size(); ++i)
      out += row_cells[i] + std::string(width[i] - text_width(row_cells[i]) + (i + 1 < row_cells.size() ? 2 : 0), ' ');
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  return out;
}

}  // namespace interflow::experiments
