#include "cli/report.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>

#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/system.hpp"
#include "interflow/version.hpp"

namespace interflow::cli {

namespace {

void params_object(JsonWriter& j, const ParamSet& p) {
  j.begin_object();
  for (const auto& [k, v] : p.effective()) j.field(k, v);
  j.end_object();
}

const char* kind_name(VertexKind k) { return k == VertexKind::Endpoint ? "endpoint" : "switch"; }

}  // namespace

void write_summary_json(const StaticRun& run, std::ostream& out) {
  const flow::StaticMetrics& m = run.result.metrics;
  const Network& net = run.topology->network();
  const StaticConfig& c = run.config;
  JsonWriter j(out);
  j.begin_object();
  j.field("interflow_version", kVersion);
  j.field("engine", "static");
  j.field("seed", c.seed);
  j.field("threads", run.threads_used);

  j.key("config").begin_object();
  j.field("topology", run.topology_spec.text);
  j.key("topology_params");
  params_object(j, run.topology_params);
  j.field("routing", run.routing_spec.text);
  j.key("routing_params");
  params_object(j, run.routing_params);
  j.field("pattern", run.pattern_spec.text);
  j.key("pattern_params");
  params_object(j, run.pattern_params);
  j.field("endpoint_gbps", c.links.endpoint_gbps);
  j.field("switch_gbps", c.links.switch_gbps);
  j.field("endpoint_latency_ns", c.links.endpoint_latency_ns);
  j.field("switch_latency_ns", c.links.switch_latency_ns);
  j.field("failures", c.failures);
  j.field("failure_scope", c.failure_scope);
  j.field("max_flows", c.max_flows);
  j.field("max_path_memory_gib", c.max_path_memory_gib);
  j.end_object();

  j.key("network").begin_object();
  j.field("family", run.topology->family());
  j.field("endpoints", net.num_endpoints());
  j.field("switches", net.num_switches());
  j.field("vertices", net.num_vertices());
  j.field("cables", net.num_cables());
  j.field("links", net.num_links());
  j.field("direct", net.direct());
  j.field("links_up", m.links_up);
  j.field("links_down", m.links_down);
  j.field("cables_in_failure_scope", run.failures.cables_in_scope);
  j.field("cables_failed", static_cast<std::uint64_t>(run.failures.failed_links.size()));
  j.key("facts").begin_object();
  for (const auto& f : run.topology->facts()) j.field(f.key, f.value);
  j.end_object();
  j.end_object();

  j.key("flows").begin_object();
  j.field("total", m.flows);
  j.field("routed", m.flows_routed);
  j.field("unroutable", m.flows_unroutable);
  j.field("self", m.flows_self);
  j.field("path_variables", m.path_variables);
  j.field("pattern_self_pairs_dropped", run.pattern_report.self_pairs_dropped);
  j.field("pattern_idle_endpoints", run.pattern_report.idle_endpoints);
  j.field("pattern_note", run.pattern_report.note);
  j.end_object();

  j.key("throughput").begin_object();
  j.field("aggregate_nonrestricted_gbps", m.aggregate_nonrestricted_gbps);
  j.field("aggregate_restricted_gbps", m.aggregate_restricted_gbps);
  j.field("injection_capacity_gbps", m.injection_capacity_gbps);
  j.field("nonrestricted_normalised", m.nonrestricted_normalised);
  j.field("restricted_normalised", m.restricted_normalised);
  j.field("switch_ports", m.switch_ports);
  j.field("nonrestricted_per_port_gbps", m.nonrestricted_per_port_gbps);
  j.field("restricted_per_port_gbps", m.restricted_per_port_gbps);
  j.field("inrflow_bottleneck_throughput", m.inrflow_bottleneck_throughput);
  j.end_object();

  j.key("flow_rate_gbps");
  summary_object(j, m.rate_gbps, true);
  j.field("jain_fairness", m.rate_gbps.jain);
  j.key("path_links");
  summary_object(j, m.path_links, false);
  j.key("paths_per_link");
  summary_object(j, m.paths_per_link, false);
  j.key("link_utilisation").begin_object();
  j.field("mean", m.utilisation.mean);
  j.field("max", m.utilisation.max);
  j.end_object();

  j.key("time_s").begin_object();
  j.field("build", run.build_seconds);
  j.field("pattern", run.pattern_seconds);
  j.field("route", m.route_seconds);
  j.field("solve", m.solve_seconds);
  j.field("total", run.total_seconds);
  j.end_object();
  j.field("solver_bottleneck_steps", m.solver_steps);
  j.field("solver_heap_refreshes", m.solver_refreshes);
  j.field("peak_rss_bytes", peak_rss_bytes());
  j.end_object();
  j.finish();
}

void write_links_csv(const StaticRun& run, std::ostream& out) {
  const Network& net = run.topology->network();
  const flow::StaticResult& r = run.result;
  out << "link_id,src_vertex,dst_vertex,src_kind,dst_kind,capacity_gbps,latency_ns,up,paths,load_gbps,utilisation\n";
  out << std::setprecision(10);
  for (VertexId u = 0; u < net.num_vertices(); ++u) {
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
      const VertexId v = net.target(l);
      const double cap = net.capacity_gbps(l);
      out << l << ',' << u << ',' << v << ',' << kind_name(net.kind(u)) << ',' << kind_name(net.kind(v)) << ',' << cap
          << ',' << net.latency_ns(l) << ',' << (net.up(l) ? 1 : 0) << ',' << r.link_paths[l] << ','
          << r.link_load_gbps[l] << ',' << (cap > 0 && net.up(l) ? r.link_load_gbps[l] / cap : 0.0) << '\n';
    }
  }
}

