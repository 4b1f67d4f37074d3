#pragma once
// Open-loop runs of the packet engine (manual/packet.md "Runs"): synthetic traffic on one or more
// service levels, a warm-up, a measurement window and a drain.
//
// SL i's messages come from generator i (traffic.hpp). Messages generated in [warmup, warmup +
// measure) are measured; generation stops at the window's end, and the run goes on until every
// measured message is delivered (drained) or `drain_limit` cycles have passed, which marks the load
// as beyond saturation.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "engine/packet/packet_sim.hpp"
#include "engine/packet/traffic.hpp"

namespace interflow::packet {

struct RunConfig {
  Cycle warmup = 1000, measure = 10000, drain_limit = 100000;
};

// Throughputs in flits per cycle per NIC inside the window; latencies in cycles over the measured
// messages (end to end: generation to reception of the last packet, application queue included;
// network: first packet's injection to reception).
struct LoadResult {
  double offered = 0, accepted = 0;
  double mean_latency = 0, mean_network_latency = 0, latency_ci95 = 0;
  bool saturated = false;  // measured messages left undelivered at the limit, or accepted < 95 % of offered
};

struct OpenLoopResult {
  LoadResult total;            // every SL together (latencies: over all measured messages)
  std::vector<LoadResult> sl;  // per SL
};

// Runs `sim` (fresh, at cycle 0) with one generator per service level; its stats() hold the details
// afterwards. `progress` (optional) gets a phase "simulating cycles" of warmup + measure cycles, then
// "draining".
OpenLoopResult run_open_loop(PacketSim& sim, const Fabric& fabric, std::vector<std::unique_ptr<SlGenerator>>& traffic,
                             const RunConfig& run, std::uint64_t seed, Progress* progress = nullptr);

// The results of one SL's (or several SLs' summed) statistics over a window of `window` cycles.
LoadResult load_result(const SlStats& s, double nics, double window);

}  // namespace interflow::packet
