#include "scheduler/network_aware.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.hpp"
#include "core/random.hpp"

namespace interflow::scheduler {

namespace {

Application build(const workloads::AppRegistry& apps, const workloads::AppSettings& settings, const std::string& spec,
                  std::uint32_t tasks, std::uint32_t index) {
  workloads::EndpointPool pool(tasks);  // placement is set when the job starts
  const std::string text = spec + (spec.find(':') == std::string::npos ? ":" : ",") + "tasks=" + std::to_string(tasks);
  return workloads::make_application(apps, Spec::parse(text, "job application"), index, pool, settings);
}

}  // namespace

drivers::RunResult NetworkRunner::simulate(const std::vector<Application>& apps) const {
  const std::unique_ptr<Transport> transport = transports_();
  return drivers::Driver(net_, *transport, options_).run(apps);
}

double NetworkRunner::run_alone(Application app, const std::string& what) const {
  app.arrival_s = 0;
  const drivers::RunResult r = simulate({app});
  if (!r.apps[0].complete) throw InputError(what + ": its application does not run to completion");
  return r.apps[0].runtime_s();
}

NetworkRunner::NetworkRunner(const Network& net, TransportFactory transports, const workloads::AppRegistry& apps,
                             const workloads::AppSettings& settings, const std::vector<Job>& jobs,
                             const std::vector<std::string>& job_apps, std::uint32_t machine_nodes,
                             const drivers::DriverOptions& options, std::unique_ptr<MappingPolicy> mapping,
                             std::uint64_t seed)
    : net_(net),
      transports_(std::move(transports)),
      options_(options),
      end_(jobs.size(), 0),
      phase_end_(jobs.size()),
      mapping_(std::move(mapping)),
      seed_(seed) {
  if (job_apps.size() != jobs.size()) throw std::logic_error("NetworkRunner: one application spec per job");
  if (!mapping_) throw std::logic_error("NetworkRunner: no mapping policy");
  if (machine_nodes > net.num_endpoints())
    throw InputError("the machine's " + std::to_string(machine_nodes) + " nodes are more than the network's " +
                     std::to_string(net.num_endpoints()) + " endpoints");
  app_.reserve(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].nodes == 0 || jobs[j].nodes > machine_nodes) {  // refused by the scheduler: never runs
      app_.emplace_back();
      continue;
    }
    app_.push_back(build(apps, settings, job_apps[j], jobs[j].nodes, static_cast<std::uint32_t>(j)));
    if (!app_.back().program.label.empty()) options_.record_operations = true;  // for phase_ends()
  }
}

void NetworkRunner::place(std::uint32_t j, Application& app, const std::vector<EndpointId>& nodes) const {
  app.placement = nodes;
  app.placement.resize(app.tasks(), kNone);
  if (app.data_ranks == 0) return;
  if (!data_)
    throw InputError("job at position " + std::to_string(j) + " (" + app.name +
                     ") keeps data in storage: give a storage system and a data placement policy (--data-placement)");
  Rng rng(derive_seed(seed_, Stream::Placement, (std::uint64_t{1} << 40) + j));
  data_->place(j, app, rng);
}

void NetworkRunner::set_estimates(std::vector<Job>& jobs, double estimate_factor) const {
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (app_[j].placement.empty()) continue;  // no application: refused
    Application alone = app_[j];
    std::vector<EndpointId> first(alone.compute_tasks());
    for (std::uint32_t t = 0; t < first.size(); ++t) first[t] = t;
    place(static_cast<std::uint32_t>(j), alone, first);
    const double reference = run_alone(alone, "job " + std::to_string(jobs[j].id));
    jobs[j].runtime = reference;
    jobs[j].estimate = reference * estimate_factor;
  }
}

