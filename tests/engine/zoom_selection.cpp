// The zoom-selection plugins (engine/hybrid/zoom_selection.hpp): each picks the switches it says, on
// the families it names, and refuses what it cannot pick with one clear message.
#include <doctest/doctest.h>

#include <numeric>
#include <tuple>

#include "cli/plugins.hpp"
#include "core/error.hpp"
#include "core/transport.hpp"
#include "engine/hybrid/zoom_selection.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::hybrid;

namespace {

struct Case {
  std::unique_ptr<Topology> topology;
  MessageTable messages;
  PathTable paths;

  explicit Case(const std::string& topo, const std::string& route = "bfs") : topology(test::build_topology(topo)) {
    const Network& net = topology->network();
    for (EndpointId e = 1; e < net.num_endpoints(); ++e) {  // an incast on endpoint 0
      messages.ends.add(e, 0);
      messages.bytes.push_back(1000);
    }
    const auto routing = test::build_routing(route, *topology);
    paths = test::route(*routing, net, messages.ends);
  }
  std::vector<std::uint8_t> select(const std::string& spec) const {
    static const cli::Plugins plugins;
    const auto selection = plugins.zoom_selections.create(Spec::parse(spec, "--zoom"));
    return selection->select({topology->network(), *topology, messages, paths});
  }
  std::vector<VertexId> chosen(const std::string& spec) const {
    const std::vector<std::uint8_t> z = select(spec);
    std::vector<VertexId> out;
    for (VertexId v = 0; v < z.size(); ++v)
      if (z[v]) out.push_back(v);
    return out;
  }
};

}  // namespace

TEST_CASE("zoom selection: tree-level picks one row of a k-ary n-tree and refuses a level that is not there") {
  const Case c("fattree:k=4,n=3", "dmodk");
  const Network& net = c.topology->network();
  std::vector<VertexId> all;
  for (std::uint32_t level = 0; level < 3; ++level) {
    const std::vector<VertexId> row = c.chosen("tree-level:level=" + std::to_string(level));
    CHECK(row.size() == 16);  // k^(n-1) switches per level
    for (VertexId v : row) {
      CHECK(net.kind(v) == VertexKind::Switch);
      bool hosts = false;
      for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) hosts = hosts || net.kind(net.target(l)) == VertexKind::Endpoint;
      CHECK(hosts == (level == 0));  // only leaves reach endpoints
    }
    all.insert(all.end(), row.begin(), row.end());
  }
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());  // the levels are disjoint
  CHECK(all.size() == net.num_switches());
  CHECK_THROWS_WITH_AS(c.select("tree-level:level=3"),
                       "zoom 'tree-level': no switch at level 3; this network's levels are 0..2", InputError);
}

TEST_CASE("zoom selection: group picks a dragonfly's and a megafly's group and refuses other families") {
  const Case d("dragonfly:a=4,p=2,h=2,g=5", "dfmin");
  const std::vector<VertexId> g1 = d.chosen("group:group=1");
  REQUIRE(g1.size() == 4);
  const Network& net = d.topology->network();
  for (VertexId u : g1)  // a group is a complete graph
    for (VertexId v : g1)
      if (u != v) CHECK(net.find_link(u, v) != kNone);
  const Case m("megafly:leaves=4,spines=4,p=2,h=2,g=5", "mfmin");
  CHECK(m.chosen("group:group=4").size() == 8);  // 4 leaves and 4 spines
  CHECK_THROWS_WITH_AS(m.select("group:group=5"), "zoom 'group': group 5 does not exist; this megafly has groups 0..4",
                       InputError);
  const Case t("torus:dims=4x4", "dor");
  CHECK_THROWS_AS(t.select("group:group=0"), InputError);
}

TEST_CASE("zoom selection: hottest picks the switch of an incast's destination first") {
  const Case c("fattree:k=4,n=3", "dmodk");
  const Network& net = c.topology->network();
  const std::vector<VertexId> one = c.chosen("hottest:k=1");
  REQUIRE(one.size() == 1);
  // Every message ends on endpoint 0's cable: its leaf switch sends all the run's bytes over it.
  CHECK(net.find_link(one[0], net.endpoint_vertex(0)) != kNone);
  const std::vector<VertexId> three = c.chosen("hottest:k=3");
  CHECK(three.size() == 3);
  CHECK(std::find(three.begin(), three.end(), one[0]) != three.end());
  CHECK(c.chosen("hottest:k=1000").size() == net.num_switches());
}

