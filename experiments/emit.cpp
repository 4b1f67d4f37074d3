#include "experiments/emit.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/error.hpp"

namespace interflow::experiments {

namespace {

constexpr std::size_t kMaxArrayTasks = 1000;

// The runs a cluster should run: not finished, and not failed unless retried.
std::vector<const Run*> pending(const Layout& layout, const std::vector<Run>& runs, bool retry_failed) {
  std::vector<const Run*> out;
  for (const Run& r : runs) {
    const RunState s = state_of(layout, r.id);
    if (s == RunState::Pending || (s == RunState::Failed && retry_failed)) out.push_back(&r);
  }
  return out;
}

void write_script(const std::filesystem::path& file, const std::string& text, bool executable) {
  make_folder(file.parent_path());
  write_whole(file, text, "the sweep's job files");
  if (executable) {
    std::error_code ec;
    std::filesystem::permissions(file, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add, ec);
    if (ec) throw OutputError("'" + file.string() + "': cannot make it executable: " + ec.message());
  }
}

std::string absolute_text(const std::filesystem::path& p) {
  std::error_code ec;
  const auto a = std::filesystem::absolute(p, ec);
  return (ec ? p : a).lexically_normal().string();
}

// The POSIX shell commands of one run (paths absolute): output to its log; a run that fails leaves
// its `failed` note (exit status and the log's last line), as a local sweep does.
std::string run_commands(const EmitSettings& s, const Layout& layout, const std::string& id) {
  const auto abs = [](const std::filesystem::path& p) { return shell_quote(absolute_text(p)); };
  std::string command;
  for (const std::string& a : run_argv(s.binary, Layout(absolute_text(layout.root())), id))
    command += (command.empty() ? "" : " ") + shell_quote(a);
  return "cd " + shell_quote(s.workdir) + " && rm -f " + abs(layout.failed(id)) + " && { " + command + " > " +
         abs(layout.log(id)) + " 2>&1 || { status=$?; echo \"exit status $status\" > " + abs(layout.failed(id)) +
         "; tail -n 1 " + abs(layout.log(id)) + " >> " + abs(layout.failed(id)) + "; exit $status; }; }";
}

// An #SBATCH value: a job name of letters, digits, '.', '_' and '-'; a path with Slurm's '%'
// doubled and quoted when it holds a space.
std::string job_name(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return out;
}
std::string sbatch_path(const std::string& path) {
  std::string out;
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out.find(' ') == std::string::npos ? out : "\"" + out + "\"";
}

std::uint64_t memory_request_mib(const Estimate& e, double margin) {
  const double mib = std::ceil(static_cast<double>(e.memory_bytes) * margin / 1048576.0);
  // Rounded up to a power of two so that runs of similar size share one array.
  std::uint64_t request = 64;
  while (static_cast<double>(request) < mib) request *= 2;
  return request;
}

// Threads a run asks for: its threads option (0 or absent: 1 CPU, the runs' results do not depend
// on it).
unsigned cpus_of(const Run& r) {
  if (r.options.contains("threads") && r.options["threads"].is_number_integer() && r.options["threads"].get<std::int64_t>() > 0)
    return static_cast<unsigned>(std::min<std::int64_t>(r.options["threads"].get<std::int64_t>(), 1024));
  return 1;
}

struct Request {
  std::uint64_t memory_mib;
  std::string time;
  unsigned cpus;
};

// One job array: its #SBATCH header, its run ids (task i runs the i-th: they are in the script, so
// emitting again never changes what queued tasks run), then the run, skipped when it has finished
// since, its failure noted as a local sweep notes it.
std::string array_script(const Layout& layout, const Experiment& e, const EmitSettings& settings,
                         const std::string& base, const std::vector<std::string>& ids, const Request& r) {
  const auto dir = layout.root() / "slurm";
  const std::string runs = absolute_text(layout.root() / "runs");
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "#SBATCH --job-name=" << job_name(e.name + "-" + base) << "\n"
    << "#SBATCH --array=0-" << ids.size() - 1 << (settings.throttle ? "%" + std::to_string(settings.throttle) : "") << "\n"
    << "#SBATCH --mem=" << r.memory_mib << "M\n"
    << "#SBATCH --time=" << r.time << "\n"
    << "#SBATCH --cpus-per-task=" << r.cpus << "\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --output=" << sbatch_path(absolute_text(dir / "logs" / (base + "-%a.out"))) << "\n";
  if (!settings.partition.empty()) s << "#SBATCH --partition=" << settings.partition << "\n";
  if (!settings.account.empty()) s << "#SBATCH --account=" << settings.account << "\n";
  for (const std::string& o : settings.sbatch_options) s << "#SBATCH " << o << "\n";
  s << "# " << ids.size() << " runs of the sweep '" << e.name << "', each with its results in " << runs << "/ID\n"
    << "set -uo pipefail\n"
    << "ids=(";
  for (std::size_t i = 0; i < ids.size(); ++i) s << (i % 8 == 0 ? "\n  " : " ") << ids[i];
  s << "\n)\n"
    << "id=${ids[$SLURM_ARRAY_TASK_ID]:-}\n"
    << "[ -n \"$id\" ] || { echo \"no run for task $SLURM_ARRAY_TASK_ID\" >&2; exit 2; }\n"
    << "run=" << shell_quote(runs) << "/$id\n"
    << "[ -f \"$run/summary.json\" ] && [ ! -f \"$run/failed\" ] && exit 0  # finished since it was emitted\n"
    << "cd " << shell_quote(settings.workdir) << " || exit 2\n"
    << "rm -f \"$run/failed\"\n"
    << shell_quote(settings.binary) << " run \"$run/run.toml\" --out \"$run\" --quiet --no-progress > \"$run/log.txt\" 2>&1\n"
    << "status=$?\n"
    << "if [ $status -ne 0 ]; then\n"
    << "  { echo \"exit status $status\"; tail -n 1 \"$run/log.txt\"; } > \"$run/failed\"\n"
    << "fi\n"
    << "exit $status\n";
  return s.str();
}

}  // namespace

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurm_time(double seconds) {
  static const double ladder_min[] = {5, 15, 30, 60, 120, 240, 480, 720, 1440, 2880};
  double minutes = std::max(1.0, std::ceil(seconds / 60.0));
  double chosen = 0;
  for (double step : ladder_min)
    if (minutes <= step) {
      chosen = step;
      break;
    }
  if (chosen == 0) chosen = std::ceil(minutes / 1440.0) * 1440.0;
  const auto total = static_cast<long long>(chosen);
  char text[48];
  std::snprintf(text, sizeof text, "%lld-%02lld:%02lld:00", total / 1440, total / 60 % 24, total % 60);
  return text;
}

Emitted emit_parallel(const Layout& layout, const Experiment&, const std::vector<Run>& runs,
                      const EmitSettings& settings) {
  Emitted out;
  std::string text;
  for (const Run* r : pending(layout, runs, settings.retry_failed)) {
    text += run_commands(settings, layout, r->id) + "\n";
    ++out.runs;
  }
  const auto jobs = layout.root() / "parallel" / "jobs.txt";
  write_script(jobs, text, false);
  out.files.push_back(jobs.string());
  out.how = "PARALLEL_SHELL=/bin/sh parallel --jobs " + std::string("$(nproc)") + " --joblog " +
            shell_quote(absolute_text(layout.root() / "parallel" / "joblog")) + " < " + shell_quote(absolute_text(jobs));
  return out;
}

Emitted emit_slurm(const Layout& layout, const Experiment& e, const std::vector<Run>& runs,
                   const EmitSettings& settings) {
  Emitted out;
  const Estimates estimates(layout, e, runs);
  // Resource classes: (memory MiB, time, cpus) -> run ids.
  std::map<std::tuple<std::uint64_t, std::string, unsigned>, std::vector<std::string>> classes;
  for (const Run* r : pending(layout, runs, settings.retry_failed)) {
    const Estimate est = estimates.of(*r);
    classes[{memory_request_mib(est, settings.memory_margin),
             slurm_time(std::max(300.0, est.seconds * settings.time_margin)), cpus_of(*r)}]
        .push_back(r->id);
    ++out.runs;
  }
  const auto dir = layout.root() / "slurm";
  std::string submit = "#!/bin/bash\n# Submits the job arrays of the sweep '" + e.name +
                       "'; extra arguments go to every sbatch (e.g. --wait).\nset -euo pipefail\n";
  std::size_t k = 0;
  for (const auto& [resources, all_ids] : classes) {
    const auto& [mib, time, cpus] = resources;
    // Slurm's default MaxArraySize is 1001: arrays of at most 1000 tasks.
    for (std::size_t from = 0; from < all_ids.size(); from += kMaxArrayTasks) {
      const std::vector<std::string> ids(all_ids.begin() + static_cast<std::ptrdiff_t>(from),
                                         all_ids.begin() + static_cast<std::ptrdiff_t>(std::min(all_ids.size(), from + kMaxArrayTasks)));
      const std::string base = "array-" + std::to_string(k++);
      write_script(dir / (base + ".sh"), array_script(layout, e, settings, base, ids, {mib, time, cpus}), true);
      out.files.push_back((dir / (base + ".sh")).string());
      submit += "sbatch --parsable \"$@\" " + shell_quote(absolute_text(dir / (base + ".sh"))) + "\n";
    }
  }
  make_folder(dir / "logs");
  write_script(dir / "submit.sh", submit, true);
  out.files.insert(out.files.begin(), (dir / "submit.sh").string());
  out.how = shell_quote(absolute_text(dir / "submit.sh"));
  return out;
}

}  // namespace interflow::experiments
