#pragma once
// The transport: how the network carries messages, behind one narrow interface between "what is sent"
// (the application driver, engine/drivers/) and "how the network carries it" (the flow-level
// transport of engine/flow/, later the packet engine and the hybrid zoom). The driver decides when a
// message starts; the transport decides when its last bit has left its source (the transfer end, which
// completes a send) and when its last bit has arrived (its delivery, which completes a receive).
//
// The driver's loop (manual/design.md "The transport"):
//
//   open(messages)                       every message of the run, before the first start
//   repeat:
//     own = the driver's own next event
//     t = min(next_event(own), own);        stop when both are never
//     horizon = advance_to(t)            events up to `horizon` form one batch (same instant)
//     take_sent(horizon, sent)           transfers that ended: complete their sends
//     while next_delivery() <= horizon:  pop_delivery() in time order, interleaved with the
//                                        driver's own events by time (deliveries first on a tie)
//     start(m) for the messages the batch released, at now()
//     end_batch()                        the transport re-plans (the flow model re-shares bandwidth)
//   close()                              per-link totals, time series, statistics
//
// Every message started is eventually sent and delivered exactly once, or stays blocked (a rate of 0
// forever, or never started); its times are written into the TransportResult.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/flows.hpp"
#include "core/network.hpp"
#include "core/paths.hpp"
#include "core/routing.hpp"
#include "core/types.hpp"

namespace interflow {

using MessageId = std::uint32_t;

// The messages of a run, known before it starts (a transport may route them all at once).
struct MessageTable {
  FlowSet ends;                              // source and destination endpoints, optional max-min weight
  std::vector<double> bytes;                 // per message
  std::vector<std::uint32_t> service_class;  // per message (empty: every message in class 0)
  // Optional: the index that seeds each message's routing and orders adaptive routing (empty: the
  // message's own number). Lets a driver number messages for memory locality and still route them
  // exactly as the static engine routes the same flows.
  std::vector<std::uint32_t> route_index;
  // Optional: 1 for the messages whose delivery the driver waits for (a receive, or a flow others
  // depend on); a transport reports only those deliveries (empty: every message's).
  std::vector<std::uint8_t> awaited;

  std::size_t size() const { return ends.size(); }
  std::uint32_t class_of(MessageId m) const { return service_class.empty() ? 0 : service_class[m]; }
  bool delivery_awaited(MessageId m) const { return awaited.empty() || awaited[m] != 0; }
};

enum class FlowState : std::uint8_t { Delivered, Self, Unroutable, Blocked };

// The flow transport's profile (--profile; manual/dynamic.md "Profile"): where the simulation's time
// went, every batch timed, and the sizes of the sets the solver re-solved. The rest of the simulation
// time is the driver's (events, dependencies, tasks, deliveries).
struct TransportProfile {
  bool on = false;
  double solve_s = 0;        // the incremental solver's updates
  double rates_s = 0;        // new rates into the flows: bits sent so far, remaining bits, totals
  double heap_s = 0;         // transfer ends re-keyed in the completion heap
  double ends_s = 0;         // transfer ends taken: paths released, deliveries scheduled
  double starts_s = 0;       // transfers started: paths activated
  std::uint64_t heap_updates = 0;
  std::uint64_t max_solved = 0, max_changed = 0;  // largest per batch
  // Batches by the number of variables re-solved: [0] none, [1] one, [2] 2-3, [3] 4-7, ... (log2).
  std::vector<std::uint64_t> solved_log2;
  void count_batch(std::uint64_t solved, std::uint64_t changed);
};

// What a transport reports of a run, per message (in message order) and per link.
struct TransportResult {
  PathTable paths;  // empty when the transport routed each message as it started (streamed)
  // Streamed: per message its number of path variables (0: not started or unroutable), and in all.
  std::vector<std::uint32_t> path_vars;
  std::uint64_t total_path_vars = 0;
  std::uint32_t vars_of(MessageId m) const {
    return path_vars.empty() ? paths.end_var(m) - paths.first_var(m) : path_vars[m];
  }
  std::uint64_t num_path_vars() const { return path_vars.empty() ? paths.num_vars() : total_path_vars; }
  // Per message.
  std::vector<FlowState> state;
  std::vector<double> start_s, transfer_end_s, finish_s;  // finish = last bit delivered (NaN: never)
  std::vector<float> latency_s;                           // longest path latency of the message
  // Per link.
  std::vector<double> link_bytes, link_busy_s;
  // Time series: aggregate rate (Gbit/s, time-averaged per bin) and mean number of active messages.
  double bin_s = 0;
  std::vector<double> series_gbps, series_active;
  // Totals.
  double makespan_s = 0;
  std::uint64_t batches = 0, events = 0;
  // Flow transport: the incremental solver's work (0 for other transports).
  std::uint64_t solved_vars = 0, changed_vars = 0, solver_rounds = 0;
  // Updates solved for every active variable because the weights lie more than 2^30 apart
  // (engine/maxmin/incremental_maxmin.hpp).
  std::uint64_t spread_solves = 0;
  std::string rate_solver;  // flow transport: the incremental solver's kind (variables, groups, auto)
  // --rate-solver auto: the time and batch at which the run first moved to groups (negative: it did
  // not); how many times it changed solver (to groups and back), and the batches solved over groups
  // (every batch under `groups`).
  double groups_from_s = -1;
  std::uint64_t groups_from_batch = 0;
  std::uint32_t solver_switches = 0;
  std::uint64_t batches_over_groups = 0;
  // Over groups: transfers followed by their group's clock, and by a mix's (multipath or capped).
  std::uint64_t group_clocked = 0, mix_clocked = 0;
  double route_seconds = 0, simulate_seconds = 0, solve_seconds = 0;
  double max_verify_error = 0;  // flow transport with verification: largest relative rate difference found
  // Flow transport with a batch tolerance: transfers ended before they were due, by how much at most
  // (seconds, and relative to the time they were due), and the bytes they so did not send.
  double batch_tolerance = 0;
  std::uint64_t ended_early = 0;
  double max_early_s = 0, max_early_relative = 0, early_bytes_cut = 0;
  TransportProfile profile;  // flow transport with --profile

