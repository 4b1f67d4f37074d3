#include "cli/dynamic_report.hpp"

#include <cmath>
#include <iomanip>
#include <vector>

#include "core/format.hpp"
#include "core/system.hpp"
#include "core/text_buffer.hpp"
#include "engine/drivers/metrics.hpp"

namespace interflow::cli {

namespace {

// A CSV cell: the number, or empty for a time that never came (NaN).
std::string num(double v) { return number_text(v); }

drivers::FlowTotals totals(const DynamicRun& run) { return drivers::flow_totals(run.result, run.workload.bytes); }

std::vector<drivers::ClassTotals> per_class(const DynamicRun& run) {
  return drivers::class_totals(run.result, run.workload.bytes, run.workload.service_class);
}

Json classes_json(const DynamicRun& run) {
  Json a = Json::array();
  const std::vector<drivers::ClassTotals> classes = per_class(run);
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const drivers::ClassTotals& k = classes[c];
    a.push_back({{"class", c},
                 {"flows", k.flows},
                 {"delivered", k.delivered},
                 {"bytes_delivered", k.bytes},
                 {"first_start_s", k.first_start_s},
                 {"last_finish_s", k.last_finish_s},
                 {"throughput_gbps", k.throughput_gbps()},
                 {"mean_completion_s", k.mean_completion_s()},
                 {"max_completion_s", k.completion_max_s}});
  }
  return a;
}

Json app_json(const DynamicRun& run, std::size_t a) {
  const Application& app = run.apps[a];
  const drivers::AppResult& ar = run.tasks.apps[a];
  return {{"app", a},
          {"spec", app.name},
          {"tasks", app.tasks()},
          {"class", app.service_class},
          {"start_s", ar.start_s},
          {"end_s", ar.complete ? ar.end_s : 0.0},
          {"runtime_s", ar.complete ? ar.runtime_s() : 0.0},
          {"complete", ar.complete},
          {"messages", ar.messages},
          {"bytes", ar.bytes},
          {"mean_message_latency_s", ar.mean_latency_s},
          {"max_message_latency_s", ar.max_latency_s},
          {"median_message_latency_s", ar.median_latency_s},
          {"p99_message_latency_s", ar.p99_latency_s},
          {"compute_s", ar.compute_s}};
}

double solved_per_batch(const TransportResult& r) {
  return r.batches ? static_cast<double>(r.solved_vars) / static_cast<double>(r.batches) : 0.0;
}

Json simulation_json(const TransportResult& r) {
  const bool switched = r.groups_from_s >= 0;
  return {{"rate_solver", r.rate_solver.empty() ? Json(nullptr) : Json(r.rate_solver)},
          {"groups_from_s", switched ? Json(r.groups_from_s) : Json(nullptr)},
          {"groups_from_batch", switched ? Json(r.groups_from_batch) : Json(nullptr)},
          {"solver_switches", r.solver_switches},
          {"batches_over_groups", r.batches_over_groups},
          {"group_clocked_transfers", r.group_clocked},
          {"mix_clocked_transfers", r.mix_clocked},
          {"batches", r.batches},
          {"events", r.events},
          {"events_per_second", r.simulate_seconds > 0 ? static_cast<double>(r.events) / r.simulate_seconds : 0.0},
          {"solver_rounds", r.solver_rounds},
          {"solved_variables_per_batch", solved_per_batch(r)},
          {"changed_variables", r.changed_vars},
          {"whole_solves_for_weight_spread", r.spread_solves},
          {"solve_share", r.simulate_seconds > 0 ? r.solve_seconds / r.simulate_seconds : 0.0},
          {"batch_tolerance", r.batch_tolerance},
          {"transfers_ended_early", r.ended_early},
          {"largest_early_end_s", r.max_early_s},
          {"largest_relative_early_end", r.max_early_relative},
          {"bytes_cut_by_early_ends", r.early_bytes_cut}};
}

// --profile: where the simulation's time went, and the sizes of the re-solved sets.
Json profile_json(const TransportResult& r) {
  const TransportProfile& p = r.profile;
  const double steps = p.solve_s + p.rates_s + p.heap_s + p.ends_s + p.starts_s;
  return {{"simulate_s", r.simulate_seconds},
          {"solve_s", p.solve_s},
          {"rates_s", p.rates_s},
          {"heap_s", p.heap_s},
          {"transfer_ends_s", p.ends_s},
          {"transfer_starts_s", p.starts_s},
          {"driver_s", std::max(0.0, r.simulate_seconds - steps)},
          {"heap_updates", p.heap_updates},
          {"batches", r.batches},
          {"solved_variables_per_batch", solved_per_batch(r)},
          {"max_solved_variables", p.max_solved},
          {"max_changed_variables", p.max_changed},
          {"batches_by_solved_log2", p.solved_log2}};
}

// The packet transport's network and simulator statistics.
Json packet_json(const DynamicRun& run) {
  Json j = packet_network_json(*run.packet);
  const packet::RunStats& st = run.packet_stats;
  const double seconds = std::max(1e-9, run.result.simulate_seconds);
  j.update(packet_stats_json(st));
  j["flit_hops_per_second"] = static_cast<double>(st.flit_hops) / seconds;
  return j;
}

// The hybrid transport's zoom: what was zoomed, the coupling's counters, the packet level's engine
// counters and per SL the packets' latency through the regions (from their boundary queue to egress).
Json zoom_json(const DynamicRun& run) {
  const DynamicRun::Zoom& z = *run.zoom;
  const hybrid::HybridStats& s = z.stats;
  Json j = {{"selection", z.spec.text},
            {"routers", z.routers},
            {"regions", z.regions},
            {"boundary_endpoints", z.boundary_endpoints},
            {"held_exits", s.held_exits},
            {"epoch_s", s.epoch_s},
            {"tolerance", run.config.zoom.tolerance},
            {"coupled_messages", s.coupled_messages},
            {"whole_messages", s.whole_messages},
            {"sourced_messages", s.sourced_messages},
            {"segments", s.segments},
            {"packets", s.packets},
            {"packet_bytes", s.packet_bytes},
            {"chained_packets", s.chained},
            {"epochs", s.epochs},
            {"cap_changes", s.cap_changes},
            {"caps_lifted", s.caps_lifted}};
  if (z.regions == 0) return j;
  j["clock_ns"] = z.clock_ns;
  j["vc_scheme"] = z.vc_scheme;
  j.update(packet_stats_json(run.packet_stats));
  Json sls = Json::array();
  for (std::size_t sl = 0; sl < run.packet_stats.sl.size(); ++sl) {
    const packet::SlStats& st = run.packet_stats.sl[sl];
    sls.push_back({{"sl", sl},
                   {"crossings", st.delivered_messages},
                   {"mean_latency_ns", st.mean_latency() * z.clock_ns},
                   {"max_latency_ns", static_cast<double>(st.latency_max) * z.clock_ns}});
  }
  j["sl"] = std::move(sls);
  return j;
}

Timings timings(const DynamicRun& run) {
  return {{"build", run.build_seconds},           {"workload", run.workload_seconds},
          {"route", run.result.route_seconds},    {"simulate", run.result.simulate_seconds},
          {"solve", run.result.solve_seconds},    {"total", run.total_seconds}};
}

}  // namespace

