#pragma once
// Regions of a hybrid run (manual/design.md "The hybrid zoom: the planned design"): the zoomed
// routers grouped into connected regions, each with its inner links and its boundary, and a route
// cut into the crossings of those regions.
//
// A region is a connected component of the zoomed switch vertices over the up links between two
// zoomed switches. Its links are classified by their ends: `inner` (both ends in the region),
// `ingress` (target in it, source outside: a flow-level switch or an endpoint), `egress` (source in
// it, target outside). A link with both ends zoomed but in different regions cannot exist (the two
// would be one component), and a link between two unzoomed vertices belongs to no region.
//
// Correctness. Components are found by union-find over the zoomed-to-zoomed up links, so two zoomed
// switches share a region exactly when a path of such links joins them; regions are numbered by their
// smallest vertex, and every list is ascending, so the result depends only on the network and the set.
// A route's crossings: walking its links in order, a crossing of region R starts at the first link
// whose target is in R and ends at the first following link whose source is in R and target is not
// (or at the route's end); links outside every region separate crossings. Each link of the route that
// touches a region lies in exactly one crossing.
#include <cstdint>
#include <span>
#include <vector>

#include "core/network.hpp"

namespace interflow::hybrid {

struct Region {
  std::vector<VertexId> routers;  // its zoomed switches, ascending
  std::vector<LinkId> inner;      // links between two of them, ascending
  std::vector<LinkId> ingress;    // links into it from outside, ascending
  std::vector<LinkId> egress;     // links out of it, ascending
};

struct RegionMap {
  std::vector<Region> regions;
  std::vector<std::uint32_t> region_of;  // per vertex: its region, or kNone
};

// The regions of the zoomed vertices (`zoomed[v]` != 0; one entry per vertex). Throws InputError
// when an endpoint vertex is zoomed (only switches have a packet model) or the span has the wrong size.
RegionMap find_regions(const Network& net, std::span<const std::uint8_t> zoomed);

// One crossing of a region by a route: route links [first, last] (inclusive indices).
struct Crossing {
  std::uint32_t region;
  std::uint32_t first, last;
};

// The crossings of a route given as its links in order.
std::vector<Crossing> crossings(const Network& net, const RegionMap& map, std::span<const LinkId> route);

}  // namespace interflow::hybrid
