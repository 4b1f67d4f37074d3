// Every file the workload readers take: a missing file or a directory ends with one message that
// gives the operating system's reason, and every number read from a file is checked finite and in
// range where it is read, the message naming the file and line.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "core/error.hpp"
#include "tests/support/app_support.hpp"
#include "workloads/flow_list.hpp"
#include "workloads/inrflow_workload.hpp"
#include "workloads/traces.hpp"

using namespace interflow;
using namespace interflow::workloads;
using test::error_of;

namespace {

// A directory and a path that does not exist, both under a scratch directory of this process.
struct NotFiles {
  std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("interflow_file_inputs_test_" + std::to_string(getpid()));
  std::string dir = (root / "a_directory").string();
  std::string missing = (root / "missing.txt").string();
  NotFiles() { std::filesystem::create_directories(dir); }
  ~NotFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
  }
};

// Reading `path` with `read` fails with "<what> '<path>': <reason>" for a missing file and a directory.
void refuses_non_files(const std::string& what, const std::function<void(const std::string&)>& read) {
  const NotFiles n;
  INFO(what);
  CHECK(error_of([&] { read(n.missing); }) == what + " '" + n.missing + "': cannot read: No such file or directory");
  CHECK(error_of([&] { read(n.dir); }) == what + " '" + n.dir + "': is a directory, not a file");
}

// The error of reading `text` as a file with `read`, which must start with "<file>:<line>: " and
// contain `part`.
void refuses_line(const std::string& text, std::size_t line, const std::string& part,
                  const std::function<void(const std::string&)>& read) {
  const test::TempFile f("file_inputs_value.txt", text);
  const std::string message = error_of([&] { read(f.path()); });
  INFO(text, " -> ", message);
  CHECK(message.find(f.path() + ":" + std::to_string(line) + ": ") == 0);
  CHECK(message.find(part) != std::string::npos);
}

void read_flows(const std::string& path) { read_flow_list(path, 4); }
void read_goal_file(const std::string& path) { read_goal(path, {}); }
void read_vef_file(const std::string& path) { read_vef(path, {}); }
void read_trc_file(const std::string& path) { read_trc(path, {}); }
void read_workload(const std::string& path) { read_inrflow_workload(path, test::app_registries().apps, 1e-9); }

}  // namespace

TEST_CASE("file inputs: a missing file and a directory are refused with the reason by every reader") {
  refuses_non_files("flow list", read_flows);
  refuses_non_files("GOAL schedule", read_goal_file);
  refuses_non_files("VEF trace", read_vef_file);
  refuses_non_files("INRFlow trace", read_trc_file);
  refuses_non_files("INRFlow workload file", read_workload);
  // Files named in application specs: traces and mapping files.
  refuses_non_files("GOAL schedule", [](const std::string& p) { test::make_app("goal:file=" + p, 8); });
  refuses_non_files("VEF trace", [](const std::string& p) { test::make_app("vef:file=" + p, 8); });
  refuses_non_files("INRFlow trace", [](const std::string& p) { test::make_app("trc:file=" + p, 8); });
  const NotFiles n;
  const std::string spec = "nbody:tasks=2,mapping=" + n.missing;
  CHECK(error_of([&] { test::make_app(spec, 8); }) ==
        "mapping file of application 0 (" + spec + ") '" + n.missing + "': cannot read: No such file or directory");
  CHECK(error_of([&] { test::make_app("nbody:tasks=2,mapping=" + n.dir, 8); }).find("is a directory, not a file") !=
        std::string::npos);
}