void write_flows_csv(const StaticRun& run, std::ostream& out) {
  const flow::StaticResult& r = run.result;
  out << "flow_id,src,dst,status,paths,path_links,rate_gbps,bottleneck_link\n";
  out << std::setprecision(10);
  for (FlowId f = 0; f < run.flows.size(); ++f) {
    const bool self = run.flows.src[f] == run.flows.dst[f];
    const bool routed = !self && r.paths.routed(f);
    out << f << ',' << run.flows.src[f] << ',' << run.flows.dst[f] << ','
        << (self     ? "self"
            : routed ? "routed"
                     : "unroutable")
        << ',' << (r.paths.end_var(f) - r.paths.first_var(f)) << ',' << r.flow_path_links[f] << ','
        << r.flow_rate_gbps[f] << ',';
    if (r.flow_bottleneck[f] != kNone) out << r.flow_bottleneck[f];
    out << '\n';
  }
}

void write_results_dir(const StaticRun& run, const std::string& dir, bool flows_csv) {
  const std::filesystem::path base = make_output_dir(dir);
  {
    auto out = open_output(base / "summary.json");
    write_summary_json(run, out);
  }
  {
    auto out = open_output(base / "links.csv");
    write_links_csv(run, out);
  }
  {
    // The effective configuration as an experiment file: `interflow static --config` re-runs it.
    auto out = open_output(base / "config.toml");
    const StaticConfig& c = run.config;
    out << "# interflow " << kVersion << " static run; re-run with: interflow static --config config.toml\n"
        << "topology = " << JsonWriter::escape(run.topology_spec.text) << '\n'
        << "routing = " << JsonWriter::escape(run.routing_spec.text) << '\n'
        << "pattern = " << JsonWriter::escape(run.pattern_spec.text) << '\n'
        << "seed = " << c.seed << '\n'
        << "endpoint-gbps = " << JsonWriter::number(c.links.endpoint_gbps) << '\n'
        << "switch-gbps = " << JsonWriter::number(c.links.switch_gbps) << '\n'
        << "endpoint-latency-ns = " << JsonWriter::number(c.links.endpoint_latency_ns) << '\n'
        << "switch-latency-ns = " << JsonWriter::number(c.links.switch_latency_ns) << '\n'
        << "failures = " << JsonWriter::escape(c.failures) << '\n'
        << "failure-scope = " << JsonWriter::escape(c.failure_scope) << '\n'
        << "max-flows = " << c.max_flows << '\n'
        << "max-path-memory = " << JsonWriter::number(c.max_path_memory_gib) << '\n';
  }
  if (flows_csv) {
    auto out = open_output(base / "flows.csv");
    write_flows_csv(run, out);
  }
}

void print_summary_text(const StaticRun& run, std::ostream& out) {
  const flow::StaticMetrics& m = run.result.metrics;
  const Network& net = run.topology->network();
  char line[256];
  auto row = [&](const char* name, const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out << "  " << std::left << std::setw(34) << name << line << '\n';
  };
  out << "interflow " << kVersion << " static engine, seed " << run.config.seed << ", " << run.threads_used
      << " threads\n";
  out << "  topology " << run.topology_spec.text << " | routing " << run.routing_spec.text << " | pattern "
      << run.pattern_spec.text << '\n';
  row("endpoints / switches / cables", "%u / %u / %u", net.num_endpoints(), net.num_switches(), net.num_cables());
  if (!run.failures.failed_links.empty())
    row("failed cables", "%zu of %llu in scope", run.failures.failed_links.size(),
        static_cast<unsigned long long>(run.failures.cables_in_scope));
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
  row("time build/route/solve/total", "%.3f / %.3f / %.3f / %.3f s", run.build_seconds, m.route_seconds,
      m.solve_seconds, run.total_seconds);
  row("peak memory", "%.1f MiB", static_cast<double>(peak_rss_bytes()) / (1024.0 * 1024.0));
  if (!run.pattern_report.note.empty()) out << "  note: " << run.pattern_report.note << '\n';
}

}  // namespace interflow::cli
