#include "workloads/pattern.hpp"

#include "core/error.hpp"

namespace interflow::workloads {

void check_flow_budget(const PatternContext& ctx, std::uint64_t flows, const std::string& pattern) {
  if (flows > ctx.max_flows)
    throw InputError("pattern '" + pattern + "' would generate " + std::to_string(flows) +
                     " flows, more than the limit of " + std::to_string(ctx.max_flows) +
                     " (raise it with --max-flows if memory allows: about 40 bytes per flow plus its path)");
}

}  // namespace interflow::workloads
