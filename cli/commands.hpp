#pragma once
// The subcommands of the `interflow` executable. Each adds itself to the CLI11 app and returns the
// action to run when it was chosen.
#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "cli/options.hpp"
#include "cli/plugins.hpp"

namespace interflow::cli {

using Action = std::function<int()>;

// A subcommand: what it does when chosen, and its options (null for commands that run nothing from
// an experiment file, such as `list`).
struct Command {
  Action run;
  std::shared_ptr<OptionTable> options;
};

Command add_static_command(CLI::App& app, const Plugins& plugins);
Command add_dynamic_command(CLI::App& app, const Plugins& plugins);
Command add_list_command(CLI::App& app, const Plugins& plugins);
Command add_topo_command(CLI::App& app, const Plugins& plugins);
Command add_schedule_command(CLI::App& app, const Plugins& plugins);
Command add_packet_command(CLI::App& app, const Plugins& plugins);
Command add_sweep_command(CLI::App& app, const Plugins& plugins);
Command add_collect_command(CLI::App& app, const Plugins& plugins);
Command add_plot_command(CLI::App& app, const Plugins& plugins);
Command add_qos_config_command(CLI::App& app, const Plugins& plugins);

// Every subcommand, added to `app`, by name.
std::map<std::string, Command> add_commands(CLI::App& app, const Plugins& plugins);

}  // namespace interflow::cli
