#include "cli/packet_run.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

namespace {

// One destination per source from a static pattern (its first flow from that source), or none for
// `uniform` (a random destination per message).
std::vector<EndpointId> destinations(const Plugins& plugins, PacketRun& run, const PacketConfig& c) {
  if (c.pattern == "uniform") return {};
  const Network& net = run.setup.topology->network();
  workloads::PatternContext ctx;
  ctx.endpoints = net.num_endpoints();
  ctx.grid = run.setup.topology->endpoint_grid();
  ctx.seed = c.network.seed;
  FlowSet flows;
  plugins.patterns.create(run.pattern_spec)->generate(ctx, flows);
  std::vector<EndpointId> dst(net.num_endpoints(), kNone);
  for (std::size_t f = 0; f < flows.size(); ++f)
    if (dst[flows.src[f]] == kNone && flows.src[f] != flows.dst[f]) dst[flows.src[f]] = flows.dst[f];
  return dst;
}

}  // namespace

PacketRun run_packet(const Plugins& plugins, const PacketConfig& c) {
  PacketRun run;
  run.pattern_spec = Spec::parse(c.pattern, "--pattern");
  run.pattern_params = plugins.patterns.validate(run.pattern_spec);
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
  const BlockGrid grid = run.setup.topology->block_grid();
  run.scheme = packet::choose_scheme(c.vc_scheme, *run.fabric, net, *run.routes,
                                     grid.wraps ? grid.routers : std::vector<std::uint32_t>{}, c.router.vcs,
                                     "routing " + run.setup.routing_spec.text + " on " + run.setup.topology_spec.text);
  run.route_seconds = clock.seconds();
  clock.reset();
  packet::NicConfig nic;
  nic.injection_queue_bytes = c.injection_queue_bytes;
  nic.mtu_bytes = {c.mtu_bytes == 0 ? c.clock.flit_bytes : c.mtu_bytes};
  run.sim = std::make_unique<packet::PacketSim>(*run.fabric, run.paths, *run.routes, run.scheme, c.router, nic,
                                                c.network.seed);
  packet::TrafficConfig traffic;
  traffic.load = c.load;
  traffic.message_bytes = c.message_bytes;
  traffic.constant = c.process == "constant";
  traffic.destination = destinations(plugins, run, c);
  Progress progress(c.progress);
  run.result = packet::run_open_loop(*run.sim, *run.fabric, traffic, c.run, c.network.seed, &progress);
  run.sim->check_invariants();
  run.simulate_seconds = clock.seconds();
  return run;
}

}  // namespace interflow::cli
