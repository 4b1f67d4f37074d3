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

// Whether every flow of the workload starts at its start time alone: no dependencies, no phases
// (an open-loop workload: a flow list or an arrival process).
bool open_loop(const FlowWorkload& workload);
// Whether streaming it (FlowTransportOptions::stream) can hold fewer flows than the run has: it is
// open-loop and its flows do not all start at one instant (those would all be in transfer at once,
// and the held layout, sized once, is leaner for them).
bool worth_streaming(const FlowWorkload& workload);

// An open-loop workload run on `transport` without the application driver: the flows start in order of
// start time (ties in flow order) and nothing waits for a delivery, so the loop holds nothing per flow
// beyond the message table; with a streamed flow transport (FlowTransportOptions::stream) memory
// follows the flows in flight. The results are those of run_flows. Throws InputError for an
// inconsistent workload or one that is not open-loop.
TransportResult run_open_loop(const Network& net, Transport& transport, const FlowWorkload& workload,
                              Progress* progress = nullptr);

}  // namespace interflow::drivers
