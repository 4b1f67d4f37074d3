#include "workloads/pattern_workload.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

namespace interflow::workloads {

PatternWorkload pattern_workload(const Pattern& pattern, const std::string& pattern_text, const PatternContext& ctx,
                                 double bytes, const ArrivalProcess& arrival, const ArrivalContext& arrival_ctx,
                                 std::uint64_t phase_size) {
  if (!(bytes >= 0) || !std::isfinite(bytes))
    throw InputError("--bytes " + std::to_string(bytes) + ": expected a finite size >= 0");
  PatternWorkload out;
  out.report = pattern.generate(ctx, out.flows.flows);
  const std::size_t n = out.flows.size();
  out.flows.bytes.assign(n, bytes);
  arrival.assign(out.flows, arrival_ctx);
  out.description = "pattern " + pattern_text + ", " + number_text(bytes) + " bytes per flow, " + arrival.describe();
  if (phase_size > 0) {
    out.flows.phase.resize(n);
    for (std::size_t f = 0; f < n; ++f) out.flows.phase[f] = static_cast<std::uint32_t>(f / phase_size);
    out.description += ", in phases of " + std::to_string(phase_size) + " flows";
  }
  return out;
}

}  // namespace interflow::workloads
