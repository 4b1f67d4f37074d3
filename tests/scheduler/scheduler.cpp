// The batch-scheduler model: tiny logs whose schedules are worked out by hand for every selection
// policy, the metrics of one of them, the SWF reader and the log conventions.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"
#include <zlib.h>

#include <cstdio>
#include <fstream>

#include "core/error.hpp"
#include "scheduler/schedule.hpp"
#include "scheduler/swf.hpp"
#include "tests/support/scheduler_support.hpp"

using namespace interflow;
using namespace interflow::scheduler;

namespace {

std::string fixture(const std::string& name) {
  return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/swf/" + name;
}

const SelectionRegistry& policies() { return test::plugins().selections; }

// Job(submit, nodes, runtime, estimate), ids from 1.
std::vector<Job> jobs_of(std::initializer_list<std::array<double, 4>> list) {
  std::vector<Job> out;
  for (const auto& a : list) {
    Job j;
    j.id = static_cast<std::int64_t>(out.size() + 1);
    j.submit = a[0];
    j.nodes = j.processors = static_cast<std::uint32_t>(a[1]);
    j.runtime = a[2];
    j.estimate = a[3];
    out.push_back(j);
  }
  return out;
}

ScheduleResult run(const std::vector<Job>& jobs, const std::string& policy, std::uint32_t nodes) {
  ScheduleOptions o;
  o.nodes = nodes;
  return simulate_schedule(jobs, *policies().create(Spec::parse(policy, "test")), test::allocation("consecutive"), o);
}

std::vector<double> starts(const ScheduleResult& r) {
  std::vector<double> s;
  for (const JobOutcome& o : r.jobs) s.push_back(o.start);
  return s;
}

// 4 nodes. J1 (0 s, 2 nodes, 10 s) runs; J2 (1 s, 4 nodes, 5 s) must wait for it: its reservation is
// at 10. J3 (2 s, 2 nodes, 5 s) fits beside J1 and ends at 7, before 10: it can backfill. J4 (3 s, 1
// node, 20 s) could use J3's nodes at 7 but would end at 27 and the reservation leaves no extra node:
// it cannot backfill.
const std::vector<Job> kBackfill = jobs_of({{0, 2, 10, 10}, {1, 4, 5, 5}, {2, 2, 5, 5}, {3, 1, 20, 20}});

}  // namespace

TEST_CASE("scheduler: FCFS keeps submit order and the head blocks the queue") {
  const ScheduleResult r = run(kBackfill, "fcfs", 4);
  CHECK(starts(r) == std::vector<double>{0, 10, 15, 15});
}

TEST_CASE("scheduler: EASY backfills a job that ends before the reservation and not one that would delay it") {
  const ScheduleResult r = run(kBackfill, "easy", 4);
  CHECK(starts(r) == std::vector<double>{0, 10, 2, 15});
  // Metrics by hand: waits 0, 9, 0, 12; responses 10, 14, 5, 32; bounded slowdowns (tau 10 s)
  // 1, 1.4, 1, 1.6; 70 node-seconds over 4 nodes x 35 s.
  const ScheduleSummary& m = r.summary;
  CHECK(m.completed == 4);
  CHECK(m.mean_wait == approx(5.25));
  CHECK(m.max_wait == approx(12));
  CHECK(m.mean_response == approx(15.25));
  CHECK(m.mean_bounded_slowdown == approx(1.25));
  CHECK(m.mean_slowdown == approx((1 + 14.0 / 5 + 1 + 32.0 / 20) / 4));
  CHECK(m.makespan == approx(35));
  CHECK(m.utilisation == approx(0.5));
  CHECK(m.throughput_per_hour == approx(4 / 35.0 * 3600));
  double busy = 0;
  for (double u : r.utilisation_series) busy += u * r.bin_s;
  CHECK(busy == approx(0.5 * 35));  // the series integrates to the overall utilisation
}

