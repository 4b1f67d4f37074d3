#include "experiments/experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace interflow::experiments {

namespace {

const std::vector<std::string> kExperimentKeys = {"command", "name", "out", "seeds", "max-runs", "memory", "time"};
const std::vector<std::string> kRangeKeys = {"from", "to", "step", "count", "scale"};
constexpr std::size_t kMaxAxisPoints = 1000000;
constexpr std::uint64_t kMaxRunsLimit = 1000000000;

// Option names take '_' for '-'; the parameter after "OPTION:" and a tag's name are kept as written
// (plugin parameters such as flows_per_endpoint have underscores).
std::string dashed(std::string key) {
  const std::size_t colon = key.find(':');
  std::replace(key.begin(), colon == std::string::npos ? key.end() : key.begin() + static_cast<std::ptrdiff_t>(colon),
               '_', '-');
  return key;
}

// "tag:NAME": a label that names the points of an axis in the tables and plots ("3-D torus"),
// without changing any run.
bool is_tag_key(const std::string& key) { return key.rfind("tag:", 0) == 0; }
bool is_param_key(const std::string& key) { return !is_tag_key(key) && key.find(':') != std::string::npos; }
std::string option_of(const std::string& key) { return key.substr(0, key.find(':')); }
std::string param_of(const std::string& key) { return key.substr(key.find(':') + 1); }

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Reads one experiment file into an Experiment: the named steps of load_experiment.
class Reader {
 public:
  Reader(const std::string& file, const CommandCatalog& catalog) : catalog_(catalog) { e_.file = file; }

  Experiment read() {
    const toml::table root = parse_toml_file(e_.file, "experiment file");
    find_command(root);
    if (const toml::node* x = root.get("experiment")) read_experiment(*x);
    for (const auto& [key, node] : in_file_order(root))
      if (key != "experiment") read_top(key, *node);
    if (e_.name.empty()) e_.name = std::filesystem::path(e_.file).stem().string();
    if (seeds_ && e_.base.contains("seed"))
      throw InputError(e_.file + ":" + std::to_string(seeds_->line) +
                       ": seeds are swept here and a seed is also given as an option; remove one of them");
    if (seeds_) e_.axes.push_back(std::move(*seeds_));  // seeds last: the runs go seed by seed
    check_axes_distinct();
    return std::move(e_);
  }

