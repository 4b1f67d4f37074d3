// Trunks (topologies/trunks.hpp): T parallel cables between adjacent switches. Closed forms of the
// cable counts and degrees, the layout of a trunk's cables, the facts and the `interflow topo` summary
// quantities, and the checks of the parameter.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/trunks.hpp"

using namespace interflow;

namespace {

struct CableCount {
  std::uint64_t endpoint = 0, between_switches = 0;
};

CableCount count_cables(const Network& net) {
  CableCount c;
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (l < net.reverse(l)) (net.link_class(l) == LinkClass::Network ? c.between_switches : c.endpoint) += 1;
  return c;
}

std::string with_trunks(const std::string& spec, std::uint32_t trunks) {
  return spec + (spec.find(':') == std::string::npos ? ":" : ",") + "trunks=" + std::to_string(trunks);
}

}  // namespace

TEST_CASE("trunks: a k by k torus with T trunks has T times the switch cables and router degree 4T plus c") {
  for (const std::uint32_t k : {3u, 4u, 5u})
    for (const std::uint32_t c : {0u, 2u})
      for (const std::uint32_t trunks : {1u, 2u, 3u, 10u}) {
        const std::string spec = "torus:dims=" + std::to_string(k) + "x" + std::to_string(k) + ",c=" +
                                 std::to_string(c) + ",trunks=" + std::to_string(trunks);
        INFO(spec);
        const auto topology = test::build_topology(spec);
        const Network& net = topology->network();
        const CableCount cables = count_cables(net);
        CHECK(cables.between_switches == std::uint64_t{trunks} * 2 * k * k);  // 2 rings of k per row/column
        CHECK(cables.endpoint == std::uint64_t{c} * k * k);
        CHECK(net.num_switches() == k * k);
        CHECK(net.num_endpoints() == (c == 0 ? k * k : c * k * k));
        CHECK(net.num_links() == 2 * (cables.between_switches + cables.endpoint));
        for (VertexId r = 0; r < k * k; ++r) CHECK(net.degree(r) == 4 * trunks + c);
      }
}

TEST_CASE("trunks: every cable of a trunk joins the base link's ends with its capacity and pairs with its reverse") {
  for (const char* spec : {"torus:dims=4x4,trunks=3", "torus:dims=3x2x1,c=2,trunks=2", "mesh:dims=4x3,c=1,trunks=4",
                           "fattree:k=4,n=3,trunks=2", "thintree:k=4,kp=2,n=3,trunks=3",
                           "dragonfly:a=4,p=2,h=2,g=5,trunks=2"}) {
    INFO(std::string(spec));
    const LinkDefaults links{25, 40, 7, 11};
    const auto topology = test::build_topology(spec, links);
    const auto& trunked = dynamic_cast<const topo::TrunkedTopology&>(*topology);
    const Network& base = trunked.base().network();
    const Network& net = trunked.network();
    std::vector<std::uint32_t> covered(net.num_links(), 0);
    for (LinkId l = 0; l < base.num_links(); ++l) {
      const bool between_switches = base.link_class(l) == LinkClass::Network;
      REQUIRE(trunked.width(l) == (between_switches ? trunked.trunks() : 1));
      for (std::uint32_t j = 0; j < trunked.width(l); ++j) {
        const LinkId cable = trunked.first_cable(l) + j;
        REQUIRE(cable < net.num_links());
        ++covered[cable];
        CHECK(net.source(cable) == base.source(l));
        CHECK(net.target(cable) == base.target(l));
        CHECK(net.reverse(cable) == trunked.first_cable(base.reverse(l)) + j);
        CHECK(net.capacity_gbps(cable) == (between_switches ? 40.0 : 25.0));
        CHECK(net.latency_ns(cable) == (between_switches ? 11.0f : 7.0f));
      }
    }
    CHECK(std::ranges::all_of(covered, [](std::uint32_t n) { return n == 1; }));  // every link, once
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) CHECK(net.endpoint_vertex(e) == base.endpoint_vertex(e));
    CHECK(net.direct() == base.direct());
  }
}

