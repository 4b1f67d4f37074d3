// The interflow executable end to end: output files, JSON, error messages for malformed input,
// `list`, `topo`, GraphML export and reload, and TOML configuration files.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_support.hpp"

using namespace interflow::test;

namespace {

// A malformed input: non-zero exit, an error line on stderr naming every `part`.
void check_rejected(const std::string& args, std::initializer_list<std::string> parts) {
  const Outcome o = run_cli(args + " --no-progress");
  INFO("interflow " << args << "\nstderr: " << o.err);
  CHECK(o.status != 0);
  CHECK(contains(o.err, "error"));
  for (const auto& part : parts) CHECK(contains(o.err, part));
  CHECK(o.out.empty());
}

}  // namespace

TEST_CASE("cli: static --out writes summary.json and links.csv and flows.csv") {
  const fs::path dir = scratch() / "out-fattree";
  const Outcome o =
      run_cli("static -t fattree:k=2,n=3 -p shift:s=3 -s 42 --no-progress -q --flows-csv --out " + dir.string());
  REQUIRE(o.status == 0);
  CHECK(o.out.empty());  // -q

  const Json summary = parse_json(read_text(dir / "summary.json"));
  CHECK(summary["engine"].get<std::string>() == "static");
  CHECK(summary["seed"].get<double>() == 42);
  CHECK(summary["config"]["topology"].get<std::string>() == "fattree:k=2,n=3");
  CHECK(summary["config"]["routing"].get<std::string>() == "dmodk");
  CHECK(summary["config"]["pattern"].get<std::string>() == "shift:s=3");
  CHECK(summary["config"]["topology_params"]["k"].get<std::string>() == "2");
  CHECK(summary["network"]["family"].get<std::string>() == "fattree");
  CHECK(summary["network"]["endpoints"].get<double>() == 8);
  // 8 endpoint cables plus (n-1) k^n = 16 between switches.
  CHECK(summary["network"]["cables"].get<double>() == 24);
  CHECK(summary["network"]["links"].get<double>() == 48);
  CHECK(summary["network"]["direct"].get<bool>() == false);
  CHECK(summary["flows"]["total"].get<double>() == 8);
  CHECK(summary["flows"]["routed"].get<double>() == 8);
  // dmodk routes a shift permutation on a fat tree without contention: 8 flows at 100 Gbit/s.
  CHECK(summary["throughput"]["aggregate_nonrestricted_gbps"].get<double>() == approx(800));
  CHECK(summary["throughput"]["nonrestricted_normalised"].get<double>() == approx(1));
  CHECK(summary["flow_rate_gbps"]["median"].get<double>() == approx(100));
  CHECK(summary["jain_fairness"].get<double>() == approx(1));
  CHECK(summary.contains("time_s"));
  CHECK(summary.contains("paths_per_link"));

  const auto links = lines_of(read_text(dir / "links.csv"));
  REQUIRE(!links.empty());
  CHECK(links[0] ==
        "link_id,src_vertex,dst_vertex,src_kind,dst_kind,capacity_gbps,latency_ns,up,paths,load_gbps,"
        "utilisation");
  CHECK(links.size() == 1 + 48);
  double link_load = 0;
  for (std::size_t i = 1; i < links.size(); ++i) {
    const auto cells = split_csv(links[i]);
    REQUIRE(cells.size() == 11);
    CHECK(cells[0] == std::to_string(i - 1));  // one row per directed link, in id order
    CHECK(cells[7] == "1");
    link_load += std::stod(cells[9]);
  }

  const auto flows = lines_of(read_text(dir / "flows.csv"));
  REQUIRE(flows.size() == 1 + 8);
  CHECK(flows[0] == "flow_id,src,dst,status,paths,path_links,rate_gbps,bottleneck_link");
  double flow_link_sum = 0;
  for (std::size_t i = 1; i < flows.size(); ++i) {
    const auto cells = split_csv(flows[i]);
    REQUIRE(cells.size() == 8);
    const int src = std::stoi(cells[1]);
    CHECK(std::stoi(cells[2]) == (src + 3) % 8);
    CHECK(cells[3] == "routed");
    CHECK(cells[4] == "1");
    CHECK(std::stod(cells[6]) == approx(100));
    flow_link_sum += std::stod(cells[6]) * std::stod(cells[5]);
  }
  // Every flow's rate is counted once on each link of its path.
  CHECK(link_load == approx(flow_link_sum));
}

TEST_CASE("cli: static --json prints the summary as JSON on stdout") {
  const Outcome o = run_cli("static -t torus:dims=3x3 -p alltoall --json --no-progress");
  REQUIRE(o.status == 0);
  REQUIRE(!o.out.empty());
  CHECK(o.out.front() == '{');
  CHECK(contains(o.out, "\"aggregate_nonrestricted_gbps\""));
  const Json summary = parse_json(o.out);
  CHECK(summary["config"]["topology"].get<std::string>() == "torus:dims=3x3");
  CHECK(summary["config"]["routing"].get<std::string>() == "dor");
  CHECK(summary["flows"]["total"].get<double>() == 72);
  // Mean ring distance on a 3x3 torus over distinct pairs: 2 * (2/3) * 9/8 = 1.5 links.
  CHECK(summary["path_links"]["mean"].get<double>() == approx(1.5));
  CHECK(summary["network"]["facts"]["diameter_links"].get<double>() == 2);
}

TEST_CASE("cli: malformed input exits non-zero with a message naming the input") {
  SUBCASE("unknown topology lists the valid names") {
    check_rejected("static -t nosuch", {"nosuch", "torus", "fattree", "mesh"});
  }
  SUBCASE("unknown parameter lists the valid ones") { check_rejected("static -t torus:foo=1", {"'foo'", "dims", "c"}); }
  SUBCASE("zero radix") { check_rejected("static -t torus:dims=0x4", {"dims", "0x4"}); }
  SUBCASE("fattree k=1") { check_rejected("static -t fattree:k=1", {"'k'", "2.."}); }
  SUBCASE("missing graph file") {
    const std::string file = (scratch() / "does-not-exist.ifg").string();
    check_rejected("static -t graph:file=" + file, {file});
  }
  SUBCASE("malformed graph file line") {
    const fs::path file = scratch() / "broken.ifg";
    write_text(file, "# broken on line 4\nendpoints 2\nswitches 1\nbogus e0 s0\nlink e1 s0\n");
    check_rejected("static -t graph:file=" + file.string(), {file.string() + ":4:", "bogus"});
  }
  SUBCASE("failures out of range or not a number") {
    check_rejected("static -t torus:dims=4x4 --failures 150%", {"--failures", "150%"});
    check_rejected("static -t torus:dims=4x4 --failures abc", {"--failures", "abc"});
    check_rejected("static -t torus:dims=4x4 --failures 33", {"--failures", "33", "32"});
  }
  SUBCASE("shift by zero") { check_rejected("static -t torus:dims=4 -p shift:s=0", {"shift", "'s'"}); }
  SUBCASE("routing for another family") {
    check_rejected("static -t fattree:k=2,n=2 -r dor", {"dor", "fattree", "torus"});
  }
  SUBCASE("multipath paths beyond --max-path-memory") {
    check_rejected("static -t fattree:k=8,n=3 -r ecmp:max_paths=64 --max-path-memory 0.0002",
                   {"--max-path-memory", "max_paths", "GiB"});
    check_rejected("static -t fattree:k=8,n=3 -r dmodk --max-path-memory 0.00001", {"--max-path-memory"});
  }
  SUBCASE("--flows-csv without --out") {
    check_rejected("static -t torus:dims=4 --flows-csv", {"--flows-csv", "--out"});
  }
  SUBCASE("unknown option (reported by CLI11, without our error prefix)") {
    const Outcome o = run_cli("static --no-such-option");
    CHECK(o.status != 0);
    CHECK(contains(o.err, "--no-such-option"));
  }
}