 private:
  // A table's entries in the order they appear in the file (toml++ keeps them sorted by key).
  static std::vector<std::pair<std::string, const toml::node*>> in_file_order(const toml::table& t) {
    std::vector<std::pair<std::string, const toml::node*>> out;
    for (const auto& [k, node] : t) out.emplace_back(std::string(k.str()), &node);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      const auto& x = a.second->source().begin;
      const auto& y = b.second->source().begin;
      return x.line != y.line ? x.line < y.line : x.column < y.column;
    });
    return out;
  }

  [[noreturn]] void fail(const toml::node& node, const std::string& what) const {
    throw InputError(where(e_.file, node) + ": " + what);
  }

  // The command: [experiment] command, or the one table named after a command.
  void find_command(const toml::table& root) {
    std::string from_table;
    const std::vector<std::string> commands = catalog_.commands();
    for (const auto& [k, node] : root)
      if (node.is_table() && std::find(commands.begin(), commands.end(), std::string(k.str())) != commands.end()) {
        if (!from_table.empty()) fail(node, "two command tables, [" + from_table + "] and [" + std::string(k.str()) + "]");
        from_table = std::string(k.str());
      }
    if (const toml::node* c = root.get("experiment") ? root["experiment"]["command"].node() : nullptr) {
      const auto* s = c->as_string();
      if (!s) fail(*c, "command: expected a string, one of " + join(commands));
      e_.command = s->get();
      if (std::find(commands.begin(), commands.end(), e_.command) == commands.end())
        fail(*c, "command '" + e_.command + "': not a subcommand that runs from a file; expected one of " +
                     join(commands) + did_you_mean(e_.command, commands));
      if (!from_table.empty() && from_table != e_.command)
        fail(*c, "command '" + e_.command + "' but the options are in a [" + from_table + "] table");
    } else {
      e_.command = from_table;
    }
    if (e_.command.empty())
      for (const auto& [k, node] : root)
        if (node.is_table() && k.str() != "experiment" && k.str() != "axes")
          fail(node, "unexpected table [" + std::string(k.str()) + "]; the options go in a table named after the command (" +
                         join(commands) + ")" + did_you_mean(std::string(k.str()), commands));
    if (e_.command.empty())
      throw InputError(e_.file + ": no command: give [experiment] command = \"static\" (or " + join(commands) +
                       ") or put the options in a table named after the command, e.g. [static]");
  }

  void read_top(const std::string& key, const toml::node& node) {
    if (key == e_.command) return read_options(table_of(node, "[" + key + "]"));
    if (key == "axes") return read_axes(table_of(node, "[axes]"));
    if (key == "zip") return read_tables(node, "zip", [this](const toml::table& t) { read_zip(t); });
    if (key == "exclude") return read_tables(node, "exclude", [this](const toml::table& t) { read_exclusion(t); });
    if (node.is_table())
      fail(node, "unexpected table [" + key + "]; expected [experiment], [" + e_.command +
                     "], [axes], [[zip]] or [[exclude]]" +
                     did_you_mean(key, {"experiment", e_.command, "axes", "zip", "exclude"}));
    read_option(key, node);  // a top-level key: a shared option, as `--config` reads it
  }

  const toml::table& table_of(const toml::node& node, const std::string& what) const {
    if (const auto* t = node.as_table()) return *t;
    fail(node, what + ": expected a table");
  }

  template <class F>
  void read_tables(const toml::node& node, const std::string& key, F&& read) {
    const auto* a = node.as_array();
    if (!a) fail(node, key + ": expected [[" + key + "]] tables");
    for (const toml::node& n : *a) read(table_of(n, "[[" + key + "]]"));
  }

  void read_experiment(const toml::node& table) {
    const toml::table& t = table_of(table, "[experiment]");
    for (const auto& [raw, node_ptr] : in_file_order(t)) {
      const toml::node& node = *node_ptr;
      const std::string key = dashed(raw);
      if (key == "command") continue;  // find_command
      if (key == "name")
        e_.name = string_of(node, key);
      else if (key == "out")
        e_.out = string_of(node, key);
      else if (key == "seeds")
        read_seeds(node);
      else if (key == "max-runs")
        e_.max_runs = std::min<std::uint64_t>(whole_of(node, key, 1), kMaxRunsLimit);
      else if (key == "memory")
        e_.memory_bytes = bytes_of(node);
      else if (key == "time")
        e_.time_s = seconds_of(node);
      else
        fail(node, "unknown key '" + key + "' in [experiment]; expected one of " + join(kExperimentKeys) +
                       did_you_mean(key, kExperimentKeys));
    }
  }

  std::string string_of(const toml::node& node, const std::string& key) const {
    const auto* s = node.as_string();
    if (!s || s->get().empty()) fail(node, key + ": expected a non-empty string");
    return s->get();
  }

  std::uint64_t whole_of(const toml::node& node, const std::string& key, std::int64_t min) const {
    const auto* i = node.as_integer();
    if (!i || i->get() < min) fail(node, key + ": expected a whole number >= " + std::to_string(min));
    return static_cast<std::uint64_t>(i->get());
  }

  using Units = std::vector<std::pair<std::string, double>>;

  // "512MiB", "2GiB", "100MB", or a number of bytes.
  std::uint64_t bytes_of(const toml::node& node) const {
    if (const auto* i = node.as_integer(); i && i->get() > 0) return static_cast<std::uint64_t>(i->get());
    static const Units units = {{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
                                {"kB", 1e3},     {"MB", 1e6},        {"GB", 1e9}};
    const double v = with_unit(node, units, 1e18,
                               "memory: expected bytes, or a number with KiB, MiB, GiB (or kB, MB, GB), e.g. \"2GiB\"");
    return static_cast<std::uint64_t>(std::ceil(v));
  }

  // "90s", "10min", "2h", or a number of seconds.
  double seconds_of(const toml::node& node) const {
    if (const auto* i = node.as_integer(); i && i->get() > 0) return static_cast<double>(i->get());
    if (const auto* f = node.as_floating_point(); f && std::isfinite(f->get()) && f->get() > 0) return f->get();
    static const Units units = {{"min", 60.0}, {"h", 3600.0}, {"s", 1.0}};
    return with_unit(node, units, 1e9, "time: expected seconds, or a number with s, min or h, e.g. \"10min\"");
  }

  // A string "NUMBER UNIT" (no space) as NUMBER x the unit's scale, positive and below `limit`.
  double with_unit(const toml::node& node, const Units& units, double limit, const std::string& expected) const {
    const auto* s = node.as_string();
    if (!s) fail(node, expected);
    const std::string& text = s->get();
    for (const auto& [unit, scale] : units)
      if (text.size() > unit.size() && text.ends_with(unit)) {
        std::istringstream in(text.substr(0, text.size() - unit.size()));
        double v = 0;
        if ((in >> v) && in.eof() && std::isfinite(v) && v > 0 && v * scale < limit) return v * scale;
      }
    fail(node, expected + ", got '" + text + "'");
  }

  void read_seeds(const toml::node& node) {
    Axis axis;
    axis.keys = {"seed"};
    axis.line = node.source().begin.line;
    if (const auto* i = node.as_integer()) {
      if (i->get() < 1 || static_cast<std::size_t>(i->get()) > kMaxAxisPoints)
        fail(node, "seeds: expected a count in [1, " + std::to_string(kMaxAxisPoints) + "] or a list of seeds");
      for (std::int64_t s = 1; s <= i->get(); ++s) axis.points.push_back({Json(s)});
    } else if (const auto* a = node.as_array()) {
      if (a->empty()) fail(node, "seeds: an empty list; expected a count or a list of seeds");
      for (const toml::node& n : *a) {
        const auto* s = n.as_integer();
        if (!s || s->get() < 0) fail(n, "seeds: expected whole numbers >= 0");
        axis.points.push_back({Json(s->get())});
      }
    } else {
      fail(node, "seeds: expected a count (seeds = 5: seeds 1 to 5) or a list of seeds");
    }
    seeds_ = std::move(axis);
  }

  // A shared option of the command.
  void read_options(const toml::table& t) {
    for (const auto& [key, node] : in_file_order(t)) read_option(key, *node);
  }

  void read_option(const std::string& raw_key, const toml::node& node) {
    const std::string key = dashed(raw_key);
    if (key == "out") {  // as --config reads it: the results folder (of the study, for a sweep)
      if (!e_.out.empty()) fail(node, "out is given twice, here and in [experiment]; keep one");
      e_.out = string_of(node, key);
      return;
    }
    check_option(node, key);
    e_.base[key] = checked_value(node, key, to_json(node, where(e_.file, node)));
    e_.lines[key] = node.source().begin.line;
  }

  // The option exists; InputError with the nearest name otherwise.
  void check_option(const toml::node& node, const std::string& option) const {
    const std::vector<std::string> options = catalog_.options(e_.command);
    if (std::find(options.begin(), options.end(), option) == options.end())
      fail(node, "'" + option + "' is not an option of `interflow " + e_.command + "`" + did_you_mean(option, options) +
                     "; keys are long option names (see `interflow " + e_.command + " --help`)");
  }

  Json checked_value(const toml::node& node, const std::string& key, Json value) const {
    if (is_param_key(key)) {  // checked with its plugin when the runs are expanded
      if (value.is_array() || value.is_object())
        fail(node, key + " = " + value.dump() + ": a plugin parameter takes one value (a string or a number); "
                   "for dims write \"8x8\"");
      return value;
    }
    if (is_tag_key(key) && !value.is_string() && !value.is_number())
      fail(node, key + ": a tag is a label: expected a string or a number");
    if (is_tag_key(key)) return value;
    const std::string problem = catalog_.check(e_.command, key, value);
    if (!problem.empty()) fail(node, key + " = " + value.dump() + ": " + problem);
    return value;
  }

  // An axis key: an option, or OPTION:PARAMETER of an option that holds a plugin spec.
  void check_axis_key(const toml::node& node, const std::string& key) const {
    if (key == "seed") fail(node, "seed: sweep the seeds with [experiment] seeds = N (or a list)");
    if (is_tag_key(key)) {
      if (key.size() == 4) fail(node, "'tag:': no label name after 'tag:'");
      return;
    }
    if (!is_param_key(key)) return check_option(node, key);
    check_option(node, option_of(key));
    if (!catalog_.takes_plugin(e_.command, option_of(key)))
      fail(node, "'" + key + "': option " + option_of(key) + " holds no plugin spec, so it has no parameter " +
                     param_of(key));
    if (param_of(key).empty()) fail(node, "'" + key + "': no parameter name after ':'");
  }

  void read_axes(const toml::table& t) {
    for (const auto& [raw, node_ptr] : in_file_order(t)) {
      const toml::node& node = *node_ptr;
      const std::string key = dashed(raw);
      check_axis_key(node, key);
      Axis axis;
      axis.keys = {key};
      axis.line = node.source().begin.line;
      for (Json& v : axis_values(node, key)) axis.points.push_back({checked_value(node, key, std::move(v))});
      e_.axes.push_back(std::move(axis));
    }
  }

  // A list, or a range table.
  std::vector<Json> axis_values(const toml::node& node, const std::string& key) const {
    if (const auto* a = node.as_array()) {
      if (a->empty()) fail(node, "axis '" + key + "' is empty; give at least one value");
      std::vector<Json> out;
      for (const toml::node& n : *a) out.push_back(to_json(n, where(e_.file, n)));
      return out;
    }
    if (const auto* t = node.as_table()) return range_values(*t, key);
    fail(node, "axis '" + key +
                   "': expected a list of values, or a range { from = A, to = B, step = S } or { from = A, to = B, "
                   "count = N, scale = \"log\" }");
  }

  std::vector<Json> range_values(const toml::table& t, const std::string& key) const {
    for (const auto& [k, node] : t)
      if (std::find(kRangeKeys.begin(), kRangeKeys.end(), std::string(k.str())) == kRangeKeys.end())
        fail(node, "axis '" + key + "': unknown range key '" + std::string(k.str()) + "'; expected from, to and step, "
                   "or from, to, count and scale" + did_you_mean(std::string(k.str()), kRangeKeys));
    const auto number = [&](const char* name) -> std::optional<double> {
      const toml::node* n = t.get(name);
      if (!n) return std::nullopt;
      if (const auto* i = n->as_integer()) return static_cast<double>(i->get());
      if (const auto* f = n->as_floating_point(); f && std::isfinite(f->get())) return f->get();
      fail(*n, "axis '" + key + "': " + name + " must be a finite number");
    };
    const auto from = number("from"), to = number("to"), step = number("step"), count = number("count");
    if (!from || !to) fail(t, "axis '" + key + "': a range needs from and to");
    if (step.has_value() == count.has_value()) fail(t, "axis '" + key + "': a range needs step or count (one of them)");
    if (step && t.get("scale")) fail(*t.get("scale"), "axis '" + key + "': scale applies to count ranges, not to step ranges");
    // Integers when the range is made of them: a step range with whole ends and step; a count range
    // whose values all come out whole.
    bool integers = t.get("from")->is_integer() && t.get("to")->is_integer() && (!step || t.get("step")->is_integer());
    std::vector<double> values;
    if (step) {
      if (*step == 0 || (*to - *from) / *step < 0)
        fail(t, "axis '" + key + "': step must be non-zero and lead from 'from' to 'to'");
      const double n = std::floor((*to - *from) / *step + 1e-9) + 1;
      if (n > static_cast<double>(kMaxAxisPoints)) fail(t, "axis '" + key + "': more than a million points");
      for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) values.push_back(*from + static_cast<double>(i) * *step);
    } else {
      values = counted_values(t, key, *from, *to, *count);
    }
    for (double& v : values) {
      v = rounded(v);
      if (!step) integers = integers && v == std::floor(v);
    }
    std::vector<Json> out;
    for (double v : values) out.push_back(integers ? Json(static_cast<std::int64_t>(std::llround(v))) : Json(v));
    return out;
  }

  std::vector<double> counted_values(const toml::table& t, const std::string& key, double from, double to,
                                     double count) const {
    if (count < 1 || count != std::floor(count) || count > static_cast<double>(kMaxAxisPoints))
      fail(t, "axis '" + key + "': count must be a whole number in [1, 1000000]");
    std::string scale = "linear";
    if (const toml::node* s = t.get("scale")) {
      if (!s->as_string() || (s->as_string()->get() != "linear" && s->as_string()->get() != "log"))
        fail(*s, "axis '" + key + "': scale must be \"linear\" or \"log\"");
      scale = s->as_string()->get();
    }
    if (scale == "log" && !(from > 0 && to > 0)) fail(t, "axis '" + key + "': a log range needs from > 0 and to > 0");
    const auto n = static_cast<std::size_t>(count);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) {
      const double f = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      out.push_back(scale == "log" ? from * std::pow(to / from, f) : from + f * (to - from));
    }
    return out;
  }

  // 12 significant digits: 0.1 + 2 * 0.1 is the 0.3 the user meant, not 0.30000000000000004.
  static double rounded(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.12g", v);
    return std::strtod(text, nullptr);
  }

  void read_zip(const toml::table& t) {
    Axis axis;
    axis.line = t.source().begin.line;
    std::vector<std::vector<Json>> columns;
    for (const auto& [raw, node_ptr] : in_file_order(t)) {
      const toml::node& node = *node_ptr;
      const std::string key = dashed(raw);
      check_axis_key(node, key);
      std::vector<Json> values;
      for (Json& v : axis_values(node, key)) values.push_back(checked_value(node, key, std::move(v)));
      if (!columns.empty() && values.size() != columns.front().size())
        fail(node, "[[zip]] '" + key + "' has " + std::to_string(values.size()) + " values but '" + axis.keys.front() +
                       "' has " + std::to_string(columns.front().size()) + "; zipped axes advance together");
      axis.keys.push_back(key);
      columns.push_back(std::move(values));
    }
    if (axis.keys.empty()) fail(t, "[[zip]] is empty; give two or more axes that advance together");
    for (std::size_t i = 0; i < columns.front().size(); ++i) {
      std::vector<Json> point;
      for (const auto& c : columns) point.push_back(c[i]);
      axis.points.push_back(std::move(point));
    }
    e_.axes.push_back(std::move(axis));
  }

  void read_exclusion(const toml::table& t) {
    Exclusion x;
    x.line = t.source().begin.line;
    for (const auto& [k, node] : t) x.match[dashed(std::string(k.str()))] = to_json(node, where(e_.file, node));
    if (x.match.empty()) fail(t, "[[exclude]] is empty; give the axis values of the runs to leave out");
    exclusions_nodes_.push_back(&t);
    e_.exclusions.push_back(std::move(x));
  }

  // Every key on one axis only; exclusions name axis keys.
  void check_axes_distinct() const {
    std::set<std::string> seen;
    for (const Axis& a : e_.axes)
      for (const std::string& k : a.keys)
        if (!seen.insert(k).second)
          throw InputError(e_.file + ":" + std::to_string(a.line) + ": '" + k + "' is on two axes; a key may vary on one axis only");
    const std::vector<std::string> keys(seen.begin(), seen.end());
    for (std::size_t i = 0; i < e_.exclusions.size(); ++i)
      for (const auto& [k, v] : e_.exclusions[i].match.items())
        if (!seen.count(k))
          fail(*exclusions_nodes_[i], "[[exclude]] key '" + k + "' is not an axis" + did_you_mean(k, keys) +
                                         "; exclusions name axis values");
  }

  const CommandCatalog& catalog_;
  Experiment e_;
  std::optional<Axis> seeds_;
  std::vector<const toml::table*> exclusions_nodes_;
};

