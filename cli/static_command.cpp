#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/report.hpp"
#include "cli/static_run.hpp"

namespace interflow::cli {

namespace {

// Applies a TOML experiment file to the options of `cmd`. CLI11 2.1 (Debian 12) reads configuration
// files for the main application only, so the subcommand reads its own: every key (top level, or in
// a [static] section) is the long name of an option, '-' or '_' between words; options given on
// the command line win over the file.
void apply_config_file(CLI::App& cmd, const std::string& file) {
  const std::string context = "--config '" + file + "'";
  if (!std::ifstream(file)) throw InputError(context + ": cannot read the file; expected a TOML experiment file");
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_file(file);
  } catch (const CLI::Error& e) {
    throw InputError(context + ": " + e.what());
  }
  for (const auto& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // CLI11's markers of section starts and ends
    if (!item.parents.empty() && !(item.parents.size() == 1 && item.parents[0] == "static"))
      throw InputError(context + ": unexpected section [" + item.parents[0] +
                       "]; expected keys at the top level or in a [static] section");
    std::string name = item.name;
    std::replace(name.begin(), name.end(), '_', '-');
    CLI::Option* option = name == "config" ? nullptr : cmd.get_option_no_throw("--" + name);
    if (!option)
      throw InputError(context + ": unknown key '" + item.name +
                       "'; expected the long name of a `static` option, e.g. topology, seed, switch-gbps");
    if (option->count() > 0) continue;  // given on the command line
    try {
      option->add_result(item.inputs);
      option->run_callback();
    } catch (const CLI::Error& e) {
      throw InputError(context + ": key '" + item.name + "': " + e.what());
    }
  }
}

}  // namespace

Action add_static_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("static", "static max-min flow engine: throughput of a topology + routing + pattern");
  auto config = std::make_shared<StaticConfig>();
  struct Output {
    std::string dir;
    bool flows_csv = false;
    bool json = false;
    bool quiet = false;
    bool no_progress = false;
  };
  auto output = std::make_shared<Output>();
  auto config_file = std::make_shared<std::string>();
  cmd->add_option("--config", *config_file,
                  "read options from a TOML experiment file (keys as long option names; the command line wins)");
  cmd->add_option("-t,--topology", config->topology, "topology spec NAME[:key=value,...] (see `interflow list`)")
      ->capture_default_str();
  cmd->add_option("-r,--routing", config->routing, "routing spec NAME[:key=value,...]; default: the topology's own");
  cmd->add_option("-p,--pattern", config->pattern, "traffic pattern spec NAME[:key=value,...]")->capture_default_str();
  cmd->add_option("-s,--seed", config->seed, "seed of every random choice of the run")->capture_default_str();
  cmd->add_option("-j,--threads", config->threads, "worker threads (0 = all cores); results do not depend on it")
      ->capture_default_str();
  cmd->add_option("--endpoint-gbps", config->links.endpoint_gbps,
                  "capacity of endpoint (injection) links; also the nominal injection rate of direct networks")
      ->capture_default_str();
  cmd->add_option("--switch-gbps", config->links.switch_gbps, "capacity of switch-to-switch links")
      ->capture_default_str();
  cmd->add_option("--endpoint-latency-ns", config->links.endpoint_latency_ns, "latency of endpoint links")
      ->capture_default_str();
  cmd->add_option("--switch-latency-ns", config->links.switch_latency_ns, "latency of switch-to-switch links")
      ->capture_default_str();
  cmd->add_option("--failures", config->failures,
                  "cables to fail, chosen by the seed: a percentage (5%), a fraction (0.05) or a count (120)")
      ->capture_default_str();
  cmd->add_option("--failure-scope", config->failure_scope, "which cables may fail: network (switch-to-switch) or all")
      ->capture_default_str();
  cmd->add_option("--max-flows", config->max_flows, "refuse patterns that would generate more flows")
      ->capture_default_str();
  cmd->add_option("--max-path-memory", config->max_path_memory_gib,
                  "refuse routings whose paths would need more memory, in GiB (4 bytes per link of a path, 12 per "
                  "path)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("-o,--out", output->dir, "write summary.json and links.csv (and flows.csv) into this directory");
  cmd->add_flag("--flows-csv", output->flows_csv, "with --out, also write flows.csv (one row per flow)");
  cmd->add_flag("--json", output->json, "print summary.json on stdout instead of the text summary");
  cmd->add_flag("-q,--quiet", output->quiet, "print nothing on stdout");
  cmd->add_flag("--no-progress", output->no_progress, "never show the progress line on stderr");
  return [&plugins, cmd, config_file, config, output]() {
    if (!config_file->empty()) apply_config_file(*cmd, *config_file);
    config->progress = !output->no_progress;
    if (output->flows_csv && output->dir.empty()) throw InputError("--flows-csv needs --out DIR");
    const StaticRun run = run_static(plugins, *config);
    if (!output->dir.empty()) write_results_dir(run, output->dir, output->flows_csv);
    if (output->json)
      write_summary_json(run, std::cout);
    else if (!output->quiet)
      print_summary_text(run, std::cout);
    return 0;
  };
}

}  // namespace interflow::cli
