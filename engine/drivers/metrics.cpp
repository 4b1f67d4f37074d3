#include "engine/drivers/metrics.hpp"

#include <algorithm>

namespace interflow::drivers {

const char* state_name(FlowState s) {
  switch (s) {
    case FlowState::Delivered:
      return "delivered";
    case FlowState::Self:
      return "self";
    case FlowState::Unroutable:
      return "unroutable";
    case FlowState::Blocked:
      return "blocked";
  }
  return "?";
}

FlowTotals flow_totals(const TransportResult& r, std::span<const double> bytes) {
  FlowTotals t;
  std::vector<double> completion, rate;
  for (std::size_t f = 0; f < r.state.size(); ++f) {
    switch (r.state[f]) {
      case FlowState::Delivered:
        ++t.delivered;
        t.bytes += bytes[f];
        completion.push_back(r.finish_s[f] - r.start_s[f]);
        if (r.transfer_end_s[f] > r.start_s[f]) rate.push_back(bytes[f] * 8e-9 / (r.transfer_end_s[f] - r.start_s[f]));
        break;
      case FlowState::Self:
        ++t.self;
        break;
      case FlowState::Unroutable:
        ++t.unroutable;
        break;
      case FlowState::Blocked:
        ++t.blocked;
        break;
    }
  }
  t.completion_s = summarize(completion);
  t.rate_gbps = summarize(rate);
  t.mean_throughput_gbps = r.makespan_s > 0 ? t.bytes * 8e-9 / r.makespan_s : 0.0;
  return t;
}

std::vector<ClassTotals> class_totals(const TransportResult& r, std::span<const double> bytes,
                                      std::span<const std::uint32_t> service_class) {
  std::vector<ClassTotals> t;
  for (std::size_t f = 0; f < r.state.size(); ++f) {
    const std::uint32_t c = service_class.empty() ? 0 : service_class[f];
    if (c >= t.size()) t.resize(c + 1);
    ClassTotals& k = t[c];
    ++k.flows;
    if (r.state[f] != FlowState::Delivered) continue;
    const double completion = r.finish_s[f] - r.start_s[f];
    k.first_start_s = k.delivered == 0 ? r.start_s[f] : std::min(k.first_start_s, r.start_s[f]);
    k.last_finish_s = std::max(k.last_finish_s, r.finish_s[f]);
    ++k.delivered;
    k.bytes += bytes[f];
    k.completion_sum_s += completion;
    k.completion_max_s = std::max(k.completion_max_s, completion);
  }
  return t;
}

}  // namespace interflow::drivers
