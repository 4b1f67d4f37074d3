// The regions of a hybrid run (engine/hybrid/region.hpp) against an independent search: random sets
// of zoomed switches on a fat tree, a torus and a dragonfly; and every route cut into crossings that
// cover each of its region links exactly once, entering by an ingress and leaving by an egress.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>

#include "engine/hybrid/region.hpp"
#include "tests/support/packet_support.hpp"

using namespace interflow;
using namespace interflow::hybrid;

namespace {

// Independent: breadth-first search from each zoomed switch over up links to zoomed switches.
std::vector<std::vector<VertexId>> components(const Network& net, const std::vector<std::uint8_t>& zoomed) {
  std::vector<std::uint8_t> seen(net.num_vertices(), 0);
  std::vector<std::vector<VertexId>> out;
  for (VertexId s = 0; s < net.num_vertices(); ++s) {
    if (!zoomed[s] || seen[s]) continue;
    std::vector<VertexId> comp;
    std::deque<VertexId> queue{s};
    seen[s] = 1;
    while (!queue.empty()) {
      const VertexId v = queue.front();
      queue.pop_front();
      comp.push_back(v);
      for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) {
        const VertexId w = net.target(l);
        if (net.up(l) && zoomed[w] && !seen[w]) {
          seen[w] = 1;
          queue.push_back(w);
        }
      }
    }
    std::sort(comp.begin(), comp.end());
    out.push_back(comp);
  }
  return out;
}

std::vector<std::uint8_t> random_zoom(const Network& net, double share, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::uint8_t> zoomed(net.num_vertices(), 0);
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    zoomed[v] = net.kind(v) == VertexKind::Switch && rng.uniform() < share;
  return zoomed;
}

}  // namespace

TEST_CASE("hybrid regions: the connected components of the zoomed switches with their inner and boundary links") {
  for (const auto& [topo, route] : std::vector<std::pair<std::string, std::string>>{
           {"fattree:k=4,n=3", "dmodk"}, {"torus:dims=4x4", "dor"}, {"dragonfly:a=4,p=2,h=2", "dfmin"}}) {
    const test::PacketFixture s(topo, route);
    const Network& net = s.topology->network();
    for (const double share : {0.0, 0.2, 0.5, 1.0}) {
      INFO(topo << " share " << share);
      const auto zoomed = random_zoom(net, share, 7);
      const RegionMap map = find_regions(net, zoomed);
      const auto expected = components(net, zoomed);
      REQUIRE(map.regions.size() == expected.size());
      std::size_t classified = 0;
      for (std::size_t r = 0; r < expected.size(); ++r) {
        const Region& region = map.regions[r];
        CHECK(region.routers == expected[r]);  // both ordered by smallest vertex, then ascending
        for (const LinkId l : region.inner) CHECK((zoomed[net.source(l)] && zoomed[net.target(l)]));
        for (const LinkId l : region.ingress) CHECK((map.region_of[net.target(l)] == r && map.region_of[net.source(l)] != r));
        for (const LinkId l : region.egress) CHECK((map.region_of[net.source(l)] == r && map.region_of[net.target(l)] != r));
        classified += region.inner.size() + region.ingress.size() + region.egress.size();
      }
      // Every up link touching a zoomed vertex is classified once (twice never: no link joins two regions).
      std::size_t touching = 0;
      for (LinkId l = 0; l < net.num_links(); ++l)
        touching += net.up(l) && (zoomed[net.source(l)] || zoomed[net.target(l)]);
      CHECK(classified == touching);
      if (share == 1.0) CHECK(map.regions.size() == 1);
    }
  }
}

TEST_CASE("hybrid regions: a route's crossings cover each of its region links once and run ingress to egress") {
  for (const auto& [topo, route] : std::vector<std::pair<std::string, std::string>>{
           {"fattree:k=4,n=3", "dmodk"}, {"dragonfly:a=4,p=2,h=2", "dfmin"}}) {
    const test::PacketFixture s(topo, route);
    const Network& net = s.topology->network();
    const RegionMap map = find_regions(net, random_zoom(net, 0.4, 3));
    std::size_t total = 0;
    for (std::uint32_t var = 0; var < s.paths.num_vars(); ++var) {
      const auto links = s.paths.links(var);
      const auto cut = crossings(net, map, links);
      std::vector<std::uint8_t> covered(links.size(), 0);
      for (const Crossing& c : cut) {
        REQUIRE(c.first <= c.last);
        REQUIRE(c.last < links.size());
        for (std::uint32_t i = c.first; i <= c.last; ++i) {
          ++covered[i];
          const bool in_src = map.region_of[net.source(links[i])] == c.region;
          const bool in_dst = map.region_of[net.target(links[i])] == c.region;
          CHECK((in_src || in_dst));
        }
        // Enters by an ingress (or starts inside, from a switch-hosted endpoint) and leaves by an
        // egress (or ends inside).
        const bool enters = map.region_of[net.source(links[c.first])] != c.region;
        CHECK((enters || c.first == 0));
        const bool leaves = map.region_of[net.target(links[c.last])] != c.region;
        CHECK((leaves || c.last + 1 == links.size()));
        ++total;
      }
      for (std::uint32_t i = 0; i < links.size(); ++i) {
        const bool touches = map.region_of[net.source(links[i])] != kNone || map.region_of[net.target(links[i])] != kNone;
        CHECK(covered[i] == (touches ? 1 : 0));
      }
    }
    CHECK(total > 0);
  }
}

TEST_CASE("hybrid regions: zooming an endpoint is refused") {
  const test::PacketFixture s("fattree:k=2,n=2", "dmodk");
  const Network& net = s.topology->network();
  std::vector<std::uint8_t> zoomed(net.num_vertices(), 0);
  zoomed[net.endpoint_vertex(0)] = 1;
  CHECK_THROWS_AS(find_regions(net, zoomed), InputError);
  CHECK_THROWS_AS(find_regions(net, std::vector<std::uint8_t>(3, 0)), InputError);
}
