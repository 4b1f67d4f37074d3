#pragma once
// A flow workload from a traffic pattern (Navaridas et al. 2019, §3.1 and §3.3.1): the pattern's flows, each of
// `bytes`, starting as an arrival process says, optionally in phases of `phase_size` flows in pattern
// order, each phase starting when the previous one is delivered (INRFlow's causality-enhanced
// patterns).
#include <cstdint>
#include <string>

#include "core/flow_workload.hpp"
#include "workloads/arrival.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

struct PatternWorkload {
  FlowWorkload flows;
  PatternReport report;
  std::string description;  // "pattern uniform, 1e+06 bytes per flow, all starting at time 0"
};

// Throws InputError for a size that is not finite and >= 0.
PatternWorkload pattern_workload(const Pattern& pattern, const std::string& pattern_text, const PatternContext& ctx,
                                 double bytes, const ArrivalProcess& arrival, const ArrivalContext& arrival_ctx,
                                 std::uint64_t phase_size);

}  // namespace interflow::workloads
