#pragma once
// The dynamic flow engine: flows with sizes, start times and dependencies share the network over
// continuous simulated time. Every time flows start or finish, the weighted max-min fair rates are
// brought up to date incrementally (engine/incremental_maxmin.hpp); a flow's rate is the sum of the
// rates of its paths (the same variables as the static engine). A flow's last bit is delivered one
// path latency after its transfer ends; flows listed in `after` must be delivered before a flow
// starts. Events at the same instant are handled as one batch.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/class_policy.hpp"
#include "engine/flows.hpp"
#include "engine/network.hpp"
#include "engine/paths.hpp"
#include "engine/progress.hpp"
#include "engine/routing.hpp"

namespace interflow {

struct DynamicWorkload {
  FlowSet flows;                             // src, dst, optional max-min weight
  std::vector<double> bytes;                 // per flow
  std::vector<double> start_s;               // per flow: earliest start (seconds)
  std::vector<std::uint32_t> after_offsets;  // CSR per flow into `after` (empty: no dependencies)
  std::vector<FlowId> after;                 // flows that must be delivered first
  // Optional phase per flow (0, 1, ...): a flow of phase p > 0 also waits until every flow of phase p-1
  // is delivered (INRFlow's causality-enhanced patterns). `after` may only name flows of the same or an
  // earlier phase.
  std::vector<std::uint32_t> phase;
  std::vector<std::uint32_t> service_class;  // per flow, optional (class 0); how classes share: DynamicOptions::policy

  std::size_t size() const { return flows.size(); }
  void add(EndpointId src, EndpointId dst, double size_bytes, double start) {
    flows.add(src, dst);
    bytes.push_back(size_bytes);
    start_s.push_back(start);
  }
};

struct DynamicOptions {
  std::uint64_t seed = 1;
  std::uint64_t max_path_bytes = 8ULL << 30;
  std::uint32_t series_bins = 200;  // time series resolution over the makespan
  ClassPolicy policy;               // how service classes share links (default NP)
  bool verify = false;              // re-solve from scratch after every batch and compare (tests)
  bool incremental = true;          // false: every batch re-solves all active flows (for comparison)
  Progress* progress = nullptr;
};

enum class FlowState : std::uint8_t { Delivered, Self, Unroutable, Blocked };

struct DynamicResult {
  PathTable paths;
  // Per flow.
  std::vector<FlowState> state;
  std::vector<double> start_s, transfer_end_s, finish_s;  // finish = last bit delivered
  std::vector<float> latency_s;                           // longest path latency of the flow
  // Per link.
  std::vector<double> link_bytes, link_busy_s;
  // Time series: aggregate rate (Gbit/s, time-averaged per bin) and mean number of active flows.
  double bin_s = 0;
  std::vector<double> series_gbps, series_active;
  // Totals.
  double makespan_s = 0;
  std::uint64_t batches = 0, events = 0;
  std::uint64_t solved_vars = 0, changed_vars = 0, solver_rounds = 0;
  double route_seconds = 0, simulate_seconds = 0, solve_seconds = 0;
  double max_verify_error = 0;  // with DynamicOptions::verify: largest relative rate difference found
};

class DynamicEngine {
 public:
  DynamicEngine(const Network& net, const Routing& routing) : net_(net), routing_(routing) {}
  DynamicEngine(const Network&&, const Routing&) = delete;
  DynamicEngine(const Network&, const Routing&&) = delete;

  // Throws InputError for a workload that is inconsistent (sizes, negative bytes or times, bad ids,
  // a dependency cycle).
  DynamicResult run(const DynamicWorkload& workload, const DynamicOptions& options) const;

 private:
  // The event loop over flows already routed (`routed` in the workload's flow order).
  DynamicResult simulate(const DynamicWorkload& w, PathTable routed, const DynamicOptions& o) const;

  const Network& net_;
  const Routing& routing_;
};

}  // namespace interflow
