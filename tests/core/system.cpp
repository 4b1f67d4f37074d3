// Memory tuning (core/system.hpp): when the tunable is added, and a real restart of a program with it.
#include "core/system.hpp"

#include "core/error.hpp"

#include <doctest/doctest.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

using namespace interflow;

namespace {
constexpr const char* kMadvise = "always [madvise] never\n";
constexpr const char* kChild = "system: the restarted child sees the tunable it expects";
}  // namespace

TEST_CASE("system: glibc.malloc.hugetlb=1 is added only under the kernel's madvise mode") {
  CHECK(tunables_for_huge_pages(kMadvise, nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages(kMadvise, "") == "glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages(kMadvise, "glibc.malloc.arena_max=2") ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages("[always] madvise never\n", nullptr).empty());
  CHECK(tunables_for_huge_pages("always madvise [never]\n", nullptr).empty());
  CHECK(tunables_for_huge_pages("", nullptr).empty());  // no such file: an old or other kernel
  // The user's own choice, or this program already restarted: never a second restart.
  CHECK(tunables_for_huge_pages(kMadvise, "glibc.malloc.hugetlb=0").empty());
  CHECK(tunables_for_huge_pages(kMadvise, "glibc.malloc.hugetlb=1").empty());
}

TEST_CASE("system: INTERFLOW_TUNE_MEMORY is 0 or 1 and nothing else") {
  CHECK(memory_tuning_wanted(nullptr));
  CHECK(memory_tuning_wanted(""));
  CHECK(memory_tuning_wanted("1"));
  CHECK_FALSE(memory_tuning_wanted("0"));
  for (const char* bad : {"yes", "2", " 0", "0 ", "off"}) {
    INFO(bad);
    CHECK_THROWS_WITH_AS(memory_tuning_wanted(bad),
                         doctest::Contains("INTERFLOW_TUNE_MEMORY: expected 0 or 1"), InputError);
  }
}

// Run only as the child of the next test case: restarts this test program and checks what the
// restarted one was given, and that malloc reuses its heap (no block mapped on its own) or not.
TEST_CASE(kChild) {
  const char* expect = std::getenv("INTERFLOW_TEST_RESTART_EXPECT");
  if (expect == nullptr) return;
  std::string self = "/proc/self/exe", filter = std::string("-tc=") + kChild, quiet = "--no-intro=true";
  char* argv[] = {self.data(), filter.data(), quiet.data(), nullptr};
  tune_memory(argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const bool has = tunables != nullptr && std::string(tunables).find("glibc.malloc.hugetlb=1") != std::string::npos;
  CHECK(has == (std::string(expect) == "1"));
  CHECK(std::getenv("INTERFLOW_RESTARTED") == nullptr);  // the mark does not reach what this one runs
  const bool tuned = std::getenv("INTERFLOW_TUNE_MEMORY") == nullptr;
  const std::size_t before = mallinfo2().hblks;
  void* block = std::malloc(std::size_t{64} << 20);
  REQUIRE(block != nullptr);
  static_cast<char*>(block)[0] = 1;
  CHECK((mallinfo2().hblks > before) == !tuned);
  std::free(block);
}

TEST_CASE("system: a program restarted with huge pages starts again with the tunable and its arguments") {
  if (address_sanitizer_build()) {
    MESSAGE("skipped: AddressSanitizer's allocator ignores glibc's tunables, so there is no restart");
    return;
  }
  const std::string mode = transparent_huge_page_mode();
  if (mode.find("[madvise]") == std::string::npos) {
    MESSAGE("skipped: the kernel's huge-page mode is not madvise (" << mode << ")");
    return;
  }
  // The restart; none when turned off; none when the mark says it happened (as a setuid program's
  // would be, whose loader drops the tunable).
  struct Case {
    const char* extra;
    const char* expect;
  };
  for (const Case c : {Case{nullptr, "1"}, Case{"INTERFLOW_TUNE_MEMORY=0", "0"}, Case{"INTERFLOW_RESTARTED=1", "0"}}) {
    INFO((c.extra ? c.extra : "default"));
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string var(*e);
      if (var.rfind("GLIBC_TUNABLES=", 0) == 0 || var.rfind("INTERFLOW_TUNE_MEMORY=", 0) == 0 ||
          var.rfind("INTERFLOW_RESTARTED=", 0) == 0)
        continue;
      env.push_back(var);
    }
    env.push_back(std::string("INTERFLOW_TEST_RESTART_EXPECT=") + c.expect);
    if (c.extra) env.push_back(c.extra);
    std::vector<char*> envp;
    for (std::string& var : env) envp.push_back(var.data());
    envp.push_back(nullptr);
    std::string self = "/proc/self/exe", filter = std::string("-tc=") + kChild, quiet = "--no-intro=true";
    char* argv[] = {self.data(), filter.data(), quiet.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, envp.data()) == 0);
    int status = 0;
    pid_t waited = 0;
    // A program that restarts itself forever never ends: stopped after a minute, a failure.
    for (int tick = 0; tick < 6000 && (waited = waitpid(pid, &status, WNOHANG)) == 0; ++tick) usleep(10000);
    if (waited == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      FAIL("the restarted program did not end within a minute");
    }
    REQUIRE(waited == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
}
