#pragma once
// Which routers a hybrid run zooms into (manual/hybrid.md "Selecting the zoom"): the zoom-selection
// registry. A selection sees the network, its topology, the run's messages and their flow-level
// routes, and returns one flag per vertex (1: simulated at packet level). Only switches may be chosen.
#include <cstdint>
#include <vector>

#include "core/paths.hpp"
#include "core/registry.hpp"
#include "core/topology.hpp"
#include "core/transport.hpp"

namespace interflow::hybrid {

struct ZoomContext {
  const Network& net;
  const Topology& topology;
  const MessageTable& messages;
  const PathTable& paths;  // each message's routes, in message order
};

class ZoomSelection {
 public:
  virtual ~ZoomSelection() = default;
  virtual std::vector<std::uint8_t> select(const ZoomContext& c) const = 0;
};

using ZoomSelectionRegistry = Registry<ZoomSelection>;

// Registers ids, tree-level, group, hottest, congestion-tree, class-paths and all (one file each).
void register_zoom_selections(ZoomSelectionRegistry& registry);
void register_zoom_ids(ZoomSelectionRegistry& registry);
void register_zoom_tree_level(ZoomSelectionRegistry& registry);
void register_zoom_group(ZoomSelectionRegistry& registry);
void register_zoom_hottest(ZoomSelectionRegistry& registry);
void register_zoom_class_paths(ZoomSelectionRegistry& registry);
void register_zoom_congestion_tree(ZoomSelectionRegistry& registry);
void register_zoom_all(ZoomSelectionRegistry& registry);

// Per link, the bytes the messages route over it (each path variable's share of its message's bytes).
std::vector<double> routed_bytes(const ZoomContext& c);
// Per link, its heat: routed_bytes over its capacity, the time it would need for the run's traffic
// (the offered load `hottest` and `congestion-tree` rank by; 0 for a link no message crosses).
std::vector<double> link_heat(const ZoomContext& c);

// Per vertex, its distance in links from the nearest endpoint's vertex (an endpoint vertex 0, a
// leaf switch of an indirect network 1, a router hosting endpoints 0), kNone when none is reachable.
std::vector<std::uint32_t> endpoint_distance(const Network& net);

}  // namespace interflow::hybrid