TEST_CASE("scheduler: conservative backfilling gives every waiting job a reservation") {
  CHECK(starts(run(kBackfill, "conservative", 4)) == std::vector<double>{0, 10, 2, 15});
  // 4 nodes. J1 (3 nodes) runs 0-10. J2 (2 nodes, estimate 5) is the blocked head: reserved at 10,
  // leaving 2 extra nodes. J3 (4 nodes, estimate 5) is second. J4 (1 node, estimate 20) fits the free
  // node now.
  const auto jobs = jobs_of({{0, 3, 10, 10}, {1, 2, 5, 5}, {2, 4, 5, 5}, {3, 1, 20, 20}});
  // EASY protects only the head: J4 backfills on an extra node at 3 and runs to 23, so J3 (which needs
  // all 4 nodes) waits until 23.
  CHECK(starts(run(jobs, "easy", 4)) == std::vector<double>{0, 10, 23, 3});
  // Conservative also holds J3's reservation (15-20): J4 would overlap it, so it starts at 20.
  CHECK(starts(run(jobs, "conservative", 4)) == std::vector<double>{0, 10, 15, 20});
  CHECK(starts(run(jobs, "fcfs", 4)) == std::vector<double>{0, 10, 15, 20});
}

TEST_CASE("scheduler: a job past its estimate still holds its nodes for every policy") {
  // 2 nodes. A (2 nodes) was estimated at 10 s but runs 100 s (overrun allowed); B (1 node) arrives at
  // 20. A's nodes are busy until 100 whatever its estimate said: B cannot start before.
  const auto jobs = jobs_of({{0, 2, 100, 10}, {20, 1, 5, 5}});
  for (const char* policy : {"fcfs", "easy", "easy-sjf", "conservative", "sjf"}) {
    CAPTURE(policy);
    CHECK(starts(run(jobs, policy, 2)) == std::vector<double>{0, 100});
  }
}

TEST_CASE("scheduler: jobs with a zero estimate take their nodes in the plan") {
  // 2 nodes; A (2 nodes, 0 s) and B (2 nodes) arrive together: A runs at 0 and ends at once, then B.
  const auto jobs = jobs_of({{0, 2, 0, 0}, {0, 2, 5, 10}});
  for (const char* policy : {"fcfs", "easy", "conservative"}) {
    CAPTURE(policy);
    CHECK(starts(run(jobs, policy, 2)) == std::vector<double>{0, 0});
  }
}

TEST_CASE("scheduler: SJF reorders the queue by estimate") {
  // 2 nodes; J1 runs 0-10; J2 (estimate 8) and J3 (estimate 3) wait. FCFS: J2 then J3; SJF: J3 first.
  const auto jobs = jobs_of({{0, 2, 10, 10}, {1, 2, 8, 8}, {2, 2, 3, 3}});
  CHECK(starts(run(jobs, "fcfs", 2)) == std::vector<double>{0, 10, 18});
  CHECK(starts(run(jobs, "sjf", 2)) == std::vector<double>{0, 13, 10});
}

TEST_CASE("scheduler: EASY-SJF tries the shortest backfill candidate first") {
  // 4 nodes; J1 (3 nodes) runs 0-10; J2 (4 nodes) is reserved at 10 with no extra node; J3 (1 node,
  // estimate 8) and J4 (1 node, estimate 3) both end before 10 but only 1 node is free.
  const auto jobs = jobs_of({{0, 3, 10, 10}, {1, 4, 5, 5}, {2, 1, 8, 8}, {2, 1, 3, 3}});
  CHECK(starts(run(jobs, "easy", 4)) == std::vector<double>{0, 10, 2, 15});
  // easy-sjf: J4 first (2-5); at 5 J3 would end at 13 > 10 with no extra node: it waits for J2.
  CHECK(starts(run(jobs, "easy-sjf", 4)) == std::vector<double>{0, 10, 15, 2});
}

TEST_CASE("scheduler: a job larger than the machine is refused with a message naming it") {
  auto jobs = jobs_of({{0, 2, 10, 10}, {1, 5, 5, 5}, {2, 2, 5, 5}});
  jobs[1].id = 42;
  jobs[1].line = 7;
  const ScheduleResult r = run(jobs, "easy", 4);
  CHECK(r.jobs[1].refused);
  CHECK(r.summary.refused == 1);
  CHECK(r.summary.completed == 2);
  REQUIRE(r.refused.size() == 1);
  CHECK(r.refused[0] == "job 42 (log line 7) needs 5 nodes; the machine has 4");
  CHECK(starts(r)[2] == 2);
}

