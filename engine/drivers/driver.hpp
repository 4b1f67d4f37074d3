#pragma once
// The application driver: runs applications, each as an operation graph (core/op_graph.hpp; task
// programs converted with the same timing, traces as read, flow workloads as built by flow_graph), on
// any transport (core/transport.hpp). It decides when operations start; the transport decides when
// messages are sent and delivered.
//
//   send   starts its message through the transport when ready (and, with a limit of messages in
//          flight, when its rank has a free slot); complete when its last bit has left (or, flagged
//          kSendUntilDelivered, when delivered)
//   recv   posted when ready; complete when posted and its message delivered (a message delivered
//          early waits as a pending notification: Navaridas et al. 2019, §3.3.2, Fig. 3)
//   calc   takes its duration (scaled by the CPU factor if flagged); calcs that use the CPU run one
//          at a time per rank, in the order they become ready
//
// An operation is ready when its dependencies are met (manual/traces.md) and its application has
// arrived, and starts no earlier than its `not_before`. Events at the same instant form one batch:
// transfer ends first, then deliveries, computations ended, arrivals and timed starts in time order
// (in that order on a tie), then the operations they made ready, last ready first. A run where ranks
// wait forever ends with a report of the first operation each waits in, and what it waits for.
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "core/application.hpp"
#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/transport.hpp"

namespace interflow::drivers {

struct DriverOptions {
  double cpu_scale = 1.0;           // multiplies every scaled calc (a program's compute())
  std::uint32_t max_in_flight = 0;  // per rank: messages under transfer at once (INRFlow's injmode); 0 = no limit
  bool record_operations = false;   // keep every operation's start and completion time
  bool summarise = true;            // per-application summaries and the blocked-task report
  Progress* progress = nullptr;
};

// A task that could never finish, and why.
struct BlockedTask {
  std::uint32_t app = 0, task = 0;
  std::uint64_t op = 0;  // index, within its rank, of the operation (of its graph form) it is stuck at
  std::string reason;
};

struct AppResult {
  double start_s = 0, end_s = 0;  // arrival, last task finished (NaN if some never did)
  std::uint64_t messages = 0;
  double bytes = 0;
  double mean_latency_s = 0, max_latency_s = 0;    // message delivery - start, over delivered messages
  double median_latency_s = 0, p99_latency_s = 0;  // (nearest-rank percentiles)
  double compute_s = 0;                            // summed over tasks
  bool complete = false;
  double runtime_s() const { return end_s - start_s; }
};

struct RunResult {
  // One message per send, applications in order; within an application, sends in operation order
  // (or, when the graph gives start times, by start time and message key).
  MessageTable messages;  // service_class empty when every message is in class 0
  std::vector<std::uint32_t> message_app;  // per message: its application (empty: one application)
  std::vector<std::uint32_t> message_op;   // per message: its send (global operation id)
  TransportResult flows;                   // per message: times and state; per link; series
  // Per task, applications concatenated (app a's task t is task_offset[a] + t).
  std::vector<std::uint32_t> task_offset;
  std::vector<double> task_finish_s, task_compute_s;
  std::vector<AppResult> apps;
  std::vector<BlockedTask> blocked;  // empty when every task finished
  // Global operation ids: operation o of application a is op_base[a] + o.
  std::vector<std::uint64_t> op_base;
  // With DriverOptions::record_operations: per operation, when it started and completed (NaN: never).
  std::vector<double> op_start_s, op_done_s;
  std::uint64_t unreceived_messages = 0;  // delivered but never received by a matching receive
  double makespan_s = 0;
};

// Throws InputError for a CPU factor that is not finite and >= 0.
void check_driver_options(const DriverOptions& options);

class Driver {
 public:
  Driver(const Network& net, Transport& transport, const DriverOptions& options);

  // Runs the applications to their end (or until nothing more can happen). Throws InputError for
  // inconsistent applications (placement size, endpoints beyond the network, graphs not built).
  RunResult run(const std::vector<Application>& apps);

