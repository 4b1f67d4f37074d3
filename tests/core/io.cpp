// Checked files: inputs that are missing or directories are refused with the reason; outputs appear
// only when every byte was written, and a write to a full device fails instead of passing in silence.
#include "core/io.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using test::error_of;

namespace {

std::string scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "interflow_io_test";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("io: a missing file or a directory given as input is refused with the reason") {
  const std::string missing = error_of([] { open_input("/nonexistent/interflow.toml", "--config"); });
  CHECK(missing.find("--config '/nonexistent/interflow.toml': cannot read: No such file or directory") !=
        std::string::npos);
  const std::string dir = error_of([] { open_input("/tmp", "--flow-file"); });
  CHECK(dir.find("--flow-file '/tmp': is a directory") != std::string::npos);
  CHECK(error_of([] { open_input("", "--swf"); }).find("--swf: no file named") != std::string::npos);
}

TEST_CASE("io: an output file appears only when committed") {
  const std::string path = scratch("committed.txt");
  std::filesystem::remove(path);
  {
    OutputFile out(path, "--out");
    out << "partial";
    CHECK_FALSE(std::filesystem::exists(path));  // written beside it until committed
  }
  CHECK_FALSE(std::filesystem::exists(path));  // dropped: never committed, nothing left behind
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    CHECK(entry.path().filename().string().find("committed.txt.partial") == std::string::npos);
  {
    OutputFile out(path, "--out");
    out << "whole\n";
    out.commit();
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "whole\n");
}

TEST_CASE("io: a write to a full device ends with the reason and a directory is not a file") {
  const std::string full = error_of([] {
    OutputFile out("/dev/full", "--write-goal");
    for (int i = 0; i < 100000; ++i) out << "0123456789";
    out.commit();
  });
  CHECK(full.find("--write-goal '/dev/full': write failed") != std::string::npos);
  CHECK(full.find("No space left on device") != std::string::npos);
  CHECK(error_of([] { OutputFile out("/tmp", "--export"); }).find("is a directory") != std::string::npos);
  CHECK(error_of([] { OutputFile out("/nonexistent/dir/x.csv", "--out"); }).find("cannot create") !=
        std::string::npos);
}