// A number as the double it stands for, so that 100 and 100.0 are one value.
nlohmann::json canonical(const Json& v) {
  if (v.is_number()) return nlohmann::json(v.get<double>());
  if (v.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const Json& e : v) out.push_back(canonical(e));
    return out;
  }
  if (v.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, e] : v.items()) out[k] = canonical(e);
    return out;
  }
  return nlohmann::json::parse(v.dump());
}

// What names a run: the command and its options with sorted keys, numbers as doubles, without what
// does not change its results (threads; an empty list, which gives nothing) and, for its
// configuration, without the seed.
std::string identity(const std::string& command, const Json& options, bool with_seed) {
  nlohmann::json o = canonical(options);
  o.erase("threads");
  if (!with_seed) o.erase("seed");
  for (auto it = o.begin(); it != o.end();) it = it->is_array() && it->empty() ? o.erase(it) : std::next(it);
  return command + "\n" + o.dump();
}

bool same_value(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b;
}

// The experiment's runs, built one at a time: the named steps of expand().
class Expander {
 public:
  Expander(const Experiment& e, const CommandCatalog& catalog) : e_(e), catalog_(catalog) {}

  std::vector<Run> expand() {
    const std::uint64_t total = count();
    used_.assign(e_.exclusions.size(), false);
    std::vector<std::size_t> index(e_.axes.size(), 0);
    std::vector<Run> runs;
    std::set<std::string> ids;
    for (std::uint64_t n = 0; n < total; ++n) {
      // Mixed radix with the last axis (the seeds, when swept) most significant, then the first
      // axis, ..., so the first seed of every configuration comes first.
      std::uint64_t rest = n;
      for (std::size_t k = 0; k < index.size(); ++k) {
        const std::size_t axis = radix_order(k);
        index[axis] = static_cast<std::size_t>(rest % e_.axes[axis].points.size());
        rest /= e_.axes[axis].points.size();
      }
      std::optional<Run> run = make_run(index);
      if (!run) continue;
      if (!ids.insert(run->id).second)
        throw InputError(e_.file + ": two runs have the same configuration (" + run->swept.dump() +
                         "); an axis repeats a value");
      runs.push_back(std::move(*run));
    }
    for (std::size_t i = 0; i < used_.size(); ++i)
      if (!used_[i])
        throw InputError(e_.file + ":" + std::to_string(e_.exclusions[i].line) + ": [[exclude]] " +
                         e_.exclusions[i].match.dump() + " matches no run; check its values against the axes");
    return runs;
  }

