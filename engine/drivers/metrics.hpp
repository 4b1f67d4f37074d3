#pragma once
// What a dynamic run delivered, summed from its per-message results (manual/output-files.md
// "summary.json of dynamic"): states, bytes, completion times and rates, per run and per service class.
#include <cstdint>
#include <span>
#include <vector>

#include "core/stats.hpp"
#include "core/transport.hpp"

namespace interflow::drivers {

struct FlowTotals {
  std::uint64_t delivered = 0, self = 0, unroutable = 0, blocked = 0;
  double bytes = 0;  // delivered
  Summary completion_s{}, rate_gbps{};  // over delivered flows: finish - start; bits / (transfer end - start)
  double mean_throughput_gbps = 0;      // delivered bits / makespan
};

// Per service class: what it delivered, over which span of time, and its flows' completion times.
struct ClassTotals {
  std::uint64_t flows = 0, delivered = 0;
  double bytes = 0, first_start_s = 0, last_finish_s = 0, completion_sum_s = 0, completion_max_s = 0;
  double throughput_gbps() const {
    return last_finish_s > first_start_s ? bytes * 8e-9 / (last_finish_s - first_start_s) : 0.0;
  }
  double mean_completion_s() const { return delivered ? completion_sum_s / static_cast<double>(delivered) : 0.0; }
};

// `bytes` and `service_class` per message, in the result's order (service_class may be empty).
FlowTotals flow_totals(const TransportResult& r, std::span<const double> bytes);
std::vector<ClassTotals> class_totals(const TransportResult& r, std::span<const double> bytes,
                                      std::span<const std::uint32_t> service_class);

// "delivered", "self", "unroutable", "blocked".
const char* state_name(FlowState s);

}  // namespace interflow::drivers
