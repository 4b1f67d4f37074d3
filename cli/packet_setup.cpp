#include "cli/packet_setup.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/system.hpp"

namespace interflow::cli {

namespace {

// The switch model from its registry, with the output scheduler of each output port (output-buffered
// switches only: the input-queued vct arbitrates among inputs, round robin).
packet::RouterConfig make_router(const Plugins& plugins, PacketSetup& s, const PacketOptions& o,
                                 std::uint32_t service_levels) {
  packet::RouterConfig router =
      *plugins.switches.create(s.switch_spec, packet::SwitchContext{o.clock.flit_bytes, service_levels});
  router.nic_delay = o.nic_delay;
  if (o.credit_bytes % o.clock.flit_bytes != 0)
    throw InputError("--credit-bytes " + std::to_string(o.credit_bytes) + ": a credit must be a whole number of " +
                     std::to_string(o.clock.flit_bytes) + "-byte flits (--flit-bytes)");
  router.credit_flits = o.credit_bytes == 0 ? 1 : o.credit_bytes / o.clock.flit_bytes;
  if (!router.output_buffered()) {
    if (s.scheduler_spec.name != "rr")
      throw InputError("--scheduler " + o.scheduler + ": the " + s.switch_spec.name +
                       " switch is input-queued (its outputs choose among inputs round robin); output schedulers need "
                       "an output-buffered switch such as ib");
    return router;
  }
  const Spec spec = s.scheduler_spec;
  router.scheduler = [&plugins, spec](const packet::SchedulerContext& c) {
    return plugins.output_schedulers.create(spec, c);
  };
  router.scheduler({router.qos_lanes()});  // its tables checked against the lanes before the run
  return router;
}

}  // namespace

void validate_packet_options(const Plugins& plugins, const PacketOptions& o) {
  plugins.switches.validate(Spec::parse(o.switch_model, "--switch"));
  plugins.output_schedulers.validate(Spec::parse(o.scheduler, "--scheduler"));
}

std::unique_ptr<PacketSetup> build_switch_setup(const Plugins& plugins, const PacketOptions& o,
                                                std::uint32_t service_levels) {
  auto s = std::make_unique<PacketSetup>();
  s->switch_spec = Spec::parse(o.switch_model, "--switch");
  s->switch_params = plugins.switches.validate(s->switch_spec);
  s->scheduler_spec = Spec::parse(o.scheduler, "--scheduler");
  s->scheduler_params = plugins.output_schedulers.validate(s->scheduler_spec);
  s->router = make_router(plugins, *s, o, service_levels);
  return s;
}

std::unique_ptr<PacketSetup> build_packet_setup(const Plugins& plugins, const NetworkSetup& setup,
                                                const NetworkOptions& network, const PacketOptions& o,
                                                std::uint32_t service_levels) {
  std::unique_ptr<PacketSetup> s = build_switch_setup(plugins, o, service_levels);
  const Network& net = setup.topology->network();
  const std::uint64_t n = net.num_endpoints();
  if (n * n > o.max_pairs)
    throw InputError("the packet engine routes every endpoint pair: " + std::to_string(n * n) + " pairs, more than " +
                     std::to_string(o.max_pairs));
  Stopwatch clock;
  s->fabric = std::make_unique<packet::Fabric>(net, o.clock, network.links);
  s->build_seconds = clock.seconds();
  clock.reset();
  FlowSet pairs;
  for (EndpointId a = 0; a < n; ++a)
    for (EndpointId b = 0; b < n; ++b) pairs.add(a, b);
  s->paths = setup.routing->route_all(net, pairs, RouteContext::of(network.seed, 8ULL << 30, nullptr));
  s->routes = std::make_unique<packet::ChannelRoutes>(*s->fabric, s->paths);
  const BlockGrid grid = setup.topology->block_grid();
  s->scheme = packet::choose_scheme(o.vc_scheme, *s->fabric, net, *s->routes,
                                    grid.wraps ? grid.routers : std::vector<std::uint32_t>{},
                                    s->router.classes_per_lane(),
                                    "routing " + setup.routing_spec.text + " on " + setup.topology_spec.text);
  s->route_seconds = clock.seconds();
  return s;
}

void add_packet_options(OptionTable& t, PacketOptions& o) {
  t.whole("--flit-bytes", o.clock.flit_bytes, "bytes per flit (the unit of buffer space and of serialization)", 1, 65536);
  t.whole("--credit-bytes", o.credit_bytes,
          "bytes per credit, a whole number of flits (0: one flit); a packet takes its size rounded up to whole credits "
          "of buffer space",
          0, 1u << 24);
  t.real("--clock-ns", o.clock.clock_ns,
         "ns per cycle (0: the time a flit takes on the slowest link, which then carries 1 flit/cycle)", 0, 1e6);
  t.text("--switch", o.switch_model,
         "switch model and its parameters: vct (input-queued) or ib (InfiniBand); see `interflow list switch`");
  t.text("--scheduler", o.scheduler,
         "output scheduler of output-buffered switches (ib): rr, priority, vlarb, dtable; see `interflow list "
         "output-scheduler`");
  t.whole("--nic-delay", o.nic_delay, "cycles from a message's generation to its first packet's eligibility", 0,
          1000000);
  t.text("--vc-scheme", o.vc_scheme,
         "deadlock avoidance: auto, single, dateline (tori) or hops (distance classes); every run is checked");
  t.whole("--injection-queue-bytes", o.injection_queue_bytes,
          "bytes of a NIC's injection queue per service level; messages wait in the application queue beyond", 1);
}

void add_packet_transport_options(OptionTable& t, PacketOptions& o) {
  add_packet_options(t, o);
  t.wholes("--mtu-bytes", o.mtu_bytes,
           "--transport packet or hybrid: the largest packet of each service class in bytes (one value: every class; 0 "
           "or none: one flit)",
           0, 1u << 30);
}

const std::vector<std::string>& packet_transport_option_names() {
  static const std::vector<std::string> names{"--flit-bytes", "--credit-bytes", "--clock-ns",
                                              "--switch",     "--scheduler",    "--nic-delay",
                                              "--vc-scheme",  "--injection-queue-bytes", "--mtu-bytes"};
  return names;
}

void add_zoom_options(OptionTable& t, ZoomOptions& z, const std::string& when) {
  t.text("--zoom", z.spec,
         when + ": the routers simulated at packet level, a zoom-selection spec: ids, tree-level, group, hottest, "
                "class-paths or all (see `interflow list zoom-selection`)");
  t.real("--zoom-epoch-ns", z.epoch_ns,
         when + ": how often the flow level takes back the rates the zoomed routers sustain, ns (0: 20 boundary "
                "latencies, at least 10 MTU times)",
         0, 1e15);
  t.real("--zoom-tolerance", z.tolerance,
         when + ": relative backlog growth that counts, margin of a cap below the delivered rate, and change below "
                "which a cap stands",
         0, 0.999);
  t.flag("--zoom-held-exits", z.held_exits,
         when + ": a region's exits to outside routers stand for the next router's input buffer, and messages from "
                "a zoomed router's endpoints leave at their flow-level rate, so congestion beyond a region pushes "
                "back into it (default: exits take packets at the cable's rate)");
}

const std::vector<std::string>& zoom_option_names() {
  static const std::vector<std::string> names{"--zoom", "--zoom-epoch-ns", "--zoom-tolerance", "--zoom-held-exits"};
  return names;
}

hybrid::HybridOptions hybrid_options(const flow::FlowTransportOptions& flow, const PacketSetup& sw,
                                     const PacketOptions& o, const NetworkOptions& network, const ZoomOptions& z) {
  hybrid::HybridOptions h;
  h.flow = flow;
  h.router = sw.router;
  h.clock = o.clock;
  h.local = network.links;
  h.mtu_bytes = o.mtu_bytes;
  h.injection_queue_bytes = o.injection_queue_bytes;
  h.vc_scheme = o.vc_scheme;
  h.epoch_s = z.epoch_ns * 1e-9;
  h.tolerance = z.tolerance;
  h.held_exits = z.held_exits;
  return h;
}

hybrid::ZoomChooser zoom_chooser(const hybrid::ZoomSelection& selection, const Topology& topology) {
  return [&selection, &topology](const MessageTable& m, const PathTable& p) {
    return selection.select({topology.network(), topology, m, p});
  };
}

packet::PacketTransportOptions packet_transport_options(const PacketOptions& o, std::uint64_t seed) {
  packet::PacketTransportOptions options;
  options.seed = seed;
  options.mtu_bytes = o.mtu_bytes;
  options.injection_queue_bytes = o.injection_queue_bytes;
  return options;
}

Json packet_network_json(const PacketSetup& s) {
  Json j = Json::object();
  j["clock_ns"] = s.fabric->clock_ns();
  j["flit_bytes"] = s.fabric->flit_bytes();
  j["credit_bytes"] = s.fabric->flit_bytes() * s.router.credit_flits;
  j["vc_scheme"] = s.scheme.name();
  j["vc_classes"] = s.scheme.classes;
  j["endpoints"] = s.fabric->num_nics();
  j["routers"] = s.fabric->num_routers();
  j["channels"] = s.fabric->num_channels();
  return j;
}

Json packet_stats_json(const packet::RunStats& st) {
  Json j = Json::object();
  j["cycles"] = st.cycles;
  j["flit_hops"] = st.flit_hops;
  j["credit_stalls"] = st.credit_stalls;
  j["application_queue_peak"] = st.app_queue_peak;
  if (!st.central_peak.empty()) {
    j["central_crossings"] = st.central_crossings;
    j["central_peak_flits"] = *std::max_element(st.central_peak.begin(), st.central_peak.end());
  }
  return j;
}

}  // namespace interflow::cli
