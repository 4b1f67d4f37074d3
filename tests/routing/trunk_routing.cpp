// Routing on trunks (routing/trunk_routing.hpp): every path of the base routing becomes T paths of 1/T,
// path j on cable j of every trunk. DOR paths on tori with trunks, the even use of a trunk's cables by
// every routing, failed cables, and the closed forms the rule gives the static and dynamic engines.
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/dynamic_run.hpp"
#include "cli/static_run.hpp"
#include "core/error.hpp"
#include "engine/flow/static_engine.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/trunks.hpp"

using namespace interflow;

namespace {

const topo::TrunkedTopology& trunked_of(const Topology& t) { return dynamic_cast<const topo::TrunkedTopology&>(t); }

// The base link of trunked link l (the tori here have no parallel base links) and l's cable index.
LinkId base_link(const topo::TrunkedTopology& t, LinkId l) {
  const Network& net = t.network();
  return t.base().network().find_link(net.source(l), net.target(l));
}
std::uint32_t cable_index(const topo::TrunkedTopology& t, LinkId l) { return l - t.first_cable(base_link(t, l)); }

// Per link, the sum of the splits of the paths crossing it: its load when every flow sends one unit.
std::vector<double> unit_loads(const PathTable& paths, std::uint32_t links) {
  std::vector<double> load(links, 0.0);
  for (std::uint32_t v = 0; v < paths.num_vars(); ++v)
    for (const LinkId l : paths.links(v)) load[l] += paths.split(v);
  return load;
}

// Every cable of every trunk carries 1/T of what its base link carries with trunks = 1 (`base_load`):
// so the cables of a trunk carry the same, whatever the routing.
void check_spread(const topo::TrunkedTopology& t, const std::vector<double>& base_load,
                  const std::vector<double>& load) {
  for (LinkId b = 0; b < t.base().network().num_links(); ++b)
    for (std::uint32_t j = 0; j < t.width(b); ++j) {
      INFO("base link " << b << " cable " << j);
      CHECK(load[t.first_cable(b) + j] == approx(base_load[b] / t.width(b)).epsilon(1e-5));
    }
}

cli::StaticRun run_static(const std::string& topology, const std::string& pattern, const std::string& routing = "") {
  cli::StaticConfig c;
  c.network.topology = topology;
  c.network.routing = routing;
  c.pattern = pattern;
  c.threads = 1;
  return cli::run_static(test::plugins(), c);
}

}  // namespace

TEST_CASE("trunk routing: every DOR path on a torus with trunks is the trunks=1 path on cable j of each trunk") {
  for (const char* shape : {"torus:dims=4x4", "torus:dims=5x3,c=2", "torus:dims=4x2x3", "mesh:dims=4x3,c=1"})
    for (const std::uint32_t trunks : {2u, 3u}) {
      const std::string spec = std::string(shape) + ",trunks=" + std::to_string(trunks);
      INFO(spec);
      const auto topology = test::build_topology(spec);
      const auto& t = trunked_of(*topology);
      const auto single = test::build_topology(shape);
      const FlowSet flows = test::all_pairs(topology->network().num_endpoints());
      const PathTable paths = test::route(*test::build_routing("dor", *topology), t.network(), flows);
      const PathTable base = test::route(*test::build_routing("dor", *single), single->network(), flows);
      for (FlowId f = 0; f < flows.size(); ++f) {
        INFO("flow " << flows.src[f] << " -> " << flows.dst[f]);
        REQUIRE(base.end_var(f) - base.first_var(f) == 1);
        const auto want = base.links(base.first_var(f));
        const bool crosses = std::ranges::any_of(want, [&](LinkId l) { return t.width(l) > 1; });
        REQUIRE(paths.end_var(f) - paths.first_var(f) == (crosses ? trunks : 1));
        for (std::uint32_t j = 0; j < paths.end_var(f) - paths.first_var(f); ++j) {
          const std::uint32_t v = paths.first_var(f) + j;
          CHECK(paths.split(v) == approx(1.0 / (crosses ? trunks : 1)));
          REQUIRE(paths.links(v).size() == want.size());
          VertexId at = t.network().endpoint_vertex(flows.src[f]);
          for (std::size_t i = 0; i < want.size(); ++i) {
            const LinkId l = paths.links(v)[i];
            CHECK(t.network().source(l) == at);  // a walk ...
            at = t.network().target(l);
            CHECK(base_link(t, l) == want[i]);  // ... the same as with trunks = 1 ...
            CHECK(cable_index(t, l) == (t.width(want[i]) > 1 ? j : 0));  // ... on cable j of every trunk
          }
          CHECK(at == t.network().endpoint_vertex(flows.dst[f]));
        }
      }
    }
}

