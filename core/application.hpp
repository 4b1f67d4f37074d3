#pragma once
// An application: what a set of tasks (ranks) sends, as a task program (core/program.hpp) or an
// operation graph (core/op_graph.hpp: traces), where its tasks run, when it arrives and in which
// service class its messages travel. The application driver (engine/drivers/driver.hpp) runs a list
// of them on any transport, every one in its graph form.
#include <cstdint>
#include <string>
#include <vector>

#include "core/op_graph.hpp"
#include "core/program.hpp"
#include "core/types.hpp"

namespace interflow {

struct Application {
  std::string name;
  Program program;
  OpGraph graph;  // a trace (or any graph): its operation graph; the program is then unused
  bool is_graph() const { return graph.ranks > 0; }
  std::uint32_t tasks() const { return is_graph() ? graph.ranks : program.tasks; }
  std::vector<EndpointId> placement;  // per task: the endpoint it runs on
  // The last `data_ranks` ranks are not tasks but the homes of the tasks' data (storage devices:
  // workloads/app_markov.cpp); a data placement policy (storage/) places them, not the allocation.
  std::uint32_t data_ranks = 0;
  std::uint32_t compute_tasks() const { return tasks() - data_ranks; }
  // Optional: the phases it goes through, in order (the Markov-chain application's states).
  std::vector<std::string> phases;
  std::uint32_t service_class = 0;    // of its messages (unless an operation names its own)
  double arrival_s = 0;               // when its tasks start
};

// The operation graph an application runs as: its own graph, or its program converted with the same
// timing (append_program). `sends_in_order`: a task's operations also wait for the start of its
// earlier non-blocking sends, so that a send held back by a limit of messages in flight holds back
// the rest of its program, as a task executing it in order would be held.
OpGraph graph_form(const Application& app, bool sends_in_order = false);

// The number of service classes the applications' messages use (at least 1): their own classes and
// those their operations name.
std::uint32_t service_classes(const std::vector<Application>& apps);

}  // namespace interflow
