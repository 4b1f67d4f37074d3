// `interflow packet`: parses, builds the run (cli/packet_run.cpp) and writes its results; nothing else.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/packet_run.hpp"
#include "cli/results.hpp"
#include "cli/run_header.hpp"
#include "core/format.hpp"
#include "core/system.hpp"
#include "experiments/collect.hpp"

namespace interflow::cli {

namespace {

void add_traffic_options(OptionTable& t, PacketConfig& c) {
  t.text("-p,--pattern", c.pattern,
         "destination rule of every SL: uniform (random per message) or any static pattern (a source draws among its "
         "destinations in it; see `interflow list pattern`)");
  t.texts("--sl", c.sls,
          "the service levels, one generator spec each in SL order: messages, cbr or bursts with name, load, bytes, "
          "mtu (see `interflow list traffic`)");
  t.text("--mix", c.mix, "a named mix of service levels instead of --sl (see `interflow list traffic-mix`)");
  t.real("--load", c.load, "one SL (without --sl or --mix): offered load, flits per cycle per NIC", 0, 1e6, true);
  t.whole("--message-bytes", c.message_bytes, "one SL: bytes per message", 1, 1ull << 40);
  t.whole("--mtu-bytes", c.mtu_bytes, "one SL: largest packet, bytes (0: one flit)", 0, 1u << 30);
  t.text("--process", c.process, "one SL: injection process, bernoulli or constant");
  t.whole("--warmup", c.run.warmup, "cycles before the measurement window", 0);
  t.whole("--measure", c.run.measure, "cycles of the measurement window", 1);
  t.whole("--drain-limit", c.run.drain_limit, "cycles after the window for the measured messages to arrive", 0);
  t.whole("--max-flows", c.engine.max_pairs, "refuse networks with more endpoint pairs (every pair is routed)", 1);
}

// A load result's fields, latencies in cycles and ns.
void add_load_json(Json& j, const packet::LoadResult& r, double ns) {
  j["offered_flits_per_cycle_per_nic"] = r.offered;
  j["accepted_flits_per_cycle_per_nic"] = r.accepted;
  j["saturated"] = r.saturated;
  j["mean_latency_cycles"] = r.mean_latency;
  j["mean_latency_ns"] = r.mean_latency * ns;
  j["latency_ci95_cycles"] = r.latency_ci95;
  j["mean_network_latency_cycles"] = r.mean_network_latency;
  j["mean_network_latency_ns"] = r.mean_network_latency * ns;
}

std::string sl_name(const PacketRun& run, std::size_t i) {
  const std::string& name = run.traffic[i]->settings().name;
  return name.empty() ? "SL" + std::to_string(i) : name;
}

Json sl_json(const PacketRun& run, std::size_t i, double ns) {
  const packet::SlStats& s = run.sim->stats().sl[i];
  Json j = Json::object();
  j["name"] = sl_name(run, i);
  j["generator"] = run.sl_specs[i];
  add_load_json(j, run.result.sl[i], ns);
  j["generated_messages"] = s.generated_messages;
  j["delivered_messages"] = s.delivered_messages;
  j["delivered_packets"] = s.delivered_packets;
  j["generated_flits"] = s.generated_flits;
  j["delivered_flits"] = s.delivered_flits;
  j["max_latency_cycles"] = s.latency_max;
  return j;
}

Json packet_summary(const PacketRun& run, const PacketConfig& c, RunHeader header) {
  Json j = head_json(header);
  const packet::RunStats& st = run.sim->stats();
  const double ns = run.net->fabric->clock_ns();
  j.update(packet_network_json(*run.net));
  add_load_json(j, run.result.total, ns);
  j.update(packet_stats_json(st));
  j["window_cycles"] = c.run.measure;
  j["service_levels"] = Json::array();
  for (std::size_t i = 0; i < st.sl.size(); ++i) j["service_levels"].push_back(sl_json(run, i, ns));
  j["simulation"] = {{"flit_hops_per_second", static_cast<double>(st.flit_hops) / std::max(1e-9, run.simulate_seconds)},
                     {"cycles_per_second", static_cast<double>(st.cycles) / std::max(1e-9, run.simulate_seconds)}};
  foot_json(j, {{"build", run.build_seconds}, {"route", run.route_seconds}, {"simulate", run.simulate_seconds},
                {"total", run.build_seconds + run.route_seconds + run.simulate_seconds}});
  return j;
}

void write_channels_csv(const PacketRun& run, const PacketConfig& c, std::ostream& out) {
  const packet::Fabric& f = *run.net->fabric;
  const packet::RunStats& st = run.sim->stats();
  out << "channel,link,src_element,dst_element,kind,flits_per_cycle,latency_cycles,flits,utilisation,"
         "peak_input_flits,peak_output_flits,credit_stalls\n";
  for (packet::ChannelId ch = 0; ch < f.num_channels(); ++ch) {
    const char* kind = f.is_nic(f.src(ch)) ? "injection" : f.is_nic(f.dst(ch)) ? "ejection" : "network";
    const double capacity = static_cast<double>(f.flits_per_cycle(ch)) * static_cast<double>(c.run.measure);
    out << ch << ',' << (f.link(ch) == kNone ? std::string() : std::to_string(f.link(ch))) << ',' << f.src(ch) << ','
        << f.dst(ch) << ',' << kind << ',' << f.flits_per_cycle(ch) << ',' << f.latency(ch) << ','
        << st.channel_flits[ch] << ',' << number_text(static_cast<double>(st.channel_flits[ch]) / capacity) << ','
        << st.channel_peak[ch] << ',' << st.output_peak[ch] << ',' << st.channel_credit_stalls[ch] << '\n';
  }
}

void write_service_levels_csv(const PacketRun& run, std::ostream& out) {
  const double ns = run.net->fabric->clock_ns();
  out << "sl,name,generator,offered,accepted,saturated,mean_latency_cycles,mean_latency_ns,latency_ci95_cycles,"
         "mean_network_latency_cycles,max_latency_cycles,generated_messages,delivered_messages,delivered_packets\n";
  for (std::size_t i = 0; i < run.traffic.size(); ++i) {
    const packet::LoadResult& r = run.result.sl[i];
    const packet::SlStats& s = run.sim->stats().sl[i];
    out << i << ',' << experiments::csv_cell(sl_name(run, i)) << ',' << experiments::csv_cell(run.sl_specs[i]) << ',' << number_text(r.offered)
        << ',' << number_text(r.accepted) << ',' << (r.saturated ? 1 : 0) << ',' << number_text(r.mean_latency) << ','
        << number_text(r.mean_latency * ns) << ',' << number_text(r.latency_ci95) << ','
        << number_text(r.mean_network_latency) << ',' << s.latency_max << ',' << s.generated_messages << ','
        << s.delivered_messages << ',' << s.delivered_packets << '\n';
  }
}

void print_packet(const PacketRun& run, const RunHeader& header, std::ostream& out) {
  print_head(out, header);
  const auto& r = run.result.total;
  const double ns = run.net->fabric->clock_ns();
  out << "  clock " << number_text(ns) << " ns, " << run.net->fabric->flit_bytes() << "-byte flits; virtual channels: "
      << run.net->scheme.name() << " scheme, " << run.net->scheme.classes << " class(es)\n"
      << "  offered / accepted            " << number_text(r.offered) << " / " << number_text(r.accepted)
      << " flits/cycle/NIC" << (r.saturated ? "  (saturated: the measured messages did not drain)" : "") << '\n'
      << "  mean latency                  " << number_text(r.mean_latency) << " cycles (" << number_text(r.mean_latency * ns)
      << " ns), network " << number_text(r.mean_network_latency) << " cycles\n";
  if (run.traffic.size() > 1)
    for (std::size_t i = 0; i < run.traffic.size(); ++i) {
      const auto& s = run.result.sl[i];
      const std::string name = sl_name(run, i);
      out << "    " << name << std::string(name.size() < 6 ? 6 - name.size() : 0, ' ') << " offered " << number_text(s.offered) << ", accepted "
          << number_text(s.accepted) << ", latency " << number_text(s.mean_latency) << " cycles"
          << (s.saturated ? " (saturated)" : "") << '\n';
    }
  out << "  flit-hops                     " << run.sim->stats().flit_hops << " in " << run.sim->stats().cycles
      << " cycles\n";
  print_foot(out, {{"build", run.build_seconds}, {"route", run.route_seconds}, {"simulate", run.simulate_seconds}});
}

// --load, --message-bytes, --mtu-bytes and --process describe the one SL of a run without --sl or
// --mix; set to anything but their defaults beside those, they would be ignored: refused. (A
// results folder's config.toml lists every option with its value, so presence alone cannot tell.)
void refuse_single_sl_options(const PacketConfig& c) {
  if (c.sls.empty() && c.mix.empty()) return;
  const PacketConfig defaults;
  const char* which = c.load != defaults.load                     ? "--load"
                      : c.message_bytes != defaults.message_bytes ? "--message-bytes"
                      : c.mtu_bytes != defaults.mtu_bytes         ? "--mtu-bytes"
                      : c.process != defaults.process             ? "--process"
                                                                  : nullptr;
  if (which)
    throw InputError(std::string(which) + " describes the single SL of a run without --sl or --mix; give the SLs' "
                     "loads, sizes and MTUs in their --sl specs (or the mix's parameters)");
}

}  // namespace

Command add_packet_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("packet",
                                 "packet-level engine: virtual cut-through routers, credits, virtual channels; "
                                 "latency and throughput at an offered load (manual/packet.md)");
  auto c = std::make_shared<PacketConfig>();
  auto t = std::make_shared<OptionTable>(cmd);
  t->add_config();
  add_network_options(*t, c->network);
  add_packet_options(*t, c->engine);
  add_traffic_options(*t, *c);
  t->add_out("write summary.json, service_levels.csv, channels.csv and config.toml into this folder");
  t->add_output_flags();
  return Command{[&plugins, c, t]() {
                   t->apply_config();
                   t->refuse_together("--json", "--quiet", "--json prints the summary, --quiet prints nothing");
                   t->refuse_together("--sl", "--mix", "--sl lists the service levels, --mix names a mix of them");
                   refuse_single_sl_options(*c);
                   if (c->process != "bernoulli" && c->process != "constant")
                     throw InputError("--process '" + c->process + "': expected bernoulli or constant");
                   c->progress = t->progress();
                   const PacketRun run = run_packet(plugins, *c);
                   RunHeader header{"packet", "packet engine", c->network.seed, 1,
                                    t->echo({{"routing", run.setup.routing_spec.text}}), {}};
                   add_network(header, run.setup);
                   add_plugin(header, "switch", run.net->switch_spec, run.net->switch_params);
                   add_plugin(header, "scheduler", run.net->scheduler_spec, run.net->scheduler_params);
                   add_plugin(header, "pattern", run.pattern_spec, run.pattern_params);
                   const Json summary = packet_summary(run, *c, header);
                   if (!t->out_dir().empty()) {
                     const ResultsDir dir(t->out_dir());
                     dir.write("channels.csv", [&](std::ostream& out) { write_channels_csv(run, *c, out); });
                     dir.write("service_levels.csv", [&](std::ostream& out) { write_service_levels_csv(run, out); });
                     dir.finish(t->config_toml({{"routing", run.setup.routing_spec.text}}), summary);
                   }
                   if (t->json())
                     write_json(std::cout, summary);
                   else if (!t->quiet())
                     print_packet(run, header, std::cout);
                   return run.sim->stats().stalled ? 3 : 0;
                 },
                 t};
}

}  // namespace interflow::cli
