#include "experiments/collect.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/error.hpp"
#include "core/format.hpp"
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
                             "simulation.solve_share", "stream.pass_seconds", "memory_estimate.available_bytes"})
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

namespace {

// The steps of collect(): read every finished run's metrics, then write the two tables.
class Collector {
 public:
  Collector(const Layout& layout, const CollectSettings& settings)
      : layout_(layout), settings_(settings), plan_(read_plan(layout)) {}

  Collected run() {
    read_runs();
    refuse_missing();
    c_.metrics = c_.metric_names.size();
    c_.runs_csv = (layout_.root() / "collected.csv").string();
    write_whole(c_.runs_csv, runs_table(), "collect");
    aggregate();
    c_.aggregated_csv = (layout_.root() / "aggregated.csv").string();
    write_whole(c_.aggregated_csv, aggregated_table(), "collect");
    return std::move(c_);
  }

 private:
  // Every finished run's metrics, as (column, value), the columns in order of first appearance.
  void read_runs() {
    c_.runs = plan_.runs.size();
    values_.resize(plan_.runs.size());
    finished_.assign(plan_.runs.size(), false);
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < plan_.runs.size(); ++i) {
      if (state_of(layout_, plan_.runs[i].id) != RunState::Finished) {
        c_.missing.push_back(plan_.runs[i].id);
        continue;
      }
      finished_[i] = true;
      ++c_.finished;
      const Json summary = read_json_file(layout_.summary(plan_.runs[i].id));
      if (summary.contains("interflow_version") && summary["interflow_version"].is_string())
        c_.versions.insert(summary["interflow_version"].get<std::string>());
      for (const auto& [name, v] : summary_metrics(summary, settings_.resources)) {
        const auto [it, added] = column.emplace(name, c_.metric_names.size());
        if (added) c_.metric_names.push_back(name);
        values_[i].emplace_back(it->second, v);
      }
    }
  }

  void refuse_missing() const {
    if (c_.missing.empty() || settings_.partial) return;
    std::string ids;
    for (std::size_t i = 0; i < c_.missing.size() && i < 5; ++i) ids += (i ? ", " : "") + c_.missing[i];
    throw InputError("'" + layout_.root().string() + "': " + std::to_string(c_.missing.size()) + " of " +
                     std::to_string(c_.runs) + " runs have not finished (" + ids +
                     (c_.missing.size() > 5 ? ", ..." : "") +
                     "); run the sweep again to finish them (failed ones: --retry-failed), or collect with --partial");
  }

  // collected.csv: id, the axis keys, the metrics.
  std::string runs_table() const {
    std::vector<std::string> header = {"id"};
    header.insert(header.end(), plan_.axes.begin(), plan_.axes.end());
    header.insert(header.end(), c_.metric_names.begin(), c_.metric_names.end());
    std::string text = row(header);
    for (std::size_t i = 0; i < plan_.runs.size(); ++i) {
      if (!finished_[i]) continue;
      std::vector<std::string> cells = {plan_.runs[i].id};
      for (const std::string& a : plan_.axes) cells.push_back(value_text(plan_.runs[i].swept.at(a)));
      std::vector<std::string> metric_cells(c_.metric_names.size());
      for (const auto& [m, v] : values_[i]) metric_cells[m] = number_text(v);
      cells.insert(cells.end(), metric_cells.begin(), metric_cells.end());
      text += row(cells);
    }
    return text;
  }

  // The configurations, in plan order of their first run, each with its metrics' mean and interval.
  void aggregate() {
    for (const std::string& a : plan_.axes)
      if (a != "seed") c_.keys.push_back(a);
    std::vector<std::string> groups;
    std::map<std::string, std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < plan_.runs.size(); ++i) {
      if (!finished_[i]) continue;
      auto& m = members[plan_.runs[i].group];
      if (m.empty()) groups.push_back(plan_.runs[i].group);
      m.push_back(i);
    }
    c_.configurations = groups.size();
    for (const std::string& g : groups) {
      const std::vector<std::size_t>& idx = members[g];
      Collected::Row r;
      for (const std::string& k : c_.keys) r.keys.push_back(value_text(plan_.runs[idx.front()].swept.at(k)));
      r.runs = idx.size();
      std::vector<std::vector<double>> samples(c_.metric_names.size());
      for (std::size_t i : idx)
        for (const auto& [m, v] : values_[i]) samples[m].push_back(v);
      for (const auto& sample : samples) {
        // A metric some seeds lack (a conditional key) has no honest mean over the configuration.
        if (sample.size() != idx.size()) {
          r.stats.push_back({"", "", ""});
          continue;
        }
        const MeanCi ci = mean_ci95(sample);
        r.stats.push_back({number_text(ci.mean), ci.defined ? number_text(ci.sd) : "", ci.defined ? number_text(ci.ci95) : ""});
      }
      c_.rows.push_back(std::move(r));
    }
  }

  // aggregated.csv: the keys but the seed, runs, then mean, sd and ci95 of every metric.
  std::string aggregated_table() const {
    std::vector<std::string> header = c_.keys;
    header.push_back("runs");
    for (const std::string& m : c_.metric_names)
      for (const char* stat : {".mean", ".sd", ".ci95"}) header.push_back(m + stat);
    std::string text = row(header);
    for (const Collected::Row& r : c_.rows) {
      std::vector<std::string> cells = r.keys;
      cells.push_back(std::to_string(r.runs));
      for (const auto& stat : r.stats) cells.insert(cells.end(), stat.begin(), stat.end());
      text += row(cells);
    }
    return text;
  }

  const Layout& layout_;
  const CollectSettings& settings_;
  const Plan plan_;
  Collected c_;
  std::vector<std::vector<std::pair<std::size_t, double>>> values_;  // per run: (metric column, value)
  std::vector<bool> finished_;
};

}  // namespace

Collected collect(const Layout& layout, const CollectSettings& settings) { return Collector(layout, settings).run(); }

std::string show_table(const Collected& c, const std::vector<std::string>& metrics) {
  std::vector<std::size_t> columns;
  for (const std::string& m : metrics) {
    const auto it = std::find(c.metric_names.begin(), c.metric_names.end(), m);
    if (it == c.metric_names.end()) {
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
