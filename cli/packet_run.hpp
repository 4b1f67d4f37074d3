#pragma once
// `interflow packet`: composition of a packet-level run from the registries (network, routing,
// destination pattern) and the packet engine (engine/packet/), and its results.
#include <memory>
#include <string>

#include "cli/options.hpp"
#include "cli/plugins.hpp"
#include "cli/packet_setup.hpp"
#include "cli/setup.hpp"
#include "engine/packet/open_loop.hpp"

namespace interflow::cli {

struct PacketConfig {
  NetworkOptions network;
  PacketOptions engine;  // the clock, the switch model and its scheduler, the NICs
  std::string pattern = "uniform";  // the destination rule of every SL
  // The SLs: generator specs (--sl), or a named mix (--mix), or else one 'messages' SL of these.
  std::vector<std::string> sls;
  std::string mix;
  double load = 0.1;
  std::uint64_t message_bytes = 64;
  std::uint32_t mtu_bytes = 0;  // 0: one flit
  std::string process = "bernoulli";
  packet::RunConfig run;
  bool progress = true;
};

struct PacketRun {
  NetworkSetup setup;
  std::unique_ptr<PacketSetup> net;  // channels, routes, switch, VC scheme
  std::unique_ptr<packet::DestinationRule> rule;
  std::vector<std::string> sl_specs;  // the generator of each SL, as run
  std::vector<std::unique_ptr<packet::SlGenerator>> traffic;
  std::unique_ptr<packet::PacketSim> sim;
  packet::OpenLoopResult result;
  Spec pattern_spec;
  ParamSet pattern_params;
  double build_seconds = 0, route_seconds = 0, simulate_seconds = 0;
};

PacketRun run_packet(const Plugins& plugins, const PacketConfig& config);

}  // namespace interflow::cli
