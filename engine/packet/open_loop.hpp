#pragma once
// Open-loop runs of the packet engine (manual/packet.md "Runs"): synthetic traffic offered at a load,
// a warm-up, a measurement window and a drain.
//
// Every NIC generates messages of `message_bytes` on one service level as a Bernoulli process (a
// message in each cycle with probability load / message flits; the gaps are drawn geometric, which
// is the same process) or at a constant interval, to a destination chosen uniformly among the other
// endpoints, or to its fixed destination (a static pattern's pairing). Messages generated in
// [warmup, warmup + measure) are measured; generation stops at the window's end, and the run goes on
// until every measured message is delivered (drained) or `drain_limit` cycles have passed, which
// marks the load as beyond saturation.
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "engine/packet/packet_sim.hpp"

namespace interflow::packet {

struct TrafficConfig {
  double load = 0.1;                  // offered flits per cycle per NIC
  std::uint64_t message_bytes = 64;
  bool constant = false;              // constant interval instead of Bernoulli
  std::vector<EndpointId> destination;  // empty: uniform; else per source (kNone: that source is silent)
  std::uint32_t sl = 0;
};

struct RunConfig {
  Cycle warmup = 1000, measure = 10000, drain_limit = 100000;
};

struct OpenLoopResult {
  double offered = 0;   // flits per cycle per NIC generated in the window
  double accepted = 0;  // flits per cycle per NIC delivered in the window
  double mean_latency = 0, mean_network_latency = 0, latency_ci95 = 0;  // cycles, measured messages
  bool saturated = false;  // the measured messages did not drain within the limit, or accepted < 95 % of offered
};

// Runs `sim` (fresh, at cycle 0) under `traffic`; its stats() hold the details afterwards.
// `progress` (optional) gets a phase "simulating cycles" of warmup + measure cycles, then "draining".
OpenLoopResult run_open_loop(PacketSim& sim, const Fabric& fabric, const TrafficConfig& traffic, const RunConfig& run,
                             std::uint64_t seed, Progress* progress = nullptr);

}  // namespace interflow::packet
