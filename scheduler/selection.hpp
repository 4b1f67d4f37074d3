#pragma once
// Job selection: which waiting jobs start now (Navaridas et al. 2019, §3.4; manual/scheduler.md "Selection").
// A policy sees the queue, the free nodes and the running jobs with their predicted ends (start +
// estimate) and names the jobs to start; it is registered by name (one file plus one line in
// register_selection_policies).
#include <cstdint>
#include <span>
#include <vector>

#include "core/registry.hpp"
#include "scheduler/jobs.hpp"

namespace interflow::scheduler {

struct RunningJob {
  std::uint32_t job = 0;     // index into the jobs
  double predicted_end = 0;  // start + estimate (never before now)
  std::uint32_t nodes = 0;
};

struct QueueState {
  double now = 0;
  std::uint32_t free_nodes = 0;
  const std::vector<Job>* jobs = nullptr;
  std::span<const std::uint32_t> queue;  // waiting jobs in submit order (indices into jobs)
  std::span<const RunningJob> running;
};

class SelectionPolicy {
 public:
  virtual ~SelectionPolicy() = default;
  // Appends the waiting jobs to start now to `start`; together they fit in the free nodes.
  virtual void select(const QueueState& s, std::vector<std::uint32_t>& start) const = 0;
};

using SelectionRegistry = Registry<SelectionPolicy>;
void register_selection_policies(SelectionRegistry& registry);
void register_list_policies(SelectionRegistry& registry);        // fcfs, sjf
void register_easy_policies(SelectionRegistry& registry);        // easy, easy-sjf
void register_conservative_policy(SelectionRegistry& registry);  // conservative

// When a running job is expected to free its nodes: its predicted end, or — for a job already past
// it (it overran its estimate, or its estimate was 0) — just after now: its nodes are still held.
double release_time(const QueueState& s, const RunningJob& r);

// The waiting jobs ordered by estimate (shortest first; ties by submit order).
std::vector<std::uint32_t> by_estimate(const QueueState& s, std::span<const std::uint32_t> jobs);

// The free-node profile over time as the running jobs are predicted to end: step k has `free[k]`
// nodes from `time[k]` on (time[0] = now).
struct Profile {
  std::vector<double> time;
  std::vector<std::int64_t> free;
  static Profile of(const QueueState& s);
  // The earliest start >= now at which `nodes` stay free for `duration`.
  double earliest(std::uint32_t nodes, double duration) const;
  // Takes `nodes` over [start, start + duration) (a zero duration still holds them at `start`).
  void reserve(double start, double duration, std::uint32_t nodes);
};

}  // namespace interflow::scheduler
