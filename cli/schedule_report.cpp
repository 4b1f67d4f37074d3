#include "cli/schedule_report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>

#include "core/format.hpp"

namespace interflow::cli {

namespace {

Timings timings(const ScheduleRun& run) { return {{"read", run.read_seconds}, {"simulate", run.simulate_seconds}}; }

Json storage_json(const ScheduleRun& run) {
  storage::JobIo total;
  for (const storage::JobIo& io : run.job_io) {
    total.read_local += io.read_local;
    total.read_remote += io.read_remote;
    total.written_local += io.written_local;
    total.written_remote += io.written_remote;
    total.requests += io.requests;
  }
  return {{"data_placement", run.placement_spec.text},
          {"nvm_devices", run.storage->has_nvm() ? run.storage->nodes() : 0},
          {"servers", run.storage->servers()},
          {"gateways", run.storage->gateways()},
          {"class_policy", run.config.class_policy},
          {"bytes_read_local", total.read_local},
          {"bytes_read_remote", total.read_remote},
          {"bytes_written_local", total.written_local},
          {"bytes_written_remote", total.written_remote},
          {"bytes_requested", total.requests}};
}

void write_devices(const ScheduleRun& run, std::ostream& out) {
  out << "device,kind,node_or_server,endpoint,bytes_read,bytes_written,busy_read_s,busy_write_s\n";
  for (std::size_t d = 0; d < run.storage->devices().size(); ++d) {
    const storage::Device& dev = run.storage->devices()[d];
    const auto at = [&](const std::vector<double>& v, LinkId l) { return l < v.size() ? v[l] : 0.0; };
    out << d << ',' << (dev.kind == storage::DeviceKind::Nvm ? "nvm" : "server") << ',' << dev.index << ','
        << dev.endpoint << ',' << number_text(at(run.link_bytes, dev.read_link)) << ','
        << number_text(at(run.link_bytes, dev.write_link)) << ',' << number_text(at(run.link_busy_s, dev.read_link))
        << ',' << number_text(at(run.link_busy_s, dev.write_link)) << '\n';
  }
}

// When step k of job j began and ended (NaN for a job that never ran).
std::pair<double, double> step_times(const ScheduleRun& run, std::size_t j, std::size_t k) {
  const std::vector<double>& end = run.phase_ends[j];
  if (k >= end.size()) return {std::nan(""), std::nan("")};
  return {k == 0 ? run.result.jobs[j].start : end[k - 1], end[k]};
}

void write_trajectories(const ScheduleRun& run, std::ostream& out) {
  out << "job,step,state,start_s,end_s\n";
  const std::vector<scheduler::Job>& jobs = run.stream.set.jobs;
  for (std::size_t j = 0; j < run.applications.size(); ++j)
    for (std::size_t k = 0; k < run.applications[j].phases.size(); ++k) {
      const auto [start, end] = step_times(run, j, k);
      out << jobs[j].id << ',' << k << ',' << run.applications[j].phases[k] << ',' << number_text(start) << ','
          << number_text(end) << '\n';
    }
}

// The phase names of every job: the Markov states in their order, then any other in order of first
// appearance (so the columns do not depend on which states a run happened to visit first).
std::vector<std::string> phase_names(const ScheduleRun& run) {
  std::vector<std::string> seen, names;
  for (const Application& a : run.applications)
    for (const std::string& p : a.phases)
      if (std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p);
  for (const char* state : {"init", "comp", "comm", "read", "write", "end"})
    if (std::find(seen.begin(), seen.end(), state) != seen.end()) names.emplace_back(state);
  for (const Application& a : run.applications)
    for (const std::string& p : a.phases)
      if (std::find(names.begin(), names.end(), p) == names.end()) names.push_back(p);
  return names;
}

// Job j's time in each named phase, summed over its steps.
std::vector<double> time_in_phases(const ScheduleRun& run, std::size_t j, const std::vector<std::string>& names) {
  std::vector<double> out(names.size(), run.phase_ends[j].empty() ? std::nan("") : 0.0);
  const std::vector<std::string>& phases = run.applications[j].phases;
  for (std::size_t k = 0; k < phases.size() && k < run.phase_ends[j].size(); ++k) {
    const auto [start, end] = step_times(run, j, k);
    out[static_cast<std::size_t>(std::find(names.begin(), names.end(), phases[k]) - names.begin())] += end - start;
  }
  return out;
}

bool any_phases(const ScheduleRun& run) {
  for (const Application& a : run.applications)
    if (!a.phases.empty()) return true;
  return false;
}

}  // namespace

Json schedule_summary(const ScheduleRun& run, const RunHeader& header) {
  const scheduler::ScheduleSummary& m = run.result.summary;
  const scheduler::JobSet& set = run.stream.set;
  Json j = head_json(header);
  j["source"] = run.stream.description;
  j["nodes"] = run.nodes;
  j["jobs"] = {{"in_log", set.jobs.size() + set.dropped},
               {"dropped", set.dropped},
               {"repaired", set.repaired},
               {"scheduled", m.completed},
               {"refused", m.refused}};
  j["makespan_s"] = m.makespan;
  j["first_submit_s"] = m.first_submit;
  j["last_end_s"] = m.last_end;
  j["mean_wait_s"] = m.mean_wait;
  j["median_wait_s"] = m.median_wait;
  j["max_wait_s"] = m.max_wait;
  j["mean_response_s"] = m.mean_response;
  j["mean_runtime_s"] = m.mean_runtime;
  j["mean_slowdown"] = m.mean_slowdown;
  j["mean_bounded_slowdown"] = m.mean_bounded_slowdown;
  j["max_bounded_slowdown"] = m.max_bounded_slowdown;
  j["utilisation"] = m.utilisation;
  j["throughput_jobs_per_hour"] = m.throughput_per_hour;
  j["scheduling_points"] = run.result.scheduling_points;
  if (run.setup) {
    j["mean_network_slowdown"] = run.mean_network_slowdown;
    j["simulations"] = run.simulations;
    j["transport"] = run.config.transport;
    if (run.packet && !run.zoom) j["packet"] = packet_network_json(*run.packet);
    if (run.zoom) j["zoom"] = {{"selection", run.zoom_spec.text}, {"tolerance", run.config.zoom.tolerance}};
    if (run.storage) j["storage"] = storage_json(run);
  }
  foot_json(j, timings(run));
  return j;
}

void print_schedule_summary(const ScheduleRun& run, const RunHeader& header, std::ostream& out) {
  const scheduler::ScheduleSummary& m = run.result.summary;
  const scheduler::JobSet& set = run.stream.set;
  const auto row = [&](const std::string& name) -> std::ostream& {
    return out << "  " << std::left << std::setw(34) << (name + " ");
  };
  print_head(out, header);
  out << "  " << run.stream.description << ": " << set.jobs.size() + set.dropped << " jobs, " << set.dropped
      << " dropped, " << set.repaired << " repaired, " << m.refused << " refused; " << run.nodes << " nodes\n";
  row("makespan") << m.makespan << " s\n";
  row("wait mean/median/max") << m.mean_wait << " / " << m.median_wait << " / " << m.max_wait << " s\n";
  row("response mean") << m.mean_response << " s\n";
  row("run time mean") << m.mean_runtime << " s\n";
  row("slowdown mean") << m.mean_slowdown << "\n";
  row("bounded slowdown mean/max") << m.mean_bounded_slowdown << " / " << m.max_bounded_slowdown << " (tau "
                                   << run.config.bsld_tau << " s)\n";
  row("utilisation") << m.utilisation << "\n";
  row("throughput") << m.throughput_per_hour << " jobs/hour\n";
  if (run.setup)
    row("network slowdown mean") << run.mean_network_slowdown << " (run time / alone on its nodes, "
                                 << run.simulations << " simulations on the " << run.config.transport
                                 << " transport)\n";
  if (run.storage) {
    const Json st = storage_json(run);
    row("storage read local/remote") << st["bytes_read_local"].get<double>() << " / "
                                     << st["bytes_read_remote"].get<double>() << " bytes\n";
    row("storage written local/remote") << st["bytes_written_local"].get<double>() << " / "
                                        << st["bytes_written_remote"].get<double>() << " bytes\n";
  }
  print_foot(out, timings(run));
}

void write_schedule_files(const ScheduleRun& run, const ResultsDir& dir) {
  const scheduler::ScheduleResult& r = run.result;
  const std::vector<scheduler::Job>& jobs = run.stream.set.jobs;
  const std::vector<storage::JobIo>& io = run.job_io;
  const std::vector<std::string> phases = phase_names(run);
  dir.write("jobs.csv", [&](std::ostream& out) {
    out << "job,submit_s,start_s,end_s,processors,nodes,first_node,estimate_s,runtime_s,wait_s,response_s,"
           "bounded_slowdown,refused,isolated_runtime_s,network_slowdown"
        << (run.storage ? ",bytes_read_local,bytes_read_remote,bytes_written_local,bytes_written_remote" : "");
    for (const std::string& p : phases) out << ",time_" << p << "_s";
    out << '\n';
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const scheduler::Job& job = jobs[k];
      const scheduler::JobOutcome& o = r.jobs[k];
      out << job.id << ',' << number_text(job.submit) << ',' << number_text(o.start) << ',' << number_text(o.end)
          << ',' << job.processors << ',' << job.nodes << ','
          << (o.refused ? std::string() : std::to_string(o.first_node)) << ',' << number_text(job.estimate) << ','
          << number_text(o.runtime()) << ',' << number_text(o.start - job.submit) << ','
          << number_text(o.end - job.submit) << ','
          << (o.refused ? std::string() : number_text(scheduler::bounded_slowdown(job, o, run.config.bsld_tau)))
          << ',' << int(o.refused) << ',' << (run.setup ? number_text(run.isolated[k]) : std::string()) << ','
          << (run.setup ? number_text(scheduler::network_slowdown(o, run.isolated[k])) : std::string());
      if (run.storage)
        out << ',' << number_text(io[k].read_local) << ',' << number_text(io[k].read_remote) << ','
            << number_text(io[k].written_local) << ',' << number_text(io[k].written_remote);
      if (!phases.empty())
        for (double seconds : time_in_phases(run, k, phases)) out << ',' << number_text(seconds);
      out << '\n';
    }
  });
  if (run.storage) dir.write("devices.csv", [&](std::ostream& out) { write_devices(run, out); });
  if (any_phases(run)) dir.write("trajectories.csv", [&](std::ostream& out) { write_trajectories(run, out); });
  dir.write("utilisation.csv", [&](std::ostream& out) {
    out << "start_s,end_s,utilisation\n";
    for (std::size_t b = 0; b < r.utilisation_series.size(); ++b)
      out << number_text(r.summary.first_submit + static_cast<double>(b) * r.bin_s) << ','
          << number_text(r.summary.first_submit + static_cast<double>(b + 1) * r.bin_s) << ','
          << number_text(r.utilisation_series[b]) << '\n';
  });
}

}  // namespace interflow::cli
