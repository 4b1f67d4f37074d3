#pragma once
// A flow workload: flows with sizes, start times, dependencies, phases and service classes
// (Navaridas et al. 2019, §3.1 and §3.3: INRFlow's sized flows with causal relationships;
// manual/dynamic.md "The model"). It runs as one operation graph (flow_graph) on the application
// driver.
#include <cstdint>
#include <vector>

#include "core/flows.hpp"
#include "core/op_graph.hpp"
#include "core/types.hpp"

namespace interflow {

struct FlowWorkload {
  FlowSet flows;                             // src, dst, optional max-min weight
  std::vector<double> bytes;                 // per flow
  std::vector<double> start_s;               // per flow: earliest start (seconds)
  std::vector<std::uint32_t> after_offsets;  // CSR per flow into `after` (empty: no dependencies)
  std::vector<FlowId> after;                 // flows that must be delivered first
  // Optional phase per flow (0, 1, ...): a flow of phase p > 0 also waits until every flow of phase p-1
  // is delivered (INRFlow's causality-enhanced patterns). `after` may only name flows of the same or an
  // earlier phase.
  std::vector<std::uint32_t> phase;
  std::vector<std::uint32_t> service_class;  // per flow, optional (class 0)

  std::size_t size() const { return flows.size(); }
  void add(EndpointId src, EndpointId dst, double size_bytes, double start) {
    flows.add(src, dst);
    bytes.push_back(size_bytes);
    start_s.push_back(start);
  }
};

// Throws InputError for a workload that is inconsistent: list sizes, negative or non-finite sizes
// and times, endpoints beyond `endpoints`, dependencies on itself, on missing flows or on later phases.
void check_flow_workload(const FlowWorkload& w, std::uint32_t endpoints);

// The workload as an operation graph of `endpoints` ranks (rank e runs on endpoint e), its operations
// in start order (not grouped by rank): flow f is a send from rank src to rank dst that completes when
// delivered, not before start_s[f], with message key f (so it is routed as flow f); `after` becomes
// completion dependencies and each phase waits for a barrier (a calc of 0 s) after the previous
// phase. Start times all 0 and keys equal to the operations' own numbers are left out (they say
// nothing). `op_of` receives each flow's operation. Throws InputError for a dependency cycle.
OpGraph flow_graph(const FlowWorkload& w, std::uint32_t endpoints, std::vector<std::uint32_t>& op_of);

}  // namespace interflow
