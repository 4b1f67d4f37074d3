#include "cli/report.hpp"

#include <cstdio>
#include <iomanip>

#include "cli/results.hpp"
#include "core/format.hpp"

namespace interflow::cli {

namespace {

const char* kind_name(VertexKind k) { return k == VertexKind::Endpoint ? "endpoint" : "switch"; }

Json network_json(const StaticRun& run) {
  const Network& net = run.setup.topology->network();
  const flow::StaticMetrics& m = run.result.metrics;
  Json j = Json::object();
  j["family"] = run.setup.topology->family();
  j["endpoints"] = net.num_endpoints();
  j["switches"] = net.num_switches();
  j["vertices"] = net.num_vertices();
  j["cables"] = net.num_cables();
  j["links"] = net.num_links();
  j["direct"] = net.direct();
  j["links_up"] = m.links_up;
  j["links_down"] = m.links_down;
  j["cables_in_failure_scope"] = run.setup.failures.cables_in_scope;
  j["cables_failed"] = run.setup.failures.failed_links.size();
  Json facts = Json::object();
  for (const auto& f : run.setup.topology->facts()) facts[f.key] = f.value;
  j["facts"] = std::move(facts);
  return j;
}

Json throughput_json(const flow::StaticMetrics& m) {
  Json j = Json::object();
  j["aggregate_nonrestricted_gbps"] = m.aggregate_nonrestricted_gbps;
  j["aggregate_restricted_gbps"] = m.aggregate_restricted_gbps;
  j["injection_capacity_gbps"] = m.injection_capacity_gbps;
  j["nonrestricted_normalised"] = m.nonrestricted_normalised;
  j["restricted_normalised"] = m.restricted_normalised;
  j["switch_ports"] = m.switch_ports;
  j["nonrestricted_per_port_gbps"] = m.nonrestricted_per_port_gbps;
  j["restricted_per_port_gbps"] = m.restricted_per_port_gbps;
  j["inrflow_bottleneck_throughput"] = m.inrflow_bottleneck_throughput;
  return j;
}

Json memory_json(const StaticRun& run) {
  const flow::MemoryEstimate& m = run.memory;
  Json j = Json::object();
  j["peak_bytes"] = m.peak();
  j["process_bytes"] = m.process;
  j["network_bytes"] = m.network;
  j["flows_bytes"] = m.flow_set;
  j["paths_bytes"] = m.paths;
  j["paths_kept"] = m.paths_kept;
  j["path_runs_bytes"] = m.path_runs;
  j["routing_bytes"] = m.routing;
  j["solver_bytes"] = m.solver;
  j["results_bytes"] = m.results;
  j["sampled_flows"] = m.sampled;
  j["vars_per_flow"] = m.vars_per_flow;
  j["links_per_flow"] = m.links_per_flow;
  j["used_links"] = m.used_links;
  j["available_bytes"] = run.memory_available_bytes;
  return j;
}

double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

Json memory_estimate_summary(const StaticRun& run, const RunHeader& header) {
  Json j = head_json(header);
  j["flows"] = {{"total", run.memory.flows}, {"streamed", run.memory.streamed}};
  j["memory_estimate"] = memory_json(run);
  foot_json(j, {{"build", run.build_seconds}, {"pattern", run.pattern_seconds}, {"total", run.total_seconds}});
  return j;
}

void print_memory_estimate(const StaticRun& run, const RunHeader& header, std::ostream& out) {
  const flow::MemoryEstimate& m = run.memory;
  print_head(out, header);
  char line[512];
  std::snprintf(line, sizeof line, "  %-34s%.1f MiB\n", "memory estimate (peak)", mib(m.peak()));
  out << line;
  std::snprintf(line, sizeof line,
                "  %-34snetwork %.1f, flows %.1f, paths %.1f, then the largest of routing %.1f, solver %.1f, "
                "results %.1f; program %.1f\n",
                "  of which (MiB)", mib(m.network), mib(m.flow_set), mib(m.paths), mib(m.routing), mib(m.solver),
                mib(m.results), mib(m.process));
  out << line;
  if (!m.paths_kept && !m.streamed) {
    std::snprintf(line, sizeof line, "  %-34sfreed for the solve, which reads a run-coded copy of %.1f MiB\n",
                  "  paths", mib(m.path_runs));
    out << line;
  }
  if (m.streamed)
    std::snprintf(line, sizeof line, "  %-34s%llu flows, streamed (none held)\n", "flows",
                  static_cast<unsigned long long>(m.flows));
  else
    std::snprintf(line, sizeof line, "  %-34s%llu flows; a sample of %llu: %.3g paths and %.4g links per flow\n",
                  "flows", static_cast<unsigned long long>(m.flows), static_cast<unsigned long long>(m.sampled),
                  m.vars_per_flow, m.links_per_flow);
  out << line;
  if (run.memory_available_bytes > 0) {
    std::snprintf(line, sizeof line, "  %-34s%.1f MiB\n", "available (MemAvailable)", mib(run.memory_available_bytes));
    out << line;
  }
}

Json static_summary(const StaticRun& run, const RunHeader& header) {
  const flow::StaticMetrics& m = run.result.metrics;
  Json j = head_json(header);
  j["network"] = network_json(run);
  j["flows"] = {{"total", m.flows},
                {"routed", m.flows_routed},
                {"unroutable", m.flows_unroutable},
                {"self", m.flows_self},
                {"path_variables", m.path_variables},
                {"pattern_self_pairs_dropped", run.pattern_report.self_pairs_dropped},
                {"pattern_idle_endpoints", run.pattern_report.idle_endpoints},
                {"pattern_note", run.pattern_report.note}};
  j["throughput"] = throughput_json(m);
  j["flow_rate_gbps"] = summary_json(m.rate_gbps, true);
  j["jain_fairness"] = m.rate_gbps.jain;
  j["path_links"] = summary_json(m.path_links, false);
  j["paths_per_link"] = summary_json(m.paths_per_link, false);
  j["link_utilisation"] = {{"mean", m.utilisation.mean}, {"max", m.utilisation.max}};
  j["solver_bottleneck_steps"] = m.solver_steps;
  j["solver_heap_refreshes"] = m.solver_refreshes;
  j["solver_links"] = m.solver_links;
  j["memory_estimate"] = memory_json(run);
  j["stream"] = {{"streamed", run.streamed},
                 {"reason", run.stream_reason},
                 {"passes", m.stream_passes},
                 {"links_saturated_by_passes", m.stream_levels},
                 {"links_saturated_by_predictions", m.stream_predicted_levels},
                 {"sample_flows", m.stream_sample_flows},
                 {"sample_seconds", m.stream_sample_seconds},
                 {"residual_variables", m.stream_residual_variables},
                 {"pass_flows", m.stream_pass_flows},
                 {"pass_seconds", m.stream_pass_seconds}};
  foot_json(j, {{"build", run.build_seconds},
                {"pattern", run.pattern_seconds},
                {"route", m.route_seconds},
                {"solve", m.solve_seconds},
                {"total", run.total_seconds}});
  return j;
}

void write_links_csv(const StaticRun& run, std::ostream& out) {
  const Network& net = run.setup.topology->network();
  const flow::StaticResult& r = run.result;
  out << "link_id,src_vertex,dst_vertex,src_kind,dst_kind,capacity_gbps,latency_ns,up,paths,load_gbps,utilisation\n";
  for (VertexId u = 0; u < net.num_vertices(); ++u) {
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
      const VertexId v = net.target(l);
      const double cap = net.capacity_gbps(l);
      out << l << ',' << u << ',' << v << ',' << kind_name(net.kind(u)) << ',' << kind_name(net.kind(v)) << ','
          << number_text(cap) << ',' << number_text(net.latency_ns(l)) << ',' << (net.up(l) ? 1 : 0) << ','
          << r.link_paths[l] << ',' << number_text(r.link_load_gbps[l]) << ','
          << number_text(cap > 0 && net.up(l) ? r.link_load_gbps[l] / cap : 0.0) << '\n';
    }
  }
}

void write_flows_csv(const StaticRun& run, std::ostream& out) {
  const flow::StaticResult& r = run.result;
  out << "flow_id,src,dst,status,paths,path_links,rate_gbps,bottleneck_link\n";
  for (FlowId f = 0; f < run.flows.size(); ++f) {
    const bool self = run.flows.src[f] == run.flows.dst[f];
    const bool routed = !self && r.paths.routed(f);
    out << f << ',' << run.flows.src[f] << ',' << run.flows.dst[f] << ','
        << (self     ? "self"
            : routed ? "routed"
                     : "unroutable")
        << ',' << (r.paths.end_var(f) - r.paths.first_var(f)) << ',' << number_text(r.flow_path_links[f]) << ','
        << number_text(r.flow_rate_gbps[f]) << ',';
    if (r.flow_bottleneck[f] != kNone) out << r.flow_bottleneck[f];
    out << '\n';
  }
}

void print_static_summary(const StaticRun& run, const RunHeader& header, std::ostream& out) {
  const flow::StaticMetrics& m = run.result.metrics;
  const Network& net = run.setup.topology->network();
  char line[256];
  auto row = [&](const char* name, const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out << "  " << std::left << std::setw(34) << name << line << '\n';
  };
  print_head(out, header);
  row("endpoints / switches / cables", "%u / %u / %u", net.num_endpoints(), net.num_switches(), net.num_cables());
  if (!run.setup.failures.failed_links.empty())
    row("failed cables", "%zu of %llu in scope", run.setup.failures.failed_links.size(),
        static_cast<unsigned long long>(run.setup.failures.cables_in_scope));
  row("flows routed / unroutable / self", "%llu / %llu / %llu", static_cast<unsigned long long>(m.flows_routed),
      static_cast<unsigned long long>(m.flows_unroutable), static_cast<unsigned long long>(m.flows_self));
  row("aggregate non-restricted", "%.6g Gbit/s (%.4f of injection)", m.aggregate_nonrestricted_gbps,
      m.nonrestricted_normalised);
  row("aggregate restricted", "%.6g Gbit/s (%.4f of injection)", m.aggregate_restricted_gbps, m.restricted_normalised);
  row("per switch port (non-restr.)", "%.6g Gbit/s over %llu ports", m.nonrestricted_per_port_gbps,
      static_cast<unsigned long long>(m.switch_ports));
  row("flow rate min/median/mean/max", "%.6g / %.6g / %.6g / %.6g Gbit/s", m.rate_gbps.min, m.rate_gbps.median,
      m.rate_gbps.mean, m.rate_gbps.max);
  row("Jain fairness", "%.6f", m.rate_gbps.jain);
  row("path links min/mean/max", "%.6g / %.6g / %.6g", m.path_links.min, m.path_links.mean, m.path_links.max);
  row("paths per link min/mean/max", "%.6g / %.6g / %.6g", m.paths_per_link.min, m.paths_per_link.mean,
      m.paths_per_link.max);
  row("link utilisation mean/max", "%.4f / %.4f", m.utilisation.mean, m.utilisation.max);
  row("memory estimate (peak)", "%.1f MiB", mib(run.memory.peak()));
  if (run.streamed)
    row("streamed solve", "%u passes, %llu links saturated by them (%llu predicted), %llu variables solved in memory",
        m.stream_passes, static_cast<unsigned long long>(m.stream_levels),
        static_cast<unsigned long long>(m.stream_predicted_levels),
        static_cast<unsigned long long>(m.stream_residual_variables));
  print_foot(out, {{"build", run.build_seconds}, {"route", m.route_seconds}, {"solve", m.solve_seconds},
                   {"total", run.total_seconds}});
  if (!run.pattern_report.note.empty()) out << "  note: " << run.pattern_report.note << '\n';
}

}  // namespace interflow::cli