Json dynamic_summary(const DynamicRun& run, const RunHeader& header) {
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  const drivers::FlowTotals t = totals(run);
  Json j = head_json(header);
  j["workload"] = run.workload_text;
  j["network"] = {{"family", run.setup.topology->family()},
                  {"endpoints", net.num_endpoints()},
                  {"switches", net.num_switches()},
                  {"cables", net.num_cables()},
                  {"cables_failed", run.setup.failures.failed_links.size()}};
  j["flows"] = {{"total", r.state.size()},        {"delivered", t.delivered},
                {"self", t.self},                 {"unroutable", t.unroutable},
                {"blocked", t.blocked},           {"bytes_delivered", t.bytes},
                {"path_variables", r.num_path_vars()}, {"streamed", !r.path_vars.empty()}};
  j["makespan_s"] = r.makespan_s;
  j["mean_throughput_gbps"] = t.mean_throughput_gbps;
  j["transport"] = run.config.transport;
  if (run.packet && !run.zoom)
    j["packet"] = packet_json(run);
  else
    j["policy"] = run.config.policy;
  if (run.zoom) j["zoom"] = zoom_json(run);
  j["classes"] = classes_json(run);
  if (run.applications()) {
    Json apps = Json::array();
    for (std::size_t a = 0; a < run.apps.size(); ++a) apps.push_back(app_json(run, a));
    j["applications"] = std::move(apps);
    j["blocked_tasks"] = run.tasks.blocked.size();
    j["unreceived_messages"] = run.tasks.unreceived_messages;
  }
  j["flow_completion_s"] = summary_json(t.completion_s, true);
  j["flow_rate_gbps"] = summary_json(t.rate_gbps, true);
  j["simulation"] = simulation_json(r);
  if (r.profile.on) j["profile"] = profile_json(r);
  foot_json(j, timings(run));
  return j;
}

