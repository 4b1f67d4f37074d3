// The interflow executable: one subcommand per engine or tool. Exit codes (manual/cli.md "Exit codes"):
// 0 success; 2 a user input error; 3 the run ended but its workload did not complete (tasks wait
// forever); 4 results could not be written; 5 out of memory; 6 an internal error.
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "interflow/version.hpp"

namespace {

constexpr int kInputError = 2, kOutputError = 4, kOutOfMemory = 5, kInternalError = 6;

int run(int argc, char** argv) {
  using namespace interflow;
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
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    check_stdout();
    return 0;
  } catch (const CLI::CallForAllHelp& e) {
    app.exit(e);
    check_stdout();
    return 0;
  } catch (const CLI::CallForVersion& e) {
    app.exit(e);
    check_stdout();
    return 0;
  } catch (const CLI::ParseError& e) {
    // Every malformed command line is an input error: one line, like the others.
    throw InputError(std::string(e.what()) + " (see `interflow " +
                     (app.get_subcommands().empty() ? std::string() : app.get_subcommands().front()->get_name() + " ") +
                     "--help`)");
  }
  for (const auto& [name, action] : actions)
    if (app.got_subcommand(name)) {
      const int status = action();
      check_stdout();  // a summary lost to a full disk or a closed pipe is a failed run
      return status;
    }
  return kInputError;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace interflow;
  try {
    return run(argc, argv);
  } catch (const InputError& e) {
    std::cerr << "interflow: error: " << e.what() << '\n';
    return kInputError;
  } catch (const OutputError& e) {
    std::cerr << "interflow: error: results not written: " << e.what() << '\n';
    return kOutputError;
  } catch (const std::bad_alloc&) {
    std::cerr << "interflow: error: out of memory; try a smaller topology or workload\n";
    return kOutOfMemory;
  } catch (const std::exception& e) {
    std::cerr << "interflow: internal error: " << e.what() << '\n';
    return kInternalError;
  }
}
