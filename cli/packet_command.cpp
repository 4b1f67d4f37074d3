// `interflow packet`: parses, builds the run (cli/packet_run.cpp) and writes its results; nothing else.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/packet_run.hpp"
#include "cli/results.hpp"
#include "cli/run_header.hpp"
#include "core/format.hpp"
#include "core/system.hpp"

namespace interflow::cli {

namespace {

void add_packet_options(OptionTable& t, PacketConfig& c) {
  t.whole("--flit-bytes", c.clock.flit_bytes, "bytes per flit (the flow-control unit: one credit per flit)", 1, 65536);
  t.real("--clock-ns", c.clock.clock_ns,
         "ns per cycle (0: the time a flit takes on the slowest link, which then carries 1 flit/cycle)", 0, 1e6);
  t.whole("--vcs", c.router.vcs, "virtual channels per channel", 1, 64);
  t.whole("--buffer-flits", c.router.buffer_flits, "flits of input buffer per virtual channel", 1, 1u << 24);
  t.whole("--routing-delay", c.router.routing_delay, "router pipeline: route computation, cycles", 0, 1000);
  t.whole("--vc-delay", c.router.vc_delay, "router pipeline: virtual-channel allocation, cycles", 0, 1000);
  t.whole("--switch-delay", c.router.switch_delay, "router pipeline: switch allocation, cycles", 0, 1000);
  t.whole("--xbar-delay", c.router.xbar_delay, "router pipeline: crossbar traversal, cycles", 0, 1000);
  t.whole("--credit-delay", c.router.credit_delay, "cycles to process a freed credit before it travels back", 0, 1000);
  t.whole("--nic-delay", c.router.nic_delay, "cycles from a message's generation to its first packet's eligibility", 0,
          1000000);
  t.text("--vc-scheme", c.vc_scheme,
         "deadlock avoidance: auto, single, dateline (tori) or hops (distance classes); every run is checked");
  t.whole("--injection-queue-bytes", c.injection_queue_bytes,
          "bytes of a NIC's injection queue per service level; messages wait in the application queue beyond", 1);
}

void add_traffic_options(OptionTable& t, PacketConfig& c) {
  t.text("-p,--pattern", c.pattern,
         "destinations: uniform (random per message) or any static pattern (its pairing, fixed; see `interflow list "
         "pattern`)");
  t.real("--load", c.load, "offered load, flits per cycle per NIC", 0, 1e6, true);
  t.whole("--message-bytes", c.message_bytes, "bytes per message", 1, 1ull << 40);
  t.whole("--mtu-bytes", c.mtu_bytes, "largest packet, bytes (0: one flit)", 0, 1u << 30);
  t.text("--process", c.process, "injection process: bernoulli or constant");
  t.whole("--warmup", c.run.warmup, "cycles before the measurement window", 0);
  t.whole("--measure", c.run.measure, "cycles of the measurement window", 1);
  t.whole("--drain-limit", c.run.drain_limit, "cycles after the window for the measured messages to arrive", 0);
  t.whole("--max-flows", c.max_flows, "refuse networks with more endpoint pairs (every pair is routed)", 1);
}

Json sl_json(const packet::SlStats& s) {
  Json j = Json::object();
  j["generated_messages"] = s.generated_messages;
  j["delivered_messages"] = s.delivered_messages;
  j["generated_flits"] = s.generated_flits;
  j["delivered_flits"] = s.delivered_flits;
  j["mean_latency_cycles"] = s.mean_latency();
  j["max_latency_cycles"] = s.latency_max;
  j["mean_network_latency_cycles"] = s.mean_network_latency();
  return j;
}

Json packet_summary(const PacketRun& run, const PacketConfig& c, RunHeader header) {
  Json j = head_json(header);
  const packet::RunStats& st = run.sim->stats();
  const double ns = run.fabric->clock_ns();
  j["clock_ns"] = ns;
  j["vc_scheme"] = run.scheme.name();
  j["vc_classes"] = run.scheme.classes;
  j["endpoints"] = run.fabric->num_nics();
  j["routers"] = run.fabric->num_routers();
  j["channels"] = run.fabric->num_channels();
  j["offered_flits_per_cycle_per_nic"] = run.result.offered;
  j["accepted_flits_per_cycle_per_nic"] = run.result.accepted;
  j["saturated"] = run.result.saturated;
  j["deadlocked"] = st.stalled;
  j["mean_latency_cycles"] = run.result.mean_latency;
  j["mean_latency_ns"] = run.result.mean_latency * ns;
  j["latency_ci95_cycles"] = run.result.latency_ci95;
  j["mean_network_latency_cycles"] = run.result.mean_network_latency;
  j["mean_network_latency_ns"] = run.result.mean_network_latency * ns;
  j["cycles"] = st.cycles;
  j["window_cycles"] = c.run.measure;
  j["flit_hops"] = st.flit_hops;
  j["credit_stalls"] = st.credit_stalls;
  j["application_queue_peak"] = st.app_queue_peak;
  j["service_levels"] = Json::array();
  for (const auto& s : st.sl) j["service_levels"].push_back(sl_json(s));
  j["simulation"] = {{"flit_hops_per_second", static_cast<double>(st.flit_hops) / std::max(1e-9, run.simulate_seconds)},
                     {"cycles_per_second", static_cast<double>(st.cycles) / std::max(1e-9, run.simulate_seconds)}};
  foot_json(j, {{"build", run.build_seconds}, {"route", run.route_seconds}, {"simulate", run.simulate_seconds},
                {"total", run.build_seconds + run.route_seconds + run.simulate_seconds}});
  return j;
}

void write_channels_csv(const PacketRun& run, const PacketConfig& c, std::ostream& out) {
  const packet::Fabric& f = *run.fabric;
  const packet::RunStats& st = run.sim->stats();
  out << "channel,link,src_element,dst_element,kind,flits_per_cycle,latency_cycles,flits,utilisation,peak_vc_flits\n";
  for (packet::ChannelId ch = 0; ch < f.num_channels(); ++ch) {
    const char* kind = f.is_nic(f.src(ch)) ? "injection" : f.is_nic(f.dst(ch)) ? "ejection" : "network";
    const double capacity = static_cast<double>(f.flits_per_cycle(ch)) * static_cast<double>(c.run.measure);
    out << ch << ',' << (f.link(ch) == kNone ? std::string() : std::to_string(f.link(ch))) << ',' << f.src(ch) << ','
        << f.dst(ch) << ',' << kind << ',' << f.flits_per_cycle(ch) << ',' << f.latency(ch) << ','
        << st.channel_flits[ch] << ',' << number_text(static_cast<double>(st.channel_flits[ch]) / capacity) << ','
        << st.channel_peak[ch] << '\n';
  }
}

void print_packet(const PacketRun& run, const RunHeader& header, std::ostream& out) {
  print_head(out, header);
  const auto& r = run.result;
  const double ns = run.fabric->clock_ns();
  out << "  clock " << number_text(ns) << " ns, " << run.fabric->flit_bytes() << "-byte flits; virtual channels: "
      << run.scheme.name() << " scheme, " << run.scheme.classes << " class(es)\n"
      << "  offered / accepted            " << number_text(r.offered) << " / " << number_text(r.accepted)
      << " flits/cycle/NIC" << (r.saturated ? "  (saturated: the measured messages did not drain)" : "") << '\n'
      << "  mean latency                  " << number_text(r.mean_latency) << " cycles (" << number_text(r.mean_latency * ns)
      << " ns), network " << number_text(r.mean_network_latency) << " cycles\n"
      << "  flit-hops                     " << run.sim->stats().flit_hops << " in " << run.sim->stats().cycles
      << " cycles\n";
  print_foot(out, {{"build", run.build_seconds}, {"route", run.route_seconds}, {"simulate", run.simulate_seconds}});
}

}  // namespace

Command add_packet_command(CLI::App& app, const Plugins& plugins) {
  auto* cmd = app.add_subcommand("packet",
                                 "packet-level engine: virtual cut-through routers, credits, virtual channels; "
                                 "latency and throughput at an offered load (manual/packet.md)");
  auto c = std::make_shared<PacketConfig>();
  c->router.buffer_flits = 8;
  auto t = std::make_shared<OptionTable>(cmd);
  t->add_config();
  add_network_options(*t, c->network);
  add_packet_options(*t, *c);
  add_traffic_options(*t, *c);
  t->add_out("write summary.json, channels.csv and config.toml into this folder");
  t->add_output_flags();
  return Command{[&plugins, c, t]() {
                   t->apply_config();
                   t->refuse_together("--json", "--quiet", "--json prints the summary, --quiet prints nothing");
                   if (c->process != "bernoulli" && c->process != "constant")
                     throw InputError("--process '" + c->process + "': expected bernoulli or constant");
                   c->progress = t->progress();
                   const PacketRun run = run_packet(plugins, *c);
                   RunHeader header{"packet", "packet engine", c->network.seed, 1,
                                    t->echo({{"routing", run.setup.routing_spec.text}}), {}};
                   add_network(header, run.setup);
                   add_plugin(header, "pattern", run.pattern_spec, run.pattern_params);
                   const Json summary = packet_summary(run, *c, header);
                   if (!t->out_dir().empty()) {
                     const ResultsDir dir(t->out_dir());
                     dir.write("channels.csv", [&](std::ostream& out) { write_channels_csv(run, *c, out); });
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
