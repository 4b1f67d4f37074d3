#pragma once
// Network-aware mode (manual/scheduler.md): every job runs an application of the dynamic engine's
// workloads (workloads/application.hpp) with one task per allocated node, and its run time emerges
// from the network it shares with the jobs running beside it. The scheduler plans with estimates and
// learns each job's end from the engine.
//
// Exactness by re-simulation: whenever jobs start, all jobs started so far are simulated again from
// the beginning (each arriving at its start time, on its nodes). Until the next job starts nothing
// else enters the network, so the ends this gives are exact; a start changes the ends of the jobs
// running then, which the scheduler takes up. The cost is one simulation per scheduling point that
// starts jobs: meant for streams of tens to a few hundred jobs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/transport.hpp"
#include "engine/drivers/driver.hpp"
#include "scheduler/mapping.hpp"
#include "scheduler/schedule.hpp"
#include "workloads/application.hpp"

namespace interflow::scheduler {

// Places an application's data ranks (Application::data_ranks: where its tasks' data lives) once its
// tasks are placed; the storage subsystem's placement policies implement it (storage/placement.hpp).
class DataPlacer {
 public:
  virtual ~DataPlacer() = default;
  // app.placement[0 .. compute_tasks()) holds the tasks' nodes; fills the data ranks' endpoints.
  // `job` is the job's position in the stream, `rng` drawn from the run's seed and the job.
  virtual void place(std::uint32_t job, Application& app, Rng& rng) const = 0;
};

class NetworkRunner : public JobRunner {
 public:
  // Builds each job's application once: job j runs job_apps[j] (a spec without tasks, e.g.
  // stencil3d:iters=5) with one task per node. Jobs of 0 nodes or more than `machine_nodes` get none
  // (the scheduler refuses them). `mapping` is a task-mapping spec (scheduler/mapping.hpp).
  // Every simulation runs on a fresh transport from `transports` (the flow-level one, or another).
  // `mapping` orders each job's tasks on its nodes (a policy of the mapping registry).
  NetworkRunner(const Network& net, TransportFactory transports, const workloads::AppRegistry& apps,
                const workloads::AppSettings& settings, const std::vector<Job>& jobs,
                const std::vector<std::string>& job_apps, std::uint32_t machine_nodes,
                const drivers::DriverOptions& options, std::unique_ptr<MappingPolicy> mapping, std::uint64_t seed = 1);
  // Runs each job's application alone on the first nodes of the machine for a reference run time:
  // job.runtime = reference, job.estimate = reference × estimate_factor (the scheduler's belief, as a
  // user's request would be). Jobs without an application keep theirs.
  void set_estimates(std::vector<Job>& jobs, double estimate_factor) const;
  // Where applications with data ranks (the Markov-chain application) keep their data; kept by
  // reference. Without one such applications are refused when they start.
  void set_data_placer(const DataPlacer* placer) { data_ = placer; }
  bool start(double now, const std::vector<std::uint32_t>& started,
             const std::vector<std::vector<std::uint32_t>>& nodes) override;
  double end_of(std::uint32_t job) const override { return end_[job]; }

  // Each job alone on the nodes it was given (after the schedule), for its slowdown from sharing.
  std::vector<double> isolated_runtimes() const;
  std::uint64_t simulations() const { return simulations_; }
  // Per job whose application has phases (Application::phases, Program::label): when each phase
  // ended, as the last simulation tells: the latest completion of its operations, never before the
  // previous phase's end (so phase k lasted phase_ends[k] - phase_ends[k-1], phase 0 from the start).
  const std::vector<double>& phase_ends(std::uint32_t job) const { return phase_end_[job]; }
  // Per link, over the last simulation (every job started): bytes carried and time busy.
  const std::vector<double>& link_bytes() const { return link_bytes_; }
  const std::vector<double>& link_busy_s() const { return link_busy_s_; }
  // Per job: its application as last simulated (placement and arrival set once it started).
  const std::vector<Application>& applications() const { return app_; }

 private:
  drivers::RunResult simulate(const std::vector<Application>& apps) const;
  // Puts job j's tasks on `nodes` (task order) and its data ranks where the data placer says.
  void place(std::uint32_t j, Application& app, const std::vector<EndpointId>& nodes) const;
  double run_alone(Application app, const std::string& what) const;

  const Network& net_;
  TransportFactory transports_;
  drivers::DriverOptions options_;
  std::vector<Application> app_;  // per job: its programs, placed and timed once it starts
  std::vector<std::uint32_t> started_;
  std::vector<double> end_;
  std::vector<double> link_bytes_, link_busy_s_;
  std::vector<std::vector<double>> phase_end_;
  void record_phases(const drivers::RunResult& r);
  std::uint64_t simulations_ = 0;
  std::unique_ptr<MappingPolicy> mapping_;  // scheduler/mapping.hpp
  const DataPlacer* data_ = nullptr;
  std::uint64_t seed_;
};

// The application of each job: mix[k] for jobs whose key is k modulo the number of specs; the key is
// the job's SWF executable number (field 14) or queue number (field 15) as `by` says, or its position
// (`by` = position, and for jobs without that field).
std::vector<std::string> assign_applications(const std::vector<Job>& jobs, const std::vector<std::string>& mix,
                                             const std::string& by = "executable");

// A synthetic job stream: `count` jobs with Poisson arrivals of mean gap `mean_gap_s`, sizes drawn
// uniformly from `sizes`, and (for the network-agnostic mode) exponential run times of mean
// `mean_runtime_s` with estimate = run time × estimate_factor.
std::vector<Job> synthetic_jobs(std::uint32_t count, double mean_gap_s, const std::vector<std::uint32_t>& sizes,
                                double mean_runtime_s, double estimate_factor, std::uint64_t seed);

}  // namespace interflow::scheduler
