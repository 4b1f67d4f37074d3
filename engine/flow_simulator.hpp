#pragma once
// The part of the dynamic engine that every workload driver shares: routed flows with sizes are started
// one by one, bandwidth is re-shared (engine/classed_maxmin.hpp) once per batch of events at the same
// instant, and transfers end when their bits are sent. It keeps the per-flow times, the per-link bytes
// and busy time, and the time series in a DynamicResult. What starts a flow is the driver's business:
// start times and dependencies (DynamicEngine), task programs (TaskEngine).
//
// A driver's loop:  t = min(next_end(), its own next event); advance_to(t); end_due() and react to the
// ended flows; start flows (start()); resolve(); repeat until nothing is left; then close().
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "engine/classed_maxmin.hpp"
#include "engine/dynamic_engine.hpp"
#include "engine/indexed_heap.hpp"
#include "engine/network.hpp"
#include "engine/system.hpp"

namespace interflow {

class FlowSimulator {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // r.paths must hold the flows' paths; r's per-flow and per-link vectors are (re)initialised here.
  // service_class may be empty (every flow in class 0).
  FlowSimulator(const Network& net, DynamicResult& r, const FlowSet& flows, std::span<const double> bytes,
                std::span<const std::uint32_t> service_class, const DynamicOptions& options);

  // Starts flow f at the current time. Returns false if it needs no transfer (source = destination, no
  // route, 0 bytes): its state and times are then final (delivered after its latency, or at once).
  bool start(FlowId f);
  // The earliest time a transfer can end (+inf if none is under way).
  double next_end();
  // Moves the clock (never backwards) and returns the end of the current batch: events up to it are
  // handled together.
  double advance_to(double t);
  // Ends the transfers due by `horizon`, appending their flows to `ended` (times and state are set).
  void end_due(double horizon, std::vector<FlowId>& ended);
  // Re-shares bandwidth after a batch of starts and ends and schedules the next transfer ends.
  void resolve();
  // Closes the books at the end of the run: per-link bytes and busy time, makespan, time series, stats.
  void close();

  // The event loop of a driver with timed events of its own (`events`: a min-heap of items with a
  // `time`) and a list of `ready` items: each batch ends the transfers due (on_ended(flow)), handles
  // the driver's events due (on_event(event)) and what they made ready (on_ready(item)) until nothing
  // more happens at this instant, counts the batch's events, updates the progress line with
  // `done_count` and re-shares bandwidth. Returns when nothing is left to happen.
  template <typename Events, typename OnEnded, typename OnEvent, typename OnReady>
  void run(Events& events, std::vector<std::uint32_t>& ready, OnEnded&& on_ended, OnEvent&& on_event,
           OnReady&& on_ready, Progress* progress, const std::uint64_t& done_count) {
    std::vector<FlowId> ended;
    for (;;) {
      const double next = std::min(next_end(), events.empty() ? kNever : events.top().time);
      if (next == kNever) break;
      const double horizon = advance_to(next);
      ended.clear();
      end_due(horizon, ended);
      std::uint64_t batch = ended.size();
      for (FlowId f : ended) on_ended(f);
      for (;;) {
        while (!events.empty() && events.top().time <= horizon) {
          const auto e = events.top();
          events.pop();
          ++batch;
          on_event(e);
        }
        if (ready.empty()) break;
        while (!ready.empty()) {
          const std::uint32_t item = ready.back();
          ready.pop_back();
          on_ready(item);
        }
      }
      r_.events += batch;
      if (progress) progress->counter()->store(done_count, std::memory_order_relaxed);
      resolve();
    }
  }

  double now() const { return now_; }
  bool busy() const { return active_flows_ > 0; }

 private:
  enum class Phase : std::uint8_t { Waiting, Active, Done };
  struct Segment {
    double time, gbps;
    std::uint32_t active;
  };

  void settle_var(std::uint32_t v);  // bits carried by v up to now
  void verify();                     // compares the rates with the policy solved from scratch

  const Network& net_;
  DynamicResult& r_;
  const PathTable& paths_;
  const FlowSet& flows_;
  std::span<const double> bytes_;
  const DynamicOptions& options_;
  std::vector<double> capacity_, weight_;
  std::vector<FlowId> var_flow_;
  std::vector<std::uint32_t> var_class_;
  std::unique_ptr<ClassedMaxMin> solver_;

  // Per flow and per path variable, the fields a rate change updates together (one cache line).
  struct FlowProgress {
    double remaining_bits = 0;  // as of `last`
    double rate = 0;            // Gbit/s, the sum of its variables'
    double last = 0;
    std::uint32_t mark = 0;  // == stamp_: listed in touched_
    Phase phase = Phase::Waiting;
  };
  struct VarProgress {
    double rate = 0, last = 0, bits = 0;  // bits carried up to `last`
  };
  std::vector<FlowProgress> flow_;
  std::vector<VarProgress> var_;
  std::vector<std::uint32_t> link_active_;
  std::vector<double> busy_since_;
  IndexedMinHeap completion_;  // each active flow with a rate: when its transfer ends
  std::vector<Segment> segments_;
  std::vector<FlowId> touched_;
  Stopwatch solve_clock_;
  double total_gbps_ = 0, now_ = 0;
  std::uint32_t active_flows_ = 0, stamp_ = 0;
};

}  // namespace interflow
