#pragma once
// The packet engine's network, shared by `interflow packet` (open-loop traffic) and the packet
// transport of `interflow dynamic` and `interflow schedule` (closed-loop workloads): the channels,
// every endpoint pair routed, the switch model with its output scheduler, and the deadlock-free
// virtual-channel scheme for those routes.
#include <cstdint>
#include <memory>
#include <string>

#include "cli/options.hpp"
#include "cli/plugins.hpp"
#include "cli/setup.hpp"
#include "engine/flow/flow_transport.hpp"
#include "engine/hybrid/hybrid_transport.hpp"
#include "engine/packet/packet_transport.hpp"

namespace interflow::cli {

struct PacketOptions {
  packet::ClockConfig clock;
  std::string switch_model = "vct";
  std::string scheduler = "rr";
  std::string vc_scheme = "auto";
  std::uint32_t nic_delay = 1;
  std::uint64_t injection_queue_bytes = 229376;
  std::uint32_t credit_bytes = 0;  // the credit unit; 0: one flit
  std::uint64_t max_pairs = 20'000'000;  // refuse networks with more endpoint pairs (every pair is routed)
  // The packet transport (dynamic, schedule): the largest packet of each service class (one for all).
  std::vector<std::uint32_t> mtu_bytes;
};

// The hybrid transport's own options (manual/hybrid.md): the zoom-selection spec, the epoch of its
// caps in ns (0: the default) and their tolerance.
struct ZoomOptions {
  std::string spec;
  double epoch_ns = 0;
  double tolerance = 0.02;
  bool held_exits = false;
};

struct PacketSetup {
  PathTable paths;  // one flow per ordered endpoint pair, s * N + d
  std::unique_ptr<packet::Fabric> fabric;
  std::unique_ptr<packet::ChannelRoutes> routes;
  packet::VcScheme scheme;
  packet::RouterConfig router;
  Spec switch_spec, scheduler_spec;
  ParamSet switch_params, scheduler_params;
  double build_seconds = 0, route_seconds = 0;

  packet::PacketNetwork network(const Network& net) const {
    return {&net, fabric.get(), &paths, routes.get(), &scheme, router};
  }
};

// Checks the switch and scheduler specs (call it before any long work).
void validate_packet_options(const Plugins& plugins, const PacketOptions& o);

// The switch model and its output scheduler alone (the hybrid transport builds its own network).
std::unique_ptr<PacketSetup> build_switch_setup(const Plugins& plugins, const PacketOptions& o,
                                                std::uint32_t service_levels);

// Builds the packet network of `setup` for traffic on `service_levels` SLs.
std::unique_ptr<PacketSetup> build_packet_setup(const Plugins& plugins, const NetworkSetup& setup,
                                                const NetworkOptions& network, const PacketOptions& o,
                                                std::uint32_t service_levels);

// --flit-bytes, --credit-bytes, --clock-ns, --switch, --scheduler, --nic-delay, --vc-scheme,
// --injection-queue-bytes.
void add_packet_options(OptionTable& t, PacketOptions& o);
// Those and --mtu-bytes (per service class), for the commands that run the packet transport, and
// their names (for refusing them without it).
void add_packet_transport_options(OptionTable& t, PacketOptions& o);
const std::vector<std::string>& packet_transport_option_names();

// --zoom, --zoom-epoch-ns, --zoom-tolerance (`when` says where they apply, e.g. "--transport hybrid"),
// and their names (for refusing them elsewhere).
void add_zoom_options(OptionTable& t, ZoomOptions& z, const std::string& when);
const std::vector<std::string>& zoom_option_names();

// The hybrid transport's options: the flow level's, the switch model of `sw`, the packet options, the
// zoomed routers' local ports at the network's endpoint rate, and the zoom's epoch and tolerance.
hybrid::HybridOptions hybrid_options(const flow::FlowTransportOptions& flow, const PacketSetup& sw,
                                     const PacketOptions& o, const NetworkOptions& network, const ZoomOptions& z);

// The zoomed routers for a run's routed messages, by the selection (kept by reference).
hybrid::ZoomChooser zoom_chooser(const hybrid::ZoomSelection& selection, const Topology& topology);

// The packet transport's options from the user's.
packet::PacketTransportOptions packet_transport_options(const PacketOptions& o, std::uint64_t seed);

// The per-run summary fields of a packet network: clock, flit size, VC scheme, sizes.
Json packet_network_json(const PacketSetup& s);
// A run's engine counters: cycles, flit_hops, credit_stalls, application_queue_peak, and for
// hierarchical switches (opa) central_crossings and central_peak_flits.
Json packet_stats_json(const packet::RunStats& st);

}  // namespace interflow::cli
