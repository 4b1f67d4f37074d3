#include "cli/run_header.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "core/system.hpp"
#include "interflow/version.hpp"

namespace interflow::cli {

void add_plugin(RunHeader& h, const std::string& key, const Spec& spec, const ParamSet& params) {
  Json p = Json::object();
  for (const auto& [k, v] : params.effective()) p[k] = v;
  // The spec and its parameters side by side: where the option already stands, else at the end.
  Json config = Json::object();
  bool placed = false;
  for (auto& [k, v] : h.config.items()) {
    if (k == key + "_params") continue;
    if (k == key) {
      config[key] = spec.text;
      config[key + "_params"] = p;
      placed = true;
    } else {
      config[k] = v;
    }
  }
  if (!placed) {
    config[key] = spec.text;
    config[key + "_params"] = std::move(p);
  }
  h.config = std::move(config);
  h.specs.emplace_back(key, spec.text);
}

Json head_json(const RunHeader& h) {
  Json j = Json::object();
  j["interflow_version"] = kVersion;
  j["engine"] = h.engine;
  j["seed"] = h.seed;
  j["threads"] = h.threads;
  j["config"] = h.config;
  return j;
}

void foot_json(Json& j, const Timings& timings) {
  Json t = Json::object();
  for (const auto& [name, seconds] : timings) t[name] = seconds;
  j["time_s"] = std::move(t);
  j["peak_rss_bytes"] = peak_rss_bytes();
}

void print_head(std::ostream& out, const RunHeader& h) {
  out << "interflow " << kVersion << " " << h.title << ", seed " << h.seed << ", " << h.threads
      << (h.threads == 1 ? " thread\n" : " threads\n");
  // Each plugin with its effective parameters, then every other option.
  std::vector<std::string> plugin_keys;
  for (const auto& [key, text] : h.specs) {
    plugin_keys.push_back(key);
    plugin_keys.push_back(key + "_params");
    std::string params;
    for (const auto& [k, v] : h.config[key + "_params"].items())
      params += (params.empty() ? "" : ", ") + k + "=" + v.get<std::string>();
    out << "  " << key << " " << text << (params.empty() ? "" : " {" + params + "}") << '\n';
  }
  std::string options;
  for (const auto& [k, v] : h.config.items()) {
    if (std::find(plugin_keys.begin(), plugin_keys.end(), k) != plugin_keys.end()) continue;
    if (is_none(v)) continue;
    options += (options.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  if (!options.empty()) out << "  options " << options << '\n';
}

void print_foot(std::ostream& out, const Timings& timings) {
  std::string names, values;
  for (const auto& [name, seconds] : timings) {
    names += (names.empty() ? "" : "/") + name;
    std::ostringstream v;
    v << std::fixed << std::setprecision(3) << seconds;
    values += (values.empty() ? "" : " / ") + v.str();
  }
  out << "  " << std::left << std::setw(34) << ("time " + names + " ") << values << " s\n";
  std::ostringstream mem;
  mem << std::fixed << std::setprecision(1) << static_cast<double>(peak_rss_bytes()) / (1024.0 * 1024.0);
  out << "  " << std::left << std::setw(34) << "peak memory" << mem.str() << " MiB\n";
}

}  // namespace interflow::cli