  // Sizes the time series to `bins` (at least 1) zeroed bins over the makespan (set it first);
  // returns false when the makespan is 0 and the series stay empty of time.
  bool start_series(std::uint32_t bins);
};

class Transport {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  virtual ~Transport() = default;

  // Takes every message of the run (kept by reference until close()) and the result to fill.
  virtual void open(const MessageTable& messages, TransportResult& result) = 0;
  // The current time (seconds).
  virtual double now() const = 0;
  // Starts message m now. Returns false when it needs no transfer (source = destination, no route,
  // 0 bytes): it is then sent at once (the caller completes its send) and its delivery is queued
  // (if awaited).
  virtual bool start(MessageId m) = 0;
  // The earliest transfer end or awaited delivery still to come (kNever if none). `bound` is the
  // driver's own next event: a transport that finds its events by simulating ahead (the packet
  // engine) simulates no further than `bound`, since what the driver does then may change what
  // follows; it then returns a time after `bound` (or kNever) when it knows of no event up to it.
  virtual double next_event(double bound) = 0;
  // Moves the clock to t (never backwards); returns the end of the batch that starts there: transfer
  // ends up to it are taken in this batch, at the batch's time. Starts, deliveries and the driver's
  // own events are due only at or before the batch's time, so nothing starts early.
  virtual double advance_to(double t) = 0;
  // Appends the messages whose transfer ended by `horizon`, in the order they ended.
  virtual void take_sent(double horizon, std::vector<MessageId>& sent) = 0;
  // The time of the earliest awaited delivery still to come (kNever if none), and taking it. A
  // delivery nobody awaits is only written into the result (its finish time).
  virtual double next_delivery() const = 0;
  virtual MessageId pop_delivery() = 0;
  // After a batch of starts, ends and deliveries.
  virtual void end_batch() = 0;
  // Closes the books: per-link totals, makespan, time series, statistics.
  virtual void close() = 0;
  // Whether any started message is still under transfer.
  virtual bool busy() const = 0;
};

// Makes a fresh transport for each run (a transport serves one run: open ... close).
using TransportFactory = std::function<std::unique_ptr<Transport>()>;

// Routes every message of `messages` with `routing`, in route-index order when one is given (see
// MessageTable::route_index), into a table in message order.
PathTable route_messages(const Network& net, const Routing& routing, const MessageTable& messages,
                         const RouteContext& ctx);

}  // namespace interflow
