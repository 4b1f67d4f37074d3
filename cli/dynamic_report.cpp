#include "cli/dynamic_report.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <vector>

#include "cli/json.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/stats.hpp"
#include "core/system.hpp"
#include "interflow/version.hpp"

namespace interflow::cli {

namespace {

struct Totals {
  std::uint64_t delivered = 0, self = 0, unroutable = 0, blocked = 0;
  double bytes = 0;
  Summary fct{}, rate{};
};

const char* state_name(FlowState s) {
  switch (s) {
    case FlowState::Delivered:
      return "delivered";
    case FlowState::Self:
      return "self";
    case FlowState::Unroutable:
      return "unroutable";
    case FlowState::Blocked:
      return "blocked";
  }
  return "?";
}

Totals totals(const DynamicRun& run) {
  const TransportResult& r = run.result;
  Totals t;
  std::vector<double> fct, rate;
  for (std::size_t f = 0; f < r.state.size(); ++f) {
    switch (r.state[f]) {
      case FlowState::Delivered:
        ++t.delivered;
        t.bytes += run.workload.bytes[f];
        fct.push_back(r.finish_s[f] - r.start_s[f]);
        if (r.transfer_end_s[f] > r.start_s[f])
          rate.push_back(run.workload.bytes[f] * 8e-9 / (r.transfer_end_s[f] - r.start_s[f]));
        break;
      case FlowState::Self:
        ++t.self;
        break;
      case FlowState::Unroutable:
        ++t.unroutable;
        break;
      case FlowState::Blocked:
        ++t.blocked;
        break;
    }
  }
  t.fct = summarize(fct);
  t.rate = summarize(rate);
  return t;
}

// A CSV cell: the number, or empty for a time that never came (NaN).
std::string num(double v) { return std::isfinite(v) ? JsonWriter::number(v) : std::string(); }

// Per service class: what it delivered, over which span of time, and its flows' completion times.
struct ClassTotals {
  std::uint64_t flows = 0, delivered = 0;
  double bytes = 0, first_start = 0, last_finish = 0, fct_sum = 0, fct_max = 0;
  double throughput_gbps() const {
    return last_finish > first_start ? bytes * 8e-9 / (last_finish - first_start) : 0.0;
  }
  double mean_fct() const { return delivered ? fct_sum / static_cast<double>(delivered) : 0.0; }
};

std::vector<ClassTotals> class_totals(const DynamicRun& run) {
  const TransportResult& r = run.result;
  const auto& classes = run.workload.service_class;
  std::vector<ClassTotals> t;
  for (std::size_t f = 0; f < r.state.size(); ++f) {
    const std::uint32_t c = classes.empty() ? 0 : classes[f];
    if (c >= t.size()) t.resize(c + 1);
    ClassTotals& k = t[c];
    ++k.flows;
    if (r.state[f] != FlowState::Delivered) continue;
    const double fct = r.finish_s[f] - r.start_s[f];
    k.first_start = k.delivered == 0 ? r.start_s[f] : std::min(k.first_start, r.start_s[f]);
    k.last_finish = std::max(k.last_finish, r.finish_s[f]);
    ++k.delivered;
    k.bytes += run.workload.bytes[f];
    k.fct_sum += fct;
    k.fct_max = std::max(k.fct_max, fct);
  }
  return t;
}

void app_fields(JsonWriter& j, const DynamicRun& run, std::size_t a) {
  const Application& app = run.apps[a];
  const drivers::AppResult& ar = run.tasks.apps[a];
  j.field("app", static_cast<std::uint64_t>(a));
  j.field("spec", app.name);
  j.field("tasks", static_cast<std::uint64_t>(app.tasks()));
  j.field("class", static_cast<std::uint64_t>(app.service_class));
  j.field("start_s", ar.start_s);
  j.field("end_s", ar.complete ? ar.end_s : 0.0);
  j.field("runtime_s", ar.complete ? ar.runtime_s() : 0.0);
  j.field("complete", ar.complete);
  j.field("messages", ar.messages);
  j.field("bytes", ar.bytes);
  j.field("mean_message_latency_s", ar.mean_latency_s);
  j.field("max_message_latency_s", ar.max_latency_s);
  j.field("median_message_latency_s", ar.median_latency_s);
  j.field("p99_message_latency_s", ar.p99_latency_s);
  j.field("compute_s", ar.compute_s);
}

}  // namespace

void write_dynamic_summary_json(const DynamicRun& run, std::ostream& out) {
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  const Totals t = totals(run);
  JsonWriter j(out);
  j.begin_object();
  j.field("interflow_version", kVersion);
  j.field("engine", "dynamic");
  j.field("seed", run.config.network.seed);
  j.field("threads", run.threads_used);
  j.key("config").begin_object();
  j.field("topology", run.setup.topology_spec.text);
  j.field("routing", run.setup.routing_spec.text);
  j.field("workload", run.workload_text);
  j.field("endpoint_gbps", run.config.network.links.endpoint_gbps);
  j.field("switch_gbps", run.config.network.links.switch_gbps);
  j.field("failures", run.config.network.failures);
  j.end_object();
  j.key("network").begin_object();
  j.field("family", run.setup.topology->family());
  j.field("endpoints", net.num_endpoints());
  j.field("switches", net.num_switches());
  j.field("cables", net.num_cables());
  j.field("cables_failed", static_cast<std::uint64_t>(run.setup.failures.failed_links.size()));
  j.end_object();
  j.key("flows").begin_object();
  j.field("total", static_cast<std::uint64_t>(r.state.size()));
  j.field("delivered", t.delivered);
  j.field("self", t.self);
  j.field("unroutable", t.unroutable);
  j.field("blocked", t.blocked);
  j.field("bytes_delivered", t.bytes);
  j.field("path_variables", static_cast<std::uint64_t>(r.paths.num_vars()));
  j.end_object();
  j.field("makespan_s", r.makespan_s);
  j.field("mean_throughput_gbps", r.makespan_s > 0 ? t.bytes * 8e-9 / r.makespan_s : 0.0);
  j.field("policy", run.config.policy);
  j.key("classes").begin_array();
  const std::vector<ClassTotals> per_class = class_totals(run);
  for (std::size_t c = 0; c < per_class.size(); ++c) {
    const ClassTotals& k = per_class[c];
    j.begin_object();
    j.field("class", static_cast<std::uint64_t>(c));
    j.field("flows", k.flows);
    j.field("delivered", k.delivered);
    j.field("bytes_delivered", k.bytes);
    j.field("first_start_s", k.first_start);
    j.field("last_finish_s", k.last_finish);
    j.field("throughput_gbps", k.throughput_gbps());
    j.field("mean_completion_s", k.mean_fct());
    j.field("max_completion_s", k.fct_max);
    j.end_object();
  }
  j.end_array();
  if (!run.apps.empty()) {
    j.key("applications").begin_array();
    for (std::size_t a = 0; a < run.apps.size(); ++a) {
      j.begin_object();
      app_fields(j, run, a);
      j.end_object();
    }
    j.end_array();
    j.field("cpu_scale", run.config.cpu_scale);
    j.field("max_in_flight", static_cast<std::uint64_t>(run.config.max_in_flight));
    j.field("blocked_tasks", static_cast<std::uint64_t>(run.tasks.blocked.size()));
    j.field("unreceived_messages", run.tasks.unreceived_messages);
  }
  j.key("flow_completion_s");
  summary_object(j, t.fct, true);
  j.key("flow_rate_gbps");
  summary_object(j, t.rate, true);
  j.key("simulation").begin_object();
  j.field("batches", r.batches);
  j.field("events", r.events);
  j.field("events_per_second", r.simulate_seconds > 0 ? static_cast<double>(r.events) / r.simulate_seconds : 0.0);
  j.field("solver_rounds", r.solver_rounds);
  j.field("solved_variables_per_batch",
          r.batches ? static_cast<double>(r.solved_vars) / static_cast<double>(r.batches) : 0.0);
  j.field("changed_variables", r.changed_vars);
  j.field("solve_share", r.simulate_seconds > 0 ? r.solve_seconds / r.simulate_seconds : 0.0);
  j.end_object();
  j.key("time_s").begin_object();
  j.field("build", run.build_seconds);
  j.field("workload", run.workload_seconds);
  j.field("route", r.route_seconds);
  j.field("simulate", r.simulate_seconds);
  j.field("solve", r.solve_seconds);
  j.field("total", run.total_seconds);
  j.end_object();
  j.field("peak_rss_bytes", peak_rss_bytes());
  j.end_object();
  j.finish();
}

void print_dynamic_summary_text(const DynamicRun& run, std::ostream& out) {
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  const Totals t = totals(run);
  out << "interflow " << kVersion << " dynamic engine, seed " << run.config.network.seed << ", " << run.threads_used
      << " threads\n";
  out << "  topology " << run.setup.topology_spec.text << " | routing " << run.setup.routing_spec.text << '\n';
  out << "  workload " << run.workload_text << '\n';
  out << "  endpoints / switches / cables     " << net.num_endpoints() << " / " << net.num_switches() << " / "
      << net.num_cables() << '\n';
  out << "  flows delivered / self / unroutable / blocked  " << t.delivered << " / " << t.self << " / " << t.unroutable
      << " / " << t.blocked << '\n';
  out << "  makespan                          " << r.makespan_s << " s\n";
  out << "  mean throughput                   " << (r.makespan_s > 0 ? t.bytes * 8e-9 / r.makespan_s : 0.0)
      << " Gbit/s\n";
  out << "  flow completion min/median/mean/max  " << t.fct.min << " / " << t.fct.median << " / " << t.fct.mean << " / "
      << t.fct.max << " s\n";
  for (std::size_t a = 0; a < run.apps.size(); ++a) {
    const drivers::AppResult& ar = run.tasks.apps[a];
    out << "  app " << a << " " << run.apps[a].name << ": " << run.apps[a].tasks() << " tasks, ";
    if (ar.complete)
      out << "runtime " << ar.runtime_s() << " s (from " << ar.start_s << " s)";
    else
      out << "DID NOT FINISH";
    out << ", " << ar.messages << " messages, latency mean/max " << ar.mean_latency_s << " / " << ar.max_latency_s
        << " s\n";
  }
  if (!run.tasks.blocked.empty()) out << "  blocked tasks                     " << run.tasks.blocked.size() << '\n';
  const std::vector<ClassTotals> per_class = class_totals(run);
  if (per_class.size() > 1)
    for (std::size_t c = 0; c < per_class.size(); ++c)
      out << "  class " << c << " (policy " << run.config.policy << ")  flows " << per_class[c].delivered
          << ", throughput " << per_class[c].throughput_gbps() << " Gbit/s, completion mean/max "
          << per_class[c].mean_fct() << " / " << per_class[c].fct_max << " s\n";
  out << "  events / batches                  " << r.events << " / " << r.batches << " ("
      << (r.simulate_seconds > 0 ? static_cast<double>(r.events) / r.simulate_seconds : 0.0) << " events/s)\n";
  out << "  re-solved variables per batch     "
      << (r.batches ? static_cast<double>(r.solved_vars) / static_cast<double>(r.batches) : 0.0) << " (solver "
      << std::fixed << std::setprecision(0)
      << (r.simulate_seconds > 0 ? 100 * r.solve_seconds / r.simulate_seconds : 0.0) << " % of the simulation)\n";
  out << std::setprecision(3) << "  time build/route/simulate/total   " << run.build_seconds << " / " << r.route_seconds
      << " / " << r.simulate_seconds << " / " << run.total_seconds << " s\n";
  out << "  peak memory                       " << std::setprecision(1)
      << static_cast<double>(peak_rss_bytes()) / (1 << 20) << " MiB\n";
  out.unsetf(std::ios::fixed);
}

void write_dynamic_results_dir(const DynamicRun& run, const std::string& dir, bool flows_csv) {
  const std::filesystem::path base = make_output_dir(dir);
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  {
    auto out = open_output(base / "summary.json");
    write_dynamic_summary_json(run, out);
  }
  {
    auto out = open_output(base / "links.csv");
    out << "link_id,src_vertex,dst_vertex,capacity_gbps,up,bytes,busy_s,utilisation\n";
    for (LinkId l = 0; l < net.num_links(); ++l) {
      const double capacity_bits = static_cast<double>(net.capacity_gbps(l)) * 1e9 * r.makespan_s;
      out << l << ',' << net.source(l) << ',' << net.target(l) << ',' << net.capacity_gbps(l) << ',' << int(net.up(l))
          << ',' << JsonWriter::number(r.link_bytes[l]) << ',' << JsonWriter::number(r.link_busy_s[l]) << ','
          << JsonWriter::number(capacity_bits > 0 ? r.link_bytes[l] * 8 / capacity_bits : 0.0) << '\n';
    }
  }
  {
    auto out = open_output(base / "series.csv");
    out << "start_s,end_s,throughput_gbps,active_flows\n";
    for (std::size_t b = 0; b < r.series_gbps.size(); ++b)
      out << JsonWriter::number(static_cast<double>(b) * r.bin_s) << ','
          << JsonWriter::number(static_cast<double>(b + 1) * r.bin_s) << ',' << JsonWriter::number(r.series_gbps[b])
          << ',' << JsonWriter::number(r.series_active[b]) << '\n';
  }
  if (!run.apps.empty()) {
    auto out = open_output(base / "apps.csv");
    out << "app,spec,tasks,class,start_s,end_s,runtime_s,complete,messages,bytes,mean_message_latency_s,"
           "max_message_latency_s,median_message_latency_s,p99_message_latency_s,compute_s\n";
    for (std::size_t a = 0; a < run.apps.size(); ++a) {
      const drivers::AppResult& ar = run.tasks.apps[a];
      out << a << ",\"" << run.apps[a].name << "\"," << run.apps[a].tasks() << ',' << run.apps[a].service_class << ','
          << num(ar.start_s) << ',' << num(ar.end_s) << ',' << num(ar.runtime_s()) << ',' << int(ar.complete) << ','
          << ar.messages << ',' << JsonWriter::number(ar.bytes) << ',' << num(ar.mean_latency_s) << ','
          << num(ar.max_latency_s) << ',' << num(ar.median_latency_s) << ',' << num(ar.p99_latency_s) << ','
          << num(ar.compute_s) << '\n';
    }
    auto tasks = open_output(base / "tasks.csv");
    tasks << "app,task,endpoint,finish_s,compute_s,comm_wait_s\n";
    for (std::size_t a = 0; a < run.apps.size(); ++a)
      for (std::uint32_t t = 0; t < run.apps[a].tasks(); ++t) {
        const std::uint32_t g = run.tasks.task_offset[a] + t;
        const double finish = run.tasks.task_finish_s[g];
        tasks << a << ',' << t << ',' << run.apps[a].placement[t] << ',' << num(finish) << ','
              << JsonWriter::number(run.tasks.task_compute_s[g]) << ','
              << num(finish - run.tasks.apps[a].start_s - run.tasks.task_compute_s[g]) << '\n';
      }
    if (!run.tasks.blocked.empty()) {
      auto blocked = open_output(base / "blocked.csv");
      blocked << "app,task,op,reason\n";
      for (const drivers::BlockedTask& b : run.tasks.blocked)
        blocked << b.app << ',' << b.task << ',' << b.op << ",\"" << b.reason << "\"\n";
    }
  }
  if (flows_csv) {
    auto out = open_output(base / "flows.csv");
    out << "flow,src,dst,bytes,class,state,start_s,transfer_end_s,finish_s,completion_s,paths\n";
    for (std::size_t f = 0; f < r.state.size(); ++f) {
      out << f << ',' << run.workload.flows.src[f] << ',' << run.workload.flows.dst[f] << ','
          << JsonWriter::number(run.workload.bytes[f]) << ','
          << (run.workload.service_class.empty() ? 0u : run.workload.service_class[f]) << ',' << state_name(r.state[f])
          << ',' << num(r.start_s[f]) << ',' << num(r.transfer_end_s[f]) << ',' << num(r.finish_s[f]) << ','
          << num(r.finish_s[f] - r.start_s[f]) << ','
          << r.paths.end_var(static_cast<FlowId>(f)) - r.paths.first_var(static_cast<FlowId>(f)) << '\n';
    }
  }
}

}  // namespace interflow::cli

namespace interflow::cli {

void print_deadlock_report(const DynamicRun& run, std::ostream& out) {
  const auto& blocked = run.tasks.blocked;
  out << "interflow: deadlock: " << blocked.size() << " task(s) wait forever";
  if (!run.apps.empty() && blocked.size() > 20) out << " (the first 20; all in blocked.csv with --out)";
  out << '\n';
  for (std::size_t i = 0; i < blocked.size() && i < 20; ++i)
    out << "  app " << blocked[i].app << " task " << blocked[i].task << " at operation " << blocked[i].op << ": "
        << blocked[i].reason << '\n';
}

}  // namespace interflow::cli