TEST_CASE("trunk routing: uniform all-to-all DOR loads the cables of every trunk equally") {
  // Stated bound: the cables of a trunk carry exactly the same load (relative difference below 1e-5,
  // the float precision of split weights), each 1/T of the trunks=1 link's.
  struct Case {
    std::string shape;
    std::uint32_t trunks;
  };
  for (const auto& [shape, trunks] : {Case{"torus:dims=8x8", 10}, Case{"torus:dims=8x8x8,c=4", 4},
                                      Case{"mesh:dims=6x5,c=2", 3}}) {
    const std::string spec = shape + ",trunks=" + std::to_string(trunks);
    INFO(spec);
    const auto topology = test::build_topology(spec);
    const auto single = test::build_topology(shape);
    const std::uint32_t n = std::min<std::uint32_t>(topology->network().num_endpoints(), 512);
    const FlowSet flows = test::all_pairs(n);
    const auto load = unit_loads(test::route(*test::build_routing("dor", *topology), topology->network(), flows),
                                 topology->network().num_links());
    const auto base = unit_loads(test::route(*test::build_routing("dor", *single), single->network(), flows),
                                 single->network().num_links());
    check_spread(trunked_of(*topology), base, load);
  }
}

TEST_CASE("trunk routing: every routing of torus and tree and dragonfly spreads its paths evenly over the cables") {
  for (const char* shape : {"torus:dims=4x4,c=2", "mesh:dims=4x3,c=1", "fattree:k=4,n=3", "thintree:k=4,kp=2,n=3",
                            "dragonfly:a=4,p=2,h=2,g=5", "dragonfly:a=2,p=1,h=2,g=3,arrangement=absolute"}) {
    const auto single = test::build_topology(shape);
    const auto topology = test::build_topology(std::string(shape) + ",trunks=3");
    const auto& t = trunked_of(*topology);
    std::uint32_t accepted = 0;
    for (const auto& entry : test::plugins().routings.entries()) {
      std::unique_ptr<Routing> routing, base_routing;
      try {
        routing = test::build_routing(entry.name, *topology);
        base_routing = test::build_routing(entry.name, *single);
      } catch (const InputError&) {
        continue;  // the routing does not take this family
      }
      ++accepted;
      INFO("routing " << entry.name << " on " << std::string(shape) << " with 3 trunks");
      const FlowSet mine = test::all_pairs(std::min<std::uint32_t>(32, single->network().num_endpoints()));
      const PathTable paths = test::route(*routing, t.network(), mine, 7);
      const PathTable base = test::route(*base_routing, single->network(), mine, 7);
      for (FlowId f = 0; f < mine.size(); ++f) CHECK(paths.routed(f) == base.routed(f));
      check_spread(t, unit_loads(base, single->network().num_links()), unit_loads(paths, t.network().num_links()));
    }
    CHECK(accepted >= 3);  // the family's own routings and the generic ones
  }
}

TEST_CASE("trunk routing: paths take the working cables of a trunk and a trunk with none is avoided") {
  const auto topology = test::build_topology("torus:dims=4x4,trunks=3");
  const auto& t = trunked_of(*topology);
  Network& net = topology->network();
  const LinkId trunk = t.base().network().find_link(0, 1);
  const LinkId back = t.base().network().reverse(trunk);
  for (const std::uint32_t j : {0u, 2u}) {  // cables 0 and 2 of the trunk 0 -> 1 fail, both directions
    net.set_up(t.first_cable(trunk) + j, false);
    net.set_up(t.first_cable(back) + j, false);
  }
  FlowSet flows;  // 0 -> 1 and back on the damaged trunk, 2 -> 6 elsewhere
  flows.add(0, 1);
  flows.add(1, 0);
  flows.add(2, 6);
  for (const char* name : {"dor", "bfs", "ecmp"}) {
    INFO(std::string(name));
    const PathTable paths = test::route(*test::build_routing(name, *topology), net, flows);
    for (FlowId f = 0; f < flows.size(); ++f) {
      REQUIRE(paths.routed(f));
      double total = 0;
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
        total += paths.split(v);
        for (const LinkId l : paths.links(v)) CHECK(net.up(l));
      }
      CHECK(total == approx(1.0));
    }
    // The one working cable carries the whole of 0 -> 1.
    CHECK(unit_loads(paths, net.num_links())[t.first_cable(trunk) + 1] == approx(1.0));
  }
  net.set_up(t.first_cable(trunk) + 1, false);  // the whole trunk 0 -> 1 is down
  net.set_up(t.first_cable(back) + 1, false);
  CHECK_FALSE(test::route(*test::build_routing("dor", *topology), net, flows).routed(0));  // DOR has no way round
  const PathTable around = test::route(*test::build_routing("bfs", *topology), net, flows);
  REQUIRE(around.routed(0));
  CHECK(around.links(around.first_var(0)).size() == 3);
}

