#pragma once
// Applications given as operation graphs (engine/op_graph.hpp: traces, or task programs converted) on
// the dynamic engine's network model. Every send is a flow of the FlowSimulator; operations start as
// their dependencies allow (manual/traces.md). The results have the task engine's form, a rank being a
// task: per-rank finish and computation time, per-application summaries, per-message flows, and a
// report of the ranks that wait forever.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/op_graph.hpp"
#include "engine/task_engine.hpp"

namespace interflow {

struct GraphApplication {
  std::string name;
  OpGraph graph;
  std::vector<EndpointId> placement;  // per rank: the endpoint it runs on
  std::uint32_t service_class = 0;    // of its messages (unless an operation names its own)
  double arrival_s = 0;               // when its ranks start
};

// The graph form of a task-program application (same timing).
GraphApplication as_graph(const Application& app);

class GraphEngine {
 public:
  GraphEngine(const Network& net, const Routing& routing) : net_(net), routing_(routing) {}
  GraphEngine(const Network&&, const Routing&) = delete;
  GraphEngine(const Network&, const Routing&&) = delete;

  // Throws InputError for inconsistent applications (placement size, endpoints beyond the network).
  // options.max_in_flight is not applied to graphs (a trace fixes when messages are sent).
  TaskResult run(const std::vector<GraphApplication>& apps, const TaskOptions& options) const;

 private:
  const Network& net_;
  const Routing& routing_;
};

// Runs applications on the task engine, or on the graph engine (all in their graph form) when one of
// them is a trace.
TaskResult run_applications(const Network& net, const Routing& routing, const std::vector<Application>& apps,
                            const TaskOptions& options);

}  // namespace interflow
