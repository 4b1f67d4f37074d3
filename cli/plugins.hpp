#pragma once
// Every registry, filled once at start-up by each folder's register functions; `interflow list` and
// the manual's reference pages come from these, and every command builds its plugins from them.
#include "engine/hybrid/zoom_selection.hpp"
#include "engine/maxmin/class_policy.hpp"
#include "engine/packet/output_scheduler.hpp"
#include "engine/packet/switch_model.hpp"
#include "engine/packet/traffic.hpp"
#include "routing/registry.hpp"
#include "scheduler/allocation.hpp"
#include "scheduler/mapping.hpp"
#include "scheduler/selection.hpp"
#include "storage/placement.hpp"
#include "topologies/registry.hpp"
#include "workloads/application.hpp"
#include "workloads/arrival.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

struct Plugins {
  topo::TopologyRegistry topologies{"topology"};
  routing::RoutingRegistry routings{"routing"};
  workloads::PatternRegistry patterns{"pattern"};
  workloads::ArrivalRegistry arrivals{"arrival"};
  workloads::AppRegistry apps{"application"};
  maxmin::ClassPolicyRegistry class_policies{"class-policy"};
  scheduler::SelectionRegistry selections{"selection"};
  scheduler::AllocationRegistry allocations{"allocation"};
  scheduler::MappingRegistry mappings{"mapping"};
  storage::PlacementRegistry placements{"placement"};
  packet::OutputSchedulerRegistry output_schedulers{"output-scheduler"};
  packet::SwitchRegistry switches{"switch"};
  packet::TrafficRegistry traffic{"traffic"};
  packet::TrafficMixRegistry traffic_mixes{"traffic-mix"};
  hybrid::ZoomSelectionRegistry zoom_selections{"zoom-selection"};

  Plugins() {
    topo::register_builtin(topologies);
    routing::register_builtin(routings);
    workloads::register_builtin(patterns);
    workloads::register_arrivals(arrivals);
    workloads::register_apps(apps);
    maxmin::register_class_policies(class_policies);
    scheduler::register_selection_policies(selections);
    scheduler::register_allocation_policies(allocations);
    scheduler::register_mapping_policies(mappings);
    storage::register_placement_policies(placements);
    packet::register_output_schedulers(output_schedulers);
    packet::register_switches(switches);
    packet::register_traffic(traffic);
    packet::register_traffic_mixes(traffic_mixes);
    hybrid::register_zoom_selections(zoom_selections);
  }

  // Calls f(registry) for every registry, in the order `interflow list` prints them.
  template <class F>
  void for_each(F&& f) const {
    f(topologies);
    f(routings);
    f(patterns);
    f(arrivals);
    f(apps);
    f(class_policies);
    f(selections);
    f(allocations);
    f(mappings);
    f(placements);
    f(output_schedulers);
    f(switches);
    f(traffic);
    f(traffic_mixes);
    f(zoom_selections);
  }
};

}  // namespace interflow::cli
