#pragma once
// The subcommands of the `interflow` executable. Each adds itself to the CLI11 app and returns the
// action to run when it was chosen.
#include <CLI/CLI.hpp>
#include <functional>

#include "cli/plugins.hpp"

namespace interflow::cli {

using Action = std::function<int()>;

Action add_static_command(CLI::App& app, const Plugins& plugins);
Action add_dynamic_command(CLI::App& app, const Plugins& plugins);
Action add_list_command(CLI::App& app, const Plugins& plugins);
Action add_topo_command(CLI::App& app, const Plugins& plugins);
Action add_schedule_command(CLI::App& app, const Plugins& plugins);

}  // namespace interflow::cli
