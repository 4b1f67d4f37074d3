// `interflow plot KIND ...`: the standard figures (scripts/interflow_plot.py, Python with Debian's
// matplotlib): the CLI checks the arguments and runs the script, whose exit status it returns.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/io.hpp"

extern char** environ;

namespace interflow::cli {

namespace {

struct PlotOptions {
  std::string kind, y, x, series, column = "completion_s", out, title;
  std::vector<std::string> paths, where;
  std::uint32_t max_cells = 512;
  bool logx = false, logy = false, endpoints = false;
};

std::string script_path() {
  const char* env = std::getenv("INTERFLOW_SCRIPTS_DIR");
  const std::filesystem::path dir = env && *env ? env : INTERFLOW_SCRIPTS_DIR;
  const auto script = dir / "interflow_plot.py";
  std::error_code ec;
  if (!std::filesystem::exists(script, ec))
    throw InputError("the plot script '" + script.string() +
                     "' is missing; set INTERFLOW_SCRIPTS_DIR to the scripts/ folder of the interflow sources");
  return script.string();
}

// Debian's python3 (where python3-matplotlib is), else the first python3 on the PATH.
std::string python() { return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"; }

std::vector<std::string> script_args(const PlotOptions& o) {
  std::vector<std::string> a = {python(), script_path(), o.kind};
  a.insert(a.end(), o.paths.begin(), o.paths.end());
  const auto add = [&](const std::string& flag, const std::string& value) {
    if (!value.empty()) a.insert(a.end(), {flag, value});
  };
  if (o.kind == "metric" || o.kind == "sl") {
    add("--y", o.y);
    add("--x", o.x);
    add("--series", o.series);
    for (const std::string& w : o.where) add("--where", w);
  }
  if (o.kind == "cdf") add("--column", o.column);
  if (o.kind == "links") {
    add("--max-cells", std::to_string(o.max_cells));
    if (o.endpoints) a.push_back("--endpoints");
  }
  add("--out", o.out);
  add("--title", o.title);
  if (o.logx) a.push_back("--logx");
  if (o.logy) a.push_back("--logy");
  return a;
}

void check(const PlotOptions& o, CLI::App* cmd) {
  const bool metric = o.kind == "metric", sweep = metric || o.kind == "sl";
  if (metric && (o.y.empty() || o.x.empty())) throw InputError("plot metric needs --y METRIC and --x KEY");
  for (const char* opt : {"--y", "--series"})
    if (cmd->count(opt) && !metric) throw InputError(std::string(opt) + " applies only to plot metric");
  for (const char* opt : {"--x", "--where"})
    if (cmd->count(opt) && !sweep) throw InputError(std::string(opt) + " applies only to plot metric and plot sl");
  if (cmd->count("--column") && o.kind != "cdf") throw InputError("--column applies only to plot cdf");
  for (const char* opt : {"--endpoints", "--max-cells"})
    if (cmd->count(opt) && o.kind != "links") throw InputError(std::string(opt) + " applies only to plot links");
  if ((sweep || o.kind == "links") && o.paths.size() != 1)
    throw InputError("plot " + o.kind + " takes one folder (" + (sweep ? "a sweep's" : "a run's") + ")");
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) throw InputError("plot: '" + p + "' is not a folder");
  }
  for (const std::string& w : o.where)
    if (w.find('=') == std::string::npos || w.front() == '=') throw InputError("--where '" + w + "': expected KEY=VALUE");
}

int run_script(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (error != 0) throw InputError("cannot run " + args[0] + ": " + std::strerror(error) + " (install python3)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid: " + std::string(std::strerror(errno)));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  throw std::runtime_error("the plot script was killed by signal " + std::to_string(WTERMSIG(status)));
}

}  // namespace

Command add_plot_command(CLI::App& app, const Plugins&) {
  auto* cmd = app.add_subcommand(
      "plot",
      "the standard figures (matplotlib): metric (a sweep's metric against a swept key, CI bands), cdf (flow "
      "completion times of dynamic runs), jobs (wait, slowdown, utilisation of scheduler runs), links (a link "
      "utilisation heat map), sl (a packet sweep's latency and throughput per service level)");
  auto o = std::make_shared<PlotOptions>();
  cmd->add_option("kind", o->kind, "metric, cdf, jobs, links or sl")
      ->required()
      ->check(CLI::IsMember({"metric", "cdf", "jobs", "links", "sl"}));
  cmd->add_option("paths", o->paths, "metric: a sweep's results folder; cdf, jobs: run folders; links: a run folder")
      ->required();
  cmd->add_option("--y", o->y, "metric: the metric, a column of aggregated.csv without .mean (e.g. makespan_s)");
  cmd->add_option("--x", o->x, "metric: the swept key on the x axis; sl: the x axis (default: the offered load)");
  cmd->add_option("--series", o->series, "metric: the swept key that makes one line per value");
  cmd->add_option("--where", o->where, "metric: keep the configurations with KEY=VALUE (repeatable)");
  cmd->add_option("--column", o->column, "cdf: the flows.csv column (default completion_s)");
  cmd->add_flag("--endpoints", o->endpoints, "links: include the endpoint links (default: switch-to-switch only)");
  cmd->add_option("--max-cells", o->max_cells, "links: at most this many rows and columns (vertices grouped in blocks)")
      ->check(whole_in(8, 4096));
  cmd->add_option("--out", o->out, "the figure file (PNG; default: in the folder plotted)");
  cmd->add_option("--title", o->title, "the figure's title");
  cmd->add_flag("--logx", o->logx, "logarithmic x axis");
  cmd->add_flag("--logy", o->logy, "logarithmic y axis");
  return Command{[o, cmd]() {
                   check(*o, cmd);
                   return run_script(script_args(*o));
                 },
                 nullptr};
}

}  // namespace interflow::cli
