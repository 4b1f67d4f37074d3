#pragma once
// Applications of tasks running programs (engine/program.hpp) on the dynamic engine's network model.
//
// Every message of every program is a flow of the FlowSimulator; it starts when its task executes the
// send, and its receive completes when it is delivered. Tasks compute, wait for messages (early ones
// are kept as pending notifications, seed 003 Fig. 3) and for their non-blocking operations; several
// applications share the network, each on its own endpoints, arriving at its own time, in its own
// service class. A run where tasks wait forever ends with a report of who waits for what.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/dynamic_engine.hpp"
#include "engine/op_graph.hpp"
#include "engine/program.hpp"

namespace interflow {

struct Application {
  std::string name;
  Program program;
  OpGraph graph;  // a trace: its operation graph (program unused), run by the graph engine
  bool is_trace() const { return graph.ranks > 0; }
  std::uint32_t tasks() const { return is_trace() ? graph.ranks : program.tasks; }
  std::vector<EndpointId> placement;  // per task: the endpoint it runs on
  std::uint32_t service_class = 0;    // of its messages (unless an operation names its own)
  double arrival_s = 0;               // when its tasks start
};

struct TaskOptions {
  DynamicOptions dynamic;           // seed, policy, path memory, verify, series...
  double cpu_scale = 1.0;           // multiplies every compute() duration
  std::uint32_t max_in_flight = 0;  // per task: messages under transfer at once (INRFlow's injmode); 0 = no limit
  bool record_operations = false;   // graph engine: keep every operation's start and completion time
};

// A task that could never finish, and why.
struct BlockedTask {
  std::uint32_t app = 0, task = 0;
  std::uint64_t op = 0;  // index of the operation it is stuck at, within its program
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

struct TaskResult {
  // One flow per message, applications in order, each task's sends in program order.
  DynamicWorkload messages;  // src/dst endpoints, bytes, service class
  std::vector<std::uint32_t> message_app;
  DynamicResult flows;
  // Per task, applications concatenated (app a's task t is task_offset[a] + t).
  std::vector<std::uint32_t> task_offset;
  std::vector<double> task_finish_s, task_compute_s;
  std::vector<AppResult> apps;
  std::vector<BlockedTask> blocked;  // empty when every task finished
  // Graph engine with TaskOptions::record_operations: per operation (applications concatenated), when
  // it started and completed (NaN if it never did).
  std::vector<double> op_start_s, op_done_s;
  std::uint64_t unreceived_messages = 0;  // delivered but never received by a matching receive
  double makespan_s = 0;
};

// Shared by the task and graph engines: the options' CPU factor must be finite and >= 0; an
// application's name in messages; checks an application's placement and arrival (InputError naming
// `what`); routes res.messages into res.flows.paths (timing it); fills res.apps from the per-task and
// per-message results.
void check_task_options(const TaskOptions& options);
std::string application_label(std::size_t index, const std::string& name);
void check_application(const Network& net, const std::string& what, std::uint32_t tasks,
                       const std::vector<EndpointId>& placement, double arrival_s);
void route_messages(const Network& net, const Routing& routing, TaskResult& res, const DynamicOptions& options);
void summarise_applications(TaskResult& res, const std::vector<double>& arrival_s);

class TaskEngine {
 public:
  TaskEngine(const Network& net, const Routing& routing) : net_(net), routing_(routing) {}
  TaskEngine(const Network&&, const Routing&) = delete;
  TaskEngine(const Network&, const Routing&&) = delete;

  // Throws InputError for inconsistent applications (placement size, endpoints beyond the network).
  TaskResult run(const std::vector<Application>& apps, const TaskOptions& options) const;

 private:
  const Network& net_;
  const Routing& routing_;
};

}  // namespace interflow