void print_dynamic_summary(const DynamicRun& run, const RunHeader& header, std::ostream& out) {
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  const drivers::FlowTotals t = totals(run);
  const auto row = [&](const std::string& name) -> std::ostream& {
    return out << "  " << std::left << std::setw(34) << (name + " ");
  };
  print_head(out, header);
  out << "  workload " << run.workload_text << '\n';
  row("endpoints / switches / cables") << net.num_endpoints() << " / " << net.num_switches() << " / "
                                       << net.num_cables() << '\n';
  row("flows delivered/self/unroutable/blocked")
      << t.delivered << " / " << t.self << " / " << t.unroutable << " / " << t.blocked
      << (r.path_vars.empty() ? "" : " (streamed: routed as they started, held while in transfer)") << '\n';
  row("makespan") << r.makespan_s << " s\n";
  row("mean throughput") << t.mean_throughput_gbps << " Gbit/s\n";
  row("flow completion min/median/mean/max") << t.completion_s.min << " / " << t.completion_s.median << " / "
                                             << t.completion_s.mean << " / " << t.completion_s.max << " s\n";
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
  if (!run.tasks.blocked.empty()) row("blocked tasks") << run.tasks.blocked.size() << '\n';
  const std::vector<drivers::ClassTotals> classes = per_class(run);
  if (classes.size() > 1)
    for (std::size_t c = 0; c < classes.size(); ++c)
      out << "  class " << c << " (" << (run.packet && !run.zoom ? "SL " + std::to_string(c) : "policy " + run.config.policy)
          << ")  flows " << classes[c].delivered
          << ", throughput " << classes[c].throughput_gbps() << " Gbit/s, completion mean/max "
          << classes[c].mean_completion_s() << " / " << classes[c].completion_max_s << " s\n";
  if (run.zoom) {
    const DynamicRun::Zoom& z = *run.zoom;
    row("zoom") << z.spec.text << ": " << z.routers << " routers in " << z.regions << " region(s), "
                << z.stats.coupled_messages << " messages crossed them as " << z.stats.packets << " packets ("
                << z.stats.sourced_messages << " from their endpoints) and "
                << z.stats.whole_messages << " ran inside them whole ("
                << z.stats.chained << " handed between regions), " << z.stats.epochs << " epochs of " << z.stats.epoch_s
                << " s, " << z.stats.cap_changes << " cap changes\n";
    for (std::size_t sl = 0; sl < run.packet_stats.sl.size(); ++sl)
      out << "  SL " << sl << " through the zoom: " << run.packet_stats.sl[sl].delivered_messages
          << " crossings (packets and whole messages), latency mean/max " << run.packet_stats.sl[sl].mean_latency() * z.clock_ns << " / "
          << static_cast<double>(run.packet_stats.sl[sl].latency_max) * z.clock_ns << " ns\n";
  } else if (run.packet) {
    const packet::RunStats& st = run.packet_stats;
    row("packet engine") << st.flit_hops << " flit-hops in " << st.cycles << " cycles of "
                         << run.packet->fabric->clock_ns() << " ns, " << run.packet->scheme.name()
                         << " virtual channels\n";
  }
  row("events / batches") << r.events << " / " << r.batches << " ("
                          << (r.simulate_seconds > 0 ? static_cast<double>(r.events) / r.simulate_seconds : 0.0)
                          << " events/s)\n";
  if (!run.packet || run.zoom)
    row("re-solved variables per batch")
      << solved_per_batch(r) << " (solver "
      << std::fixed << std::setprecision(0)
      << (r.simulate_seconds > 0 ? 100 * r.solve_seconds / r.simulate_seconds : 0.0) << " % of the simulation)\n";
  out.unsetf(std::ios::fixed);
  out << std::setprecision(6);
  if (r.groups_from_s >= 0) {
    row("rate solver") << "auto: over bottleneck groups from batch " << r.groups_from_batch << " (t = " << r.groups_from_s
                       << " s)";
    if (r.solver_switches > 1)
      out << "; " << r.solver_switches << " switches in all, to groups and back, " << r.batches_over_groups << " of "
          << r.batches << " batches over groups";
    out << "\n";
  }
  if (r.spread_solves > 0)
    row("solved whole") << r.spread_solves
                        << " updates re-solved every active flow (path weights more than 2^30 apart)\n";
  if (r.profile.on) {
    const Json p = profile_json(r);
    row("profile (s)") << "solve " << p["solve_s"].get<double>() << ", rates " << p["rates_s"].get<double>()
                       << ", heap " << p["heap_s"].get<double>() << ", ends " << p["transfer_ends_s"].get<double>()
                       << ", starts " << p["transfer_starts_s"].get<double>() << ", driver "
                       << p["driver_s"].get<double>() << " of " << r.simulate_seconds << '\n';
    row("re-solved per batch") << "mean " << p["solved_variables_per_batch"].get<double>() << ", max "
                               << r.profile.max_solved << " (changed at most " << r.profile.max_changed << ")\n";
  }
  if (r.batch_tolerance > 0)
    row("batch tolerance") << r.batch_tolerance << ": " << r.ended_early << " transfers ended early, by at most "
                           << r.max_early_s << " s (" << r.max_early_relative << " relative), "
                           << r.early_bytes_cut << " bytes not sent\n";
  print_foot(out, timings(run));
}