TEST_CASE("trunks: mesh and tree and dragonfly multiply their switch cables and keep endpoints and distances") {
  for (const char* spec : {"mesh:dims=4x4,c=2", "torus:dims=4x2x1", "fattree:k=4,n=3", "thintree:k=4,kp=2,n=3",
                           "dragonfly:a=4,p=2,h=2,g=5", "dragonfly:a=2,p=1,h=2,g=3,arrangement=absolute"})
    for (const std::uint32_t trunks : {2u, 5u}) {
      INFO(std::string(spec) << " with " << trunks << " trunks");
      const auto single = test::build_topology(spec);
      const auto trunked = test::build_topology(with_trunks(spec, trunks));
      const Network& a = single->network();
      const Network& b = trunked->network();
      CHECK(count_cables(b).between_switches == trunks * count_cables(a).between_switches);
      CHECK(count_cables(b).endpoint == count_cables(a).endpoint);
      CHECK(b.num_switches() == a.num_switches());
      CHECK(b.num_endpoints() == a.num_endpoints());
      for (VertexId v = 0; v < a.num_vertices(); ++v) {
        std::uint32_t to_switches = 0;
        for (LinkId l = a.out_begin(v); l < a.out_end(v); ++l) to_switches += a.link_class(l) == LinkClass::Network;
        CHECK(b.degree(v) == a.degree(v) + (trunks - 1) * to_switches);
      }
      // The summary of `interflow topo`: radix T times the switch ports plus the endpoint ports,
      // distances unchanged.
      const DegreeReport da = degree_report(a), db = degree_report(b);
      CHECK(db.endpoint_cables == da.endpoint_cables);
      const DistanceReport ra = DistanceAnalysis().run(a), rb = DistanceAnalysis().run(b);
      CHECK(rb.diameter_links == ra.diameter_links);
      CHECK(rb.mean_links == approx(ra.mean_links));
      CHECK(trunked->family() == single->family());
      CHECK(trunked->default_routing() == single->default_routing());
      CHECK(trunked->endpoint_grid() == single->endpoint_grid());
      CHECK(trunked->block_grid().dims == single->block_grid().dims);
    }
}

TEST_CASE("trunks: the summary of a 4x4 torus with 3 trunks") {
  const auto topology = test::build_topology("torus:dims=4x4,trunks=3");
  const Network& net = topology->network();
  const DegreeReport d = degree_report(net);
  CHECK(net.num_cables() == 96);  // 3 x 32
  CHECK(d.endpoint_cables == 0);
  CHECK(d.switch_radix_min == 12);
  CHECK(d.switch_radix_max == 12);
  const DistanceReport r = DistanceAnalysis().run(net, topology->endpoints_symmetric());
  CHECK(r.diameter_links == 4);
  CHECK(r.mean_links == approx(32.0 / 15));  // (0+1+2+1)/4 per ring, twice, over 15 others
  CHECK(test::find_fact(*topology, "diameter_links") == 4.0);
  CHECK(test::find_fact(*topology, "bisection_cables") == 24.0);  // 2 cuts of 4 rings, 3 cables each
}

TEST_CASE("trunks: facts count every cable of a trunk") {
  CHECK(test::find_fact(*test::build_topology("torus:dims=8x8,trunks=10"), "bisection_cables") == 160.0);
  CHECK(test::find_fact(*test::build_topology("mesh:dims=8x4,trunks=2"), "bisection_cables") == 8.0);
  // Thin tree k=4, k'=2, n=3: the leaves' endpoint cables per up cable, 4 / (2 T); the top-level cut
  // crosses (k/2) k'^(n-1) trunks.
  const auto thin = test::build_topology("thintree:k=4,kp=2,n=3,trunks=3");
  CHECK(test::find_fact(*thin, "oversubscription") == approx(4.0 / 6));
  CHECK(test::find_fact(*thin, "bisection_cables") == 24.0);
  CHECK(test::find_fact(*thin, "diameter_links") == 6.0);
  // A fat tree's minimum bisection is still half its endpoints' own cables.
  CHECK(test::find_fact(*test::build_topology("fattree:k=4,n=3,trunks=4"), "bisection_cables") == 32.0);
  const auto df = test::build_topology("dragonfly:a=4,p=2,h=2,g=5,trunks=3");
  CHECK(test::find_fact(*df, "global_links_per_group_pair") == 6.0);
  CHECK(test::find_fact(*df, "global_cables") == 60.0);
  CHECK(test::find_fact(*df, "minimal_route_max_links") == 5.0);
}

TEST_CASE("trunks: the parameter is checked and trunks=1 is the family's own network") {
  CHECK(test::topology_error("torus:dims=4x4,trunks=0").find("trunks") != std::string::npos);
  CHECK(test::topology_error("torus:dims=4x4,trunks=65").find("trunks") != std::string::npos);
  CHECK(test::topology_error("torus:dims=4x4,trunks=1.5").find("trunks") != std::string::npos);
  CHECK(test::topology_error("fattree:k=4,n=2,trunks=64").empty());
  // Families without trunks refuse the parameter (hyperx has its own parallel cables, K).
  CHECK(test::topology_error("hyperx:S=4x4,trunks=2").find("trunks") != std::string::npos);
  const auto plain = test::build_topology("torus:dims=4x4,trunks=1");
  CHECK(dynamic_cast<const topo::TrunkedTopology*>(plain.get()) == nullptr);
  CHECK(plain->network().num_cables() == 32);
}
