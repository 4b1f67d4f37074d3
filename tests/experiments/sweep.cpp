// Sweeps end to end through the interflow executable: a local sweep interrupted and resumed,
// failed runs recorded and retried, collect's tables checked against the runs, every subcommand's
// config.toml run again to the same summary, the same sweep under GNU parallel, and the plots.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <sys/wait.h>

#include <cmath>
#include <map>

#include "tests/support/cli_support.hpp"

using namespace interflow::test;

namespace {

// Runs a shell command; its exit status.
int shell(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// The figures need Debian's matplotlib for /usr/bin/python3.
void require_matplotlib() {
  REQUIRE_MESSAGE(shell("/usr/bin/python3 -c 'import matplotlib' 2> /dev/null") == 0,
                  "matplotlib is missing: install Debian's python3-matplotlib (scripts/setup-deps.sh does)");
}

std::size_t count_files(const fs::path& runs, const std::string& name) {
  std::size_t n = 0;
  for (const auto& d : fs::directory_iterator(runs))
    if (fs::exists(d.path() / name)) ++n;
  return n;
}

// A CSV as rows of cells keyed by the header.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& file) {
  const auto lines = lines_of(read_text(file));
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  const auto header = split_csv(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split_csv(lines[i]);
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size() && c < cells.size(); ++c) row[header[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

// A summary without what differs from run to run (timings, memory, rates of the simulator itself:
// experiments/collect.hpp is_resource).
Json results_of(const fs::path& summary) {
  Json j = parse_json(read_text(summary));
  for (const char* key : {"time_s", "peak_rss_bytes", "build_seconds"}) j.erase(key);
  if (j.contains("simulation"))
    for (const char* key : {"events_per_second", "solve_share"}) j["simulation"].erase(key);
  if (j.contains("memory_estimate")) j["memory_estimate"].erase("available_bytes");
  if (j.contains("stream")) j["stream"].erase("pass_seconds");
  return j;
}

const std::string kStudy = R"([experiment]
name = "study"
seeds = 2
[static]
pattern = "uniform"
threads = 1
[axes]
topology = ["fattree:k=12,n=3", "torus:dims=12x12x12"]
routing = ["", "bfs"]
)";

}  // namespace

TEST_CASE("sweep: runs locally and resumes after an interrupt and collects mean and CI over seeds") {
  const fs::path dir = scratch() / "sweep-local";
  const fs::path file = scratch() / "study.toml";
  write_text(file, kStudy);
  const std::string sweep = std::string(INTERFLOW_BINARY) + " sweep " + file.string() + " --out " + dir.string();
  // Interrupt it once two runs have finished: the finished ones stay, the running one is not failed.
  const int interrupted = shell("(" + sweep + " -j 1 --no-progress > /dev/null 2>&1 & p=$!; while [ \"$(ls " +
                                dir.string() + "/runs/*/summary.json 2>/dev/null | wc -l)\" -lt 2 ]; do sleep 0.02; "
                                "done; kill -INT $p; wait $p; exit $?)");
  const std::size_t done = count_files(dir / "runs", "summary.json");
  if (done < 8) CHECK(interrupted == 130);
  CHECK(done >= 2);
  CHECK(count_files(dir / "runs", "failed") == 0);
  const Outcome resumed = run_cli("sweep " + file.string() + " --out " + dir.string() + " -j 2 --no-progress");
  INFO(resumed.out << resumed.err);
  REQUIRE(resumed.status == 0);
  CHECK(contains(resumed.out, std::to_string(done) + " had finished, " + std::to_string(8 - done) + " ran now"));
  CHECK(count_files(dir / "runs", "summary.json") == 8);
  // Once more: nothing left to run.
  CHECK(contains(run_cli("sweep " + file.string() + " --out " + dir.string() + " --no-progress").out,
                 "8 had finished, 0 ran now"));

  const Outcome collected = run_cli("collect " + dir.string() + " --show jain_fairness");
  REQUIRE(collected.status == 0);
  CHECK(contains(collected.out, "collected 8 runs (4 configurations"));
  CHECK(contains(collected.out, "topology             routing  runs  jain_fairness"));
  auto runs = read_csv(dir / "collected.csv");
  auto groups = read_csv(dir / "aggregated.csv");
  REQUIRE(runs.size() == 8);
  REQUIRE(groups.size() == 4);
  CHECK(groups[0]["runs"] == "2");
  CHECK(groups[0].count("seed") == 0);
  // The aggregate is the mean and the t-interval of the two seeds' values.
  const std::string metric = "throughput.nonrestricted_normalised";
  std::vector<double> x;
  for (auto& r : runs)
    if (r["topology"] == groups[0]["topology"] && r["routing"] == groups[0]["routing"]) x.push_back(std::stod(r[metric]));
  REQUIRE(x.size() == 2);
  const double mean = (x[0] + x[1]) / 2, sd = std::abs(x[0] - x[1]) / std::sqrt(2.0);
  CHECK(std::stod(groups[0][metric + ".mean"]) == approx(mean).epsilon(1e-12));
  CHECK(std::stod(groups[0][metric + ".sd"]) == approx(sd).epsilon(1e-9));
  CHECK(std::stod(groups[0][metric + ".ci95"]) == approx(12.7062047 * sd / std::sqrt(2.0)).epsilon(1e-7));
  // Each row's metric is its run's summary.
  const Json summary = parse_json(read_text(dir / "runs" / runs[3]["id"] / "summary.json"));
  CHECK(std::stod(runs[3][metric]) == summary["throughput"]["nonrestricted_normalised"].get<double>());
  CHECK(runs[3]["seed"] == std::to_string(summary["seed"].get<int>()));
}

TEST_CASE("sweep: failed runs are recorded and skipped on resume and run again with --retry-failed") {
  const fs::path dir = scratch() / "sweep-failed", flows = scratch() / "later-flows.csv";
  const fs::path file = scratch() / "failing.toml";
  write_text(file, "[experiment]\nout = \"" + dir.string() + "\"\n[dynamic]\ntopology = \"fattree:k=4,n=3\"\n"
                   "flow-file = \"" + flows.string() + "\"\n[axes]\nswitch-gbps = [50, 100]\n");
  const std::string sweep = "sweep " + file.string() + " --no-progress";
  Outcome o = run_cli(sweep);
  CHECK(o.status == 3);
  CHECK(contains(o.out, "2 failed"));
  CHECK(count_files(dir / "runs", "failed") == 2);
  CHECK(contains(o.err, "later-flows.csv"));  // the run's own message, from its log
  o = run_cli(sweep);
  CHECK(o.status == 3);
  CHECK(contains(o.out, "2 failed before (--retry-failed runs them)"));
  CHECK(run_cli("collect " + dir.string()).status == 2);  // unfinished runs: no table unless --partial
  write_text(flows, "src,dst,bytes,start_s\n0,5,1000000,0\n3,9,2000000,0\n");
  o = run_cli(sweep + " --retry-failed");
  INFO(o.out << o.err);
  CHECK(o.status == 0);
  CHECK(count_files(dir / "runs", "failed") == 0);
  CHECK(count_files(dir / "runs", "summary.json") == 2);
}

TEST_CASE("run: a results folder config.toml runs again to the same summary for every subcommand") {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"static", "static -t fattree:k=4,n=3 -p randperm -s 9"},
      {"dynamic", "dynamic -t torus:dims=6x6 -a stencil2d:tasks=16,iters=3 -a uniform_bg:tasks=8,placement=random"},
      {"schedule", "schedule --swf " + std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/swf/tiny.swf -p easy"},
      {"topo", "topo dragonfly:a=4,p=2,h=2 -s 3"},
  };
  for (const auto& [name, args] : runs) {
    INFO(name);
    const fs::path first = scratch() / ("first-" + name), again = scratch() / ("again-" + name);
    REQUIRE(run_cli(args + " --quiet --no-progress --out " + first.string()).status == 0);
    const Outcome o = run_cli("run " + (first / "config.toml").string() + " --quiet --out " + again.string());
    INFO(o.err);
    REQUIRE(o.status == 0);
    CHECK(results_of(first / "summary.json") == results_of(again / "summary.json"));
    for (const auto& f : fs::directory_iterator(first))
      if (f.path().filename() != "summary.json") CHECK(read_text(f.path()) == read_text(again / f.path().filename()));
  }
  // A sweep is not one run.
  const fs::path study = scratch() / "two.toml";
  write_text(study, "[static]\ntopology = \"torus:dims=4x4\"\n[axes]\nseed = [1]\nswitch-gbps = [1, 2]\n");
  CHECK(contains(run_cli("run " + study.string()).err, "seed: sweep the seeds with [experiment] seeds"));
  write_text(study, "[static]\ntopology = \"torus:dims=4x4\"\n[axes]\nswitch-gbps = [1, 2]\n");
  CHECK(contains(run_cli("run " + study.string()).err, "sweep of 2 runs"));
}

TEST_CASE("sweep: emitted as a GNU parallel job file the same runs give the same collected table") {
  REQUIRE_MESSAGE(shell("command -v parallel > /dev/null") == 0,
                  "GNU parallel is missing: install Debian's 'parallel' (scripts/setup-deps.sh does)");
  const fs::path local = scratch() / "sweep-local-2", cluster = scratch() / "sweep-parallel";
  const fs::path file = scratch() / "study2.toml";
  write_text(file, kStudy);
  REQUIRE(run_cli("sweep " + file.string() + " --out " + local.string() + " --no-progress").status == 0);
  const Outcome emitted = run_cli("sweep " + file.string() + " --out " + cluster.string() + " --emit parallel");
  REQUIRE(emitted.status == 0);
  CHECK(contains(emitted.out, "8 of 8 runs to run"));
  CHECK(lines_of(read_text(cluster / "parallel" / "jobs.txt")).size() == 8);
  REQUIRE(shell("parallel --will-cite --jobs 2 --halt now,fail=1 < " + (cluster / "parallel" / "jobs.txt").string() +
                " > /dev/null 2>&1") == 0);
  REQUIRE(run_cli("collect --no-resources " + local.string()).status == 0);
  REQUIRE(run_cli("collect --no-resources " + cluster.string()).status == 0);
  CHECK(read_text(local / "collected.csv") == read_text(cluster / "collected.csv"));
  CHECK(read_text(local / "aggregated.csv") == read_text(cluster / "aggregated.csv"));
  // Nothing left: the emitted file is empty, and says so.
  CHECK(contains(run_cli("sweep " + file.string() + " --out " + cluster.string() + " --emit parallel").out,
                 "0 of 8 runs to run"));
}

TEST_CASE("plot: the standard figures are written as PNG files") {
  require_matplotlib();
  const fs::path dir = scratch() / "sweep-plot";
  const fs::path file = scratch() / "study3.toml";
  write_text(file, kStudy);
  REQUIRE(run_cli("sweep " + file.string() + " --out " + dir.string() + " --no-progress").status == 0);
  REQUIRE(run_cli("collect " + dir.string()).status == 0);
  const auto png = [](const fs::path& f) { return read_text(f).substr(1, 3) == "PNG"; };
  Outcome o = run_cli("plot metric " + dir.string() + " --y throughput.restricted_normalised --x routing --series topology");
  INFO(o.err);
  CHECK(o.status == 0);
  CHECK(png(dir / "throughput_restricted_normalised-vs-routing.png"));
  // A figure for /dev/full is written straight to it and refused as not written; the device stays
  // a device (a rename over it would replace it with a file and report success).
  o = run_cli("plot metric " + dir.string() + " --y jain_fairness --x routing --series topology --out /dev/full");
  CHECK(o.status == 4);
  CHECK(contains(o.err, "'/dev/full': No space left on device"));
  CHECK(fs::is_character_file("/dev/full"));
  // The filters name the figure, so two selections do not overwrite each other.
  CHECK(run_cli("plot metric " + dir.string() + " --y jain_fairness --x routing --where topology=fattree:k=12,n=3").status == 0);
  CHECK(png(dir / "jain_fairness-vs-routing-topology_fattree_k_12_n_3.png"));
  o = run_cli("plot metric " + dir.string() + " --y throughput.restricted --x routing --series topology");
  CHECK(o.status == 2);
  CHECK(contains(o.err, "not a metric"));
  o = run_cli("plot metric " + dir.string() + " --y jain_fairness --x routing");  // topology also varies
  CHECK(o.status == 2);
  CHECK(contains(o.err, "also differ in topology"));
  const fs::path run = *fs::directory_iterator(dir / "runs");
  CHECK(run_cli("plot links " + run.string() + " --out " + (scratch() / "links.png").string()).status == 0);
  CHECK(png(scratch() / "links.png"));
  // A figure or a path that cannot be written is "results not written": status 4, one line.
  const Outcome unwritable = run_cli("plot links " + run.string() + " --out /dev/full/links.png");
  CHECK(unwritable.status == 4);
  CHECK(contains(unwritable.err, "results not written: '/dev/full/links.png'"));
  const Outcome full = run_cli("plot links " + run.string() + " --out " + (scratch() / "links2.png").string(), "/dev/full");
  CHECK(full.status == 4);
  CHECK(contains(full.err, "results not written: standard output"));
  CHECK_FALSE(contains(full.err, "Traceback"));
  const fs::path dyn = scratch() / "plot-dynamic", sched = scratch() / "plot-schedule";
  REQUIRE(run_cli("dynamic -t fattree:k=4,n=3 -p uniform -b 1e6 --load 0.3 --flows-csv -q --no-progress --out " +
                  dyn.string()).status == 0);
  CHECK(run_cli("plot cdf " + dyn.string()).status == 0);
  CHECK(png(dyn / "cdf-completion_s.png"));
  REQUIRE(run_cli("schedule --swf " + std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/swf/tiny.swf -q --out " +
                  sched.string()).status == 0);
  CHECK(run_cli("plot jobs " + sched.string()).status == 0);
  CHECK(png(sched / "jobs.png"));
  CHECK(contains(run_cli("plot cdf " + sched.string()).err, "no flows.csv"));
}

TEST_CASE("plot: scripts/switch_compare.py sets switch models side by side per SL") {
  require_matplotlib();
  const fs::path dir = scratch() / "sweep-switches";
  const fs::path file = scratch() / "study-switches.toml";
  write_text(file,
             "[experiment]\ncommand = \"packet\"\nname = \"switches\"\nseeds = 1\n"
             "[packet]\ntopology = \"fattree:k=4,n=2\"\nrouting = \"dmodk\"\nmix = \"cano-cano-2024\"\n"
             "warmup = 200\nmeasure = 2000\n[axes]\n\"mix:be-load\" = [0.0125, 0.05]\n"
             "switch = [\"ib\", \"opa:input-buffer-bytes=114688,output-buffer-bytes=114688,vl-min-bytes=2048,"
             "vl-max-bytes=0,central-vl-min-bytes=2048\"]\n");
  REQUIRE(run_cli("sweep " + file.string() + " --out " + dir.string() + " --no-progress").status == 0);
  REQUIRE(run_cli("collect " + dir.string() + " -q").status == 0);
  const fs::path table = scratch() / "switches.md";
  const std::string script = std::string(INTERFLOW_SOURCE_DIR) + "/scripts/switch_compare.py";
  REQUIRE(shell(script + " " + dir.string() + " --plot " + (dir / "cmp.png").string() + " > " + table.string()) == 0);
  const std::string text = read_text(table);
  CHECK(contains(text, "| NC ib | NC opa |"));
  CHECK(contains(text, "| 0.0125 | "));
  CHECK(contains(text, "| 0.05 | "));
  CHECK(read_text(dir / "cmp.png").substr(1, 3) == "PNG");
  // A sweep without a switch axis is refused with one message.
  const fs::path plain = scratch() / "sweep-no-switch";
  fs::create_directories(plain);
  write_text(plain / "aggregated.csv", "load,runs\n0.1,1\n");
  const fs::path err = scratch() / "switches.err";
  CHECK(shell(script + " " + plain.string() + " > /dev/null 2> " + err.string()) != 0);
  CHECK(contains(read_text(err), "no `switch` column"));
}

TEST_CASE("sweep: every example study in examples/experiments expands to its runs") {
  const fs::path examples = fs::path(INTERFLOW_SOURCE_DIR) / "examples" / "experiments";
  std::size_t files = 0;
  for (const auto& f : fs::directory_iterator(examples)) {
    if (f.path().extension() != ".toml") continue;
    ++files;
    INFO(f.path());
    // From the repository root, as their headers say (relative paths are relative to it).
    const Outcome o = run_cli("sweep " + f.path().string() + " --list --out " +
                              (scratch() / ("example-" + f.path().stem().string())).string());
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(contains(o.out, " runs of `interflow "));
  }
  CHECK(files >= 12);
}

TEST_CASE("plot: a packet sweep's service levels are drawn against the offered load") {
  require_matplotlib();
  const fs::path dir = scratch() / "sweep-sl";
  const fs::path file = scratch() / "study-sl.toml";
  write_text(file,
             "[experiment]\ncommand = \"packet\"\nname = \"sl\"\nseeds = 2\n"
             "[packet]\ntopology = \"fattree:k=4,n=2\"\nrouting = \"dmodk\"\nswitch = \"ib\"\nmix = \"cano-cano-2024\"\n"
             "warmup = 200\nmeasure = 2000\n[axes]\n\"mix:be-load\" = [0.0125, 0.05]\n");
  REQUIRE(run_cli("sweep " + file.string() + " --out " + dir.string() + " --no-progress").status == 0);
  REQUIRE(run_cli("collect " + dir.string()).status == 0);
  const Outcome o = run_cli("plot sl " + dir.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(read_text(dir / "service-levels.png").substr(1, 3) == "PNG");
  CHECK(contains(read_text(dir / "aggregated.csv"), "service_levels.6.mean_latency_cycles.mean"));
  // A sweep without service levels, or an x that is not there, is refused with one message.
  const Outcome bad = run_cli("plot sl " + dir.string() + " --x nosuch");
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--x 'nosuch'"));
  CHECK(run_cli("plot sl " + dir.string() + " --y x").status != 0);
}