TEST_CASE("trunk routing: a lone flow on a ring with T trunks gets T cables and an endpoint link caps it") {
  for (const std::uint32_t trunks : {1u, 2u, 4u, 10u}) {
    INFO(trunks << " trunks");
    const auto ring = test::build_topology("torus:dims=8,trunks=" + std::to_string(trunks));
    const auto routing = test::build_routing("dor", *ring);
    FlowSet flows;
    flows.add(0, 3);
    const auto r = flow::StaticEngine(ring->network(), *routing).run(flows, flow::StaticOptions{});
    CHECK(r.flow_rate_gbps[0] == approx(100.0 * trunks));
    const auto hosted = test::build_topology("torus:dims=8,c=1,trunks=" + std::to_string(trunks));
    const auto hosted_routing = test::build_routing("dor", *hosted);
    const auto capped = flow::StaticEngine(hosted->network(), *hosted_routing).run(flows, flow::StaticOptions{});
    CHECK(capped.flow_rate_gbps[0] == approx(100.0));  // its injection cable is single
  }
}

TEST_CASE("trunk routing: static all-to-all throughput with T trunks is T times that with one when switch links limit") {
  // A direct network has only switch links: every rate, and so both aggregates, scale by T exactly.
  for (const std::string shape : {"torus:dims=4x4", "torus:dims=5x3x2", "mesh:dims=4x3"}) {
    const cli::StaticRun one = run_static(shape, "alltoall");
    const auto& m1 = one.result.metrics;
    for (const std::uint32_t trunks : {2u, 3u, 10u}) {
      INFO(shape << " with " << trunks << " trunks");
      const cli::StaticRun many = run_static(shape + ",trunks=" + std::to_string(trunks), "alltoall");
      const auto& m = many.result.metrics;
      CHECK(m.aggregate_nonrestricted_gbps == approx(trunks * m1.aggregate_nonrestricted_gbps));
      CHECK(m.aggregate_restricted_gbps == approx(trunks * m1.aggregate_restricted_gbps));
    }
  }
  // Cano-Cano et al.'s 8x8 torus with 8 endpoints per router. With DOR (tie=positive) the busiest links
  // carry 5120 flows: a + link of a ring is crossed by 1+2+3+4 = 10 (source, offset) pairs of the ring,
  // to any of 8 rows, 8 x 8 endpoint pairs each. Their flows get T x 100 / 5120 Gbit/s, the slowest rate
  // while that is below an endpoint link's fair share 100 / 511 (T <= 10): the restricted aggregate is
  // 512 x 511 x T x 100 / 5120 = 5110 T Gbit/s. The other flows fill every endpoint link (non-restricted:
  // the whole injection, 51200 Gbit/s, whatever T).
  for (const std::uint32_t trunks : {1u, 2u, 4u, 10u}) {
    INFO(trunks << " trunks");
    const cli::StaticRun run = run_static("torus:dims=8x8,c=8,trunks=" + std::to_string(trunks), "alltoall");
    const auto& m = run.result.metrics;
    CHECK(m.rate_gbps.min == approx(trunks * 100.0 / 5120));
    CHECK(m.aggregate_restricted_gbps == approx(5110.0 * trunks));
    CHECK(m.aggregate_nonrestricted_gbps == approx(51200.0));
  }
  // A permutation on a direct ring of 8: shift by 1 puts each flow alone on one trunk.
  const cli::StaticRun shifted = run_static("torus:dims=8,trunks=4", "shift:s=1");
  CHECK(shifted.result.metrics.aggregate_nonrestricted_gbps == approx(8 * 4 * 100.0));
}

TEST_CASE("trunk routing: a lone flow of the dynamic engine on a ring with T trunks ends T times sooner") {
  const test::TempFile flows("trunk_flow.csv", "src,dst,bytes,start_time\n0,3,1e6,0\n");
  for (const std::uint32_t trunks : {1u, 4u}) {
    cli::DynamicConfig c;
    c.network.topology = "torus:dims=8,trunks=" + std::to_string(trunks);
    c.flow_file = flows.path();
    c.threads = 1;
    const cli::DynamicRun run = cli::run_dynamic(test::plugins(), c);
    REQUIRE(run.result.transfer_end_s.size() == 1);
    CHECK(run.result.transfer_end_s[0] == approx(8e6 / (100e9 * trunks)));  // 1 MB at T x 100 Gbit/s
  }
}
