#include "engine/hybrid/region.hpp"

#include <numeric>
#include <string>

#include "core/error.hpp"

namespace interflow::hybrid {

namespace {

std::uint32_t root(std::vector<std::uint32_t>& parent, std::uint32_t v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

}  // namespace

RegionMap find_regions(const Network& net, std::span<const std::uint8_t> zoomed) {
  const std::uint32_t n = net.num_vertices();
  if (zoomed.size() != n)
    throw InputError("zoom: " + std::to_string(zoomed.size()) + " flags for " + std::to_string(n) + " vertices");
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (VertexId v = 0; v < n; ++v) {
    if (!zoomed[v]) continue;
    if (net.kind(v) != VertexKind::Switch)
      throw InputError("zoom: vertex " + std::to_string(v) + " is an endpoint; only switches can be zoomed");
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
      if (net.up(l) && zoomed[net.target(l)]) {
        const std::uint32_t a = root(parent, v), b = root(parent, net.target(l));
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smallest vertex stays the root
      }
  }
  RegionMap map;
  map.region_of.assign(n, kNone);
  for (VertexId v = 0; v < n; ++v) {  // ascending: a region is numbered when its smallest vertex comes
    if (!zoomed[v]) continue;
    const std::uint32_t r = root(parent, v);
    if (map.region_of[r] == kNone) {
      map.region_of[r] = static_cast<std::uint32_t>(map.regions.size());
      map.regions.emplace_back();
    }
    map.region_of[v] = map.region_of[r];
    map.regions[map.region_of[v]].routers.push_back(v);
  }
  for (LinkId l = 0; l < net.num_links(); ++l) {
    if (!net.up(l)) continue;
    const std::uint32_t from = map.region_of[net.source(l)], to = map.region_of[net.target(l)];
    if (from != kNone && from == to)
      map.regions[from].inner.push_back(l);
    else {
      if (to != kNone) map.regions[to].ingress.push_back(l);
      if (from != kNone) map.regions[from].egress.push_back(l);
    }
  }
  return map;
}

std::vector<Crossing> crossings(const Network& net, const RegionMap& map, std::span<const LinkId> route) {
  std::vector<Crossing> out;
  bool open = false;
  for (std::uint32_t i = 0; i < route.size(); ++i) {
    const std::uint32_t from = map.region_of[net.source(route[i])], to = map.region_of[net.target(route[i])];
    if (!open && to != kNone) {
      out.push_back({to, i, i});
      open = true;
    } else if (open) {
      out.back().last = i;
    } else if (from != kNone) {  // a route starting inside a region (from a switch-hosted endpoint)
      out.push_back({from, i, i});
    }
    if (open && to != out.back().region) open = false;  // this link leaves the region
  }
  return out;
}

}  // namespace interflow::hybrid
