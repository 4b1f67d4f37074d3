#include "cli/packet_run.hpp"

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

namespace {

// The destination rule: uniform, or the pairs of a static pattern.
packet::DestinationRule destination_rule(const Plugins& plugins, PacketRun& run, const PacketConfig& c) {
  const Network& net = run.setup.topology->network();
  if (c.pattern == "uniform") return packet::DestinationRule::uniform(net.num_endpoints());
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.setup.topology->endpoint_grid();
  ctx.seed = c.network.seed;
  FlowSet flows;
  plugins.patterns.create(run.pattern_spec)->generate(ctx, flows);
  return packet::DestinationRule::pairs(net.num_endpoints(), flows.src, flows.dst);
}

// The generator spec of every SL: --sl, a --mix, or one 'messages' SL of --load and its friends.
std::vector<std::string> sl_specs(const Plugins& plugins, const PacketConfig& c) {
  if (!c.sls.empty()) return c.sls;
  if (!c.mix.empty()) return plugins.traffic_mixes.create(Spec::parse(c.mix, "--mix"))->sls;
  return {"messages:load=" + number_text(c.load) + ",bytes=" + std::to_string(c.message_bytes) +
          ",mtu=" + std::to_string(c.mtu_bytes) + ",process=" + c.process};
}

// One generator per SL, and the NICs' MTU table.
void make_traffic(const Plugins& plugins, PacketRun& run, const PacketConfig& c, packet::NicConfig& nic) {
  const packet::TrafficContext ctx{c.engine.clock.flit_bytes, run.rule.get()};
  nic.service_levels = static_cast<std::uint32_t>(run.sl_specs.size());
  nic.mtu_bytes.clear();
  for (std::size_t i = 0; i < run.sl_specs.size(); ++i) {
    const std::string where = c.sls.empty() && !c.mix.empty() ? "--mix SL " + std::to_string(i) : "--sl";
    run.traffic.push_back(plugins.traffic.create(Spec::parse(run.sl_specs[i], where), ctx));
    const std::uint32_t mtu = run.traffic.back()->settings().mtu;
    nic.mtu_bytes.push_back(mtu == 0 ? c.engine.clock.flit_bytes : mtu);
  }
}

}  // namespace

PacketRun run_packet(const Plugins& plugins, const PacketConfig& c) {
  PacketRun run;
  run.pattern_spec = Spec::parse(c.pattern, "--pattern");
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);
  run.sl_specs = sl_specs(plugins, c);
  if (run.sl_specs.size() > 16) throw InputError("at most 16 service levels; " + std::to_string(run.sl_specs.size()) + " given");
  for (const std::string& spec : run.sl_specs) plugins.traffic.validate(Spec::parse(spec, "--sl"));
  validate_packet_options(plugins, c.engine);
  Stopwatch clock;
  run.setup = build_network(plugins, c.network);
  run.build_seconds = clock.seconds();
  run.net = build_packet_setup(plugins, run.setup, c.network, c.engine, static_cast<std::uint32_t>(run.sl_specs.size()));
  run.build_seconds += run.net->build_seconds;
  run.route_seconds = run.net->route_seconds;
  clock.reset();
  packet::NicConfig nic;
  nic.injection_queue_bytes = c.engine.injection_queue_bytes;
  run.rule = std::make_unique<packet::DestinationRule>(destination_rule(plugins, run, c));
  make_traffic(plugins, run, c, nic);
  const PacketSetup& net = *run.net;
  run.sim = std::make_unique<packet::PacketSim>(*net.fabric, net.paths, *net.routes, net.scheme, net.router, nic,
                                                c.network.seed);
  Progress progress(c.progress);
  run.result = packet::run_open_loop(*run.sim, *net.fabric, run.traffic, c.run, c.network.seed, &progress);
  run.sim->check_invariants();
  run.simulate_seconds = clock.seconds();
  return run;
}

}  // namespace interflow::cli