namespace {

void write_links(const DynamicRun& run, std::ostream& out) {
  const TransportResult& r = run.result;
  const Network& net = run.setup.topology->network();
  out << "link_id,src_vertex,dst_vertex,capacity_gbps,up,bytes,busy_s,utilisation\n";
  for (LinkId l = 0; l < net.num_links(); ++l) {
    const double capacity_bits = static_cast<double>(net.capacity_gbps(l)) * 1e9 * r.makespan_s;
    out << l << ',' << net.source(l) << ',' << net.target(l) << ',' << num(net.capacity_gbps(l)) << ','
        << int(net.up(l)) << ',' << num(r.link_bytes[l]) << ',' << num(r.link_busy_s[l]) << ','
        << num(capacity_bits > 0 ? r.link_bytes[l] * 8 / capacity_bits : 0.0) << '\n';
  }
}

void write_series(const DynamicRun& run, std::ostream& out) {
  const TransportResult& r = run.result;
  out << "start_s,end_s,throughput_gbps,active_flows\n";
  for (std::size_t b = 0; b < r.series_gbps.size(); ++b)
    out << num(static_cast<double>(b) * r.bin_s) << ',' << num(static_cast<double>(b + 1) * r.bin_s) << ','
        << num(r.series_gbps[b]) << ',' << num(r.series_active[b]) << '\n';
}

// A CSV text cell, quoted, with quotes doubled.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void write_apps(const DynamicRun& run, std::ostream& out) {
  out << "app,spec,tasks,class,start_s,end_s,runtime_s,complete,messages,bytes,mean_message_latency_s,"
         "max_message_latency_s,median_message_latency_s,p99_message_latency_s,compute_s\n";
  for (std::size_t a = 0; a < run.apps.size(); ++a) {
    const drivers::AppResult& ar = run.tasks.apps[a];
    out << a << ',' << quoted(run.apps[a].name) << ',' << run.apps[a].tasks() << ',' << run.apps[a].service_class
        << ',' << num(ar.start_s) << ',' << num(ar.end_s) << ',' << num(ar.runtime_s()) << ',' << int(ar.complete)
        << ',' << ar.messages << ',' << num(ar.bytes) << ',' << num(ar.mean_latency_s) << ','
        << num(ar.max_latency_s) << ',' << num(ar.median_latency_s) << ',' << num(ar.p99_latency_s) << ','
        << num(ar.compute_s) << '\n';
  }
}

void write_tasks(const DynamicRun& run, std::ostream& out) {
  out << "app,task,endpoint,finish_s,compute_s,comm_wait_s\n";
  for (std::size_t a = 0; a < run.apps.size(); ++a)
    for (std::uint32_t t = 0; t < run.apps[a].tasks(); ++t) {
      const std::uint32_t g = run.tasks.task_offset[a] + t;
      const double finish = run.tasks.task_finish_s[g];
      out << a << ',' << t << ',' << run.apps[a].placement[t] << ',' << num(finish) << ','
          << num(run.tasks.task_compute_s[g]) << ','
          << num(finish - run.tasks.apps[a].start_s - run.tasks.task_compute_s[g]) << '\n';
    }
}

