// The Network's per-link source and reverse arrays (filled by NetworkBuilder::build) against brute-force
// searches over the CSR arrays, on structured topologies, graph files with parallel cables, a hand-built
// network whose parallel cables take crossed ports, and networks with failed links.
#include "core/network.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/failures.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

std::string fixture(const std::string& name) { return std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/" + name; }

// The vertex whose out-link range holds l, by scanning every vertex.
VertexId brute_force_source(const Network& net, LinkId l) {
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (net.out_begin(v) <= l && l < net.out_end(v)) return v;
  return kNone;
}

// The reverse by the rule the network used before it stored reverses: the k-th u->v link pairs with the
// k-th v->u link. It names the cable's other direction whenever parallel cables keep the same relative
// order at both ends, which every built-in topology does.
LinkId brute_force_reverse(const Network& net, LinkId l) {
  const VertexId u = brute_force_source(net, l), v = net.target(l);
  std::uint32_t rank = 0;
  for (LinkId x = net.out_begin(u); x < l; ++x) rank += net.target(x) == v;
  for (LinkId x = net.out_begin(v); x < net.out_end(v); ++x)
    if (net.target(x) == u && rank-- == 0) return x;
  return kNone;
}

// Every link: source and reverse as the brute-force searches find them, the reverse goes back over a
// link of the same capacity and latency, and reversing twice gives the link back.
void check_against_brute_force(const Network& net) {
  REQUIRE(net.num_links() == 2 * net.num_cables());
  for (LinkId l = 0; l < net.num_links(); ++l) {
    CAPTURE(l);
    const VertexId u = brute_force_source(net, l);
    REQUIRE(net.source(l) == u);
    const LinkId back = net.reverse(l);
    REQUIRE(back == brute_force_reverse(net, l));
    REQUIRE(back < net.num_links());
    CHECK(net.source(back) == net.target(l));
    CHECK(net.target(back) == u);
    CHECK(net.reverse(back) == l);
    CHECK(net.capacity_gbps(back) == net.capacity_gbps(l));
    CHECK(net.latency_ns(back) == net.latency_ns(l));
    const bool touches_endpoint =
        net.kind(u) == VertexKind::Endpoint || net.kind(net.target(l)) == VertexKind::Endpoint;
    CHECK((net.link_class(l) == LinkClass::Endpoint) == touches_endpoint);
  }
}

}  // namespace

TEST_CASE("network: source and reverse match a brute-force search on structured topologies") {
  // Radix-2 and radix-3 rings, endpoints on their own links, trees with multi-homed endpoints and
  // parallel cables, parallel global cables (dragonfly, megafly), HyperX trunks, server-centric networks.
  for (const std::string spec :
       {"torus:dims=4x3x2", "torus:dims=4x4,c=2", "mesh:dims=3x3", "fattree:k=4,n=3", "thintree:k=4,kp=2,n=3",
        "xgft:h=3,m=4x4x2,w=2x2x2", "gtree:h=3,m=4x4x4,w=1x2x2,c=1x2x2", "hyperx:S=4x3,K=2,p=2",
        "dragonfly:a=4,p=2,h=2,g=5", "megafly:leaves=4,spines=4,p=2,h=2,g=5", "slimfly:q=5,p=2",
        "jellyfish:N=24,k=6,r=4", "bcube:n=4,k=2", "dcell:n=3,k=2", "ficonn:n=4,k=2", "hcn:n=4,h=2",
        "bcn:alpha=3,beta=2,h=1,gamma=1", "dpillar:n=6,k=3"}) {
    CAPTURE(spec);
    check_against_brute_force(test::build_topology(spec)->network());
  }
}

TEST_CASE("network: source and reverse match a brute-force search on graph files with parallel cables") {
  // small.* hold two parallel switch cables of 40 and 10 Gbit/s; the edge list makes a direct network.
  for (const std::string file : {"small.ifg", "small.graphml", "small.gml", "small.net", "small.edges", "dumbbell.ifg",
                                 "parking_lot.ifg", "star.ifg"}) {
    CAPTURE(file);
    check_against_brute_force(test::build_topology("graph:file=" + fixture(file))->network());
  }
  // The parallel cables keep their own capacities in both directions.
  const auto small = test::build_topology("graph:file=" + fixture("small.ifg"));
  const Network& net = small->network();
  std::vector<double> between_switches;
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (net.link_class(l) == LinkClass::Network) {
      between_switches.push_back(net.capacity_gbps(l));
      CHECK(net.capacity_gbps(net.reverse(l)) == net.capacity_gbps(l));
    }
  CHECK(between_switches.size() == 4);
}

