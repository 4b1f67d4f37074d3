#pragma once
// The batch-scheduler simulation in network-agnostic mode: jobs arrive at their submit times, a
// selection policy decides which waiting jobs start, an allocation takes free nodes for them, and a
// job holds its nodes for its run time (manual/scheduler.md). Metrics follow Navaridas et al. 2019, §3.4, and the
// field's standard definitions (Feitelson et al.).
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "core/network.hpp"
#include "scheduler/allocation.hpp"
#include "scheduler/jobs.hpp"
#include "scheduler/selection.hpp"

namespace interflow::scheduler {

// When the selection policy is asked which jobs start (manual/scheduler.md "Scheduling points").
enum class Passes : std::uint8_t {
  // Once per instant at which jobs end or arrive, after every end and arrival of that instant.
  PerInstant,
  // After every single arrival, then after every single end, in that order at one instant (the
  // event loop of pyss, the Parallel Job Scheduling Simulator used by many EASY studies).
  PerEvent,
};

struct ScheduleOptions {
  std::uint32_t nodes = 0;                    // machine size
  Passes passes = Passes::PerInstant;
  const Network* network = nullptr;           // network-aware: the machine's network (allocations may use it)
  std::uint64_t seed = 1;
  double bounded_slowdown_tau = 10;  // seconds
  std::uint32_t series_bins = 200;   // utilisation over time
  Progress* progress = nullptr;      // a phase "schedule" of one unit per job ended
};

struct JobOutcome {
  double start = std::numeric_limits<double>::quiet_NaN(), end = std::numeric_limits<double>::quiet_NaN();
  double runtime() const { return end - start; }
  bool refused = false;          // larger than the machine
  std::uint32_t first_node = 0;  // lowest node id allocated
};

struct ScheduleSummary {
  std::uint64_t jobs = 0, completed = 0, refused = 0;
  double first_submit = 0, last_end = 0, makespan = 0;  // makespan = last end − first submit
  double mean_wait = 0, median_wait = 0, max_wait = 0;
  double mean_response = 0, mean_runtime = 0, mean_slowdown = 0, mean_bounded_slowdown = 0, max_bounded_slowdown = 0;
  double utilisation = 0;  // node-seconds used / (nodes × makespan)
  double throughput_per_hour = 0;
};

struct ScheduleResult {
  std::vector<JobOutcome> jobs;  // per job, in the order given
  ScheduleSummary summary;
  double bin_s = 0;
  std::vector<double> utilisation_series;  // busy nodes / nodes, time-averaged per bin from first submit
  std::vector<std::string> refused;        // one message per refused job
  std::uint64_t scheduling_points = 0;
};

// Bounded slowdown of a job that ran (Feitelson et al.): max(1, response / max(run time, tau)).
double bounded_slowdown(const Job& job, const JobOutcome& outcome, double tau_s);

// How long started jobs run. Without one (network-agnostic mode) a job runs its Job::runtime.
class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // `started` jobs begin at `now` on nodes[job]. Returns true if the ends of jobs already running may
  // have changed (their jobs share the machine's network with the new ones).
  virtual bool start(double now, const std::vector<std::uint32_t>& started,
                     const std::vector<std::vector<std::uint32_t>>& nodes) = 0;
  // When a started job ends, as far as the jobs started so far tell.
  virtual double end_of(std::uint32_t job) const = 0;
};

// `allocation` chooses the nodes of starting jobs (a policy of the allocation registry, built for this
// machine: scheduler/allocation.hpp).
ScheduleResult simulate_schedule(const std::vector<Job>& jobs, const SelectionPolicy& policy,
                                 std::unique_ptr<AllocationPolicy> allocation, const ScheduleOptions& options,
                                 JobRunner* runner = nullptr);

}  // namespace interflow::scheduler
