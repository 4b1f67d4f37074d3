// The dynamic engine's CSV flow list: the columns, optional fields, dependencies, and malformed files
// refused with the file and line.
#include "workloads/flow_list.hpp"

#include <doctest/doctest.h>

#include <string>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

TEST_CASE("flow list: columns and optional class and after with comments and a header line") {
  const test::TempFile file("flows.csv",
                            "src,dst,bytes,start_time,class,after\n"
                            "# a comment line\n"
                            "0,1,1000,0\n"
                            "1, 2 ,2e6,0.5,3   # trailing comment\n"
                            "2,0,0,1.25,,0;1\n"
                            "3,3,10,2,1,2 1\n");
  const FlowWorkload w = workloads::read_flow_list(file.path(), 4);
  REQUIRE(w.size() == 4);
  CHECK(w.flows.src[1] == 1);
  CHECK(w.flows.dst[1] == 2);
  CHECK(w.bytes[1] == 2e6);
  CHECK(w.start_s[2] == 1.25);
  CHECK(w.service_class == std::vector<std::uint32_t>{0, 3, 0, 1});
  CHECK(w.after_offsets == std::vector<std::uint32_t>{0, 0, 0, 2, 4});
  CHECK(w.after == std::vector<FlowId>{0, 1, 2, 1});
}

TEST_CASE("flow list: malformed files are refused naming the file line and field") {
  const auto rejects = [](const std::string& text, std::initializer_list<std::string> parts) {
    const test::TempFile file("bad.csv", text);
    INFO(text);
    try {
      workloads::read_flow_list(file.path(), 4);
      FAIL("accepted");
    } catch (const InputError& e) {
      const std::string message = e.what();
      CHECK(message.find(file.path()) != std::string::npos);
      for (const auto& part : parts) CHECK(message.find(part) != std::string::npos);
    }
  };
  rejects("0,1,1000\n", {":1:", "4 to 6"});
  rejects("0,1,1000,0\n0,x,5,0\n", {":2:", "dst", "'x'"});
  rejects("0,9,1000,0\n", {":1:", "endpoint 9", "4 endpoints"});
  rejects("0,1,-5,0\n", {":1:", "bytes", "-5"});
  rejects("0,1,5,nan\n", {":1:", "start_time"});
  rejects("0,1,5,0,,0\n", {":1:", "itself"});
  rejects("0,1,5,0,,7\n", {"waits for flow 7", "only 1 flows"});
  rejects("# only comments\n", {"no flows"});
  CHECK_THROWS_WITH_AS(workloads::read_flow_list("/nonexistent/flows.csv", 4), doctest::Contains("cannot read"),
                       InputError);
}
