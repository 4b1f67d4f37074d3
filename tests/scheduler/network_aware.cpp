// Network-aware scheduling: jobs' run times come from their applications on the simulated network.
// Checked by hand on the star (no sharing) and against one simulation of all jobs at their start
// times on the dumbbell (where they share a cable).
#include "scheduler/network_aware.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include "tests/support/app_support.hpp"
#include "tests/support/run_support.hpp"
#include "tests/support/scheduler_support.hpp"

using namespace interflow;
using namespace interflow::scheduler;

namespace {

struct Run {
  ScheduleResult schedule;
  std::vector<double> isolated;
  std::vector<Application> apps;
};

Run run_network(const std::string& topology, std::vector<Job> jobs, const std::vector<std::string>& mix,
                std::uint32_t nodes, const std::string& policy, const std::string& allocation) {
  const auto t = test::build_topology(topology);
  const auto routing = test::build_routing("bfs", *t);
  const SelectionRegistry& registry = test::plugins().selections;
  workloads::AppSettings settings;
  settings.endpoint_gbps = 10;
  settings.patterns = &test::app_registries().patterns;
  NetworkRunner runner(t->network(), test::flow_transports(t->network(), *routing), test::app_registries().apps, settings, jobs,
                       assign_applications(jobs, mix), nodes, {}, test::mapping("consecutive", jobs));
  runner.set_estimates(jobs, 1.0);
  ScheduleOptions o;
  o.nodes = nodes;
  o.seed = 3;
  const AllocationContext context = allocation_context_of(*t);
  o.network = context.network;
  Run r;
  r.schedule = simulate_schedule(jobs, *registry.create(Spec::parse(policy, "test")), test::allocation(allocation, context),
                                 o, &runner);
  r.isolated = runner.isolated_runtimes();
  r.apps = runner.applications();
  return r;
}

Job job(double submit, std::uint32_t nodes, std::int64_t executable = -1) {
  Job j;
  j.submit = submit;
  j.nodes = j.processors = nodes;
  j.executable = executable;
  return j;
}

}  // namespace

TEST_CASE("network-aware scheduling: jobs pick their application by executable or queue or position") {
  std::vector<Job> jobs(4);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].executable = j == 2 ? -1 : static_cast<std::int64_t>(5 + j);
    jobs[j].queue = static_cast<std::int64_t>(j % 2);
  }
  const std::vector<std::string> mix{"a", "b", "c"};
  CHECK(assign_applications(jobs, mix) == std::vector<std::string>{"c", "a", "c", "c"});  // 5, 6, (2), 8
  CHECK(assign_applications(jobs, mix, "queue") == std::vector<std::string>{"a", "b", "a", "b"});
  CHECK(assign_applications(jobs, mix, "position") == std::vector<std::string>{"a", "b", "c", "a"});
}

TEST_CASE("network-aware scheduling: jobs that cannot share the machine run one after the other") {
  // A 4-task recursive-doubling allreduce of 100 kB on the star: 2 steps of 80 us + 0.2 us.
  const Run r = run_network(test::star_topology(), {job(0, 4), job(0, 4)},
                            {"collective:op=allreduce,alg=recdoubling,bytes=1e5"}, 4, "fcfs", "consecutive");
  const double step = 80.2e-6;
  CHECK(r.schedule.jobs[0].start == 0);
  CHECK(r.schedule.jobs[0].end == approx(2 * step));
  CHECK(r.schedule.jobs[1].start == approx(2 * step));
  CHECK(r.schedule.jobs[1].end == approx(4 * step));
  CHECK(r.isolated[1] == approx(2 * step));
  CHECK(r.schedule.summary.mean_wait == approx(step));
}

TEST_CASE("network-aware scheduling: co-running jobs on a non-blocking star keep their isolated run times") {
  const Run r = run_network(test::star_topology(), {job(0, 4), job(0, 4)},
                            {"collective:op=allreduce,alg=recdoubling,bytes=1e5"}, 8, "fcfs", "random");
  CHECK(r.schedule.jobs[1].start == 0);
  for (int j = 0; j < 2; ++j) CHECK(r.schedule.jobs[j].runtime() == approx(r.isolated[j]));
}

TEST_CASE("network-aware scheduling: run times equal one simulation of every job at its start time") {
  // The dumbbell's 10 Gbit/s cable is shared by jobs that span both switches; random allocation and
  // staggered arrivals make the jobs overlap partly. The scheduler's ends (from re-simulating at
  // every start) must be those of a single run of all the jobs placed and timed as scheduled.
  const std::string dumbbell = "graph:file=" + std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/dumbbell.ifg";
  std::vector<Job> jobs;
  for (int k = 0; k < 8; ++k) jobs.push_back(job(k * 20e-6, k % 2 == 0 ? 2 : 3, k % 3));
  const Run r = run_network(
      dumbbell, jobs, {"collective:op=alltoall,bytes=2e5", "collective:op=allreduce,bytes=3e5", "nbody:bytes=1e5"}, 6,
      "easy", "random");
  const auto t = test::build_topology(dumbbell);
  const auto routing = test::build_routing("bfs", *t);
  const drivers::RunResult all = test::run_apps(t->network(), *routing, r.apps, {});
  bool shared = false;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    CAPTURE(j);
    REQUIRE(all.apps[j].complete);
    CHECK(r.schedule.jobs[j].start == approx(r.apps[j].arrival_s));
    CHECK(r.schedule.jobs[j].end == approx(all.apps[j].end_s).epsilon(1e-9));
    CHECK(r.schedule.jobs[j].runtime() >= r.isolated[j] * (1 - 1e-9));
    shared = shared || r.schedule.jobs[j].runtime() > r.isolated[j] * 1.01;
  }
  CHECK(shared);  // some job was slowed by another on the shared cable
}