 private:
  // Axis visited at digit k (least significant first): the last non-seed axis first, the seeds last.
  std::size_t radix_order(std::size_t k) const {
    const bool seeds = !e_.axes.empty() && e_.axes.back().keys == std::vector<std::string>{"seed"};
    const std::size_t plain = e_.axes.size() - (seeds ? 1 : 0);
    if (k < plain) return plain - 1 - k;
    return e_.axes.size() - 1;
  }

  std::uint64_t count() const {
    long double product = 1;
    for (const Axis& a : e_.axes) product *= static_cast<long double>(a.points.size());
    if (product > static_cast<long double>(e_.max_runs)) {
      std::ostringstream text;
      text << std::setprecision(product < 1e15L ? 15 : 3) << static_cast<double>(product);
      throw InputError(e_.file + ": the sweep has " + text.str() + " runs (before exclusions), more than max-runs = " +
                       std::to_string(e_.max_runs) +
                       "; raise max-runs in [experiment] (or --max-runs) if that is what you mean");
    }
    return static_cast<std::uint64_t>(product);
  }

  std::optional<Run> make_run(const std::vector<std::size_t>& index) {
    Run run;
    run.options = e_.base;
    std::vector<std::pair<std::string, const Axis*>> params;
    for (std::size_t a = 0; a < e_.axes.size(); ++a)
      for (std::size_t k = 0; k < e_.axes[a].keys.size(); ++k) {
        const std::string& key = e_.axes[a].keys[k];
        const Json& value = e_.axes[a].points[index[a]][k];
        run.swept[key] = value;
        if (is_param_key(key))
          params.emplace_back(key, &e_.axes[a]);
        else if (!is_tag_key(key))
          run.options[key] = value;
      }
    if (excluded(run.swept)) return std::nullopt;
    for (const auto& [key, axis] : params) set_param(run, key, *axis);
    check_specs(run);
    run.id = stable_hash(identity(e_.command, run.options, true));
    run.group = stable_hash(identity(e_.command, run.options, false));
    return run;
  }

