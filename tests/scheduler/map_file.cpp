// The task mapping file (mapping policy 'file'): a missing file or a directory ends with the operating
// system's reason, and job ids and node indices are whole numbers in range, else the line is named.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "scheduler/mapping.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::scheduler;

namespace {

// Two jobs: id 7 on 2 nodes and id 9 on 3 nodes.
std::vector<Job> two_jobs() {
  std::vector<Job> jobs(2);
  jobs[0].id = 7;
  jobs[0].nodes = 2;
  jobs[1].id = 9;
  jobs[1].nodes = 3;
  return jobs;
}

std::string error_of_path(const std::string& path) {
  MappingRegistry registry("mapping");
  register_file_mapping(registry);
  try {
    registry.create(Spec::parse("file:path=" + path, "--mapping"), two_jobs());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string error_of(const std::string& text) {
  const test::TempFile f("map_file_checks.txt", text);
  const std::string message = error_of_path(f.path());
  if (message == "no error") return message;
  return message.find(f.path()) == 0 ? message.substr(f.path().size()) : "(file not named) " + message;
}

}  // namespace

TEST_CASE("mapping file: a missing file and a directory are refused with the reason") {
  const auto root = std::filesystem::temp_directory_path() / ("interflow_map_file_checks_" + std::to_string(getpid()));
  const std::string dir = (root / "map.txt").string(), missing = (root / "none.txt").string();
  std::filesystem::create_directories(dir);
  CHECK(error_of_path(missing) == "task mapping file '" + missing + "': cannot read: No such file or directory");
  CHECK(error_of_path(dir) == "task mapping file '" + dir + "': is a directory, not a file");
  std::filesystem::remove_all(root);
}

TEST_CASE("mapping file: job ids and node indices must be whole numbers in range") {
  CHECK(error_of("7 1 0\n9 2 0 1\n") == "no error");
  CHECK(error_of("7 1 0\nnan 0 1 2\n") == ":2: job id 'nan' is not a whole number");
  CHECK(error_of("99999999999999999999 0 1\n") ==
        ":1: job id '99999999999999999999' is out of the range of a 64-bit integer");
  CHECK(error_of("7.5 0 1\n") == ":1: job id '7.5' is not a whole number");
  CHECK(error_of("7 1 -1\n") == ":1: node index '-1' is not a whole number >= 0");
  CHECK(error_of("7 1 inf\n") == ":1: node index 'inf' is not a whole number >= 0");
  CHECK(error_of("7 0 99999999999999999999\n") ==
        ":1: node index '99999999999999999999' is too large (at most 18446744073709551615)");
  CHECK(error_of("9 0 1 3\n") == ":1: node index 3 is beyond job 9's 3 nodes");
}
