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

ScheduleResult simulate_schedule(const std::vector<Job>& jobs, const SelectionPolicy& policy,
                                 std::unique_ptr<AllocationPolicy> allocation, const ScheduleOptions& o,
                                 JobRunner* runner) {
  if (!allocation) throw std::logic_error("simulate_schedule: no allocation policy");
  if (o.nodes == 0)
    throw InputError("scheduler: the machine has no nodes (give --nodes or a log with MaxNodes/MaxProcs)");
  const auto n = static_cast<std::uint32_t>(jobs.size());
  ScheduleResult res;
  res.jobs.resize(n);
  NodeAllocator nodes(o.nodes, std::move(allocation), o.seed, o.network);
  std::vector<std::vector<std::uint32_t>> held(n);  // nodes of running jobs
  using End = std::pair<double, std::uint32_t>;
  std::priority_queue<End, std::vector<End>, std::greater<>> ends;
  std::vector<RunningJob> running;
  std::vector<std::uint32_t> running_at(n, 0);  // position in `running`
  std::vector<std::uint32_t> waiting, start;
  std::vector<std::uint8_t> started(n, 0);
  std::uint32_t next = 0;
  if (o.progress) o.progress->phase("schedule", n);
  for (;;) {
    const double t_submit = next < n ? jobs[next].submit : std::numeric_limits<double>::infinity();
    const double t_end = ends.empty() ? std::numeric_limits<double>::infinity() : ends.top().first;
    const double now = std::min(t_submit, t_end);
    if (now == std::numeric_limits<double>::infinity()) break;
    while (!ends.empty() && ends.top().first == now) {
      const std::uint32_t j = ends.top().second;
      ends.pop();
      res.jobs[j].end = now;
      if (o.progress) o.progress->counter()->fetch_add(1, std::memory_order_relaxed);
      nodes.give_back(held[j]);
      held[j] = {};
      const std::uint32_t pos = running_at[j];
      running[pos] = running.back();
      running_at[running[pos].job] = pos;
      running.pop_back();
    }
    while (next < n && jobs[next].submit == now) {
      const Job& job = jobs[next];
      if (job.nodes > o.nodes || job.nodes == 0) {
        res.jobs[next].refused = true;
        res.refused.push_back("job " + std::to_string(job.id) + " (log line " + std::to_string(job.line) + ") needs " +
                              std::to_string(job.nodes) + " nodes; the machine has " + std::to_string(o.nodes));
      } else {
        waiting.push_back(next);
      }
      ++next;
    }
    if (waiting.empty()) continue;
    ++res.scheduling_points;
    QueueState s{now, nodes.free(), &jobs, waiting, running};
    start.clear();
    policy.select(s, start);
    std::vector<std::uint32_t> taken;
    for (std::uint32_t j : start) {
      const Job& job = jobs[j];
      if (started[j] || job.nodes > nodes.free())
        throw std::logic_error("scheduler: a selection policy started a job twice or beyond the free nodes");
      started[j] = 1;
      nodes.take(job.nodes, taken);
      res.jobs[j].first_node = *std::min_element(taken.begin(), taken.end());
      held[j] = taken;
      res.jobs[j].start = now;
      running_at[j] = static_cast<std::uint32_t>(running.size());
      running.push_back({j, now + job.estimate, job.nodes});
    }
    if (!start.empty()) {
      if (runner && runner->start(now, start, held)) {  // every running job's end may have moved
        ends = {};
        for (const RunningJob& r : running) ends.push({std::max(now, runner->end_of(r.job)), r.job});
      } else {
        for (std::uint32_t j : start) ends.push({runner ? std::max(now, runner->end_of(j)) : now + jobs[j].runtime, j});
      }
    }
    if (!start.empty())
      waiting.erase(std::remove_if(waiting.begin(), waiting.end(), [&](std::uint32_t j) { return started[j]; }),
                    waiting.end());
  }

  // Metrics over the jobs that ran.
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
  // Utilisation over time: each job's node-seconds spread over the bins it ran in.
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
  return res;
}

}  // namespace interflow::scheduler
