// The crew of core/crew.hpp: every part of every job runs exactly once, the caller sees what the
// parts wrote, with helpers free, with more parts than cores, and with a single worker.
#include "core/crew.hpp"

#include <doctest/doctest.h>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <vector>

using namespace interflow;

namespace {

// Runs `jobs` jobs of crew.parts() parts; part p of job j adds j + 1 to slot p and counts itself.
// Checks after every job that each part ran once and that its writes are visible.
void check_jobs(Crew& crew, std::uint64_t jobs) {
  const std::size_t parts = crew.parts();
  std::vector<std::uint64_t> sum(parts, 0), runs(parts, 0);
  std::uint64_t bad = 0;
  for (std::uint64_t j = 0; j < jobs; ++j) {
    auto part = [&](std::size_t p) {
      sum[p] += j + 1;
      ++runs[p];
    };
    crew.run(part);
    for (std::size_t p = 0; p < parts; ++p) bad += runs[p] != j + 1;
  }
  CHECK(bad == 0);
  for (std::size_t p = 0; p < parts; ++p) CHECK(sum[p] == jobs * (jobs + 1) / 2);
}

}  // namespace

TEST_CASE("crew: every part of every job runs exactly once and its writes are seen") {
  for (const std::size_t parts : {1, 2, 3, 8}) {
    INFO(parts << " parts");
    Crew crew(parts);
    CHECK(crew.parts() == parts);
    check_jobs(crew, 20000);
  }
}

TEST_CASE("crew: with one thread the caller does every part and nothing waits for a helper") {
  // A single-thread arena cannot start the helper tasks until the crew ends: the caller alone must
  // do all parts of every job, and the destructor runs the helpers, which stop at once.
  tbb::task_arena one(1);
  one.execute([] {
    Crew crew(4);
    check_jobs(crew, 2000);
  });
}

TEST_CASE("crew: zero parts means the caller alone") {
  Crew crew(0);
  CHECK(crew.parts() == 1);
  check_jobs(crew, 10);
}
