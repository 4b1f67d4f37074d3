#pragma once
// A flow workload (core/flow_workload.hpp) run on a transport through the application driver: flows
// start at their start times once the flows they wait for are delivered (and, in phases, once the
// previous phase is), and the results come back per flow, in the workload's order.
#include <span>

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

// Per-flow results handed over while an open-loop run goes, so that a results file is written as the
// run goes (flows.csv) instead of after it.
class ResultStream {
 public:
  virtual ~ResultStream() = default;
  // Before the first flow starts, on the caller's thread (open the file here: a run refused before it
  // starts leaves nothing behind).
  virtual void begin() {}
  // On a thread of its own, one call at a time, with consecutive ranges that together cover every
  // message once, in order: messages [first, last) have their final results in r (per message);
  // message i is the workload's flow order[i] (order empty: flow i). Messages are numbered in start
  // order (ties in flow order). An exception thrown here ends the run with it.
  virtual void write(const FlowWorkload& workload, const TransportResult& r, std::span<const FlowId> order,
                     std::size_t first, std::size_t last) = 0;
};

// An open-loop workload run on `transport` without the application driver: the flows start in order of
// start time (ties in flow order) and nothing waits for a delivery, so the loop holds nothing per flow
// beyond the message table; with a streamed flow transport (FlowTransportOptions::stream) memory
// follows the flows in flight. The results are those of run_flows. Throws InputError for an
// inconsistent workload or one that is not open-loop.
// With a stream, each flow's results go to it once final (with the flow transport: when its transfer
// ends, or when it starts for a flow that sends nothing), in start order, from a second thread, while
// the run goes on.
TransportResult run_open_loop(const Network& net, Transport& transport, const FlowWorkload& workload,
                              Progress* progress = nullptr, ResultStream* stream = nullptr);

}  // namespace interflow::drivers
