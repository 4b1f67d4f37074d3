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
  const packet::TrafficContext ctx{c.clock.flit_bytes, run.rule.get()};
  nic.service_levels = static_cast<std::uint32_t>(run.sl_specs.size());
  nic.mtu_bytes.clear();
  for (std::size_t i = 0; i < run.sl_specs.size(); ++i) {
    const std::string where = c.sls.empty() && !c.mix.empty() ? "--mix SL " + std::to_string(i) : "--sl";
    run.traffic.push_back(plugins.traffic.create(Spec::parse(run.sl_specs[i], where), ctx));
    const std::uint32_t mtu = run.traffic.back()->settings().mtu;
    nic.mtu_bytes.push_back(mtu == 0 ? c.clock.flit_bytes : mtu);
  }
}

// The switch model from its registry, with the output scheduler of each output port (output-buffered
// switches only: the input-queued vct arbitrates among inputs, round robin).
packet::RouterConfig make_router(const Plugins& plugins, PacketRun& run, const PacketConfig& c,
                                 std::uint32_t service_levels) {
  run.switch_spec = Spec::parse(c.switch_model, "--switch");
  run.switch_params = plugins.switches.validate(run.switch_spec);
  run.scheduler_spec = Spec::parse(c.scheduler, "--scheduler");
  run.scheduler_params = plugins.output_schedulers.validate(run.scheduler_spec);
  packet::RouterConfig router =
      *plugins.switches.create(run.switch_spec, packet::SwitchContext{c.clock.flit_bytes, service_levels});
  router.nic_delay = c.router.nic_delay;
  if (!router.output_buffered()) {
    if (run.scheduler_spec.name != "rr")
      throw InputError("--scheduler " + c.scheduler + ": the " + run.switch_spec.name +
                       " switch is input-queued (its outputs choose among inputs round robin); output schedulers need "
                       "an output-buffered switch such as ib");
    return router;
  }
  const Spec spec = run.scheduler_spec;
  router.scheduler = [&plugins, spec](std::uint32_t lanes) {
    return plugins.output_schedulers.create(spec, packet::SchedulerContext{lanes});
  };
  router.scheduler(router.qos_lanes());  // its tables checked against the lanes before the run
  return router;
}

}  // namespace

PacketRun run_packet(const Plugins& plugins, const PacketConfig& c) {
  PacketRun run;
  run.pattern_spec = Spec::parse(c.pattern, "--pattern");
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);
  run.sl_specs = sl_specs(plugins, c);
  if (run.sl_specs.size() > 16) throw InputError("at most 16 service levels; " + std::to_string(run.sl_specs.size()) + " given");
  for (const std::string& spec : run.sl_specs) plugins.traffic.validate(Spec::parse(spec, "--sl"));
  Stopwatch clock;
  run.setup = build_network(plugins, c.network);
  const Network& net = run.setup.topology->network();
  const std::uint64_t n = net.num_endpoints();
  if (n * n > c.max_flows)
    throw InputError("the packet engine routes every endpoint pair: " + std::to_string(n * n) + " pairs, more than " +
                     "--max-flows " + std::to_string(c.max_flows));
  run.fabric = std::make_unique<packet::Fabric>(net, c.clock, c.network.links);
  run.build_seconds = clock.seconds();
  clock.reset();
  FlowSet pairs;
  for (EndpointId s = 0; s < n; ++s)
    for (EndpointId d = 0; d < n; ++d) pairs.add(s, d);
  run.paths = run.setup.routing->route_all(net, pairs, RouteContext::of(c.network.seed, 8ULL << 30, nullptr));
  run.routes = std::make_unique<packet::ChannelRoutes>(*run.fabric, run.paths);
  run.router = make_router(plugins, run, c, static_cast<std::uint32_t>(run.sl_specs.size()));
  const BlockGrid grid = run.setup.topology->block_grid();
  run.scheme = packet::choose_scheme(c.vc_scheme, *run.fabric, net, *run.routes,
                                     grid.wraps ? grid.routers : std::vector<std::uint32_t>{}, run.router.vcs / run.router.qos_lanes(),
                                     "routing " + run.setup.routing_spec.text + " on " + run.setup.topology_spec.text);
  run.route_seconds = clock.seconds();
  clock.reset();
  packet::NicConfig nic;
  nic.injection_queue_bytes = c.injection_queue_bytes;
  run.rule = std::make_unique<packet::DestinationRule>(destination_rule(plugins, run, c));
  make_traffic(plugins, run, c, nic);
  run.sim = std::make_unique<packet::PacketSim>(*run.fabric, run.paths, *run.routes, run.scheme, run.router, nic,
                                                c.network.seed);
  Progress progress(c.progress);
  run.result = packet::run_open_loop(*run.sim, *run.fabric, run.traffic, c.run, c.network.seed, &progress);
  run.sim->check_invariants();
  run.simulate_seconds = clock.seconds();
  return run;
}

}  // namespace interflow::cli
