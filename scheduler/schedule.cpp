#include "scheduler/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>

#include "core/error.hpp"
#include "scheduler/allocation.hpp"

namespace interflow::scheduler {

double bounded_slowdown(const Job& job, const JobOutcome& outcome, double tau_s) {
  return std::max(1.0, (outcome.end - job.submit) / std::max(outcome.runtime(), tau_s));
}

namespace {

// One replay: the queue, the running jobs and their ends, advanced instant by instant.
class Replay {
 public:
  Replay(const std::vector<Job>& jobs, const SelectionPolicy& policy, std::unique_ptr<AllocationPolicy> allocation,
         const ScheduleOptions& o, JobRunner* runner)
      : jobs_(jobs),
        policy_(policy),
        o_(o),
        runner_(runner),
        n_(static_cast<std::uint32_t>(jobs.size())),
        nodes_(o.nodes, std::move(allocation), o.seed, o.network),
        held_(n_),
        running_at_(n_, 0),
        started_(n_, 0) {
    res_.jobs.resize(n_);
  }

  ScheduleResult run() {
    if (o_.progress) o_.progress->phase("schedule", n_);
    for (;;) {
      const double now = next_instant();
      if (now == kInf) break;
      if (o_.passes == Passes::PerInstant) {
        while (end_due(now)) end_one(now);
        while (arrival_due(now)) arrive_one();
        pass(now);
      } else {  // pyss: every arrival, then every end, each followed by a pass
        while (arrival_due(now)) {
          arrive_one();
          pass(now);
        }
        while (end_due(now)) {
          end_one(now);
          pass(now);
        }
      }
    }
    return std::move(res_);
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  using End = std::pair<double, std::uint32_t>;

  double next_instant() const {
    const double t_submit = next_ < n_ ? jobs_[next_].submit : kInf;
    const double t_end = ends_.empty() ? kInf : ends_.top().first;
    return std::min(t_submit, t_end);
  }
  bool end_due(double now) const { return !ends_.empty() && ends_.top().first == now; }
  bool arrival_due(double now) const { return next_ < n_ && jobs_[next_].submit == now; }

  // The earliest job due to end leaves the machine.
  void end_one(double now) {
    const std::uint32_t j = ends_.top().second;
    ends_.pop();
    res_.jobs[j].end = now;
    if (o_.progress) o_.progress->counter()->fetch_add(1, std::memory_order_relaxed);
    nodes_.give_back(held_[j]);
    held_[j] = {};
    const std::uint32_t pos = running_at_[j];
    running_[pos] = running_.back();
    running_at_[running_[pos].job] = pos;
    running_.pop_back();
  }

  // The next job in submit order joins the queue, or is refused when the machine cannot hold it.
  void arrive_one() {
    const Job& job = jobs_[next_];
    if (job.nodes > o_.nodes || job.nodes == 0) {
      res_.jobs[next_].refused = true;
      res_.refused.push_back("job " + std::to_string(job.id) + " (log line " + std::to_string(job.line) + ") needs " +
                             std::to_string(job.nodes) + " nodes; the machine has " + std::to_string(o_.nodes));
    } else {
      waiting_.push_back(next_);
    }
    ++next_;
  }

  // One scheduling point: the policy names the jobs that start now; they take their nodes.
  void pass(double now) {
    if (waiting_.empty()) return;
    ++res_.scheduling_points;
    QueueState s{now, nodes_.free(), &jobs_, waiting_, running_};
    start_.clear();
    policy_.select(s, start_);
    if (start_.empty()) return;
    for (std::uint32_t j : start_) take_nodes(now, j);
    plan_ends(now);
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), [&](std::uint32_t j) { return started_[j]; }),
                   waiting_.end());
  }

  void take_nodes(double now, std::uint32_t j) {
    const Job& job = jobs_[j];
    if (started_[j] || job.nodes > nodes_.free())
      throw std::logic_error("scheduler: a selection policy started a job twice or beyond the free nodes");
    started_[j] = 1;
    nodes_.take(job.nodes, taken_);
    res_.jobs[j].first_node = *std::min_element(taken_.begin(), taken_.end());
    held_[j] = taken_;
    res_.jobs[j].start = now;
    running_at_[j] = static_cast<std::uint32_t>(running_.size());
    running_.push_back({j, now + job.estimate, job.nodes});
  }

  // The ends of the jobs just started; with a runner that says the network changed, of every running job.
  void plan_ends(double now) {
    if (runner_ && runner_->start(now, start_, held_)) {
      ends_ = {};
      for (const RunningJob& r : running_) ends_.push({std::max(now, runner_->end_of(r.job)), r.job});
      return;
    }
    for (std::uint32_t j : start_)
      ends_.push({runner_ ? std::max(now, runner_->end_of(j)) : now + jobs_[j].runtime, j});
  }

