// The manual's reference pages (manual/reference/<kind>.md) are generated from the plugin registry by
// scripts/gen-reference.sh; this test fails when a plugin or parameter changed and the committed page
// was not regenerated.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

// Runs `command` through the shell; returns its stdout and sets `status` to its exit status.
std::string run_command(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    status = -1;
    return out;
  }
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, got);
  status = pclose(pipe);
  return out;
}

std::string read_file(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// 1-based line of the first difference, for the failure message.
std::size_t first_differing_line(const std::string& a, const std::string& b) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '\n') ++line;
  return line;
}

void check_reference_page(const std::string& kind) {
  int status = 0;
  const std::string generated =
      run_command(std::string("'") + INTERFLOW_BINARY + "' list " + kind + " --markdown", status);
  REQUIRE_MESSAGE(status == 0, "`interflow list " << kind << " --markdown` failed (status " << status << ")");
  REQUIRE(generated.rfind("# " + kind + " reference\n", 0) == 0);

  const std::string page = std::string(INTERFLOW_SOURCE_DIR) + "/manual/reference/" + kind + ".md";
  bool found = false;
  const std::string committed = read_file(page, found);
  REQUIRE_MESSAGE(found, page << " is missing; run scripts/gen-reference.sh " << INTERFLOW_BINARY);
  CHECK_MESSAGE(generated == committed,
                page << " is out of date (first difference on line " << first_differing_line(generated, committed)
                     << "); run scripts/gen-reference.sh " << INTERFLOW_BINARY << " and commit the result");
}

}  // namespace

TEST_CASE("reference pages: manual/reference matches `interflow list <kind> --markdown` byte for byte") {
  // Every kind the binary registers has its page (a new kind cannot go without one).
  int status = 0;
  std::istringstream kinds(run_command(std::string("'") + INTERFLOW_BINARY + "' list --kinds", status));
  REQUIRE(status == 0);
  std::size_t count = 0;
  for (std::string kind; std::getline(kinds, kind);) {
    CAPTURE(kind);
    check_reference_page(kind);
    ++count;
  }
  CHECK(count >= 9);
}