TEST_CASE("cli: list prints every registry as text or Markdown") {
  const Outcome all = run_cli("list");
  REQUIRE(all.status == 0);
  for (const std::string kind : {"topology plugins:", "routing plugins:", "pattern plugins:"})
    CHECK(contains(all.out, kind));
  for (const std::string name : {"torus", "fattree", "dor", "bfs", "dmodk", "uniform", "bisection", "alltoall"})
    CHECK(contains(all.out, "  " + name + "  -  "));

  const Outcome md = run_cli("list topology --markdown");
  REQUIRE(md.status == 0);
  CHECK(md.out.rfind("# topology reference", 0) == 0);
  CHECK(contains(md.out, "## `torus`"));
  CHECK(contains(md.out, "| parameter | type | default | range | meaning |\n|---|---|---|---|---|\n"));
  CHECK(contains(md.out, "| `dims` | dims | `8x8x8` |"));
  CHECK(!contains(md.out, "routing reference"));
  CHECK(!contains(md.out, "## `dor`"));
}

TEST_CASE("cli: topo reports the closed-form diameter and mean distance of a torus") {
  const Outcome o = run_cli("topo torus:dims=4x4x4");
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "diameter             6 links"));
  // 3 dimensions x mean ring distance 1 (over all 16 ordered pairs of a ring of 4) x 64/63.
  CHECK(contains(o.out, "mean distance        3.04762 links (exact)"));
  CHECK(contains(o.out, "cables               192"));

  const Outcome json = run_cli("topo fattree:k=4,n=2 --json");
  REQUIRE(json.status == 0);
  const Json t = parse_json(json.out);
  CHECK(t["endpoints"].get<double>() == 16);
  CHECK(t["diameter_links"].get<double>() == 4);
  // Same leaf (3 of 15 others): 2 links, otherwise 4: (3*2 + 12*4) / 15 = 3.6.
  CHECK(t["mean_distance_links"].get<double>() == approx(3.6));
}

TEST_CASE("cli: a GraphML export loads back as the same network") {
  for (const std::string spec : {"torus:dims=4x3", "fattree:k=2,n=3", "mesh:dims=3x2,c=2"}) {
    INFO(spec);
    const fs::path file = scratch() / "export.graphml";
    const Outcome exported = run_cli("topo " + spec + " --export " + file.string());
    REQUIRE(exported.status == 0);
    const Outcome original = run_cli("static -t " + spec + " -r bfs -p alltoall --json --no-progress");
    const Outcome loaded = run_cli("static -t graph:file=" + file.string() + " -p alltoall --json --no-progress");
    REQUIRE(original.status == 0);
    INFO(loaded.err);
    REQUIRE(loaded.status == 0);
    const Json a = parse_json(original.out), b = parse_json(loaded.out);
    CHECK(b["network"]["family"].get<std::string>() == "graph");
    CHECK(b["network"]["endpoints"].get<double>() == a["network"]["endpoints"].get<double>());
    CHECK(b["network"]["switches"].get<double>() == a["network"]["switches"].get<double>());
    CHECK(b["network"]["cables"].get<double>() == a["network"]["cables"].get<double>());
    CHECK(b["network"]["direct"].get<bool>() == a["network"]["direct"].get<bool>());
    CHECK(b["flows"]["routed"].get<double>() == a["flows"]["routed"].get<double>());
    // Both are routed on shortest paths, so the mean path length must agree.
    CHECK(b["path_links"]["mean"].get<double>() == approx(a["path_links"]["mean"].get<double>()));
  }
}

TEST_CASE("cli: dynamic runs a flow list and a Poisson pattern and writes its result files") {
  const fs::path flows = scratch() / "flows.csv";
  write_text(flows, "0,2,1000000,0\n1,3,1000000,0\n");
  const fs::path dir = scratch() / "dynamic";
  const Outcome o = run_cli("dynamic -t graph:file=" + std::string(INTERFLOW_SOURCE_DIR) +
                              "/tests/fixtures/dumbbell.ifg -r bfs -f " + flows.string() + " --out " + dir.string() +
                              " --flows-csv --json --no-progress");
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "\"engine\": \"dynamic\""));
  CHECK(contains(o.out, "\"delivered\": 2"));
  for (const char* name : {"summary.json", "links.csv", "series.csv", "flows.csv"}) CHECK(fs::exists(dir / name));
  // Two 1 MB flows share the 10 Gbit/s cable: both transfers end at 1.6 ms.
  CHECK(contains(o.out, "\"makespan_s\": 0.0016"));
  const Outcome p =
      run_cli("dynamic -t fattree:k=4,n=3 -p uniform -b 1e5 --arrival poisson --load 0.3 --no-progress");
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "Poisson arrivals at 0.3"));
  // --load alone is the shorthand for --arrival poisson:load=L: the same run.
  const std::string json = " --json --no-progress";
  const Outcome spec = run_cli("dynamic -t fattree:k=4,n=3 -p uniform -b 1e5 --arrival poisson:load=0.3" + json);
  const Outcome alone = run_cli("dynamic -t fattree:k=4,n=3 -p uniform -b 1e5 --load 0.3" + json);
  REQUIRE(spec.status == 0);
  REQUIRE(alone.status == 0);
  CHECK(parse_json(alone.out)["makespan_s"] == parse_json(spec.out)["makespan_s"]);
  CHECK(parse_json(alone.out)["config"]["arrival"] == "poisson:load=0.3");
  // Arrivals with a per-flow routing stream (dynamic.md "Open-loop runs, streamed"); flows that all
  // start together, or a routing that routes flows together, hold every flow.
  CHECK(parse_json(alone.out)["flows"]["streamed"] == true);
  CHECK(contains(p.out, "(streamed: routed as they started"));
  const Outcome together = run_cli("dynamic -t fattree:k=4,n=3 -p uniform -b 1e5" + json);
  const Outcome searched = run_cli("dynamic -t fattree:k=4,n=3 -r ecmp -p uniform -b 1e5 --load 0.3" + json);
  REQUIRE(together.status == 0);
  REQUIRE(searched.status == 0);
  CHECK(parse_json(together.out)["flows"]["streamed"] == false);
  CHECK(parse_json(searched.out)["flows"]["streamed"] == false);
  // Streamed, --max-path-memory bounds the paths of the flows in transfer.
  check_rejected("dynamic -t fattree:k=4,n=3 -r updown -p uniform:flows_per_endpoint=20 -b 1e5 --load 0.5 "
                 "--max-path-memory 1e-5",
                 {"--max-path-memory", "GiB"});
  check_rejected("dynamic -t fattree:k=4,n=3 --arrival sometimes", {"arrival", "sometimes", "poisson, zero"});
  check_rejected("dynamic -t fattree:k=4,n=3 --arrival poisson --load 0", {"--load"});
  check_rejected("dynamic -t fattree:k=4,n=3 -f " + (scratch() / "missing.csv").string(), {"missing.csv"});
  check_rejected("dynamic -t fattree:k=4,n=3 -f " + flows.string() + " --phase-size 4", {"--phase-size", "pattern"});
  const Outcome phased = run_cli("dynamic -t fattree:k=4,n=3 -p alltoall -b 1e5 --phase-size 64 --no-progress");
  REQUIRE(phased.status == 0);
  CHECK(contains(phased.out, "in phases of 64 flows"));
}

