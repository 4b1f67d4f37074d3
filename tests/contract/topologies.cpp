// The topology contract: every registered family has a small example, and each of its instances builds
// the same network twice, a consistent one (counts, endpoint vertices, every link with a reverse that
// goes back), connected, with the facts it reports borne out by brute-force searches and by
// core/analysis.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <ranges>
#include <set>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "tests/contract/contract_support.hpp"

using namespace interflow;

namespace {

// Small enough for every routing and pattern of the suite to run on it quickly.
constexpr std::uint32_t kMaxExampleEndpoints = 1024;

// What brute-force searches measure of a network, for comparison with the facts a family reports.
struct Measured {
  std::uint32_t diameter = 0;         // largest endpoint-to-endpoint distance, in links
  std::uint64_t unreached_pairs = 0;  // ordered endpoint pairs without a path
  std::uint64_t switch_cables = 0;    // cables between two switches
  std::set<std::uint32_t> switch_links_per_switch, endpoint_links_per_switch;  // distinct values
  std::set<double> endpoints_per_switch_link;         // endpoint links / switch links, of switches with both
  std::uint32_t endpoints_below_max_degree = 0;       // endpoint vertices with fewer links than the most linked
  std::vector<std::vector<std::uint32_t>> distances;  // per endpoint, sorted distances to the others
};

Measured measure(const Network& net) {
  Measured m;
  for (EndpointId a = 0; a < net.num_endpoints(); ++a) {
    const std::vector<std::uint32_t> dist = test::bfs_distances(net, net.endpoint_vertex(a));
    std::vector<std::uint32_t> mine;
    for (EndpointId b = 0; b < net.num_endpoints(); ++b) {
      if (b == a) continue;
      const std::uint32_t d = dist[net.endpoint_vertex(b)];
      if (d == kNone) {
        ++m.unreached_pairs;
        continue;
      }
      m.diameter = std::max(m.diameter, d);
      mine.push_back(d);
    }
    std::sort(mine.begin(), mine.end());
    m.distances.push_back(std::move(mine));
  }
  std::uint32_t max_endpoint_degree = 0;
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Endpoint) max_endpoint_degree = std::max(max_endpoint_degree, net.degree(v));
  for (VertexId v = 0; v < net.num_vertices(); ++v) {
    if (net.kind(v) == VertexKind::Endpoint) {
      m.endpoints_below_max_degree += net.degree(v) < max_endpoint_degree;
      continue;
    }
    std::uint32_t to_switches = 0, to_endpoints = 0;
    for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l)
      (net.kind(net.target(l)) == VertexKind::Switch ? to_switches : to_endpoints) += 1;
    m.switch_cables += to_switches;  // counted from both ends
    m.switch_links_per_switch.insert(to_switches);
    m.endpoint_links_per_switch.insert(to_endpoints);
    if (to_switches > 0 && to_endpoints > 0) m.endpoints_per_switch_link.insert(double(to_endpoints) / to_switches);
  }
  m.switch_cables /= 2;
  return m;
}

bool whole(double x) { return x >= 0 && std::floor(x) == x; }

// How each fact a family may report is borne out. A fact missing here fails the contract: whoever adds
// one says how to check it.
using FactCheck = std::function<void(double value, const Network& net, const Measured& m)>;

const std::map<std::string, FactCheck>& fact_checks() {
  static const std::map<std::string, FactCheck> checks = [] {
    std::map<std::string, FactCheck> c;
    c["diameter_links"] = [](double value, const Network&, const Measured& m) { CHECK(value == m.diameter); };
    // Upper bounds on the paths of a routing: at least the longest shortest path.
    for (const char* bound :
         {"minimal_route_max_links", "routing_bound_links", "orig_route_bound_links", "bcn_route_bound_links"})
      c[bound] = [](double value, const Network&, const Measured& m) {
        CHECK(whole(value));
        CHECK(value >= m.diameter);
      };
    // A server hop crosses one server-to-server cable or one switch (two links).
    c["diameter_bound_server_hops"] = [](double value, const Network&, const Measured& m) {
      CHECK(whole(value));
      CHECK(m.diameter <= 2 * value);
    };
    c["bisection_cables"] = [](double value, const Network& net, const Measured&) {
      CHECK(whole(value));
      CHECK(value > 0);
      CHECK(value <= net.num_cables());
    };
    c["global_links_per_group_pair"] = [](double value, const Network&, const Measured&) {
      CHECK(whole(value));
      CHECK(value >= 1);
    };
    c["global_cables"] = [](double value, const Network&, const Measured& m) {
      CHECK(whole(value));
      CHECK(value <= m.switch_cables);
    };
    // Regular switch graphs: every switch has that many switch-to-switch links.
    for (const char* degree : {"switch_degree", "network_radix"})
      c[degree] = [](double value, const Network&, const Measured& m) {
        CHECK(m.switch_links_per_switch == std::set<std::uint32_t>{static_cast<std::uint32_t>(value)});
      };
    c["endpoints_per_switch"] = [](double value, const Network&, const Measured& m) {
      CHECK(m.endpoint_links_per_switch == std::set<std::uint32_t>{static_cast<std::uint32_t>(value)});
    };
    // Trees: down (endpoint) ports per up port at the leaves.
    c["oversubscription"] = [](double value, const Network&, const Measured& m) {
      CHECK(m.endpoints_per_switch_link == std::set<double>{value});
    };
    // Servers with a free (backup) port: fewer links than the others.
    for (const char* free : {"free_backup_ports", "available_servers"})
      c[free] = [](double value, const Network&, const Measured& m) { CHECK(value == m.endpoints_below_max_degree); };
    return c;
  }();
  return checks;
}