TEST_CASE("network: reverse pairs the directions of one cable even when parallel cables take crossed ports") {
  // Cable A (40 Gbit/s) is port 1 at u and port 0 at v; cable B (10 Gbit/s) is port 0 at u and port 1 at v.
  // Pairing by rank would join u's first link (B) with v's first link (A): two different cables.
  NetworkBuilder b;
  const VertexId u = b.add_switch(), v = b.add_switch();
  b.add_cable(u, v, 40, 100, 1, 0);
  b.add_cable(u, v, 10, 200, 0, 1);
  const Network net = b.build();
  REQUIRE(net.capacity_gbps(net.out_begin(u)) == 10);
  REQUIRE(net.capacity_gbps(net.out_begin(v)) == 40);
  for (LinkId l = 0; l < net.num_links(); ++l) {
    CAPTURE(l);
    const LinkId back = net.reverse(l);
    CHECK(net.source(l) == brute_force_source(net, l));
    CHECK(net.target(back) == net.source(l));
    CHECK(net.capacity_gbps(back) == net.capacity_gbps(l));
    CHECK(net.latency_ns(back) == net.latency_ns(l));
    CHECK(net.reverse(back) == l);
  }
  CHECK(net.reverse(net.out_begin(u)) == net.out_begin(v) + 1);
}

TEST_CASE("network: failed cables keep their source and reverse and are down in both directions") {
  for (const std::string spec : {"fattree:k=4,n=3", "hyperx:S=4x3,K=2,p=2", "dcell:n=3,k=2"}) {
    CAPTURE(spec);
    auto topology = test::build_topology(spec);
    Network& net = topology->network();
    const FailureReport report = apply_failures(net, FailureSpec::parse("10%", "network"), 3);
    REQUIRE(!report.failed_links.empty());
    check_against_brute_force(net);
    std::uint32_t down = 0;
    for (LinkId l = 0; l < net.num_links(); ++l) {
      CHECK(net.up(l) == net.up(net.reverse(l)));
      down += !net.up(l);
    }
    CHECK(down == 2 * report.failed_links.size());
  }
}

TEST_CASE("network: a vertex without links and an empty network have consistent arrays") {
  NetworkBuilder b;
  const VertexId lonely = b.add_switch();
  const VertexId a = b.add_switch(), c = b.add_switch();
  b.add_cable(a, c);
  const Network net = b.build();
  CHECK(net.degree(lonely) == 0);
  check_against_brute_force(net);
  CHECK(NetworkBuilder().build().num_links() == 0);
}

TEST_CASE("network: the memory estimate counts the per-link source and reverse arrays") {
  const auto topology = test::build_topology("fattree:k=4,n=3");
  const Network& net = topology->network();
  // target, source, reverse and capacity of 4 bytes and the state byte, per link; no latencies, as
  // every link has its class's default.
  CHECK(net.memory_bytes() >= std::size_t{17} * net.num_links());
  CHECK(net.memory_bytes() < std::size_t{21} * net.num_links());
}

TEST_CASE("network: latencies are per class unless a cable has its own") {
  // Four cables, the last of them between the two switches again, with the switch default or with
  // its own latency. With defaults only, no per-link array is kept (4 bytes a link less) and each
  // link reports its class's latency; with one latency of its own, that cable's two links report it.
  LinkDefaults defaults;
  defaults.endpoint_latency_ns = 40;
  defaults.switch_latency_ns = 250;
  auto build = [&](double last_ns) {
    NetworkBuilder b(defaults);
    const VertexId s0 = b.add_switch(), s1 = b.add_switch();
    VertexId e0 = 0, e1 = 0;
    b.add_endpoint_vertex(&e0);
    b.add_endpoint_vertex(&e1);
    b.add_cable(e0, s0);
    b.add_cable(s1, e1, -1, 40);  // its class's default, given explicitly
    b.add_cable(s0, s1);
    b.add_cable(s0, s1, -1, last_ns);
    return b.build();
  };
  const Network plain = build(-1), own = build(777);
  CHECK(own.memory_bytes() == plain.memory_bytes() + 4 * own.num_links());
  const LinkId last = own.out_begin(0) + 2;  // switch 0: e0, then the two cables to switch 1
  REQUIRE(own.target(last) == 1);
  for (LinkId l = 0; l < own.num_links(); ++l) {
    const float by_class = own.link_class(l) == LinkClass::Endpoint ? 40.f : 250.f;
    CHECK(plain.latency_ns(l) == by_class);
    CHECK(own.latency_ns(l) == (l == last || l == own.reverse(last) ? 777.f : by_class));
  }
}