TEST_CASE("file inputs: flow list values must be finite and in range") {
  for (const std::string v : {"nan", "-nan", "inf", "-inf", "infinity", "1e999", "-5", "0x10", ""})
    refuses_line("0,1,1000,0\n0,1," + v + ",0\n", 2, "bytes '" + v + "' is not a finite number >= 0", read_flows);
  refuses_line("0,1,1e19,0\n", 1, "bytes '1e19' is beyond 1e18", read_flows);
  for (const std::string v : {"nan", "inf", "-1", "1e999"})
    refuses_line("0,1,5," + v + "\n", 1, "start_time '" + v + "' is not a finite number >= 0", read_flows);
  refuses_line("0,1,5,1e13\n", 1, "start_time '1e13' is beyond 1e12 s", read_flows);
  refuses_line("0,1,5,0,255\n", 1, "class 255 is beyond the classes 0..254", read_flows);
  refuses_line("0,1,5,0,99999999999999999999\n", 1, "class '99999999999999999999' is too large", read_flows);
  refuses_line("0,1,5,0,-1\n", 1, "class '-1' is not a whole number >= 0", read_flows);
  refuses_line("99999999999999999999,1,5,0\n", 1, "src '99999999999999999999' is too large", read_flows);
  refuses_line("0,-1,5,0\n", 1, "dst '-1' is not a whole number >= 0", read_flows);
  refuses_line("0,1,5,0\n1,0,5,0,,4294967296\n", 2, "after 4294967296 is beyond the 2^30 flows", read_flows);
  refuses_line("0,1,5,0\n1,0,5,0,,nan\n", 2, "after 'nan' is not a whole number", read_flows);
  // A wait for a later flow that never comes names the line of the wait.
  refuses_line("0,1,5,0,,1\n1,0,5,0,,3\n", 2, "waits for flow 3, but the file lists only 2 flows", read_flows);
  // The largest values accepted, -0 as 0, and waits for later flows.
  const test::TempFile ok("file_inputs_ok.csv", "0,1,1e18,1e12,254,1\n1,0,-0,-0,,0\n");
  const FlowWorkload w = read_flow_list(ok.path(), 4);
  CHECK(w.bytes[0] == 1e18);
  CHECK(w.start_s[0] == 1e12);
  CHECK(w.service_class[0] == 254);
  CHECK(!std::signbit(w.bytes[1]));
  CHECK(!std::signbit(w.start_s[1]));
}

TEST_CASE("file inputs: GOAL sizes times ranks and tags must be finite and in range") {
  const auto op = [](const std::string& line) { return "num_ranks 2\nrank 0 {\n" + line + "\n}\n"; };
  for (const std::string v : {"nan", "inf", "-inf", "1e999", "-8"})
    refuses_line(op("l1: send " + v + "b to 1"), 3, "message size '" + v + "' is not a finite number >= 0",
                 read_goal_file);
  refuses_line(op("l1: recv 1e19b from 1"), 3, "message size '1e19' is beyond 1e18 bytes", read_goal_file);
  for (const std::string v : {"nan", "inf", "-1", "1e999"})
    refuses_line(op("l1: calc " + v), 3, "calc time '" + v + "' is not a finite number >= 0", read_goal_file);
  refuses_line(op("l1: calc 1e22"), 3, "calc time '1e22' is beyond 1e12 s (in units of 1e-09 s)", read_goal_file);
  refuses_line(op("l1: send 8b to 1 tag 4294967296"), 3, "does not fit in 32 bits", read_goal_file);
  refuses_line(op("l1: send 8b to 1 tag -1"), 3, "tag '-1' is not a whole number >= 0", read_goal_file);
  refuses_line(op("l1: send 8b to 99999999999999999999999"), 3, "peer rank '99999999999999999999999' is too large",
               read_goal_file);
  refuses_line("num_ranks -2\n", 1, "number of ranks '-2' is not a whole number >= 0", read_goal_file);
  refuses_line("num_ranks nan\n", 1, "number of ranks 'nan'", read_goal_file);
  // The bound is on the time in seconds: 1e12 units of 1 s are the largest time accepted.
  const test::TempFile ok("file_inputs_ok.goal", op("l1: calc 1e12"));
  GoalOptions seconds;
  seconds.calc_unit_s = 1;
  CHECK(read_goal(ok.path(), seconds).value[0] == 1e12);
  CHECK(error_of([&] { read_goal(ok.path(), {}); }) == "no error");  // 1000 s in the default unit
}

