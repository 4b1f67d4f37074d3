// No result is ever lost or wrong in silence, tried as a new user would: every numeric option refuses
// NaN, infinity, negative and huge values; values from an experiment file get the same checks; every
// file input names a missing file or a directory with the system's reason; results that cannot be
// written (a full device) end the run with their own status; empty inputs and conflicting options are
// refused. Each ends with one clear line on stderr and a non-zero exit (manual/cli.md "Exit codes").
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/cli_support.hpp"

using namespace interflow::test;

namespace {

std::string fixture(const std::string& name) { return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/" + name; }

// A refused run: `status`, nothing on stdout, exactly one line on stderr, naming every part.
void check_refused(const std::string& args, const std::vector<std::string>& parts, int status = 2) {
  const Outcome o = run_cli(args + " --no-progress");
  INFO("interflow " << args << "\nstdout: " << o.out << "\nstderr: " << o.err);
  CHECK(o.status == status);
  CHECK(o.out.empty());
  CHECK(lines_of(o.err).size() == 1);
  CHECK(contains(o.err, "interflow: error: "));
  for (const std::string& part : parts) CHECK(contains(o.err, part));
}

// Small, fast runs of every subcommand that take the options below.
const std::string kStatic = "static -t torus:dims=4x4 -q";
const std::string kDynamic = "dynamic -t fattree:k=4,n=3 -p uniform -b 1e4 -q";
const std::string kApps = "dynamic -t fattree:k=4,n=3 -a stencil2d:tasks=4,iters=1 -q";
const std::string kSchedule = "schedule --jobs 4 --nodes 4 -q";
const std::string kNetworkAware =
    "schedule --jobs 2 --nodes 4 --network-aware -t fattree:k=4,n=3 --job-app nbody:bytes=1e3 -q";
const std::string kTopo = "topo torus:dims=4x4";

}  // namespace

TEST_CASE("hardening: every real option refuses NaN and infinity and negative and huge values") {
  const std::vector<std::pair<std::string, std::string>> reals = {
      {kStatic, "--endpoint-gbps"},        {kStatic, "--switch-gbps"},        {kStatic, "--endpoint-latency-ns"},
      {kStatic, "--switch-latency-ns"},    {kStatic, "--max-path-memory-gib"}, {kDynamic, "--bytes"},
      {kDynamic + " --arrival poisson", "--load"},                            {kApps, "--cpu-scale"},
      {kSchedule, "--mean-gap"},           {kSchedule, "--mean-runtime"},     {kSchedule, "--estimate-factor"},
      {kSchedule, "--bsld-tau"},           {kNetworkAware, "--switch-gbps"},  {kTopo, "--endpoint-gbps"},
      {kDynamic + " --policy ba", "--class-share"},
  };
  for (const auto& [run, option] : reals)
    for (const std::string value : {"nan", "inf", "-inf", "-1", "1e999", "abc"}) {
      CAPTURE(option);
      CAPTURE(value);
      check_refused(run + " " + option + " " + value, {option, value});
    }
}

TEST_CASE("hardening: every whole-number option refuses signs and fractions and overflow") {
  const std::vector<std::pair<std::string, std::string>> wholes = {
      {kStatic, "--seed"},       {kStatic, "--threads"},     {kStatic, "--max-flows"},  {kDynamic, "--series-bins"},
      {kDynamic, "--phase-size"}, {kApps, "--max-in-flight"}, {kSchedule, "--nodes"},   {kSchedule, "--series-bins"},
      {kSchedule, "--job-sizes"}, {kTopo, "--samples"},       {kTopo, "--exact-work"},
      {kDynamic + " --policy fp", "--class-priority"},
  };
  for (const auto& [run, option] : wholes)
    for (const std::string value : {"-1", "1.5", "1e3", "nan", "99999999999999999999999"}) {
      CAPTURE(option);
      CAPTURE(value);
      check_refused(run + " " + option + " " + value, {option, value});
    }
  // Ranges: no zero bins, no zero samples (a sampled diameter of nothing), no zero processors per node.
  check_refused(kDynamic + " --series-bins 0", {"--series-bins"});
  check_refused(kTopo + " --samples 0", {"--samples"});
  check_refused("schedule --swf " + fixture("swf/tiny.swf") + " --procs-per-node 0", {"--procs-per-node"});
}

TEST_CASE("hardening: plugin parameters refuse NaN and infinity") {
  check_refused("static -t torus:dims=4x4 -p hotspot:fraction=nan -q", {"fraction", "nan"});
  check_refused("dynamic -t fattree:k=4,n=3 -a uniform_bg:tasks=4,rate=inf -q", {"rate", "inf"});
  check_refused("dynamic -t fattree:k=4,n=3 -p uniform --arrival poisson:load=nan -q", {"load", "nan"});
}

TEST_CASE("hardening: values from an experiment file get the command line's checks with the file line") {
  const fs::path file = scratch() / "bad-values.toml";
  write_text(file, "[static]\ntopology = \"torus:dims=4x4\"\nendpoint-gbps = nan\n");
  check_refused("static -q --config " + file.string(), {file.string() + ":3", "endpoint-gbps", "nan"});
  write_text(file, "seed = -3\n");
  check_refused("static -q --config " + file.string(), {file.string() + ":1", "seed", "-3"});
  write_text(file, "topology = \"torus:dims=4x4\n");  // an unterminated string: the parser's line and column
  check_refused("static -q --config " + file.string(), {file.string() + ":1:"});
  write_text(file, "bogus = 1\n");
  check_refused("static -q --config " + file.string(), {"bogus", "not an option"});
  write_text(file, "[dynamic]\nseed = 1\n");
  check_refused("static -q --config " + file.string(), {"[dynamic]"});
}

TEST_CASE("hardening: every file input names a missing file and a directory with the reason") {
  const std::string missing = (scratch() / "does-not-exist").string(), dir = scratch().string();
  const std::vector<std::string> inputs = {
      "static -q --config FILE",
      "dynamic -t fattree:k=4,n=3 -q -f FILE",
      "dynamic -t fattree:k=4,n=3 -q --inrflow-workload FILE",
      "dynamic -t fattree:k=4,n=3 -q -a goal:file=FILE",
      "dynamic -t fattree:k=4,n=3 -q -a vef:file=FILE",
      "dynamic -t fattree:k=4,n=3 -q -a trc:file=FILE",
      "dynamic -t fattree:k=4,n=3 -q -a stencil2d:tasks=4,mapping=FILE",
      "static -q -t graph:file=FILE.ifg -r bfs",
      "static -q -t graph:file=FILE -r bfs",
      "schedule -q --swf FILE",
      "schedule -q --network-aware --inrflow-workload FILE",
      "schedule -q --jobs 2 --nodes 4 --network-aware --job-app nbody --mapping file:path=FILE",
      "topo --config FILE",
  };
  for (std::string input : inputs) {
    CAPTURE(input);
    const auto at = input.find("FILE");
    std::string with_missing = input, with_dir = input;
    with_missing.replace(at, 4, missing);
    with_dir.replace(at, 4, dir);
    check_refused(with_missing, {missing, "No such file or directory"});
    check_refused(with_dir, {dir, "directory"});
  }
  for (const std::string ext : {".gml", ".graphml", ".edges", ".net"})
    check_refused("static -q -r bfs -t graph:file=" + missing + ext, {missing + ext, "No such file or directory"});
}

TEST_CASE("hardening: results that cannot be written end the run with status 4 and the reason") {
  // A summary on a full device: the run fails instead of passing with nothing printed.
  const Outcome full = run_cli(kStatic.substr(0, kStatic.size() - 3) + " --json --no-progress", "/dev/full");
  INFO(full.err);
  CHECK(full.status == 4);
  CHECK(contains(full.err, "standard output"));
  CHECK(contains(full.err, "No space left on device"));
  check_refused(kApps + " --write-goal /dev/full", {"--write-goal", "/dev/full", "No space left on device"}, 4);
  check_refused(kApps + " --write-vef /dev/full", {"--write-vef", "/dev/full", "No space left on device"}, 4);
  check_refused(kTopo + " --export /dev/full", {"--export", "No space left on device"}, 4);
  // A file where the results folder should be, a directory where a file should be.
  check_refused(kStatic + " --out /dev/full", {"--out", "not a folder"});
  check_refused(kApps + " --write-goal " + scratch().string(), {"--write-goal", "directory"});
}

TEST_CASE("hardening: empty inputs and conflicting options are refused") {
  const fs::path empty_log = scratch() / "no-job.swf";
  write_text(empty_log, "; MaxProcs: 4\n1 0 -1 -1 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1\n");  // no run time: dropped
  check_refused("schedule -q --swf " + empty_log.string(), {"no job to schedule"});
  const fs::path huge_jobs = scratch() / "huge-jobs.swf";
  write_text(huge_jobs, "; MaxProcs: 4\n1 0 -1 5 64 -1 -1 64 10 -1 1 1 1 1 1 -1 -1 -1\n");
  const Outcome refused = run_cli("schedule -q --swf " + huge_jobs.string());
  CHECK(refused.status == 2);
  CHECK(contains(refused.err, "no job ran"));
  const fs::path no_flows = scratch() / "no-flows.csv";
  write_text(no_flows, "# nothing\n");
  check_refused("dynamic -t fattree:k=4,n=3 -q -f " + no_flows.string(), {"no flow"});
  check_refused(kStatic + " --json", {"--json", "--quiet"});
  check_refused(kDynamic + " --cpu-scale 2", {"--cpu-scale", "--app"});
  check_refused(kDynamic + " --arrival zero --load 0.5", {"--load", "poisson"});
  check_refused(kDynamic + " --arrival poisson:load=0.2 --load 0.5", {"--load", "both"});
  check_refused(kApps + " -f " + fixture("../../bench/reference/flows-after.csv"), {"--flow-file", "--app"});
  check_refused(kSchedule + " --swf " + fixture("swf/tiny.swf"), {"one job source"});
  check_refused(kSchedule + " --estimate-scale 2", {"--estimate-scale", "scaled"});
  check_refused(kSchedule + " -t torus:dims=4x4", {"--topology", "--network-aware"});
  check_refused(kStatic + " --flows-csv", {"--flows-csv", "--out"});
}

TEST_CASE("hardening: INTERFLOW_TUNE_MEMORY other than 0 or 1 is refused by every subcommand") {
  for (const char* bad : {"off", "2"}) {
    setenv("INTERFLOW_TUNE_MEMORY", bad, 1);
    check_refused(kStatic, {"INTERFLOW_TUNE_MEMORY", "expected 0 or 1", std::string("'") + bad + "'"});
    check_refused(kTopo, {"INTERFLOW_TUNE_MEMORY"});
  }
  for (const char* good : {"0", "1", ""}) {
    setenv("INTERFLOW_TUNE_MEMORY", good, 1);
    const Outcome o = run_cli(kStatic + " --no-progress");
    INFO("INTERFLOW_TUNE_MEMORY='" << good << "': " << o.err);
    CHECK(o.status == 0);
  }
  unsetenv("INTERFLOW_TUNE_MEMORY");
}
