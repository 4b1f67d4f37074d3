// Topology 'graph': every format, every endpoint rule, export round trips and malformed input.
#include "topologies/graph_file.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/export.hpp"
#include "topologies/registry.hpp"
#include "topologies/torus.hpp"

using namespace interflow;

namespace {

const std::string kFixtures = std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/";

std::string error_of(const std::string& spec) {
  try {
    test::build_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<double> sorted_capacities(const Network& net) {
  std::vector<double> caps;
  for (LinkId l = 0; l < net.num_links(); ++l) caps.push_back(net.capacity_gbps(l));
  std::sort(caps.begin(), caps.end());
  return caps;
}

std::vector<std::uint32_t> sorted_degrees(const Network& net, VertexKind kind) {
  std::vector<std::uint32_t> d;
  for (VertexId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == kind) d.push_back(net.degree(v));
  std::sort(d.begin(), d.end());
  return d;
}

}  // namespace

TEST_CASE("graph: every format loads the same small network") {
  LinkDefaults defaults;
  defaults.endpoint_gbps = 7;
  defaults.switch_gbps = 3;
  struct Case {
    const char* file;
    const char* extra;
    bool capacities;  // the format carries capacities
  };
  for (const Case& c :
       {Case{"small.ifg", "", true}, Case{"small.graphml", "", true}, Case{"small.gml", "", true},
        Case{"small.net", ",endpoints=leaves", false}, Case{"small.edges", ",endpoints=leaves", false}}) {
    SUBCASE(c.file) {
      const auto t = test::build_topology("graph:file=" + kFixtures + c.file + c.extra, defaults);
      const Network& net = t->network();
      CHECK(t->family() == "graph");
      CHECK(t->default_routing() == "bfs");
      CHECK(net.num_endpoints() == 4);
      CHECK(net.num_switches() == 2);
      CHECK(net.num_vertices() == 6);
      CHECK(net.num_cables() == 6);
      CHECK_FALSE(net.direct());
      CHECK(sorted_degrees(net, VertexKind::Switch) == std::vector<std::uint32_t>{4, 4});
      CHECK(sorted_degrees(net, VertexKind::Endpoint) == std::vector<std::uint32_t>{1, 1, 1, 1});
      for (EndpointId e = 0; e < 4; ++e) CHECK(net.kind(net.endpoint_vertex(e)) == VertexKind::Endpoint);
      // Endpoint links take the endpoint default; the two parallel switch cables 40 and 10 (or the
      // switch default when the format has no capacities).
      const std::vector<double> expected = c.capacities ? std::vector<double>{7, 7, 7, 7, 7, 7, 7, 7, 10, 10, 40, 40}
                                                        : std::vector<double>{3, 3, 3, 3, 7, 7, 7, 7, 7, 7, 7, 7};
      CHECK(sorted_capacities(net) == expected);
      if (c.capacities) {
        std::vector<float> latencies;
        for (LinkId l = 0; l < net.num_links(); ++l) latencies.push_back(net.latency_ns(l));
        CHECK(std::count(latencies.begin(), latencies.end(), 250.f) == 2);
        CHECK(std::count(latencies.begin(), latencies.end(), 100.f) == 10);
      }
    }
  }
}

TEST_CASE("graph: interflow format numbers switches first then linked endpoints and hosts direct endpoints") {
  test::TempFile f(
      "mixed.ifg",
      "endpoints 3\nswitches 2\nlink s0 s1 gbps=5\nlink e2 s1\nhost e1 s0\nlink e0 s0  # trailing comment\n"
      "forward yes\n");
  const auto topology_net = test::build_topology("graph:file=" + f.path());
  const Network& net = topology_net->network();
  CHECK(net.num_vertices() == 4);  // s0, s1, e0, e2
  CHECK(net.num_endpoints() == 3);
  CHECK(net.endpoint_vertex(0) == 2);
  CHECK(net.endpoint_vertex(1) == 0);  // hosted by s0
  CHECK(net.endpoint_vertex(2) == 3);
  CHECK(net.direct());
  CHECK(net.endpoints_forward());
  CHECK(net.capacity_gbps(net.find_link(0, 1)) == 5);
  // Port order = file order: s0's first link goes to s1, its second to e0.
  CHECK(net.target(net.out_begin(0)) == 1);
  CHECK(net.target(net.out_begin(0) + 1) == 2);
}

TEST_CASE("graph: endpoint rules for igraph formats") {
  const std::string edges = "graph:file=" + kFixtures + "small.edges";
  SUBCASE("all (the default for edge lists) is a direct network") {
    const auto topology_net = test::build_topology(edges);
    const Network& net = topology_net->network();
    CHECK(net.num_endpoints() == 6);
    CHECK(net.num_switches() == 6);
    CHECK(net.num_cables() == 6);
    CHECK(net.direct());
    for (EndpointId e = 0; e < 6; ++e) CHECK(net.endpoint_vertex(e) == e);
  }
  SUBCASE("per_switch attaches c endpoints to every vertex") {
    const auto topology_net = test::build_topology(edges + ",endpoints=per_switch,c=3");
    const Network& net = topology_net->network();
    CHECK(net.num_endpoints() == 18);
    CHECK(net.num_switches() == 6);
    CHECK(net.num_cables() == 6 + 18);
    for (EndpointId e = 0; e < 18; ++e) {
      const VertexId v = net.endpoint_vertex(e);
      CHECK(v == 6 + e);
      CHECK(net.degree(v) == 1);
      CHECK(net.target(net.out_begin(v)) == e / 3);
    }
  }
  SUBCASE("forward=true lets endpoints forward") {
    CHECK(test::build_topology(edges + ",endpoints=leaves,forward=true")->network().endpoints_forward());
    CHECK_FALSE(test::build_topology(edges + ",endpoints=leaves")->network().endpoints_forward());
  }
  SUBCASE("attribute on a Pajek file, which has no kind") {
    const std::string msg = error_of("graph:file=" + kFixtures + "small.net,endpoints=attribute");
    CHECK(msg.find("small.net") != std::string::npos);
    CHECK(msg.find("kind") != std::string::npos);
  }
  SUBCASE("format given explicitly overrides the extension") {
    test::TempFile f("edges.dat", "0 1\n1 2\n");
    CHECK(test::build_topology("graph:file=" + f.path() + ",format=edgelist")->network().num_endpoints() == 3);
    const std::string msg = error_of("graph:file=" + f.path());
    CHECK(msg.find("edges.dat") != std::string::npos);
    CHECK(msg.find("format=") != std::string::npos);
  }
}

TEST_CASE("graph: GraphML export of a torus reads back as the same network") {
  for (std::uint32_t c : {1u, 0u}) {
    SUBCASE(c == 1 ? "c=1: endpoints on their own links" : "c=0: direct network (routers)") {
      LinkDefaults defaults;
      defaults.endpoint_gbps = 40;
      defaults.switch_gbps = 25;
      topo::TorusTopology torus({4, 3, 2}, true, c, defaults);
      std::ostringstream out;
      topo::write_graphml(torus.network(), out);
      test::TempFile f("torus.graphml", out.str());
      const auto topology_back = test::build_topology("graph:file=" + f.path());
      const Network& back = topology_back->network();
      const Network& net = torus.network();
      CHECK(back.num_endpoints() == net.num_endpoints());
      CHECK(back.num_switches() == net.num_switches());
      CHECK(back.num_vertices() == net.num_vertices());
      CHECK(back.num_cables() == net.num_cables());
      CHECK(back.direct() == net.direct());
      for (VertexId v = 0; v < net.num_vertices(); ++v) {
        CHECK(back.kind(v) == net.kind(v));
        CHECK(back.degree(v) == net.degree(v));
      }
      for (EndpointId e = 0; e < net.num_endpoints(); ++e) CHECK(back.endpoint_vertex(e) == net.endpoint_vertex(e));
      CHECK(sorted_capacities(back) == sorted_capacities(net));
    }
  }
}

TEST_CASE("graph: malformed interflow files name the file and line and what was expected") {
  struct Case {
    const char* name;
    const char* content;
    std::size_t line;
    const char* expected;
  };
  const std::string head = "endpoints 2\nswitches 1\n";
  const std::vector<Case> cases = {
      {"unknown keyword", "endpoints 2\nswitches 1\ncable e0 s0\n", 3, "expected a line starting with"},
      {"link before the switches header", "endpoints 2\nlink e0 s0\n", 2, "expected 'switches <M>' before"},
      {"empty file", "# nothing\n", 1, "expected 'endpoints <N>' and 'switches <M>'"},
      {"duplicate header", "endpoints 2\nswitches 1\nendpoints 3\n", 3, "duplicate 'endpoints' line"},
      {"bad count", "endpoints two\n", 1, "expected 'endpoints <N>' with N a whole number >= 1"},
      {"zero endpoints", "endpoints 0\n", 1, "N a whole number >= 1"},
      {"bad vertex name", "endpoints 2\nswitches 1\nlink x0 s0\n", 3, "expected a vertex name e0..e1 or s0..s0"},
      {"vertex out of range", "endpoints 2\nswitches 1\nlink e0 s1\n", 3, "got 's1'"},
      {"bad number", "endpoints 2\nswitches 1\nlink e0 s0 gbps=fast\n", 3, "expected gbps=<capacity in Gbit/s"},
      {"negative capacity", "endpoints 2\nswitches 1\nlink e0 s0 gbps=-5\n", 3, "a finite number > 0"},
      {"zero capacity", "endpoints 2\nswitches 1\nlink e0 s0 gbps=0\n", 3, "a finite number > 0"},
      {"negative latency", "endpoints 2\nswitches 1\nlink e0 s0 ns=-1\n", 3, "expected ns=<latency in ns"},
      {"unknown option", "endpoints 2\nswitches 1\nlink e0 s0 mtu=9000\n", 3, "gbps= and ns= at most once"},
      {"missing vertex", "endpoints 2\nswitches 1\nlink e0\n", 3, "expected 'link <a> <b>"},
      {"self-loop", "endpoints 2\nswitches 1\nlink s0 s0\n", 3, "self-loop"},
      {"hosted then linked", "endpoints 2\nswitches 2\nhost e0 s0\nlink e0 s1\n", 4, "not both"},
      {"linked then hosted", "endpoints 2\nswitches 2\nlink e0 s1\nhost e0 s0\n", 4, "not both"},
      {"hosted twice", "endpoints 2\nswitches 2\nhost e0 s0\nhost e0 s1\n", 4, "one host line per endpoint"},
      {"two endpoints on one switch", "endpoints 2\nswitches 1\nhost e0 s0\nhost e1 s0\n", 4,
       "at most one endpoint per switch"},
      {"host of a switch", "endpoints 2\nswitches 2\nhost s0 s1\n", 3, "expected 'host <eI> <sJ>'"},
      {"unreachable endpoint", "# header\nendpoints 3\nswitches 1\nlink e0 s0\nlink e1 s0\n", 2,
       "e2 has no link and no host line"},
      {"hosting switch without links", "endpoints 2\nswitches 2\nhost e0 s0\nlink e1 s1\n", 3, "which has no link"},
      {"bad forward", "endpoints 2\nswitches 1\nforward maybe\n", 3, "expected 'forward yes' or 'forward no'"},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      test::TempFile f("bad.ifg", c.content);
      const std::string msg = error_of("graph:file=" + f.path());
      INFO(msg);
      CHECK(msg.find(f.path() + ":" + std::to_string(c.line) + ": ") == 0);
      CHECK(msg.find(c.expected) != std::string::npos);
    }
  }
  SUBCASE("file not found") {
    const std::string msg = error_of("graph:file=/nonexistent/net.ifg");
    CHECK(msg.find("graph file '/nonexistent/net.ifg': cannot read: No such file or directory") != std::string::npos);
  }
}

TEST_CASE("graph: malformed igraph files and bad parameters are InputErrors naming the file") {
  struct Case {
    const char* name;
    const char* file;
    const char* content;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"edge list self-loop", "loop.edges", "0 1\n1 1\n", "edge #1 (counting from 0) joins vertex #1 to itself"},
      {"edge list not numbers", "text.edges", "0 1\n1 x\n", "not a valid edgelist file"},
      {"broken GraphML", "broken.graphml", "<graphml><graph><node id=\"a\"/>", "not a valid graphml file"},
      {"GML unknown target", "target.gml", "graph [ node [ id 0 kind \"endpoint\" ] edge [ source 0 target 5 ] ]",
       "not a valid gml file"},
      {"GML bad kind", "kind.gml",
       "graph [ node [ id 0 kind \"server\" ] node [ id 1 kind \"switch\" ] edge [ source 0 target 1 ] ]",
       "vertex #0 (counting from 0) has kind 'server'; expected endpoint, switch or router"},
      {"GML negative capacity", "cap.gml",
       "graph [ node [ id 0 kind \"endpoint\" ] node [ id 1 kind \"switch\" ] "
       "edge [ source 0 target 1 capacity_gbps -2 ] ]",
       "capacity_gbps"},
      {"GraphML without kind", "nokind.graphml",
       "<graphml><graph edgedefault=\"undirected\"><node id=\"a\"/><node id=\"b\"/>"
       "<edge source=\"a\" target=\"b\"/></graph></graphml>",
       "no text vertex attribute 'kind'"},
      {"isolated endpoint", "isolated.gml",
       "graph [ node [ id 0 kind \"endpoint\" ] node [ id 1 kind \"switch\" ] node [ id 2 kind \"endpoint\" ] "
       "edge [ source 0 target 1 ] ]",
       "vertex #2 (counting from 0) is or hosts an endpoint but has no edge"},
      {"no endpoint", "switches.gml",
       "graph [ node [ id 0 kind \"switch\" ] node [ id 1 kind \"switch\" ] edge [ source 0 target 1 ] ]",
       "no vertex is an endpoint"},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      test::TempFile f(c.file, c.content);
      const std::string msg = error_of("graph:file=" + f.path());
      INFO(msg);
      CHECK(msg.find(f.path() + ": ") == 0);
      CHECK(msg.find(c.expected) != std::string::npos);
    }
  }
  SUBCASE("endpoint rule on an .ifg file") {
    CHECK(error_of("graph:file=" + kFixtures + "small.ifg,endpoints=all").find("names its endpoints itself") !=
          std::string::npos);
  }
  SUBCASE("c without per_switch") {
    CHECK(error_of("graph:file=" + kFixtures + "small.edges,c=2").find("endpoints=per_switch") != std::string::npos);
  }
  SUBCASE("unknown extension") {
    test::TempFile f("net.xyz", "0 1\n");
    CHECK(error_of("graph:file=" + f.path()).find(f.path() + ": cannot tell the graph format") == 0);
    // A missing file is named as missing, not as a file of an unknown format.
    CHECK(error_of("graph:file=no-such-net.xyz").find("No such file or directory") != std::string::npos);
  }
  SUBCASE("missing file parameter") {
    CHECK(error_of("graph").find("missing required parameter 'file'") != std::string::npos);
  }
}