TEST_CASE("zoom selection: congestion-tree picks the switches before the hottest links on the routes that cross them") {
  // A ring of five routers hosting one endpoint each: 0 -> 2 and 1 -> 2 meet on the link 1 -> 2
  // (2,000 bytes), 2 -> 3 carries 500 and 3 -> 4 carries 100.
  Case c("torus:dims=5,c=0", "dor");
  const Network& net = c.topology->network();
  c.messages = MessageTable{};
  for (const auto& [s, d, b] : {std::tuple{0u, 2u, 1000.0}, {1u, 2u, 1000.0}, {2u, 3u, 500.0}, {3u, 4u, 100.0}}) {
    c.messages.ends.add(s, d);
    c.messages.bytes.push_back(b);
  }
  c.paths = test::route(*test::build_routing("dor", *c.topology), net, c.messages.ends);
  const auto router = [&](EndpointId e) { return net.endpoint_vertex(e); };
  // The hottest link is 1 -> 2: both routes into it, up to its source; not router 2 after it.
  CHECK(c.chosen("congestion-tree") == std::vector<VertexId>{router(0), router(1)});
  CHECK(c.chosen("congestion-tree:links=2") == std::vector<VertexId>{router(0), router(1)});  // 0 -> 1 adds nothing
  CHECK(c.chosen("congestion-tree:links=3") == std::vector<VertexId>{router(0), router(1), router(2)});
  CHECK(c.chosen("congestion-tree:links=1000").size() == 4);  // router 4 sends nothing: never before a loaded link
}

TEST_CASE("zoom selection: ids picks the switches named and refuses endpoints and bad entries") {
  const Case c("fattree:k=4,n=2", "dmodk");
  const Network& net = c.topology->network();
  const VertexId first_switch = net.num_endpoints();  // a tree numbers its endpoints first
  REQUIRE(net.kind(first_switch) == VertexKind::Switch);
  const std::string ids = std::to_string(first_switch) + ";" + std::to_string(first_switch + 2);
  CHECK(c.chosen("ids:ids=" + ids) == std::vector<VertexId>{first_switch, first_switch + 2});
  CHECK_THROWS_WITH_AS(c.select("ids:ids=" + std::to_string(first_switch) + ";0"),
                       "zoom 'ids': entry 1 (vertex 0) is an endpoint; only switches can be zoomed", InputError);
  CHECK_THROWS_AS(c.select("ids:ids=1;x"), InputError);
  CHECK_THROWS_AS(c.select("ids:ids=99999"), InputError);
  CHECK(c.chosen("all").size() == net.num_switches());
}

TEST_CASE("zoom selection: class-paths picks the switches on one class's routes") {
  Case c("fattree:k=4,n=2", "dmodk");
  const Network& net = c.topology->network();
  // Class 1 for the message from endpoint 5 only (message 4; endpoints 0 to 3 share a leaf): its
  // route is endpoint 5's leaf, one spine, endpoint 0's leaf.
  c.messages.service_class.assign(c.messages.size(), 0);
  c.messages.service_class[4] = 1;
  const std::vector<VertexId> one = c.chosen("class-paths:class=1");
  REQUIRE(one.size() == 3);
  for (VertexId v : one) CHECK(net.kind(v) == VertexKind::Switch);
  CHECK(std::find(one.begin(), one.end(), net.target(net.out_begin(net.endpoint_vertex(5)))) != one.end());
  CHECK(std::find(one.begin(), one.end(), net.target(net.out_begin(net.endpoint_vertex(0)))) != one.end());
  CHECK(c.chosen("class-paths:class=2").empty());
  // Class 0: every other endpoint sends to endpoint 0, through every leaf and the spines dmodk picks.
  CHECK(c.chosen("class-paths:class=0").size() > one.size());
}