constexpr const char* kFlowsHeader = "flow,src,dst,bytes,class,state,start_s,transfer_end_s,finish_s,completion_s,paths\n";

// Flow f's row, its results those of r's message m (the same index after the run, in flow order).
void flow_row(TextBuffer& text, const FlowWorkload& w, const TransportResult& r, FlowId f, MessageId m) {
  text.integer(f).put(',').integer(w.flows.src[f]).put(',').integer(w.flows.dst[f]).put(',');
  text.number(w.bytes[f]).put(',').integer(w.service_class.empty() ? 0u : w.service_class[f]).put(',');
  text.text(drivers::state_name(r.state[m])).put(',').number(r.start_s[m]).put(',');
  text.number(r.transfer_end_s[m]).put(',').number(r.finish_s[m]).put(',');
  text.number(r.finish_s[m] - r.start_s[m]).put(',').integer(r.vars_of(m)).put('\n');
}

void write_flows(const DynamicRun& run, std::ostream& out) {
  out << kFlowsHeader;
  // A million rows or more: built in buffers, no stream operation per value, chunks formatted in
  // parallel and written in order.
  write_rows(out, run.result.state.size(), [&](TextBuffer& text, std::size_t first, std::size_t last) {
    for (std::size_t f = first; f < last; ++f)
      flow_row(text, run.workload, run.result, static_cast<FlowId>(f), static_cast<MessageId>(f));
  });
}

}  // namespace

FlowsCsvStream::FlowsCsvStream(std::string dir) : dir_(std::move(dir)) {}
FlowsCsvStream::~FlowsCsvStream() = default;

void FlowsCsvStream::begin() {
  const ResultsDir dir(dir_);
  file_ = std::make_unique<OutputFile>((dir.path() / "flows.csv").string(), "--out");
  text_ = std::make_unique<TextBuffer>(file_->stream());
  text_->text(kFlowsHeader);
}

void FlowsCsvStream::write(const FlowWorkload& workload, const TransportResult& r, std::span<const FlowId> order,
                           std::size_t first, std::size_t last) {
  for (std::size_t m = first; m < last; ++m)
    flow_row(*text_, workload, r, order.empty() ? static_cast<FlowId>(m) : order[m], static_cast<MessageId>(m));
}

void FlowsCsvStream::commit() {
  if (!file_) return;
  text_->flush();
  file_->commit();
}

void write_dynamic_files(const DynamicRun& run, const ResultsDir& dir, bool flows_csv) {
  dir.write("links.csv", [&](std::ostream& out) { write_links(run, out); });
  dir.write("series.csv", [&](std::ostream& out) { write_series(run, out); });
  if (run.applications()) {
    dir.write("apps.csv", [&](std::ostream& out) { write_apps(run, out); });
    dir.write("tasks.csv", [&](std::ostream& out) { write_tasks(run, out); });
    if (!run.tasks.blocked.empty())
      dir.write("blocked.csv", [&](std::ostream& out) {
        out << "app,task,op,reason\n";
        for (const drivers::BlockedTask& b : run.tasks.blocked)
          out << b.app << ',' << b.task << ',' << b.op << ',' << quoted(b.reason) << '\n';
      });
  }
  if (flows_csv && !run.flows_written) dir.write("flows.csv", [&](std::ostream& out) { write_flows(run, out); });
  if (run.zoom)
    dir.write("zoom.csv", [&](std::ostream& out) {
      out << "vertex,region,input_peak_flits,output_peak_flits,credit_stalls,flits_out\n";
      for (const hybrid::ZoomRouterStats& r : run.zoom->router_stats)
        out << r.vertex << ',' << r.region << ',' << r.input_peak_flits << ',' << r.output_peak_flits << ','
            << r.credit_stalls << ',' << r.flits_out << '\n';
    });
}

void print_deadlock_report(const DynamicRun& run, std::ostream& out) {
  const auto& blocked = run.tasks.blocked;
  out << "interflow: deadlock: " << blocked.size() << " task(s) wait forever";
  if (blocked.size() > 20) out << " (the first 20; all in blocked.csv with --out)";
  out << '\n';
  for (std::size_t i = 0; i < blocked.size() && i < 20; ++i)
    out << "  app " << blocked[i].app << " task " << blocked[i].task << " at operation " << blocked[i].op << ": "
        << blocked[i].reason << '\n';
}

}  // namespace interflow::cli