  const std::vector<Job>& jobs_;
  const SelectionPolicy& policy_;
  const ScheduleOptions& o_;
  JobRunner* runner_;
  std::uint32_t n_;
  ScheduleResult res_;
  NodeAllocator nodes_;
  std::vector<std::vector<std::uint32_t>> held_;  // nodes of running jobs
  std::priority_queue<End, std::vector<End>, std::greater<>> ends_;
  std::vector<RunningJob> running_;
  std::vector<std::uint32_t> running_at_;  // position in running_
  std::vector<std::uint32_t> waiting_, start_, taken_;
  std::vector<std::uint8_t> started_;
  std::uint32_t next_ = 0;  // the next job to arrive
};

void summarise(const std::vector<Job>& jobs, const ScheduleOptions& o, ScheduleResult& res);
void utilisation_series(const std::vector<Job>& jobs, const ScheduleOptions& o, ScheduleResult& res);

}  // namespace

ScheduleResult simulate_schedule(const std::vector<Job>& jobs, const SelectionPolicy& policy,
                                 std::unique_ptr<AllocationPolicy> allocation, const ScheduleOptions& o,
                                 JobRunner* runner) {
  if (!allocation) throw std::logic_error("simulate_schedule: no allocation policy");
  if (o.nodes == 0)
    throw InputError("scheduler: the machine has no nodes (give --nodes or a log with MaxProcs/MaxNodes)");
  ScheduleResult res = Replay(jobs, policy, std::move(allocation), o, runner).run();
  summarise(jobs, o, res);
  utilisation_series(jobs, o, res);
  return res;
}

namespace {

// Metrics over the jobs that ran.
void summarise(const std::vector<Job>& jobs, const ScheduleOptions& o, ScheduleResult& res) {
  const auto n = static_cast<std::uint32_t>(jobs.size());
  ScheduleSummary& m = res.summary;
  m.jobs = n;
  m.refused = res.refused.size();
  std::vector<double> waits;
  double node_seconds = 0;
  m.first_submit = 0;
  for (std::uint32_t j = 0; j < n; ++j)
    if (!res.jobs[j].refused) {
      m.first_submit = jobs[j].submit;  // the earliest job that ran (jobs are in submit order)
      break;
    }
  for (std::uint32_t j = 0; j < n; ++j) {
    const JobOutcome& r = res.jobs[j];
    if (r.refused) continue;
    const Job& job = jobs[j];
    ++m.completed;
    const double wait = r.start - job.submit, response = r.end - job.submit;
    waits.push_back(wait);
    m.mean_wait += wait;
    m.max_wait = std::max(m.max_wait, wait);
    m.mean_response += response;
    const double runtime = r.runtime();
    m.mean_runtime += runtime;
    m.mean_slowdown += runtime > 0 ? response / runtime : 1.0;
    const double bsld = bounded_slowdown(job, r, o.bounded_slowdown_tau);
    m.mean_bounded_slowdown += bsld;
    m.max_bounded_slowdown = std::max(m.max_bounded_slowdown, bsld);
    m.last_end = std::max(m.last_end, r.end);
    node_seconds += runtime * job.nodes;
  }
  if (m.completed > 0) {
    const auto c = static_cast<double>(m.completed);
    m.mean_wait /= c;
    m.mean_response /= c;
    m.mean_runtime /= c;
    m.mean_slowdown /= c;
    m.mean_bounded_slowdown /= c;
    std::sort(waits.begin(), waits.end());
    const std::size_t h = waits.size() / 2;
    m.median_wait = waits.size() % 2 == 1 ? waits[h] : (waits[h - 1] + waits[h]) / 2;
    m.makespan = m.last_end - m.first_submit;
    if (m.makespan > 0) {
      m.utilisation = node_seconds / (static_cast<double>(o.nodes) * m.makespan);
      m.throughput_per_hour = c / m.makespan * 3600;
    }
  }
}

// Utilisation over time: each job's node-seconds spread over the bins it ran in.
void utilisation_series(const std::vector<Job>& jobs, const ScheduleOptions& o, ScheduleResult& res) {
  const auto n = static_cast<std::uint32_t>(jobs.size());
  const ScheduleSummary& m = res.summary;
  const std::uint32_t bins = std::max<std::uint32_t>(1, o.series_bins);
  res.bin_s = m.makespan > 0 ? m.makespan / bins : 0;
  res.utilisation_series.assign(bins, 0);
  if (res.bin_s > 0)
    for (std::uint32_t j = 0; j < n; ++j) {
      const JobOutcome& r = res.jobs[j];
      if (r.refused || !(r.end > r.start)) continue;
      const double a = r.start - m.first_submit, b = r.end - m.first_submit;
      for (auto bin = static_cast<std::size_t>(a / res.bin_s); bin < bins && static_cast<double>(bin) * res.bin_s < b;
           ++bin) {
        const double lo = std::max(a, static_cast<double>(bin) * res.bin_s);
        const double hi = std::min(b, static_cast<double>(bin + 1) * res.bin_s);
        if (hi > lo)
          res.utilisation_series[bin] += (hi - lo) * jobs[j].nodes / (res.bin_s * static_cast<double>(o.nodes));
      }
    }
}

}  // namespace

}  // namespace interflow::scheduler
