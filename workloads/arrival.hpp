#pragma once
// Arrival processes: when the flows of a pattern start in the dynamic engine (the sized flows of
// Navaridas et al. 2019, §3.1, here injected all at once or at a rate). Each process is a plugin, one
// file each (arrival_zero.cpp, arrival_poisson.cpp), registered by name: `--arrival zero`,
// `--arrival poisson:load=0.3`.
#include <cstdint>
#include <string>

#include "core/flow_workload.hpp"
#include "core/registry.hpp"

namespace interflow::workloads {

// What a process may use to set start times.
struct ArrivalContext {
  std::uint32_t endpoints = 0;  // of the network
  double endpoint_gbps = 100;   // injection capacity of each endpoint
  std::uint64_t seed = 1;       // the run seed
};

class ArrivalProcess {
 public:
  virtual ~ArrivalProcess() = default;
  // Sets w.start_s for every flow (w.bytes is set).
  virtual void assign(FlowWorkload& w, const ArrivalContext& ctx) const = 0;
  // For the run's description: "all starting at time 0", "Poisson arrivals at 0.1 of injection capacity".
  virtual std::string describe() const = 0;
};

using ArrivalRegistry = Registry<ArrivalProcess>;
void register_arrivals(ArrivalRegistry& registry);
void register_zero_arrival(ArrivalRegistry& registry);
void register_poisson_arrival(ArrivalRegistry& registry);

}  // namespace interflow::workloads