TEST_CASE("scheduler: the SWF fixture replays to the hand-worked EASY schedule") {
  const SwfLog log = read_swf(fixture("tiny.swf"));
  CHECK(log.max_procs == 4);
  CHECK(log.max_nodes == 4);
  REQUIRE(log.records.size() == 4);
  CHECK(log.records[3].line == 7);
  CHECK(log.records[1].executable == 2);
  const JobSet set = jobs_from_swf(log, {});
  CHECK(starts(run(set.jobs, "easy", 4)) == std::vector<double>{0, 10, 2, 15});
}

TEST_CASE(
    "scheduler: log conventions for the size field and overrun and missing values and estimates and processors per "
    "node") {
  const SwfLog log = read_swf(fixture("conventions.swf"));
  JobOptions o;
  JobSet d = jobs_from_swf(log, o);  // defaults: allocated size, kill at estimate, drop missing
  CHECK(d.dropped == 3);             // no run time, no allocated size, no estimate
  REQUIRE(d.jobs.size() == 2);
  CHECK(d.jobs[0].runtime == 100);  // killed at its estimate
  CHECK(d.jobs[1].nodes == 8);
  o.kill_at_estimate = false;
  o.missing = JobOptions::Missing::Repair;
  o.processors_per_node = 2;
  JobSet r = jobs_from_swf(log, o);
  CHECK(r.dropped == 0);
  CHECK(r.repaired == 3);
  REQUIRE(r.jobs.size() == 5);
  CHECK(r.jobs[0].runtime == 130);   // allowed to overrun
  CHECK(r.jobs[1].runtime == 0);     // repaired run time
  CHECK(r.jobs[2].processors == 4);  // the requested size instead
  CHECK(r.jobs[3].estimate == 20);   // estimate = run time
  CHECK(r.jobs[4].nodes == 4);       // 8 processors, 2 per node
  JobOptions exact;
  exact.estimate = JobOptions::Estimate::Exact;
  const JobSet e = jobs_from_swf(log, exact);  // killed at the requested time whatever the estimate mode
  CHECK(e.jobs[0].runtime == 100);
  CHECK(e.jobs[0].estimate == 100);
  o.size_from = JobOptions::SizeFrom::Requested;
  o.estimate = JobOptions::Estimate::Scaled;
  o.estimate_scale = 2;
  JobSet s = jobs_from_swf(log, o);
  CHECK(s.repaired == 1);  // only the missing run time
  CHECK(s.jobs[0].estimate == 260);
}

TEST_CASE("scheduler: pyss's log conventions: one-second jobs and an estimate of at least the run time") {
  const SwfLog log = read_swf(fixture("conventions.swf"));
  JobOptions o;
  o.missing = JobOptions::Missing::OneSecond;
  o.estimate = JobOptions::Estimate::AtLeastRun;
  const JobSet p = jobs_from_swf(log, o);
  CHECK(p.dropped == 0);
  CHECK(p.repaired == 3);  // job 2 (no run time) and job 3 (no allocated size) become 1-s jobs; job 4 has no estimate
  REQUIRE(p.jobs.size() == 5);
  CHECK(p.jobs[0].runtime == 130 - 30);  // killed at its requested time ...
  CHECK(p.jobs[0].estimate == 130);      // ... but the scheduler believes the log's run time
  CHECK(p.jobs[1].runtime == 1);
  CHECK(p.jobs[1].estimate == 1);
  CHECK(p.jobs[1].processors == 2);
  CHECK(p.jobs[2].runtime == 1);
  CHECK(p.jobs[2].estimate == 1);
  CHECK(p.jobs[2].processors == 1);  // max(1, allocated), not the requested 4
  CHECK(p.jobs[3].estimate == 20);   // missing: the run time
  CHECK(p.jobs[4].estimate == 10);
  // A run of 0 s is a 1-s job too, and submit times are at least 1 s for those.
  SwfLog zero;
  SwfRecord r;
  r.job = 9;
  r.submit = 0;
  r.run = 0;
  r.allocated = r.requested = 3;
  r.requested_time = 50;
  zero.records.push_back(r);
  const JobSet z = jobs_from_swf(zero, o);
  REQUIRE(z.jobs.size() == 1);
  CHECK(z.jobs[0].runtime == 1);
  CHECK(z.jobs[0].estimate == 1);
  CHECK(z.jobs[0].submit == 1);
  CHECK(z.jobs[0].processors == 3);
}