TEST_CASE("cli: dynamic runs applications with class policies and writes per-application results") {
  const fs::path dir = scratch() / "apps";
  const Outcome o = run_cli(
      "dynamic -t fattree:k=4,n=3 -a stencil2d:tasks=16,iters=2 -a graph:tasks=16,placement=random,class=1 "
      "--policy qos --class-cap 0.3,1 --class-priority 0,1 --cpu-scale 2 --max-in-flight 4 --out " +
      dir.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(contains(o.out, "\"applications\""));
  CHECK(contains(o.out, "\"blocked_tasks\": 0"));
  CHECK(contains(o.out, "\"policy\": \"qos\""));
  for (const char* name : {"summary.json", "apps.csv", "tasks.csv", "links.csv", "series.csv"})
    CHECK(fs::exists(dir / name));
  check_rejected("dynamic -t fattree:k=4,n=3 -a stencil2d:tasks=99", {"99", "endpoints"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nosuchapp", {"nosuchapp", "stencil2d"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 --policy qos --class-share 0.5", {"--class-share", "ba"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 --policy ba --class-cap 0.5", {"--class-cap", "qos"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4,class=2 --policy fp --class-priority 0,1",
                 {"class", "priority"});
}

TEST_CASE("cli: dynamic writes an application as GOAL and VEF traces and replays them") {
  const fs::path goal = scratch() / "nbody.goal", vef = scratch() / "nbody.vef";
  const Outcome first = run_cli("dynamic -t fattree:k=4,n=3 -a nbody:tasks=6,compute=1e-6 --write-goal " +
                                  goal.string() + " --write-vef " + vef.string() + " --json --no-progress");
  INFO(first.err);
  REQUIRE(first.status == 0);
  const auto runtime_of = [](const std::string& out) {
    return parse_json(out)["applications"].at(0)["runtime_s"].get<double>();
  };
  for (const fs::path& trace : {goal, vef}) {
    const std::string kind = trace.extension() == ".goal" ? "goal" : "vef";
    const Outcome again =
        run_cli("dynamic -t fattree:k=4,n=3 -a " + kind + ":file=" + trace.string() + " --json --no-progress");
    INFO(again.err);
    REQUIRE(again.status == 0);
    CHECK(runtime_of(again.out) == approx(runtime_of(first.out)).epsilon(1e-9));
  }
  // A deadlocked trace: exit status 3 and who waits for what on stderr.
  const Outcome stuck = run_cli("dynamic -t fattree:k=4,n=3 -a goal:file=" + std::string(INTERFLOW_SOURCE_DIR) +
                                  "/tests/fixtures/traces/deadlock.goal --no-progress -q");
  CHECK(stuck.status == 3);
  CHECK(contains(stuck.err, "deadlock: 2 task(s) wait forever"));
  CHECK(contains(stuck.err, "waits for rank 1 to reach the matching"));
  check_rejected("dynamic -t fattree:k=4,n=3 -a goal:file=" + (scratch() / "missing.goal").string(),
                 {"missing.goal", "GOAL schedule", "No such file or directory"});
  check_rejected("dynamic -t fattree:k=4,n=3 -a nbody:tasks=4 -a nbody:tasks=4 --write-goal x.goal",
                 {"--write-goal", "exactly one --app"});
}

TEST_CASE("cli: schedule replays an SWF log and writes per-job results") {
  const fs::path dir = scratch() / "schedule";
  const std::string log = std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/swf/tiny.swf";
  const Outcome o = run_cli("schedule --swf " + log + " -p easy --out " + dir.string() + " --json");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["mean_wait_s"].get<double>() == approx(5.25));
  CHECK(summary["nodes"].get<double>() == 4);
  const auto jobs = lines_of(read_text(dir / "jobs.csv"));
  REQUIRE(jobs.size() == 5);
  CHECK(split_csv(jobs[3])[2] == "2");  // job 3 backfilled at 2 s
  CHECK(fs::exists(dir / "utilisation.csv"));
  CHECK(fs::exists(dir / "summary.json"));
  check_rejected("schedule --swf " + log + " -p nosuch", {"nosuch", "easy"});
  check_rejected("schedule --swf " + (scratch() / "none.swf").string(), {"none.swf", "SWF log", "No such file"});
  check_rejected("schedule -p easy", {"--swf", "--jobs"});
  check_rejected("schedule --jobs 5 --network-aware", {"--job-app"});
  // pyss's conventions are options, recorded in config.toml; the tiny log's schedule does not move.
  const fs::path pyss = scratch() / "schedule-pyss";
  const Outcome p = run_cli("schedule --swf " + log + " -p easy --missing one-second --estimate at-least-run " +
                            "--passes event --out " + pyss.string() + " --json");
  INFO(p.err);
  REQUIRE(p.status == 0);
  CHECK(parse_json(p.out)["mean_wait_s"].get<double>() == approx(5.25));
  const std::string config = read_text(pyss / "config.toml");
  CHECK(config.find("passes = 'event'") != std::string::npos);
  CHECK(config.find("missing = 'one-second'") != std::string::npos);
  check_rejected("schedule --swf " + log + " --passes sometimes", {"--passes", "sometimes"});
  check_rejected("schedule --jobs 5 --missing one-second", {"--missing", "--swf"});
}

TEST_CASE("cli: schedule runs a synthetic stream network-aware and reports network slowdowns") {
  const fs::path dir = scratch() / "schedule-net";
  const Outcome o = run_cli(
      "schedule --jobs 8 --mean-gap 1e-5 --job-sizes 4,8 --network-aware -t thintree:k=4,kp=2,n=3 "
      "--allocation random --job-app stencil2d:iters=2,bytes=1e5 --job-app nbody:bytes=1e5 --bsld-tau 1e-5 --out " +
      dir.string() + " --json");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["jobs"]["scheduled"].get<double>() == 8);
  CHECK(summary["mean_network_slowdown"].get<double>() >= 1.0);
  CHECK(summary["config"]["network_aware"].get<bool>());
  const auto jobs = lines_of(read_text(dir / "jobs.csv"));
  REQUIRE(jobs.size() == 9);
  CHECK(contains(jobs[0], "isolated_runtime_s,network_slowdown"));
  CHECK(!split_csv(jobs[1]).back().empty());

  // Jobs from an INRFlow workload file, placed by locality: alone in their switches, never slowed.
  const fs::path wl = scratch() / "jobs.txt";
  write_text(wl, "0 stencil2d_2x2_100000_2 4 sequential\n5000 nbody 8 random\n5000 all2all 4 random\n");
  const Outcome w = run_cli("schedule --inrflow-workload " + wl.string() +
                              " --network-aware -t fattree:k=4,n=3 --allocation locality --bsld-tau 1e-5 --json");
  INFO(w.err);
  REQUIRE(w.status == 0);
  const Json ws = parse_json(w.out);
  CHECK(ws["jobs"]["scheduled"].get<double>() == 3);
  CHECK(ws["source"].get<std::string>().rfind("INRFlow workload", 0) == 0);
  CHECK(ws["mean_network_slowdown"].get<double>() == approx(1.0));
  check_rejected("schedule --inrflow-workload " + wl.string(), {"--inrflow-workload", "--network-aware"});
  check_rejected("schedule --jobs 3 --allocation locality", {"locality", "--network-aware"});
}

// Sums a column of a CSV file with a header.
double column_sum(const fs::path& file, const std::string& name) {
  const auto rows = lines_of(read_text(file));
  const auto head = split_csv(rows.at(0));
  const auto at = static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  REQUIRE(at < head.size());
  double sum = 0;
  for (std::size_t r = 1; r < rows.size(); ++r) sum += std::stod(split_csv(rows[r]).at(at));
  return sum;
}

TEST_CASE("cli: schedule runs Markov-chain jobs with storage and accounts every byte per job and per device") {
  const std::string jobs = "schedule --jobs 6 --mean-gap 1e-4 --job-sizes 4,8 --network-aware -t fattree:k=4,n=2 "
                           "--job-app markov:profile=io,lambda=1e5,read_bytes=1e5,write_bytes=2e5,result_bytes=1e5,"
                           "comm_bytes=1e4 ";
  for (const std::string placement : {"local", "external", "internal:share=0.25", "san"}) {
    INFO(placement);
    const fs::path dir = scratch() / ("storage-" + placement.substr(0, 4));
    const std::string san = placement == "san" ? " --san fattree:k=4,n=1 --san-servers 2" : "";
    const Outcome o = run_cli(jobs + "--data-placement " + placement + san + " --class-policy fp --out " +
                              dir.string() + " --json");
    INFO(o.err);
    REQUIRE(o.status == 0);
    const Json summary = parse_json(o.out);
    CHECK(summary["jobs"]["scheduled"].get<double>() == 6);
    const Json& st = summary["storage"];
    // Reads come out of the devices and writes go into them, byte for byte.
    const double read = st["bytes_read_local"].get<double>() + st["bytes_read_remote"].get<double>();
    const double written = st["bytes_written_local"].get<double>() + st["bytes_written_remote"].get<double>();
    CHECK(read > 0);
    CHECK(written > 0);
    CHECK(column_sum(dir / "devices.csv", "bytes_read") == approx(read));
    CHECK(column_sum(dir / "devices.csv", "bytes_written") == approx(written));
    CHECK(column_sum(dir / "jobs.csv", "bytes_read_remote") == approx(st["bytes_read_remote"].get<double>()));
    if (placement == "local") CHECK(st["bytes_read_remote"].get<double>() == 0);
    if (placement == "external" || placement == "san") CHECK(st["bytes_read_local"].get<double>() == 0);
    if (placement.rfind("internal", 0) == 0) {
      CHECK(st["bytes_read_local"].get<double>() > 0);
      CHECK(st["bytes_read_remote"].get<double>() > 0);
    }
    CHECK(lines_of(read_text(dir / "trajectories.csv")).size() > 6 * 3);
    // Each job's times in its states add up to its run time.
    const auto rows = lines_of(read_text(dir / "jobs.csv"));
    const auto head = split_csv(rows[0]);
    for (std::size_t r = 1; r < rows.size(); ++r) {
      const auto cells = split_csv(rows[r]);
      double states = 0, runtime = 0;
      for (std::size_t c = 0; c < head.size(); ++c) {
        if (head[c].rfind("time_", 0) == 0) states += std::stod(cells[c]);
        if (head[c] == "runtime_s") runtime = std::stod(cells[c]);
      }
      CHECK(states == approx(runtime).epsilon(1e-12));
    }
    CHECK(read_text(dir / "config.toml").find("data-placement = '" + placement + "'") != std::string::npos);
  }
  // A fixed path of states, one 2-node job on a star of 10 Gbit/s links without latency, data local
  // (NVM 16 Gbit/s read, 8 write, PCIe 32): Comp 1 ms; Comm (shift) 1.25e6 bytes, 1 ms; Read 1.25e6
  // bytes at the device's 16 Gbit/s, 0.625 ms; Write and End 1.25e6 bytes at 8 Gbit/s, 1.25 ms each.
  const fs::path matrix = scratch() / "fixed-path.txt";
  write_text(matrix, "init 0 1 0 0 0 0\ncomp 0 0 1 0 0 0\ncomm 0 0 0 1 0 0\nread 0 0 0 0 1 0\nwrite 0 0 0 0 0 1\n");
  const fs::path fixed = scratch() / "storage-fixed";
  const Outcome f = run_cli("schedule --jobs 1 --job-sizes 2 --network-aware -t fattree:k=4,n=1 --endpoint-gbps 10 "
                            "--switch-gbps 10 --endpoint-latency-ns 0 --switch-latency-ns 0 --job-app markov:matrix=" +
                            matrix.string() +
                            ",comp=constant,lambda=1000,comm=shift,comm_bytes=1.25e6,read_bytes=1.25e6,"
                            "write_bytes=1.25e6,result_bytes=1.25e6 --data-placement local --out " +
                            fixed.string() + " -q");
  INFO(f.err);
  REQUIRE(f.status == 0);
  const auto rows = lines_of(read_text(fixed / "jobs.csv"));
  REQUIRE(rows.size() == 2);
  const auto head = split_csv(rows[0]), row = split_csv(rows[1]);
  const auto value = [&](const std::string& name) {
    return std::stod(row.at(static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin())));
  };
  CHECK(value("runtime_s") == approx(5.125e-3));
  CHECK(value("time_init_s") == 0);
  CHECK(value("time_comp_s") == approx(1e-3));
  CHECK(value("time_comm_s") == approx(1e-3));
  CHECK(value("time_read_s") == approx(0.625e-3));
  CHECK(value("time_write_s") == approx(1.25e-3));
  CHECK(value("time_end_s") == approx(1.25e-3));
  CHECK(lines_of(read_text(fixed / "trajectories.csv")).size() == 7);
  // Read requests cross the device's write link: devices.csv's bytes written are the jobs' writes plus
  // the requests, which the summary counts apart. Jobs of one node have no Comm phase.
  const fs::path req = scratch() / "storage-requests";
  const Outcome q = run_cli("schedule --jobs 6 --mean-gap 1e-4 --job-sizes 1,4 --network-aware -t fattree:k=4,n=2 "
                            "--job-app markov:profile=io,lambda=1e5,read_bytes=1e5,request_bytes=5e3 "
                            "--data-placement external --out " + req.string() + " --json");
  INFO(q.err);
  REQUIRE(q.status == 0);
  const Json qs = parse_json(q.out)["storage"];
  CHECK(qs["bytes_requested"].get<double>() > 0);
  CHECK(column_sum(req / "devices.csv", "bytes_written") ==
        approx(qs["bytes_written_local"].get<double>() + qs["bytes_written_remote"].get<double>() +
               qs["bytes_requested"].get<double>()));
  check_rejected("schedule --jobs 2 --network-aware --job-app markov --data-placement san --san bogus "
                 "--san-servers 1",
                 {"--san", "bogus"});
  check_rejected("schedule --jobs 3 --data-placement local", {"--data-placement", "--network-aware"});
  check_rejected(jobs + "--data-placement nowhere", {"nowhere", "local", "external"});
  check_rejected(jobs + "--data-placement san --san fattree:k=4,n=1", {"--san-servers"});
  check_rejected(jobs + "--data-placement san --san fattree:k=4,n=1 --san-servers 4", {"no gateway"});
  check_rejected(jobs + "--data-placement local --transport packet", {"--data-placement", "--transport flow"});
  check_rejected(jobs + "--pcie-gbps 4", {"--pcie-gbps", "--data-placement"});
  check_rejected(jobs + "--data-placement local --pcie-gbps nan", {"--pcie-gbps"});
  check_rejected(jobs + "--data-placement local --class-share 0.5,0.5", {"--class-share", "--class-policy ba"});
  // A Markov job without a storage system says what it needs.
  check_rejected(jobs, {"storage", "--data-placement"});
  // External placement on a partition with too few nodes outside it.
  check_rejected("schedule --jobs 2 --job-sizes 16 --network-aware -t fattree:k=4,n=2 --job-app markov "
                 "--data-placement external",
                 {"external", "devices outside"});
}

