// The interflow executable: one subcommand per engine or tool. Exit codes (manual/cli.md "Exit codes"):
// 0 success; 2 a user input error; 3 the run ended but its workload did not complete (tasks wait
// forever), or a sweep ended with runs that failed; 4 results could not be written; 5 out of memory;
// 6 an internal error; 130 a sweep interrupted (it resumes when run again).
#include <iostream>
#include <map>

#include "cli/catalog.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/system.hpp"
#include "interflow/version.hpp"

namespace {

using namespace interflow;

constexpr int kInputError = 2, kOutputError = 4, kOutOfMemory = 5, kInternalError = 6;

// Parses the command line; false when it only asked for help or the version (printed).
bool parse(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every malformed command line is an input error: one line, like the others.
    throw InputError(std::string(e.what()) + " (see `interflow " +
                     (app.get_subcommands().empty() ? std::string() : app.get_subcommands().front()->get_name() + " ") +
                     "--help`)");
  }
  check_stdout();
  return false;
}

void describe(CLI::App& app) {
  app.set_version_flag("--version", std::string("interflow ") + kVersion);
  app.require_subcommand(1);
}

// `interflow run FILE [OPTIONS]`: the subcommand FILE names (a results folder's config.toml, or an
// experiment file of one run), with its options, the command line's winning.
int run_file(const cli::Plugins& plugins, const std::string& file, const std::vector<std::string>& extras) {
  const cli::Catalog catalog(plugins);
  const experiments::Experiment e = experiments::load_experiment(file, catalog);
  const std::vector<experiments::Run> runs = experiments::expand(e, catalog);
  if (runs.size() != 1)
    throw InputError(file + " describes a sweep of " + std::to_string(runs.size()) +
                     " runs; run them with `interflow sweep " + file + "`");
  std::vector<std::string> args = {"interflow", e.command};
  args.insert(args.end(), extras.begin(), extras.end());
  const bool out_given = std::any_of(extras.begin(), extras.end(), [](const std::string& a) {
    return a == "-o" || a == "--out" || a.rfind("--out=", 0) == 0;
  });
  if (!e.out.empty() && !out_given) args.insert(args.end(), {"--out", e.out});
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  CLI::App app{"interflow run " + file};
  describe(app);
  std::map<std::string, cli::Command> commands = cli::add_commands(app, plugins);
  if (!parse(app, static_cast<int>(argv.size()), argv.data())) return 0;
  cli::Command& command = commands.at(e.command);
  command.options->preset(runs.front().options, file);
  const int status = command.run();
  check_stdout();
  return status;
}

int run(int argc, char** argv) {
  const cli::Plugins plugins;
  CLI::App app{"interflow: flow-level simulation of interconnection networks"};
  describe(app);
  std::map<std::string, cli::Command> commands = cli::add_commands(app, plugins);
  auto* run_cmd = app.add_subcommand("run",
                                     "run a results folder's config.toml, or an experiment file of one run; further "
                                     "options go to its subcommand and win over the file");
  std::string file;
  run_cmd->add_option("file", file, "config.toml or experiment file")->required();
  run_cmd->prefix_command();  // everything after FILE belongs to the file's subcommand
  if (!parse(app, argc, argv)) return 0;
  if (app.got_subcommand("run")) return run_file(plugins, file, run_cmd->remaining());
  for (auto& [name, command] : commands)
    if (app.got_subcommand(name)) {
      const int status = command.run();
      check_stdout();  // a summary lost to a full disk or a closed pipe is a failed run
      return status;
    }
  return kInputError;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    tune_memory(argv);  // first: glibc reads its tunables only when a program starts
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