TEST_CASE("file inputs: VEF sizes and times must be finite and in range") {
  const std::string head = "VEF 2 1 1 0 0 TRUE\nC0 0 1\n";
  for (const std::string v : {"nan", "inf", "-inf", "1e999"})
    refuses_line(head + "0 0 1 " + v + " 0 0 0\n", 3, "size '" + v + "' is not a finite number >= 0", read_vef_file);
  refuses_line(head + "0 0 1 1e19 0 0 0\n", 3, "size '1e19' is beyond 1e18 bytes", read_vef_file);
  for (const std::string v : {"nan", "inf", "-5"})
    refuses_line(head + "0 0 1 8 0 " + v + " 0\n", 3, "time_ns '" + v + "' is not a finite number >= 0", read_vef_file);
  refuses_line(head + "0 0 1 8 0 1e22 0\n", 3, "time_ns '1e22' is beyond 1e12 s", read_vef_file);
  refuses_line(head + "0 99999999999999999999 1 8 0 0 0\n", 3, "source rank '99999999999999999999' is too large",
               read_vef_file);
  const std::string coll = "VEF 2 0 1 1 2 TRUE\nC0 0 1\n";
  refuses_line(coll + "G0 0 2 0 inf 8 0 0 0\n", 3, "send_bytes 'inf' is not a finite number >= 0", read_vef_file);
  refuses_line(coll + "G0 0 2 0 8 1e19 0 0 0\n", 3, "recv_bytes '1e19' is beyond 1e18 bytes", read_vef_file);
  refuses_line(coll + "G0 0 2 0 8 8 0 nan 0\n", 3, "time_ns 'nan' is not a finite number >= 0", read_vef_file);
}

TEST_CASE("file inputs: INRFlow trace sizes times ranks and tags must be finite and in range") {
  for (const std::string v : {"nan", "inf", "-1", "1e999"}) {
    refuses_line("s 0 1 0 8\nc 0 " + v + "\n", 2, "computation time '" + v + "' is not a finite number >= 0",
                 read_trc_file);
    refuses_line("s 0 1 0 " + v + "\n", 1, "size '" + v + "' is not a finite number >= 0", read_trc_file);
  }
  refuses_line("c 0 1e22\n", 1, "computation time '1e22' is beyond 1e12 s", read_trc_file);
  refuses_line("r 0 1 0 1e19\n", 1, "size '1e19' is beyond 1e18 bytes", read_trc_file);
  refuses_line("s 0 1 1073741824 8\n", 1, "tag 1073741824 is 2^30 or more", read_trc_file);
  refuses_line("s -1 1 0 8\n", 1, "rank '-1' is not a whole number >= 0", read_trc_file);
  refuses_line("s 0 99999999999999999999 0 8\n", 1, "rank '99999999999999999999' is too large", read_trc_file);
}

TEST_CASE("file inputs: INRFlow workload arrival times and task counts must be finite and in range") {
  for (const std::string v : {"nan", "inf", "-inf", "-1", "1e999"})
    refuses_line("0 all2all 8 random\n" + v + " all2all 8 random\n", 2,
                 "arrival time '" + v + "' is not a finite number >= 0", read_workload);
  refuses_line("1e22 all2all 8 random\n", 1, "arrival time '1e22' is beyond 1e12 s", read_workload);
  refuses_line("0 all2all 0 random\n", 1, "needs at least 1 task", read_workload);
  refuses_line("0 all2all -8 random\n", 1, "number of tasks '-8' is not a whole number >= 0", read_workload);
  refuses_line("0 all2all 5000000000 random\n", 1, "number of tasks 5000000000 is beyond 4294967295", read_workload);
  refuses_line("0 all2all 99999999999999999999 random\n", 1, "number of tasks '99999999999999999999' is too large",
               read_workload);
  // Positional kernel parameters are plugin parameters, checked as such.
  refuses_line("0 stencil3d_2x2x2_nan 8 random\n", 1, "parameter 'bytes'", read_workload);
  refuses_line("0 stencil3d_2x0x2 8 random\n", 1, "entry 2 '0' is below 1", read_workload);
}

TEST_CASE("file inputs: mapping file endpoint ids must be whole numbers of the network") {
  const auto mapping = [](const std::string& text) {
    const test::TempFile f("file_inputs_map.txt", text);
    return error_of([&] { test::make_app("nbody:tasks=2,mapping=" + f.path(), 8); });
  };
  CHECK(mapping("0\n-1\n").find(":2: endpoint id '-1' is not a whole number >= 0") != std::string::npos);
  CHECK(mapping("0 nan\n").find(":1: endpoint id 'nan' is not a whole number >= 0") != std::string::npos);
  CHECK(mapping("0 1e3\n").find(":1: endpoint id '1e3' is not a whole number >= 0") != std::string::npos);
  CHECK(mapping("0 99999999999999999999\n").find(":1: endpoint id '99999999999999999999' is too large") !=
        std::string::npos);
  CHECK(mapping("0 8\n").find(":1: endpoint 8 is beyond the network's 8") != std::string::npos);
}
