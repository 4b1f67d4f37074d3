#include "cli/commands.hpp"

namespace interflow::cli {

std::map<std::string, Command> add_commands(CLI::App& app, const Plugins& plugins) {
  return {
      {"static", add_static_command(app, plugins)},     {"dynamic", add_dynamic_command(app, plugins)},
      {"schedule", add_schedule_command(app, plugins)}, {"topo", add_topo_command(app, plugins)},
      {"packet", add_packet_command(app, plugins)},     {"list", add_list_command(app, plugins)},         {"sweep", add_sweep_command(app, plugins)},
      {"collect", add_collect_command(app, plugins)},   {"plot", add_plot_command(app, plugins)},
      {"qos-config", add_qos_config_command(app, plugins)},
  };
}

}  // namespace interflow::cli