TEST_CASE("cli: dynamic and schedule run applications traces and jobs on the packet transport") {
  const fs::path dir = scratch() / "dynamic-packet";
  const std::string packet = " --transport packet --switch vct:vcs=2,buffer-flits=64 --mtu-bytes 1024";
  const Outcome o = run_cli("dynamic -t fattree:k=4,n=2 -a nbody:tasks=6,bytes=8192 -a vef:file=" +
                            std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/traces/allreduce8.vef" + packet +
                            " --out " + dir.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["transport"].get<std::string>() == "packet");
  CHECK(summary["packet"]["flit_hops"].get<double>() > 0);
  CHECK(summary["blocked_tasks"].get<double>() == 0);
  CHECK(summary["flows"]["delivered"].get<double>() == summary["flows"]["total"].get<double>());
  CHECK(!summary.contains("policy"));
  // Its config.toml runs it again to the same makespan.
  const Outcome again = run_cli("run " + (dir / "config.toml").string() + " --json --no-progress");
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(parse_json(again.out)["makespan_s"].get<double>() == summary["makespan_s"].get<double>());

  const Outcome s = run_cli("schedule --jobs 6 --mean-gap 1e-6 --job-sizes 4,8 --network-aware -t fattree:k=4,n=2 "
                            "--job-app stencil2d:iters=2,bytes=1e4 --bsld-tau 1e-5 --json" + packet);
  INFO(s.err);
  REQUIRE(s.status == 0);
  const Json ss = parse_json(s.out);
  CHECK(ss["jobs"]["scheduled"].get<double>() == 6);
  CHECK(ss["transport"].get<std::string>() == "packet");
  // Times are whole cycles: a job alone and shared may differ by a cycle per step either way.
  CHECK(ss["mean_network_slowdown"].get<double>() >= 0.99);

  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --switch ib", {"--switch", "--transport packet"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --policy fp", {"--policy", "flow transport"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --nic-fifo", {"--nic-fifo", "flow transport"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --router-delay-ns 20",
                 {"--router-delay-ns", "flow transport"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --router-delay-ns nan", {"--router-delay-ns", "finite"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --batch-tolerance 1e-6",
                 {"--batch-tolerance", "flow transport"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --batch-tolerance 0.5", {"--batch-tolerance", "0.01"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --profile", {"--profile", "flow transport"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --batch-tolerance inf", {"--batch-tolerance", "finite"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --rate-solver flows", {"--rate-solver", "variables, groups or auto"});
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport packet --rate-solver groups",
                 {"--rate-solver", "flow transport"});
  {
    // A small Poisson run with `options`, into scratch()/name: its summary.json.
    const auto poisson_run = [](const std::string& name, const std::string& options) {
      const Outcome run = run_cli("dynamic -t fattree:k=4,n=2 -p uniform:flows_per_endpoint=3 --load 0.5 " + options +
                                  " --json --no-progress --out " + (scratch() / name).string());
      INFO(run.err);
      REQUIRE(run.status == 0);
      return parse_json(run.out);
    };
    // A batch tolerance: stated in the summary with how early transfers ended, echoed into config.toml.
    const Json batched = poisson_run("dynamic-batch-tolerance", "--batch-tolerance 1e-3");
    const Json sim = batched["simulation"];
    CHECK(sim["batch_tolerance"].get<double>() == 1e-3);
    CHECK(sim["largest_relative_early_end"].get<double>() <= 1e-3);
    CHECK(read_text(scratch() / "dynamic-batch-tolerance" / "config.toml").find("batch-tolerance = 0.001") !=
          std::string::npos);
    // The solver over bottleneck groups: named in the summary and config.toml, the same makespan.
    const Json grouped = poisson_run("dynamic-rate-solver", "--rate-solver groups");
    CHECK(grouped["simulation"]["rate_solver"] == "groups");
    CHECK(grouped["simulation"]["batches_over_groups"] == grouped["simulation"]["batches"]);
    CHECK(grouped["simulation"]["solver_switches"].get<double>() == 0);
    // The default, auto: over variables unless the batches show an incast (none in this run).
    CHECK(batched["simulation"]["rate_solver"] == "auto");
    CHECK(batched["simulation"]["groups_from_s"].is_null());
    CHECK(batched["simulation"]["groups_from_batch"].is_null());
    CHECK(batched["simulation"]["solver_switches"].get<double>() == 0);
    CHECK(batched["simulation"]["batches_over_groups"].get<double>() == 0);
    CHECK(read_text(scratch() / "dynamic-rate-solver" / "config.toml").find("rate-solver = 'groups'") !=
          std::string::npos);
    const Json plain = poisson_run("dynamic-rate-solver-variables", "");
    CHECK(grouped["makespan_s"].get<double>() == approx(plain["makespan_s"].get<double>()).epsilon(1e-9));
    // Which clocks followed the transfers: over groups, their groups' (one path each under dmodk, no
    // cap), in this streamed open-loop run (48 flows) as in an application run; under a cap below 1
    // mixes.
    CHECK(grouped["simulation"]["group_clocked_transfers"].get<double>() == 48);
    CHECK(grouped["simulation"]["mix_clocked_transfers"].get<double>() == 0);
    const auto clocked = [](const std::string& options) {
      const Outcome run = run_cli(
          "dynamic -t fattree:k=4,n=2 -a mapreduce:input=1e5,shuffle=1e4,output=1e4,reducers=4 " + options +
          " --json --no-progress");
      INFO(run.err);
      REQUIRE(run.status == 0);
      const Json counts = parse_json(run.out)["simulation"];
      return std::pair{counts["group_clocked_transfers"].get<double>(), counts["mix_clocked_transfers"].get<double>()};
    };
    const auto [by_group, by_mix] = clocked("--rate-solver groups");
    CHECK(by_group > 0);
    CHECK(by_mix == 0);
    CHECK(clocked("") == std::pair{0.0, 0.0});
    CHECK(clocked("--rate-solver variables") == std::pair{0.0, 0.0});
    // The default hands an incast to groups midway: when, in the summary and the text; the same makespan.
    const std::string incast = "dynamic -t torus:dims=8x8x8 -a mapreduce:reducers=32,reducers_at=even --no-progress";
    const Outcome switched = run_cli(incast + " --json");
    const Outcome unswitched = run_cli(incast + " --json --rate-solver variables");
    const Outcome text = run_cli(incast);
    INFO(switched.err);
    REQUIRE(switched.status == 0);
    REQUIRE(unswitched.status == 0);
    REQUIRE(text.status == 0);
    const Json sw = parse_json(switched.out);
    CHECK(sw["simulation"]["groups_from_batch"].get<double>() > 64);
    CHECK(sw["simulation"]["groups_from_s"].get<double>() > 0);
    CHECK(sw["simulation"]["group_clocked_transfers"].get<double>() > 0);
    CHECK(sw["simulation"]["solver_switches"].get<double>() >= 1);
    CHECK(sw["simulation"]["batches_over_groups"].get<double>() > 0);
    CHECK(sw["simulation"]["batches_over_groups"].get<double>() < sw["simulation"]["batches"].get<double>());
    CHECK(parse_json(unswitched.out)["simulation"]["groups_from_s"].is_null());
    CHECK(sw["makespan_s"].get<double>() ==
          approx(parse_json(unswitched.out)["makespan_s"].get<double>()).epsilon(1e-9));
    CHECK(text.out.find("auto: over bottleneck groups from batch") != std::string::npos);
    CHECK(clocked("--rate-solver groups --policy qos --class-cap 0.5 --class-priority 0") == std::pair{0.0, by_group});
    // ... and back to variables once the incast is over: 600 flows into endpoint 0, then 600 random pairs
    // a second later (a flow list, streamed). The summary and the text count the switches.
    {
      std::string csv;
      for (int i = 0; i < 600; ++i) csv += std::to_string(1 + i % 127) + ",0," + std::to_string(1000000 + 1000 * i) + ",0\n";
      for (int i = 0; i < 600; ++i) {  // scattered pairs, sizes and starts (strides prime to the ranges)
        const int src = (37 * i) % 128, dst = (src + 1 + (53 * i) % 127) % 128;
        csv += std::to_string(src) + "," + std::to_string(dst) + "," + std::to_string(100000 + (7919 * i) % 1000000) +
               "," + std::to_string(1 + 1e-3 * ((31 * i) % 600) / 600.0) + "\n";
      }
      const fs::path list = scratch() / "incast-then-pairs.csv";
      write_text(list, csv);
      const std::string both = "dynamic -t fattree:k=8,n=3 -f " + list.string() + " --no-progress";
      const Outcome json = run_cli(both + " --json"), words = run_cli(both);
      INFO(json.err);
      REQUIRE(json.status == 0);
      REQUIRE(words.status == 0);
      const Json back = parse_json(json.out)["simulation"];
      CHECK(back["groups_from_batch"].get<double>() == 64);
      CHECK(back["solver_switches"].get<double>() == 2);
      CHECK(back["batches_over_groups"].get<double>() < back["batches"].get<double>() / 2);
      CHECK(words.out.find("2 switches in all, to groups and back") != std::string::npos);
    }
    // --profile: a profile block in the summary, and an output option, not in config.toml.
    const Json profile = poisson_run("dynamic-profile", "--profile")["profile"];
    CHECK(profile["solve_s"].get<double>() > 0);
    CHECK(profile["driver_s"].get<double>() >= 0);
    CHECK(profile["batches"].get<double>() > 0);
    CHECK(!profile["batches_by_solved_log2"].empty());
    CHECK(read_text(scratch() / "dynamic-profile" / "config.toml").find("profile") == std::string::npos);
    CHECK(!batched.contains("profile"));
  }
  {
    // --nic-fifo (flow-level NICs send one message at a time) and a router delay: echoed into
    // config.toml, which runs again the same; config.nic_fifo says so; three flows per endpoint end at
    // other times than with NICs sharing max-min and no router delay.
    const fs::path fifo_dir = scratch() / "dynamic-nic-fifo";
    const std::string base = "dynamic -t fattree:k=4,n=2 -p uniform:flows_per_endpoint=3 --bytes 1e5 --json --no-progress";
    const Outcome fifo = run_cli(base + " --nic-fifo --router-delay-ns 20 --out " + fifo_dir.string());
    INFO(fifo.err);
    REQUIRE(fifo.status == 0);
    const Outcome shared = run_cli(base);
    REQUIRE(shared.status == 0);
    const double fifo_mean = parse_json(fifo.out)["flow_completion_s"]["mean"].get<double>();
    CHECK(fifo_mean != parse_json(shared.out)["flow_completion_s"]["mean"].get<double>());
    CHECK(parse_json(fifo.out)["config"]["nic_fifo"].get<bool>());
    CHECK(read_text(fifo_dir / "config.toml").find("nic-fifo = true") != std::string::npos);
    CHECK(read_text(fifo_dir / "config.toml").find("router-delay-ns = 20.0") != std::string::npos);
    const Outcome fifo_again = run_cli("run " + (fifo_dir / "config.toml").string() + " --json --no-progress");
    REQUIRE(fifo_again.status == 0);
    CHECK(parse_json(fifo_again.out)["flow_completion_s"]["mean"].get<double>() == fifo_mean);
  }
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport wormhole", {"--transport", "flow, packet or hybrid"});
  check_rejected("dynamic -t fattree:k=4,n=2 -a nbody:tasks=4,class=2 --transport packet --mtu-bytes 64,128",
                 {"--mtu-bytes", "2 MTUs", "3 service classes"});
  check_rejected("schedule --jobs 3 --switch ib", {"--switch", "--network-aware --transport packet or hybrid"});
  check_rejected("packet -t fattree:k=4,n=2 --credit-bytes 100", {"--credit-bytes 100", "whole number", "64-byte"});
}

TEST_CASE("cli: dynamic runs the hybrid transport with its zoom and writes zoom.csv") {
  const fs::path dir = scratch() / "dynamic-hybrid";
  const std::string hybrid = " --transport hybrid --zoom tree-level:level=1 --switch vct:vcs=2,buffer-flits=64 --mtu-bytes 1024";
  const Outcome o = run_cli("dynamic -t fattree:k=4,n=2 -a nbody:tasks=6,bytes=8192" + hybrid + " --out " +
                            dir.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["transport"].get<std::string>() == "hybrid");
  CHECK(summary["policy"].get<std::string>() == "np");
  const Json& zoom = summary["zoom"];
  CHECK(zoom["selection"].get<std::string>() == "tree-level:level=1");
  CHECK(zoom["routers"].get<double>() == 4);  // the top row of a 4-ary 2-tree
  CHECK(zoom["regions"].get<double>() == 4);
  CHECK(zoom["coupled_messages"].get<double>() > 0);
  CHECK(zoom["flit_hops"].get<double>() > 0);
  // One crossing per packet of a coupled message and per whole message.
  CHECK(zoom["sl"][0]["crossings"].get<double>() == zoom["packets"].get<double>() + zoom["whole_messages"].get<double>());
  CHECK(summary["blocked_tasks"].get<double>() == 0);
  const std::string csv = read_text(dir / "zoom.csv");
  CHECK(csv.rfind("vertex,region,input_peak_flits,output_peak_flits,credit_stalls,flits_out\n", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);
  // Its config.toml runs it again to the same makespan.
  const Outcome again = run_cli("run " + (dir / "config.toml").string() + " --json --no-progress");
  INFO(again.err);
  REQUIRE(again.status == 0);
  CHECK(parse_json(again.out)["makespan_s"].get<double>() == summary["makespan_s"].get<double>());
  CHECK(zoom["held_exits"].get<double>() == 0);  // exits take packets at the cable's rate by default

  // --zoom-held-exits: every cable from the top row down to a leaf is an exit to an outside router
  // (the leaves are not zoomed), 4 x 4 of them; it is echoed into config.toml and runs again the same.
  const fs::path held_dir = scratch() / "dynamic-hybrid-held";
  const Outcome held = run_cli("dynamic -t fattree:k=4,n=2 -a nbody:tasks=6,bytes=8192" + hybrid +
                               " --zoom-held-exits --out " + held_dir.string() + " --json --no-progress");
  INFO(held.err);
  REQUIRE(held.status == 0);
  const Json hs = parse_json(held.out);
  CHECK(hs["zoom"]["held_exits"].get<double>() == 16);
  CHECK(read_text(held_dir / "config.toml").find("zoom-held-exits = true") != std::string::npos);
  const Outcome held_again = run_cli("run " + (held_dir / "config.toml").string() + " --json --no-progress");
  INFO(held_again.err);
  REQUIRE(held_again.status == 0);
  CHECK(parse_json(held_again.out)["makespan_s"].get<double>() == hs["makespan_s"].get<double>());
  check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --zoom-held-exits", {"--zoom-held-exits", "--transport hybrid"});
  // A flag's value, when one is given, is true, false, 1 or 0: not any number read as a truth value.
  for (const char* bad : {"-1", "7", "1e300", "nan", "inf", "maybe"})
    check_rejected("dynamic -t fattree:k=4,n=2 -p uniform --transport hybrid --zoom all --zoom-held-exits=" +
                       std::string(bad),
                   {"--zoom-held-exits", "expected no value, true, false, 1 or 0"});

  // The scheduler's network-aware mode runs every simulation of its jobs on the hybrid transport.
  const Outcome s = run_cli("schedule --jobs 6 --mean-gap 1e-6 --job-sizes 4,8 --network-aware -t fattree:k=4,n=2 "
                            "--job-app stencil2d:iters=2,bytes=1e4 --bsld-tau 1e-5 --json" + hybrid);
  INFO(s.err);
  REQUIRE(s.status == 0);
  const Json ss = parse_json(s.out);
  CHECK(ss["transport"].get<std::string>() == "hybrid");
  CHECK(ss["zoom"]["selection"].get<std::string>() == "tree-level:level=1");
  CHECK(ss["jobs"]["scheduled"].get<double>() == 6);
  CHECK(ss["mean_network_slowdown"].get<double>() >= 0.99);
  check_rejected("schedule --jobs 3 --network-aware --job-app stencil2d:iters=2 --zoom all",
                 {"--zoom", "--network-aware --transport hybrid"});
  check_rejected("schedule --jobs 3 --network-aware --job-app stencil2d:iters=2 --transport hybrid",
                 {"--transport hybrid needs --zoom"});

  // Without --mtu-bytes every packet is one flit, at both levels of every zoom.
  for (const char* selection : {"all", "hottest:k=2"}) {
    const Outcome one = run_cli(std::string("dynamic -t fattree:k=4,n=2 -p uniform --bytes 1e4 --load 0.5 --transport "
                                            "hybrid --zoom ") + selection + " --json --no-progress");
    INFO(one.err);
    REQUIRE(one.status == 0);
    CHECK(parse_json(one.out)["flows"]["delivered"].get<double>() == 16);
  }

  const std::string base = "dynamic -t fattree:k=4,n=2 -p uniform";
  check_rejected(base + " --zoom all", {"--zoom", "--transport hybrid"});
  check_rejected(base + " --transport hybrid", {"--transport hybrid needs --zoom"});
  check_rejected(base + " --transport hybrid --zoom all --zoom-tolerance 1.5", {"--zoom-tolerance"});
  check_rejected(base + " --transport hybrid --zoom all --zoom-tolerance nan", {"--zoom-tolerance"});
  check_rejected(base + " --transport hybrid --zoom all --zoom-epoch-ns -1", {"--zoom-epoch-ns"});
  check_rejected(base + " --transport hybrid --zoom warmest", {"zoom-selection 'warmest'"});
  check_rejected(base + " --transport hybrid --zoom group:group=0", {"zoom 'group'", "no groups"});
  check_rejected(base + " --transport hybrid --zoom tree-level:level=7", {"no switch at level 7", "0..1"});
}

TEST_CASE("cli: --config reads a TOML experiment file") {
  const fs::path file = scratch() / "experiment.toml";
  write_text(file, "# a small experiment\ntopology = \"torus:dims=3x3\"\npattern = \"shift:s=2\"\nseed = 7\n");
  const Outcome o = run_cli("static --config " + file.string() + " --json --no-progress");
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json summary = parse_json(o.out);
  CHECK(summary["seed"].get<double>() == 7);
  CHECK(summary["config"]["topology"].get<std::string>() == "torus:dims=3x3");
  CHECK(summary["config"]["pattern"].get<std::string>() == "shift:s=2");
  CHECK(summary["flows"]["total"].get<double>() == 9);

  // The command line overrides the file.
  const Outcome override = run_cli("static --config " + file.string() + " -s 9 --json --no-progress");
  REQUIRE(override.status == 0);
  CHECK(parse_json(override.out)["seed"].get<double>() == 9);

  // Keys may also sit in a [static] section and use '_' for '-'.
  const fs::path sectioned = scratch() / "sectioned.toml";
  write_text(sectioned, "[static]\ntopology = \"torus:dims=4\"\nswitch_gbps = 40\nquiet = true\n");
  const Outcome quiet = run_cli("static --config " + sectioned.string() + " --no-progress --out " +
                                  (scratch() / "out-config").string());
  REQUIRE(quiet.status == 0);
  CHECK(quiet.out.empty());
  const Json written = parse_json(read_text(scratch() / "out-config" / "summary.json"));
  CHECK(written["config"]["switch_gbps"].get<double>() == 40);
  CHECK(written["network"]["endpoints"].get<double>() == 4);

  const fs::path bad = scratch() / "bad.toml";
  write_text(bad, "topology = \"nosuch\"\n");
  check_rejected("static --config " + bad.string(), {"nosuch"});
  const fs::path unknown = scratch() / "unknown.toml";
  write_text(unknown, "topolgy = \"torus:dims=4\"\n");
  check_rejected("static --config " + unknown.string(), {unknown.string(), "topolgy"});
  const fs::path not_a_number = scratch() / "nan.toml";
  write_text(not_a_number, "seed = \"seven\"\n");
  check_rejected("static --config " + not_a_number.string(), {not_a_number.string(), "seed"});
  check_rejected("static --config " + (scratch() / "missing.toml").string(), {"missing.toml"});
}

TEST_CASE("cli: packet runs a torus at an offered load and writes its results and refuses a deadlock") {
  const fs::path dir = scratch() / "packet";
  const std::string one_cycle = " --switch-latency-ns 5.12 --endpoint-latency-ns 5.12 --warmup 200 --measure 2000";
  const Outcome o = run_cli("packet -t torus:dims=4x4 -r dor --load 0.2 --switch vct:vcs=2" + one_cycle + " -q --out " + dir.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json s = parse_json(read_text(dir / "summary.json"));
  CHECK(s["engine"] == "packet");
  CHECK(s["vc_scheme"] == "dateline");
  CHECK(s["clock_ns"].get<double>() == approx(5.12));
  CHECK(s["accepted_flits_per_cycle_per_nic"].get<double>() == approx(0.2).epsilon(0.1));
  CHECK_FALSE(s["saturated"].get<bool>());
  CHECK(lines_of(read_text(dir / "channels.csv")).size() == 1 + 64 + 32);  // header, 64 links, 16 x 2 local
  // Its config.toml runs it again to the same numbers.
  const Outcome again = run_cli("run " + (dir / "config.toml").string() + " --json");
  REQUIRE(again.status == 0);
  CHECK(parse_json(again.out)["mean_latency_cycles"] == s["mean_latency_cycles"]);
  // Several endpoints per router: the dateline comes from the routers' grid, not the endpoints'.
  const Outcome c2 = run_cli("packet -t torus:dims=4x4,c=2 -r dor --switch vct:vcs=2 --load 0.1 --measure 500 --json --no-progress");
  REQUIRE(c2.status == 0);
  CHECK(parse_json(c2.out)["vc_scheme"] == "dateline");
  // One virtual channel cannot make dimension order on a torus safe: refused, naming what it needs.
  check_rejected("packet -t torus:dims=4x4 -r dor --switch vct:vcs=1", {"could deadlock with 1 virtual channel", "dateline needs 2"});
  check_rejected("packet -t torus:dims=4x4 --mtu-bytes 1024 --switch vct:buffer-flits=8", {"do not fit the 8 flits a virtual channel reserves"});
}

TEST_CASE("cli: packet runs the ib switch with a scheduler and seven SLs and writes a row per SL") {
  const fs::path dir = scratch() / "packet-ib";
  const std::string sched = "\"dtable:table=0:4;1:4;2:10;3:12;4:2;5:1;6:1\"";
  const Outcome o = run_cli("packet -t fattree:k=4,n=2 -r dmodk --switch ib --scheduler " + sched +
                            " --mix cano-cano-2024:be-load=0.02 --warmup 500 --measure 3000 -q --out " + dir.string());
  INFO(o.err);
  REQUIRE(o.status == 0);
  const Json s = parse_json(read_text(dir / "summary.json"));
  REQUIRE(s["service_levels"].size() == 7);
  CHECK(s["service_levels"][0]["name"] == "NC");
  CHECK(s["service_levels"][6]["generator"] == "bursts:name=BK,load=0.02,bytes=1024,mtu=1024,size=4");
  CHECK(s["config"]["switch"] == "ib");
  const auto rows = lines_of(read_text(dir / "service_levels.csv"));
  REQUIRE(rows.size() == 8);
  CHECK(rows[0].rfind("sl,name,generator,offered,accepted,", 0) == 0);
  CHECK(rows[3].rfind("2,VI,", 0) == 0);
  double offered = 0;
  for (const auto& sl : s["service_levels"]) offered += sl["offered_flits_per_cycle_per_nic"].get<double>();
  CHECK(offered == approx(s["offered_flits_per_cycle_per_nic"].get<double>()).epsilon(1e-9));
  // Its config.toml reproduces it.
  const Outcome again = run_cli("run " + (dir / "config.toml").string() + " --json");
  REQUIRE(again.status == 0);
  CHECK(parse_json(again.out)["mean_latency_cycles"] == s["mean_latency_cycles"]);
  // Contradictions are refused with one message.
  check_rejected("packet -t fattree:k=4,n=2 --sl messages:load=0.1 --load 0.2", {"--load describes the single SL"});
  check_rejected("packet -t fattree:k=4,n=2 --sl messages:load=0.1 --mix cano-cano-2024", {"--sl lists the service levels"});
  check_rejected("packet -t fattree:k=4,n=2 --scheduler vlarb", {"input-queued", "output-buffered switch such as ib"});
  check_rejected("packet -t fattree:k=4,n=2 --switch ib:vls=4 --mix cano-cano-2024", {"sl2vl", "7 SLs"});
  check_rejected("packet -t fattree:k=4,n=2 --switch ib:input-buffer-bytes=1000", {"input-buffer-bytes", "whole number"});
}

TEST_CASE("cli: dynamic writes flows.csv of an open-loop run as it goes in start order") {
  // Poisson arrivals: the flows are generated per endpoint, so flow order is not start order; the
  // file lists every flow once, by start time (tests/engine/dynamic_engine.cpp checks the values).
  const std::string run = "dynamic -t fattree:k=4,n=3 -p uniform:flows_per_endpoint=300 -b 1e5 --load 0.3 --no-progress -q";
  const fs::path streamed = scratch() / "flows-streamed";
  REQUIRE(run_cli(run + " --flows-csv --out " + streamed.string()).status == 0);
  const auto rows = lines_of(read_text(streamed / "flows.csv"));
  REQUIRE(rows.size() == 64 * 300 + 1);
  CHECK(rows[0] == "flow,src,dst,bytes,class,state,start_s,transfer_end_s,finish_s,completion_s,paths");
  std::vector<std::uint8_t> seen(rows.size() - 1, 0);
  double last_start = 0;
  std::size_t out_of_flow_order = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto cells = split_csv(rows[i]);
    REQUIRE(cells.size() == 11);
    const auto f = std::stoul(cells[0]);
    REQUIRE(f < seen.size());
    REQUIRE(seen[f] == 0);
    seen[f] = 1;
    const double start = std::stod(cells[6]);
    REQUIRE(start >= last_start);
    last_start = start;
    out_of_flow_order += f != i - 1;
    CHECK(cells[5] == "delivered");
  }
  CHECK(out_of_flow_order > 0);  // the order is the start order, not the flow order
  // A run that fails while it writes leaves no flows.csv (and no summary.json).
  const fs::path failed = scratch() / "flows-failed";
  check_rejected(run + " --max-path-memory 1e-6 --flows-csv --out " + failed.string(), {"--max-path-memory"});
  CHECK(!fs::exists(failed / "flows.csv"));
  CHECK(!fs::exists(failed / "summary.json"));
}
