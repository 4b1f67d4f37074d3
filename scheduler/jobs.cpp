#include "scheduler/jobs.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace interflow::scheduler {

namespace {

// One log record under the conventions; nothing when it is dropped. `repaired` tells whether a
// convention filled in a missing field.
class RecordReader {
 public:
  explicit RecordReader(const JobOptions& o) : o_(o), repair_(o.missing != JobOptions::Missing::Drop) {}

  std::optional<Job> read(const SwfRecord& r, bool& repaired) const {
    repaired = false;
    if (o_.missing == JobOptions::Missing::OneSecond && one_second_job(r)) {
      repaired = true;
      return make(r, std::max<double>(r.submit, 1), 1, 1, std::max<std::int64_t>(1, size_field(r)));
    }
    double runtime = r.run;
    if (runtime < 0 && !fill(runtime, 0.0, repaired)) return std::nullopt;
    std::int64_t procs = size_field(r);
    if (procs <= 0) {
      const std::int64_t other = o_.size_from == JobOptions::SizeFrom::Allocated ? r.requested : r.allocated;
      if (other <= 0 || !fill(procs, other, repaired)) return std::nullopt;
    }
    double submit = r.submit;
    if (submit < 0 && !fill(submit, 0.0, repaired)) return std::nullopt;
    // Killed at the requested time (field 9), whatever the scheduler is told the estimate is.
    if (o_.kill_at_estimate && r.requested_time >= 0) runtime = std::min(runtime, r.requested_time);
    if (o_.missing == JobOptions::Missing::OneSecond) runtime = std::max(runtime, 1.0);
    double estimate = 0;
    if (!estimate_of(r, runtime, estimate, repaired)) return std::nullopt;
    return make(r, submit, runtime, estimate, procs);
  }

 private:
  std::int64_t size_field(const SwfRecord& r) const {
    return o_.size_from == JobOptions::SizeFrom::Allocated ? r.allocated : r.requested;
  }
  bool one_second_job(const SwfRecord& r) const { return r.run <= 0 || size_field(r) <= 0 || r.submit < 0; }

  // Fills a missing field with `value` when the conventions repair; false when they drop the job.
  template <typename T>
  bool fill(T& field, T value, bool& repaired) const {
    if (!repair_) return false;
    field = value;
    repaired = true;
    return true;
  }

  bool estimate_of(const SwfRecord& r, double runtime, double& estimate, bool& repaired) const {
    switch (o_.estimate) {
      case JobOptions::Estimate::Log:
      case JobOptions::Estimate::AtLeastRun:
        estimate = r.requested_time;
        if (estimate < 0 && !fill(estimate, runtime, repaired)) return false;
        if (o_.estimate == JobOptions::Estimate::AtLeastRun) estimate = std::max({estimate, r.run, runtime});
        break;
      case JobOptions::Estimate::Exact:
        estimate = runtime;
        break;
      case JobOptions::Estimate::Scaled:
        estimate = runtime * o_.estimate_scale;
        break;
    }
    if (o_.missing == JobOptions::Missing::OneSecond) estimate = std::max(estimate, 1.0);
    return true;
  }

  Job make(const SwfRecord& r, double submit, double runtime, double estimate, std::int64_t procs) const {
    Job j;
    j.id = r.job;
    j.submit = submit;
    j.runtime = runtime;
    j.estimate = estimate;
    j.processors = static_cast<std::uint32_t>(std::min<std::int64_t>(procs, 0xFFFFFFFF));
    j.nodes = static_cast<std::uint32_t>((std::uint64_t{j.processors} + o_.processors_per_node - 1) /
                                         o_.processors_per_node);
    j.executable = r.executable;
    j.queue = r.queue;
    j.user = r.user;
    j.line = r.line;
    return j;
  }

  const JobOptions& o_;
  bool repair_;
};

}  // namespace

JobSet jobs_from_swf(const SwfLog& log, const JobOptions& o) {
  JobSet out;
  out.jobs.reserve(log.records.size());
  const RecordReader reader(o);
  for (const SwfRecord& r : log.records) {
    bool repaired = false;
    std::optional<Job> job = reader.read(r, repaired);
    if (!job) {
      ++out.dropped;
      continue;
    }
    out.jobs.push_back(*job);
    out.repaired += repaired ? 1 : 0;
  }
  std::stable_sort(out.jobs.begin(), out.jobs.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  return out;
}

}  // namespace interflow::scheduler