void check_counts_and_endpoints(const Network& net) {
  std::uint32_t switches = 0, endpoint_vertices = 0;
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    (net.kind(v) == VertexKind::Switch ? switches : endpoint_vertices) += 1;
  CHECK(net.num_switches() == switches);
  CHECK(net.num_endpoints() >= 2);
  CHECK_MESSAGE(net.num_endpoints() <= kMaxExampleEndpoints, "examples are small: tens to a few hundred endpoints");
  // Each endpoint vertex belongs to exactly one endpoint; a switch hosts endpoints only in a direct network.
  std::vector<std::uint32_t> owners(net.num_vertices(), 0);
  bool hosted = false;
  for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
    const VertexId v = net.endpoint_vertex(e);
    REQUIRE(v < net.num_vertices());
    ++owners[v];
    hosted = hosted || net.kind(v) == VertexKind::Switch;
  }
  CHECK(net.direct() == hosted);
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Endpoint) {
      CAPTURE(v);
      CHECK(owners[v] == 1);
      CHECK(net.degree(v) >= 1);
    }
}

// Every link: its source owns it in the CSR order, no self-loop, sane capacity and latency, up, and a
// reverse that goes back over the same cable (so links = 2 x cables).
void check_links(const Network& net) {
  REQUIRE(net.num_links() % 2 == 0);
  CHECK(net.num_cables() * 2 == net.num_links());
  REQUIRE(net.offsets().size() == net.num_vertices() + std::size_t{1});
  CHECK(net.out_end(net.num_vertices() - 1) == net.num_links());
  for (VertexId u = 0; u < net.num_vertices(); ++u)
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l) {
      CAPTURE(l);
      REQUIRE(net.source(l) == u);
      REQUIRE(net.target(l) < net.num_vertices());
      CHECK(net.target(l) != u);
      CHECK(net.up(l));
      CHECK((std::isfinite(net.capacity_gbps(l)) && net.capacity_gbps(l) > 0));
      CHECK((std::isfinite(net.latency_ns(l)) && net.latency_ns(l) >= 0));
      const LinkId back = net.reverse(l);
      REQUIRE(back < net.num_links());
      CHECK(back != l);
      CHECK(net.source(back) == net.target(l));
      CHECK(net.target(back) == u);
      CHECK(net.reverse(back) == l);
      CHECK(net.capacity_gbps(back) == net.capacity_gbps(l));
    }
}

void check_same_network(const Network& a, const Network& b) {
  CHECK(std::ranges::equal(a.offsets(), b.offsets()));
  CHECK(std::ranges::equal(a.targets(), b.targets()));
  CHECK(std::ranges::equal(a.capacities(), b.capacities()));
  REQUIRE(a.num_endpoints() == b.num_endpoints());
  for (EndpointId e = 0; e < a.num_endpoints(); ++e) CHECK(a.endpoint_vertex(e) == b.endpoint_vertex(e));
}

void check_facts(const Topology& t, const Measured& m) {
  for (const TopologyFact& fact : t.facts()) {
    CAPTURE(fact.key);
    CAPTURE(fact.value);
    const auto check = fact_checks().find(fact.key);
    if (check == fact_checks().end()) {
      FAIL_CHECK("fact '" << fact.key << "' has no contract check: add one to fact_checks() in "
                          << "tests/contract/topologies.cpp");
      continue;
    }
    check->second(fact.value, t.network(), m);
  }
}

void check_instance(const std::string& spec) {
  INFO("topology " << spec);
  const auto topology = contract::build_instance(spec);
  const Network& net = topology->network();
  check_same_network(net, contract::build_instance(spec)->network());
  check_counts_and_endpoints(net);
  check_links(net);

  const Measured m = measure(net);
  CHECK_MESSAGE(m.unreached_pairs == 0, "every endpoint reaches every other");
  const DistanceReport analysis = DistanceAnalysis().run(net, topology->endpoints_symmetric());
  CHECK(analysis.exact);
  CHECK(analysis.disconnected_pairs == 0);
  CHECK(analysis.diameter_links == m.diameter);
  if (topology->endpoints_symmetric())
    for (const auto& d : m.distances) CHECK_MESSAGE(d == m.distances.front(), "endpoints said symmetric");
  check_facts(*topology, m);

  const std::vector<std::uint32_t> grid = topology->endpoint_grid();
  if (!grid.empty()) {
    std::uint64_t product = 1;
    for (std::uint32_t side : grid) product *= side;
    CHECK_MESSAGE(product == net.num_endpoints(), "the endpoint grid holds every endpoint");
  }
  CHECK_MESSAGE(contract::routing_or_null(topology->default_routing(), *topology) != nullptr,
                "the default routing '" << topology->default_routing() << "' accepts the topology");
}

}  // namespace

TEST_CASE("contract: every topology has an example and builds a consistent connected network") {
  for (const auto& entry : contract::registries().topologies.entries()) {
    SUBCASE(("topology " + entry.name).c_str()) {
      REQUIRE_MESSAGE(!entry.example.empty(), "topology '" << entry.name
                                                           << "' has no example: set Entry::example in its "
                                                              "registration (a small instance, tens to a few "
                                                              "hundred endpoints)");
      CHECK(Spec::parse(entry.example, "example").name == entry.name);
      for (const std::string& spec : contract::topology_instance_specs(entry)) check_instance(spec);
    }
  }
}
