#pragma once
// A flow workload (core/flow_workload.hpp) run on a transport through the application driver: flows
// start at their start times once the flows they wait for are delivered (and, in phases, once the
// previous phase is), and the results come back per flow, in the workload's order.
#include "core/flow_workload.hpp"
#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/transport.hpp"

namespace interflow::drivers {

// Throws InputError for an inconsistent workload (check_flow_workload) or a dependency cycle.
TransportResult run_flows(const Network& net, Transport& transport, const FlowWorkload& workload,
                          Progress* progress = nullptr);

}  // namespace interflow::drivers
