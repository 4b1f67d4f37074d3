#pragma once
// Every registry, filled once at start-up by each folder's register_builtin().
#include "routing/registry.hpp"
#include "scheduler/allocation.hpp"
#include "scheduler/mapping.hpp"
#include "scheduler/selection.hpp"
#include "topologies/registry.hpp"
#include "workloads/application.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

struct Plugins {
  topo::TopologyRegistry topologies{"topology"};
  routing::RoutingRegistry routings{"routing"};
  workloads::PatternRegistry patterns{"pattern"};
  workloads::AppRegistry apps{"application"};
  scheduler::SelectionRegistry selections{"selection"};
  scheduler::AllocationRegistry allocations{"allocation"};
  scheduler::MappingRegistry mappings{"mapping"};

  Plugins() {
    topo::register_builtin(topologies);
    routing::register_builtin(routings);
    workloads::register_builtin(patterns);
    workloads::register_apps(apps);
    scheduler::register_selection_policies(selections);
    scheduler::register_allocation_policies(allocations);
    scheduler::register_mapping_policies(mappings);
  }
};

}  // namespace interflow::cli
