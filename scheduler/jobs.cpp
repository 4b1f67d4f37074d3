#include "scheduler/jobs.hpp"

#include <algorithm>
#include <cmath>

namespace interflow::scheduler {

JobSet jobs_from_swf(const SwfLog& log, const JobOptions& o) {
  JobSet out;
  out.jobs.reserve(log.records.size());
  const bool repair = o.missing == JobOptions::Missing::Repair;
  for (const SwfRecord& r : log.records) {
    bool repaired = false;
    double runtime = r.run;
    if (runtime < 0) {
      if (!repair) {
        ++out.dropped;
        continue;
      }
      runtime = 0;
      repaired = true;
    }
    std::int64_t procs = o.size_from == JobOptions::SizeFrom::Allocated ? r.allocated : r.requested;
    if (procs <= 0) {
      const std::int64_t other = o.size_from == JobOptions::SizeFrom::Allocated ? r.requested : r.allocated;
      if (!repair || other <= 0) {
        ++out.dropped;
        continue;
      }
      procs = other;
      repaired = true;
    }
    double submit = r.submit;
    if (submit < 0) {
      if (!repair) {
        ++out.dropped;
        continue;
      }
      submit = 0;
      repaired = true;
    }
    // Killed at the requested time (field 9), whatever the scheduler is told the estimate is.
    if (o.kill_at_estimate && r.requested_time >= 0) runtime = std::min(runtime, r.requested_time);
    double estimate = r.requested_time;
    switch (o.estimate) {
      case JobOptions::Estimate::Log:
        if (estimate < 0) {
          if (!repair) {
            ++out.dropped;
            continue;
          }
          estimate = runtime;
          repaired = true;
        }
        break;
      case JobOptions::Estimate::Exact:
        estimate = runtime;
        break;
      case JobOptions::Estimate::Scaled:
        estimate = runtime * o.estimate_scale;
        break;
    }
    Job j;
    j.id = r.job;
    j.submit = submit;
    j.runtime = runtime;
    j.estimate = estimate;
    j.processors = static_cast<std::uint32_t>(std::min<std::int64_t>(procs, 0xFFFFFFFF));
    j.nodes =
        static_cast<std::uint32_t>((std::uint64_t{j.processors} + o.processors_per_node - 1) / o.processors_per_node);
    j.executable = r.executable;
    j.queue = r.queue;
    j.user = r.user;
    j.line = r.line;
    out.jobs.push_back(j);
    out.repaired += repaired ? 1 : 0;
  }
  std::stable_sort(out.jobs.begin(), out.jobs.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  return out;
}

}  // namespace interflow::scheduler