  bool excluded(const Json& swept) {
    bool any = false;
    for (std::size_t i = 0; i < e_.exclusions.size(); ++i) {
      bool all = true;
      for (const auto& [k, v] : e_.exclusions[i].match.items()) all = all && same_value(swept.at(k), v);
      if (all) used_[i] = any = true;
    }
    return any;
  }

  // Sets PARAM in the spec OPTION holds.
  void set_param(Run& run, const std::string& key, const Axis& axis) const {
    const std::string option = option_of(key), param = param_of(key);
    const std::string at = e_.file + ":" + std::to_string(axis.line) + ": axis '" + key + "'";
    if (!run.options.contains(option) || !run.options[option].is_string() || run.options[option].get<std::string>().empty())
      throw InputError(at + " sets a parameter of the " + option + " spec, but a run has no " + option +
                       "; give " + option + " in [" + e_.command + "] or as an axis");
    Spec spec = Spec::parse(run.options[option].get<std::string>(), option);
    const std::vector<ParamSpec>* declared = catalog_.plugin_params(e_.command, option, spec.name);
    const bool has = declared && std::any_of(declared->begin(), declared->end(),
                                             [&](const ParamSpec& p) { return p.name == param; });
    if (!has) {
      std::vector<std::string> names;
      if (declared)
        for (const ParamSpec& p : *declared) names.push_back(p.name);
      throw InputError(at + ": " + option + " '" + spec.name + "' has no parameter '" + param + "'" +
                       did_you_mean(param, names) + " (its parameters: " + (names.empty() ? "none" : join(names)) +
                       "); exclude those runs or zip the axes");
    }
    const std::string value = option_texts(run.swept[key]).front();
    bool replaced = false;
    for (auto& [k, v] : spec.values)
      if (k == param) {
        v = value;
        replaced = true;
      }
    if (!replaced) spec.values.emplace_back(param, value);
    run.options[option] = spec.canonical();
  }

