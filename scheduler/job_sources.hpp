#pragma once
// Where the scheduler's jobs come from (manual/scheduler.md): an SWF log under the log conventions, a
// synthetic stream, or INRFlow's workload file (Navaridas et al. 2019, §3.4); and the machine size a
// log implies.
#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/jobs.hpp"
#include "scheduler/schedule.hpp"
#include "workloads/inrflow_workload.hpp"

namespace interflow::scheduler {

struct JobStream {
  JobSet set;
  std::uint32_t machine_nodes = 0;           // the size the source implies (0: unknown)
  std::vector<workloads::InrflowApp> apps;   // INRFlow workload: each job's application, in job order
  std::string description;                   // "log X", "synthetic stream", "INRFlow workload X"
};

// An SWF log: jobs under the conventions of `options`, submit times multiplied by `time_scale`. The
// machine is MaxProcs / processors per node (job sizes are processors / processors per node), else
// MaxNodes.
JobStream log_jobs(const std::string& path, const JobOptions& options, double time_scale = 1);

// INRFlow's workload file: one job per application line, in arrival order, sized by its task count.
JobStream inrflow_jobs(const std::string& path, const workloads::AppRegistry& apps, double time_unit_s);

// A synthetic stream (see synthetic_jobs in scheduler/network_aware.hpp).
JobStream synthetic_stream(std::uint32_t count, double mean_gap_s, const std::vector<std::uint32_t>& sizes,
                           double mean_runtime_s, double estimate_factor, std::uint64_t seed);

// Network-aware runs: the mean over the jobs that ran of run time / run time alone on the same nodes
// (isolated[j] > 0), and that ratio for one job (NaN when it did not run).
double mean_network_slowdown(const std::vector<JobOutcome>& outcomes, const std::vector<double>& isolated);
double network_slowdown(const JobOutcome& outcome, double isolated);

}  // namespace interflow::scheduler
