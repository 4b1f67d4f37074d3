// The SWF reader's input checks: a missing log or a directory ends with the operating system's
// reason, and every field is a finite number, -1 for unknown or in range, else the file, line and
// field are named.
#include "scheduler/swf.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::scheduler;

namespace {

std::string error_of(const std::string& text) {
  const test::TempFile f("swf_checks.swf", text);
  try {
    read_swf(f.path());
  } catch (const InputError& e) {
    const std::string message = e.what();
    // Every message names the file; return the rest.
    return message.find(f.path()) == 0 ? message.substr(f.path().size()) : "(file not named) " + message;
  }
  return "no error";
}

// A job line whose field k (1..18) is `value`, the others valid.
std::string job_with(int k, const std::string& value) {
  std::string line;
  const char* fields[18] = {"1",  "0", "-1", "10", "2", "-1", "-1", "2",  "10",
                            "-1", "1", "1",  "1",  "1", "1",  "-1", "-1", "-1"};
  for (int i = 0; i < 18; ++i) line += (i ? " " : "") + (i == k - 1 ? value : std::string(fields[i]));
  return line + "\n";
}

}  // namespace

TEST_CASE("swf: a missing log and a directory are refused with the reason") {
  const auto root = std::filesystem::temp_directory_path() / ("interflow_swf_checks_" + std::to_string(getpid()));
  const std::string dir = (root / "log.swf.gz").string(), missing = (root / "none.swf.gz").string();
  std::filesystem::create_directories(dir);
  const auto error = [](const std::string& path) {
    try {
      read_swf(path);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error(missing) == "SWF log '" + missing + "': cannot read: No such file or directory");
  CHECK(error(dir) == "SWF log '" + dir + "': is a directory, not a file");
  std::filesystem::remove_all(root);
}

TEST_CASE("swf: fields that are not finite numbers are refused naming the line and field") {
  for (const std::string v : {"nan", "-nan", "inf", "-inf", "infinity", "1e999", "-1e999", "0x10", "1..2"}) {
    INFO(v);
    CHECK(error_of("; comment\n" + job_with(4, v)) == ":2: field 4 (run time) '" + v + "' is not a finite number");
  }
  CHECK(error_of(job_with(2, "nan")) == ":1: field 2 (submit time) 'nan' is not a finite number");
}

TEST_CASE("swf: -1 means unknown and other negative values are refused") {
  CHECK(error_of(job_with(4, "-1") + job_with(2, "-1.0")) == "no error");
  CHECK(error_of(job_with(4, "-5")) == ":1: field 4 (run time) '-5' is negative; SWF writes -1 for unknown");
  CHECK(error_of(job_with(5, "-2")) ==
        ":1: field 5 (allocated processors) '-2' is negative; SWF writes -1 for unknown");
  CHECK(error_of(job_with(9, "-0.5")) == ":1: field 9 (requested time) '-0.5' is negative; SWF writes -1 for unknown");
}

TEST_CASE("swf: values beyond what the reader can hold are refused") {
  CHECK(error_of(job_with(2, "1e16")) == ":1: field 2 (submit time) '1e16' is 2^53 = 9007199254740992 or more");
  CHECK(error_of(job_with(1, "9007199254740993")) ==
        ":1: field 1 (job number) '9007199254740993' is 2^53 = 9007199254740992 or more");
  CHECK(error_of(job_with(5, "5000000000")) ==
        ":1: field 5 (allocated processors) '5000000000' is beyond 4294967295 processors");
  CHECK(error_of(job_with(8, "4294967296")) ==
        ":1: field 8 (requested processors) '4294967296' is beyond 4294967295 processors");
  CHECK(error_of(job_with(5, "2.5")) == ":1: field 5 (allocated processors) '2.5' is not a whole number");
  CHECK(error_of(job_with(12, "1e-3")) == ":1: field 12 (user id) '1e-3' is not a whole number");
  // The largest values accepted read exactly; fractions are fine in times.
  const test::TempFile f("swf_checks_ok.swf",
                         job_with(1, "9007199254740991") + job_with(5, "4294967295") + job_with(6, "12.75"));
  const SwfLog log = read_swf(f.path());
  REQUIRE(log.records.size() == 3);
  CHECK(log.records[0].job == 9007199254740991);
  CHECK(log.records[1].allocated == 4294967295);
  CHECK(log.records[2].cpu == 12.75);
}

TEST_CASE("swf: MaxProcs and MaxNodes headers must be whole numbers in 32 bits") {
  CHECK(error_of("; MaxProcs: many\n") ==
        ":1: MaxProcs 'many' is not a whole number in 1..4294967295 (or -1 for unknown)");
  CHECK(error_of("; Version: 2\n; MaxNodes: 5000000000\n") ==
        ":2: MaxNodes '5000000000' is not a whole number in 1..4294967295 (or -1 for unknown)");
  CHECK(error_of("; MaxProcs: 12x\n") ==
        ":1: MaxProcs '12x' is not a whole number in 1..4294967295 (or -1 for unknown)");
  CHECK(error_of("; MaxProcs: nan\n") ==
        ":1: MaxProcs 'nan' is not a whole number in 1..4294967295 (or -1 for unknown)");
  CHECK(error_of("; MaxProcs:\n") == ":1: MaxProcs '' is not a whole number in 1..4294967295 (or -1 for unknown)");
  // Prose mentioning a key, a longer key, and -1 for unknown are no values.
  const test::TempFile f("swf_checks_header.swf",
                         "; MaxProcs: 128 (two per node)\n; the MaxNodes field is unknown here\n"
                         "; MaxProcsPerNode: 2\n; MaxNodes: -1\n" +
                             job_with(1, "1"));
  const SwfLog log = read_swf(f.path());
  CHECK(log.max_procs == 128);
  CHECK(log.max_nodes == -1);
}
