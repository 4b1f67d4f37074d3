// The interflow executable: subcommands `static`, `list`, `topo`.
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "interflow/version.hpp"

int main(int argc, char** argv) {
  using namespace interflow;
  try {
    const cli::Plugins plugins;
    CLI::App app{"interflow: flow-level simulation of interconnection networks"};
    app.set_version_flag("--version", std::string("interflow ") + kVersion);
    app.require_subcommand(1);
    const std::map<std::string, cli::Action> actions = {
        {"static", cli::add_static_command(app, plugins)},     {"dynamic", cli::add_dynamic_command(app, plugins)},
        {"list", cli::add_list_command(app, plugins)},         {"topo", cli::add_topo_command(app, plugins)},
        {"schedule", cli::add_schedule_command(app, plugins)},
    };
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      // --help and --version exit 0; every malformed command line exits 2 like other input errors.
      return app.exit(e) == 0 ? 0 : 2;
    }
    for (const auto& [name, action] : actions)
      if (app.got_subcommand(name)) return action();
    return 2;
  } catch (const InputError& e) {
    std::cerr << "interflow: error: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "interflow: error: out of memory; try a smaller topology or pattern\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "interflow: internal error: " << e.what() << '\n';
    return 4;
  }
}
