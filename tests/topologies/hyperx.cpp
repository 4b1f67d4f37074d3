#include "topologies/hyperx.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

struct HyperXShape {
  std::vector<std::uint32_t> dims;
  std::uint32_t k, p;
};

std::string spec_of(const HyperXShape& s) {
  std::string dims;
  for (std::size_t i = 0; i < s.dims.size(); ++i) dims += (i ? "x" : "") + std::to_string(s.dims[i]);
  return "hyperx:S=" + dims + ",K=" + std::to_string(s.k) + ",p=" + std::to_string(s.p);
}

std::vector<std::uint32_t> coordinates(const HyperXShape& s, std::uint32_t router) {
  std::vector<std::uint32_t> c;
  for (std::uint32_t size : s.dims) {
    c.push_back(router % size);
    router /= size;
  }
  return c;
}

const std::vector<HyperXShape> kShapes = {{{4}, 1, 1},    {{4, 4}, 1, 2},       {{3, 5}, 2, 1}, {{2, 3, 4}, 1, 3},
                                          {{4, 4}, 3, 4}, {{2, 2, 2, 2}, 1, 1}, {{6, 3}, 1, 2}};

}  // namespace

TEST_CASE("hyperx topology: router endpoint cable and radix counts match the closed forms") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const Network& net = topology->network();
    std::uint64_t routers = 1, spread = 0;
    for (std::uint32_t size : s.dims) {
      routers *= size;
      spread += size - 1;
    }
    CHECK(net.num_switches() == routers);
    CHECK(net.num_endpoints() == routers * s.p);
    CHECK(net.num_cables() == routers * spread * s.k / 2 + routers * s.p);
    for (VertexId v = 0; v < net.num_vertices(); ++v)
      REQUIRE(net.degree(v) == (net.kind(v) == VertexKind::Switch ? s.p + spread * s.k : 1));
    CHECK(topology->default_routing() == "hxdor");
  }
}

TEST_CASE("hyperx topology: every router has K cables to each router differing in exactly one coordinate") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& hx = dynamic_cast<const topo::HyperXTopology&>(*topology);
    const Network& net = hx.network();
    for (std::uint32_t r = 0; r < hx.num_routers(); ++r) {
      const VertexId v = hx.router_vertex(r);
      const auto own = coordinates(s, r);
      for (std::uint32_t port = 0; port < s.p; ++port) REQUIRE(net.target(net.out_begin(v) + port) == r * s.p + port);
      std::vector<std::uint32_t> cables_to(hx.num_routers(), 0);
      for (LinkId l = net.out_begin(v) + s.p; l < net.out_end(v); ++l) {
        const VertexId t = net.target(l);
        REQUIRE(net.kind(t) == VertexKind::Switch);
        const auto other = coordinates(s, t - hx.router_vertex(0));
        std::uint32_t differing = 0;
        for (std::size_t d = 0; d < s.dims.size(); ++d) differing += own[d] != other[d];
        REQUIRE(differing == 1);
        ++cables_to[t - hx.router_vertex(0)];
      }
      for (std::uint32_t t = 0; t < hx.num_routers(); ++t) {
        const auto other = coordinates(s, t);
        std::uint32_t differing = 0;
        for (std::size_t d = 0; d < s.dims.size(); ++d) differing += own[d] != other[d];
        REQUIRE(cables_to[t] == (differing == 1 ? s.k : 0));
        if (differing != 1) continue;
        std::uint32_t d = 0;
        while (own[d] == other[d]) ++d;
        for (std::uint32_t m = 0; m < s.k; ++m)
          REQUIRE(net.target(net.out_begin(v) + hx.port_towards(r, d, other[d], m)) == hx.router_vertex(t));
      }
    }
  }
}

TEST_CASE("hyperx topology: the diameter is the number of dimensions plus 2 by DistanceAnalysis and igraph") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const DistanceReport report = DistanceAnalysis().run(topology->network());
    REQUIRE(report.exact);
    CHECK(report.disconnected_pairs == 0);
    CHECK(report.diameter_links == s.dims.size() + 2);
    CHECK(test::igraph_graph_diameter(topology->network()) == static_cast<double>(s.dims.size() + 2));
    CHECK(topology->facts().at(0).value == static_cast<double>(s.dims.size() + 2));
  }
}

TEST_CASE("hyperx topology: the reported bisection is the counted cut across the smallest even dimension") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& hx = dynamic_cast<const topo::HyperXTopology&>(*topology);
    std::uint32_t cut = kNone;
    for (std::uint32_t d = 0; d < s.dims.size(); ++d)
      if (s.dims[d] % 2 == 0 && (cut == kNone || s.dims[d] < s.dims[cut])) cut = d;
    const double reported = test::find_fact(*topology, "bisection_cables").value_or(-1);
    if (cut == kNone) {
      CHECK(reported == -1);
      continue;
    }
    const Network& net = hx.network();
    std::uint64_t crossing = 0;
    for (std::uint32_t r = 0; r < hx.num_routers(); ++r)
      for (LinkId l = net.out_begin(hx.router_vertex(r)); l < net.out_end(hx.router_vertex(r)); ++l) {
        const VertexId t = net.target(l);
        if (net.kind(t) != VertexKind::Switch) continue;
        const auto a = coordinates(s, r)[cut], b = coordinates(s, t - hx.router_vertex(0))[cut];
        crossing += a < s.dims[cut] / 2 && b >= s.dims[cut] / 2;
      }
    CHECK(reported == static_cast<double>(crossing));
  }
}

TEST_CASE("hyperx topology: flatbutterfly is the HyperX with K = 1 and a k-ary n-flat has radix n(k-1)+1") {
  auto fly = test::build_topology("flatbutterfly:S=4x4,p=4");
  auto hx = test::build_topology("hyperx:S=4x4,K=1,p=4");
  CHECK(fly->family() == "flatbutterfly");
  CHECK(std::ranges::equal(fly->network().targets(), hx->network().targets()));
  // 4-ary 3-flat: k^(n-1) = 16 routers of radix n(k-1)+1 = 10, k^n = 64 endpoints.
  CHECK(fly->network().num_switches() == 16);
  CHECK(fly->network().num_endpoints() == 64);
  CHECK(fly->network().degree(dynamic_cast<const topo::HyperXTopology&>(*fly).router_vertex(0)) == 10);
}

TEST_CASE("hyperx topology: bad parameters are input errors naming the constraint") {
  const auto message = test::topology_error;
  CHECK(message("hyperx:S=4x1,K=1,p=1") != "");
  CHECK(message("hyperx:S=4x4,K=0,p=1") != "");
  CHECK_THROWS_AS(topo::HyperXTopology("hyperx", {4, 1}, 1, 1, LinkDefaults{}), InputError);
  CHECK_THROWS_AS(topo::HyperXTopology("hyperx", {}, 1, 1, LinkDefaults{}), InputError);
  CHECK(message("hyperx:S=65536x65536,K=1,p=1").find("2^31") != std::string::npos);
}