  // Where option's value comes from: the axis that sweeps it (or sets one of its parameters), or the
  // shared option.
  std::size_t line_of(const std::string& option) const {
    for (const Axis& a : e_.axes)
      for (const std::string& k : a.keys)
        if (k == option || (is_param_key(k) && option_of(k) == option)) return a.line;
    const auto it = e_.lines.find(option);
    return it == e_.lines.end() ? 0 : it->second;
  }

  // Every plugin spec of the run is valid (once per distinct spec).
  void check_specs(const Run& run) {
    for (const auto& [option, value] : run.options.items()) {
      if (!catalog_.takes_plugin(e_.command, option)) continue;
      const std::vector<std::string> texts = option_texts(value);
      for (const std::string& text : texts) {
        if (text.empty() || !checked_.insert(option + "\n" + text).second) continue;
        try {
          const Spec spec = Spec::parse(text, option);
          const std::vector<ParamSpec>* declared = catalog_.plugin_params(e_.command, option, spec.name);
          if (declared) ParamSet(option + " '" + text + "'", spec, *declared);
        } catch (const InputError& err) {
          throw InputError(e_.file + ":" + std::to_string(line_of(option)) + ": " + err.what() +
                           (run.swept.empty() ? "" : " (in the run " + run.swept.dump() + ")"));
        }
      }
    }
  }

  const Experiment& e_;
  const CommandCatalog& catalog_;
  std::vector<bool> used_;
  std::set<std::string> checked_;
};

}  // namespace

Experiment load_experiment(const std::string& file, const CommandCatalog& catalog) {
  return Reader(file, catalog).read();
}

std::vector<Run> expand(const Experiment& e, const CommandCatalog& catalog) { return Expander(e, catalog).expand(); }

std::vector<std::string> axis_keys(const Experiment& e) {
  std::vector<std::string> keys;
  for (const Axis& a : e.axes) keys.insert(keys.end(), a.keys.begin(), a.keys.end());
  return keys;
}

std::string run_toml(const std::string& command, const Json& options, const std::string& comment) {
  toml::table table;
  for (const auto& [k, v] : options.items()) put_toml(table, k, v);
  toml::table root;
  root.insert_or_assign(command, std::move(table));
  std::ostringstream out;
  out << comment << root << '\n';
  return out.str();
}

std::string stable_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace interflow::experiments
