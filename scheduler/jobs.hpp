#pragma once
// Jobs as the scheduler sees them, and the conventions that turn an SWF log into jobs
// (manual/scheduler.md "Reading a log").
#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/swf.hpp"

namespace interflow::scheduler {

struct Job {
  std::int64_t id = 0;  // the log's job number
  double submit = 0;    // seconds
  double runtime = 0;   // how long it runs once started (network-agnostic mode)
  double estimate = 0;  // what the scheduler believes (the user's requested time)
  std::uint32_t processors = 0;
  std::uint32_t nodes = 0;  // processors / processors per node, rounded up
  std::int64_t executable = -1, queue = -1, user = -1;
  std::uint64_t line = 0;  // job line in the log (for messages)
};

struct JobOptions {
  enum class SizeFrom { Allocated, Requested } size_from = SizeFrom::Allocated;  // field 5 or field 8
  bool kill_at_estimate = true;  // a job running past its requested time is killed there
  // OneSecond is pyss's rule (its prototype._job_input_to_job): a job with a run time or size that is
  // missing or 0, or a missing submit time, runs 1 s with an estimate of 1 s on max(1, size)
  // processors, submitted at max(submit, 1); every other job runs at least 1 s.
  enum class Missing { Drop, Repair, OneSecond } missing = Missing::Drop;
  std::uint32_t processors_per_node = 1;
  // AtLeastRun is pyss's: max(requested time, the log's run time), so a job killed at its requested
  // time never overruns what the scheduler believes.
  enum class Estimate { Log, Exact, Scaled, AtLeastRun } estimate = Estimate::Log;
  double estimate_scale = 1;  // Scaled: estimate = runtime × this
};

struct JobSet {
  std::vector<Job> jobs;  // in submit order (ties: log order)
  std::uint64_t dropped = 0, repaired = 0;
};

// Applies the conventions. kill_at_estimate caps the run time at the requested time (field 9) when
// the log gives one, whatever `estimate` says. Missing (-1 or negative) run time or submit time:
// Drop drops the job, Repair gives it 0 s. Missing size (the chosen field): Drop drops it, Repair takes the other
// processor field (and drops it if that is missing too). Missing estimate with estimate = Log or AtLeastRun: Drop
// drops it, Repair and OneSecond use the run time.
JobSet jobs_from_swf(const SwfLog& log, const JobOptions& options);

}  // namespace interflow::scheduler
