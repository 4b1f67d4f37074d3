#include "scheduler/job_sources.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scheduler/network_aware.hpp"
#include "scheduler/swf.hpp"

namespace interflow::scheduler {

JobStream log_jobs(const std::string& path, const JobOptions& options, double time_scale) {
  const SwfLog log = read_swf(path);
  JobStream s;
  s.set = jobs_from_swf(log, options);
  for (Job& job : s.set.jobs) job.submit *= time_scale;
  const std::uint64_t per_node = std::max<std::uint32_t>(1, options.processors_per_node);
  if (log.max_procs > 0)
    s.machine_nodes = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        (static_cast<std::uint64_t>(log.max_procs) + per_node - 1) / per_node, std::numeric_limits<std::uint32_t>::max()));
  else if (log.max_nodes > 0)
    s.machine_nodes = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(log.max_nodes), std::numeric_limits<std::uint32_t>::max()));
  s.description = "log " + path;
  return s;
}

JobStream inrflow_jobs(const std::string& path, const workloads::AppRegistry& apps, double time_unit_s) {
  JobStream s;
  s.apps = workloads::read_inrflow_workload(path, apps, time_unit_s);
  std::stable_sort(s.apps.begin(), s.apps.end(),
                   [](const workloads::InrflowApp& a, const workloads::InrflowApp& b) { return a.arrival_s < b.arrival_s; });
  for (const workloads::InrflowApp& a : s.apps) {
    Job job;
    job.id = static_cast<std::int64_t>(s.set.jobs.size() + 1);
    job.submit = a.arrival_s;
    job.nodes = job.processors = a.tasks;
    job.line = a.line;
    s.set.jobs.push_back(job);
  }
  s.description = "INRFlow workload " + path;
  return s;
}

JobStream synthetic_stream(std::uint32_t count, double mean_gap_s, const std::vector<std::uint32_t>& sizes,
                           double mean_runtime_s, double estimate_factor, std::uint64_t seed) {
  JobStream s;
  s.set.jobs = synthetic_jobs(count, mean_gap_s, sizes, mean_runtime_s, estimate_factor, seed);
  s.description = "synthetic stream";
  return s;
}

double network_slowdown(const JobOutcome& outcome, double isolated) {
  return !outcome.refused && isolated > 0 ? outcome.runtime() / isolated : std::numeric_limits<double>::quiet_NaN();
}

double mean_network_slowdown(const std::vector<JobOutcome>& outcomes, const std::vector<double>& isolated) {
  double sum = 0;
  std::uint64_t counted = 0;
  for (std::size_t j = 0; j < outcomes.size(); ++j)
    if (!outcomes[j].refused && isolated[j] > 0) {
      sum += outcomes[j].runtime() / isolated[j];
      ++counted;
    }
  return counted > 0 ? sum / static_cast<double>(counted) : 0.0;
}

}  // namespace interflow::scheduler