 private:
  enum class EventKind : std::uint8_t { CalcDone, Arrival, Release };
  struct Event {
    double time;
    std::uint32_t id;  // an operation or an application
    EventKind kind;
    bool operator>(const Event& o) const {
      if (time != o.time) return time > o.time;
      if (kind != o.kind) return kind > o.kind;  // computations ended, then arrivals, then timed starts
      return id > o.id;
    }
  };
  // Per-rank FIFO queues of operations linked through next_queued_.
  struct RankQueues {
    std::vector<std::uint32_t> head, tail;  // per rank: first and last operation waiting, or kNone
    void reset(std::uint32_t ranks) {
      head.assign(ranks, kNone);
      tail.assign(ranks, kNone);
    }
  };
  struct Timed {
    double time;
    std::uint32_t op;
  };

  // Set-up.
  void take_applications(const std::vector<Application>& apps);
  void number_messages();
  void fill_messages();
  std::vector<std::uint32_t> order_messages();
  void sort_by_start(std::vector<std::uint32_t>& sends, std::vector<std::uint32_t>& keys) const;
  void link_dependents();
  void mark_awaited();
  void prepare_state();
  void list_initial_starts();
  void skip_to_initial_send();
  double next_initial_time() const;
  std::uint32_t pop_initial();
  // The event loop.
  void run_batches();
  void handle_due_events();
  void handle_event(const Event& e);
  void run_ready();
  // Operations.
  void run_op(std::uint32_t op);
  void start_due(std::uint32_t op);
  void enqueue(RankQueues& q, std::uint32_t rank, std::uint32_t op);
  std::uint32_t dequeue(RankQueues& q, std::uint32_t rank);
  void start_op(std::uint32_t op);
  void complete_op(std::uint32_t op);
  void notify(std::uint32_t op, bool started);
  void start_send(std::uint32_t op);
  void send_ended(MessageId msg);
  void delivered(MessageId msg);
  void begin_calc(std::uint32_t op);
  void calc_done(std::uint32_t op);
  void arrive(std::uint32_t app);
  // Results.
  void report_blocked();
  BlockedTask blocked_rank(std::uint32_t rank, std::uint32_t op) const;
  void count_unreceived();

  std::size_t app_of(std::uint32_t op) const;
  const OpGraph& graph_of_op(std::uint32_t op) const { return *graphs_[app_of(op)]; }
  std::uint32_t local(std::uint32_t op) const { return static_cast<std::uint32_t>(op - res_.op_base[app_of(op)]); }
  std::uint8_t flags_of(std::uint32_t op) const {
    const std::size_t a = app_of(op);
    return graphs_[a]->flags[op - res_.op_base[a]];
  }
  std::string describe(std::uint32_t op) const;

  const Network& net_;
  Transport& transport_;
  DriverOptions options_;
  const std::vector<Application>* apps_ = nullptr;
  std::vector<OpGraph> converted_;        // the graph forms of task programs
  std::vector<const OpGraph*> graphs_;    // per application: the graph it runs
  RunResult res_;
  std::uint32_t total_ops_ = 0, total_ranks_ = 0;

  // Per operation (global ids).
  std::vector<std::uint32_t> op_rank_, op_message_, pending_, next_queued_;
  std::vector<std::uint8_t> status_;
  std::vector<std::uint64_t> out_offsets_;  // who depends on each operation (entry: dependent << 1 | on_start)
  std::vector<std::uint32_t> dependents_;
  // Per message.
  std::vector<std::uint32_t> message_recv_;
  std::vector<std::uint8_t> delivered_;
  // Per rank: operations left, the CPU and its queue of calcs, messages in flight and the queue of
  // sends waiting for a slot (both queues linked through next_queued_).
  std::vector<std::uint32_t> ops_left_, in_flight_;
  RankQueues cpu_queue_, send_queue_;
  std::vector<std::uint8_t> cpu_busy_;

  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::vector<Timed> initial_;  // operations but sends free of dependencies with a start time, sorted
  std::size_t next_initial_ = 0, next_initial_send_ = 0;
  std::vector<std::uint32_t> ready_;
  std::vector<MessageId> sent_;
  double horizon_ = 0;  // transfer ends up to it are taken in the batch (Transport::advance_to)
  std::uint64_t batch_events_ = 0, sent_count_ = 0;
};

// The finish time of every task and the per-application summaries, from a result's per-task and
// per-message fields (used by the driver; exposed for tests).
void summarise_applications(RunResult& res, const std::vector<double>& arrival_s);

}  // namespace interflow::drivers