// 4 nodes. J1 (2 nodes) ends at 10 but was expected at 30; J2 (1 node) runs to 50; J3 (3 nodes) waits
// from 1 with a reservation at 30; J4 (1 node, 5 s) arrives at 10, as J1 ends. Once per instant, J1's
// end and J4's arrival are seen together: J3 fits at once and J4 waits for it (20). Per event, as
// pyss does, J4's arrival comes first: J1 still holds its nodes, J3's reservation is at 30 and J4,
// ending at 15, backfills; after J1's end J3 needs J4's node and starts at 15.
TEST_CASE("scheduler: a pass per event lets an arrival backfill before an end of the same instant") {
  const std::vector<Job> jobs = jobs_of({{0, 2, 10, 30}, {0, 1, 50, 50}, {1, 3, 10, 10}, {10, 1, 5, 5}});
  ScheduleOptions o;
  o.nodes = 4;
  const auto easy = [&] { return policies().create(Spec::parse("easy", "test")); };
  CHECK(starts(simulate_schedule(jobs, *easy(), test::allocation("consecutive"), o)) ==
        std::vector<double>{0, 0, 10, 20});
  o.passes = Passes::PerEvent;
  const ScheduleResult e = simulate_schedule(jobs, *easy(), test::allocation("consecutive"), o);
  CHECK(starts(e) == std::vector<double>{0, 0, 15, 10});
  // One per arrival (J1 and J2 at 0 are two), then J1's end and J4's end; later ends find no queue.
  CHECK(e.scheduling_points == 6);
  // FCFS gives the same schedule either way here: the head blocks J4 in the arrival's pass too.
  const auto fcfs = [&] { return policies().create(Spec::parse("fcfs", "test")); };
  const std::vector<double> fcfs_starts{0, 0, 10, 20};
  CHECK(starts(simulate_schedule(jobs, *fcfs(), test::allocation("consecutive"), o)) == fcfs_starts);
  o.passes = Passes::PerInstant;
  CHECK(starts(simulate_schedule(jobs, *fcfs(), test::allocation("consecutive"), o)) == fcfs_starts);
}

TEST_CASE("scheduler: a gzip-compressed log reads like the plain one") {
  const std::string path = "/tmp/interflow_test_tiny.swf.gz";
  {
    std::ifstream in(fixture("tiny.swf"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    gzFile gz = gzopen(path.c_str(), "wb");
    REQUIRE(gz);
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
  }
  const SwfLog log = read_swf(path);
  CHECK(log.records.size() == 4);
  CHECK(log.records[2].run == 5);
  std::remove(path.c_str());
}

TEST_CASE("scheduler: malformed SWF lines name the file line and field") {
  const auto error_of = [](const std::string& text) {
    const std::string path = "/tmp/interflow_test_bad.swf";
    std::ofstream(path) << text;
    try {
      read_swf(path);
    } catch (const InputError& e) {
      std::remove(path.c_str());
      return std::string(e.what());
    }
    std::remove(path.c_str());
    return std::string("no error");
  };
  CHECK(error_of("; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1\n")
            .find(":2: expected the 18 fields of an SWF job line, found 17") != std::string::npos);
  CHECK(error_of("1 0 -1 ten 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1\n").find(":1: field 4 (run time) 'ten'") !=
        std::string::npos);
  CHECK(error_of("1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1 7\n").find(":1: more than the 18 fields") !=
        std::string::npos);
  CHECK(std::string([] {
          try {
            read_swf("/nonexistent.swf");
          } catch (const InputError& e) {
            return std::string(e.what());
          }
          return std::string();
        }())
            .find("SWF log '/nonexistent.swf': cannot read: No such file or directory") != std::string::npos);
}