bool NetworkRunner::start(double now, const std::vector<std::uint32_t>& started,
                          const std::vector<std::vector<std::uint32_t>>& nodes) {
  for (std::uint32_t j : started) {
    std::vector<EndpointId> placement(nodes[j].begin(), nodes[j].end());
    std::sort(placement.begin(), placement.end());
    Rng rng(derive_seed(seed_, Stream::Placement, j));
    mapping_->map(j, placement, rng);
    place(j, app_[j], placement);
    app_[j].arrival_s = now;
    started_.push_back(j);
  }
  std::vector<Application> apps;
  apps.reserve(started_.size());
  for (std::uint32_t j : started_) apps.push_back(app_[j]);
  drivers::RunResult r = simulate(apps);
  ++simulations_;
  if (options_.record_operations) record_phases(r);
  link_bytes_ = std::move(r.flows.link_bytes);
  link_busy_s_ = std::move(r.flows.link_busy_s);
  for (std::size_t k = 0; k < started_.size(); ++k) {
    if (!r.apps[k].complete)
      throw InputError("job at position " + std::to_string(started_[k]) + ": its application does not complete");
    end_[started_[k]] = r.apps[k].end_s;
  }
  return true;
}

void NetworkRunner::record_phases(const drivers::RunResult& r) {
  for (std::size_t k = 0; k < started_.size(); ++k) {
    const Application& app = app_[started_[k]];
    const Program& p = app.program;
    if (app.is_graph() || p.label.empty()) continue;
    // The graph form has, per task in order, its operations but waits, then one join (append_program).
    std::vector<double> end(app.phases.size(), app.arrival_s);
    std::uint64_t op = r.op_base[k];
    for (std::uint32_t t = 0; t < p.tasks; ++t) {
      for (std::uint64_t i = p.offsets[t]; i < p.offsets[t + 1]; ++i) {
        if (p.kind[i] == OpKind::Wait) continue;
        const double done = r.op_done_s[op++];
        if (p.label[i] < end.size() && done > end[p.label[i]]) end[p.label[i]] = done;
      }
      ++op;  // the join
    }
    if (k + 1 < r.op_base.size() && op != r.op_base[k + 1])
      throw std::logic_error("NetworkRunner: a program's operations do not match its graph form");
    for (std::size_t s = 1; s < end.size(); ++s) end[s] = std::max(end[s], end[s - 1]);
    phase_end_[started_[k]] = std::move(end);
  }
}

std::vector<double> NetworkRunner::isolated_runtimes() const {
  std::vector<double> out(app_.size(), std::nan(""));
  for (std::uint32_t j : started_) out[j] = run_alone(app_[j], "job");
  return out;
}

std::vector<std::string> assign_applications(const std::vector<Job>& jobs, const std::vector<std::string>& mix,
                                             const std::string& by) {
  if (mix.empty()) throw InputError("network-aware scheduling needs at least one job application (--job-app)");
  if (by != "executable" && by != "queue" && by != "position")
    throw InputError("--job-app-by '" + by + "': expected executable, queue or position");
  std::vector<std::string> out;
  out.reserve(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const std::int64_t field = by == "executable" ? jobs[j].executable : by == "queue" ? jobs[j].queue : -1;
    const std::uint64_t key = field >= 0 ? static_cast<std::uint64_t>(field) : j;
    out.push_back(mix[key % mix.size()]);
  }
  return out;
}

std::vector<Job> synthetic_jobs(std::uint32_t count, double mean_gap_s, const std::vector<std::uint32_t>& sizes,
                                double mean_runtime_s, double estimate_factor, std::uint64_t seed) {
  if (sizes.empty()) throw InputError("synthetic jobs: no job sizes given");
  if (!(mean_gap_s >= 0) || !(mean_runtime_s >= 0)) throw InputError("synthetic jobs: times must be >= 0");
  Rng rng(derive_seed(seed, Stream::Jobs, 0));
  std::vector<Job> jobs(count);
  double t = 0;
  for (std::uint32_t j = 0; j < count; ++j) {
    Job& job = jobs[j];
    job.id = j + 1;
    if (j > 0) t += -std::log(1.0 - rng.uniform()) * mean_gap_s;
    job.submit = t;
    job.nodes = job.processors = sizes[rng.below(sizes.size())];
    job.runtime = -std::log(1.0 - rng.uniform()) * mean_runtime_s;
    job.estimate = job.runtime * estimate_factor;
    job.line = j + 1;
  }
  return jobs;
}

}  // namespace interflow::scheduler