namespace {

// A directory named like a graph file of each format, under the temporary directory, removed with the object.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("interflow_graph_input_test_" + std::to_string(getpid())) /
             name) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path.parent_path(), ignored);
  }
};

}  // namespace

TEST_CASE("graph: a missing file or a directory in every format is refused with the reason") {
  for (const std::string ext : {"ifg", "edges", "graphml", "gml", "net"}) {
    INFO(ext);
    const std::string missing = "/nonexistent/net." + ext;
    CHECK(error_of("graph:file=" + missing) == "graph file '" + missing + "': cannot read: No such file or directory");
    const ScratchDir dir("dir." + ext);
    CHECK(error_of("graph:file=" + dir.path.string()) ==
          "graph file '" + dir.path.string() + "': is a directory, not a file");
  }
}

TEST_CASE("graph: capacities and latencies must be finite and fit a float") {
  const auto ifg = [](const std::string& options) {
    test::TempFile f("values.ifg", "endpoints 2\nswitches 1\nlink e0 s0\nlink e1 s0 " + options + "\n");
    const std::string msg = error_of("graph:file=" + f.path());
    INFO(options, " -> ", msg);
    CHECK(msg.find(f.path() + ":4: expected " + (options.substr(0, 2) == "ns" ? "ns=" : "gbps=")) == 0);
    CHECK(msg.find("got '" + options + "'") != std::string::npos);
  };
  for (const std::string v : {"nan", "-nan", "inf", "-inf", "1e999", "1e39", "3.5e38", "1e-39", "-1", "0", "0x10"})
    ifg("gbps=" + v);
  for (const std::string v : {"nan", "inf", "-inf", "1e999", "1e39", "-1e-9", "1x"}) ifg("ns=" + v);
  // The largest and smallest values a float holds are accepted.
  test::TempFile edge("edge.ifg",
                      "endpoints 2\nswitches 1\nlink e0 s0 gbps=3.4e38 ns=3.4e38\nlink e1 s0 gbps=1.2e-38 ns=0\n");
  CHECK(error_of("graph:file=" + edge.path()) == "(no error)");

  const auto gml = [](const std::string& attributes) {
    test::TempFile f("values.gml",
                     "graph [ node [ id 0 kind \"endpoint\" ] node [ id 1 kind \"switch\" ] "
                     "edge [ source 0 target 1 " +
                         attributes + " ] ]");
    return error_of("graph:file=" + f.path());
  };
  CHECK(gml("capacity_gbps 1e39")
            .find("edge #0 (counting from 0) has capacity_gbps 1e+39; expected a finite number > 0") !=
        std::string::npos);
  CHECK(gml("capacity_gbps 0").find("has capacity_gbps 0") != std::string::npos);
  CHECK(gml("latency_ns -1").find("has latency_ns -1; expected a finite number >= 0") != std::string::npos);
  CHECK(gml("latency_ns 1e40").find("has latency_ns 1e+40") != std::string::npos);
  CHECK(gml("capacity_gbps 25 latency_ns 100") == "(no error)");

  const auto graphml = [](const std::string& gbps) {
    test::TempFile f("values.graphml",
                     "<graphml><key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>"
                     "<key id=\"g\" for=\"edge\" attr.name=\"capacity_gbps\" attr.type=\"double\"/>"
                     "<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"kind\">endpoint</data></node>"
                     "<node id=\"b\"><data key=\"kind\">switch</data></node>"
                     "<edge source=\"a\" target=\"b\"><data key=\"g\">" +
                         gbps + "</data></edge></graph></graphml>");
    return error_of("graph:file=" + f.path());
  };
  CHECK(graphml("INF").find("has capacity_gbps inf") != std::string::npos);
  CHECK(graphml("-5").find("has capacity_gbps -5") != std::string::npos);
  CHECK(graphml("1e39").find("has capacity_gbps 1e+39") != std::string::npos);
  CHECK(graphml("40") == "(no error)");
}

TEST_CASE("graph: an edge list with a huge vertex id is refused with its line before igraph allocates") {
  test::TempFile huge("huge.edges", "0 1\n1 3000000000\n");
  CHECK(error_of("graph:file=" + huge.path()) ==
        huge.path() + ":2: vertex id 3000000000 is 2^31 - 1 or more (at most 2^31 - 1 vertices)");
  test::TempFile overflow("overflow.edges", "0 1\n\n1 99999999999999999999999\n");
  CHECK(error_of("graph:file=" + overflow.path()).find(overflow.path() + ":3: vertex id 99999999999999999999999") == 0);
  test::TempFile negative("negative.edges", "0 1\n1 -1\n");
  CHECK(error_of("graph:file=" + negative.path()).find(negative.path() + ": not a valid edgelist file") == 0);
}
