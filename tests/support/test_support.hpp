#pragma once
// Helpers shared by the test suites: plugins built through the real registries, and temporary files.
#include <igraph.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/flows.hpp"
#include "core/network.hpp"
#include "core/params.hpp"
#include "core/paths.hpp"
#include "core/topology.hpp"
#include "cli/plugins.hpp"
#include "routing/trunk_routing.hpp"

namespace interflow::test {

// Every registry, filled as the interflow executable fills them (cli/plugins.hpp).
inline const cli::Plugins& plugins() {
  static const cli::Plugins p;
  return p;
}

inline std::unique_ptr<Topology> build_topology(const std::string& spec, const LinkDefaults& defaults = {}) {
  return plugins().topologies.create(Spec::parse(spec, "--topology"), defaults);
}

inline std::unique_ptr<Routing> build_routing(const std::string& spec, const Topology& topology) {
  return routing::create_routing(plugins().routings, Spec::parse(spec, "--routing"), topology);
}

// The message of the InputError (or OutputError) `f` throws, or "no error".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "no error";
}

// Per-vertex distances (links) from `root` over links that are up; kNone = unreachable. Endpoints
// that do not forward (those of indirect networks) are leaves.
inline std::vector<std::uint32_t> bfs_distances(const Network& net, VertexId root) {
  std::vector<std::uint32_t> dist(net.num_vertices(), kNone);
  std::vector<VertexId> queue{root};
  dist[root] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId u = queue[head];
    if (u != root && net.kind(u) == VertexKind::Endpoint && !net.endpoints_forward()) continue;
    for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l)
      if (net.up(l) && dist[net.target(l)] == kNone) {
        dist[net.target(l)] = dist[u] + 1;
        queue.push_back(net.target(l));
      }
  }
  return dist;
}

// Every ordered pair of distinct endpoints 0..n-1.
inline FlowSet all_pairs(std::uint32_t n) {
  FlowSet flows;
  for (EndpointId s = 0; s < n; ++s)
    for (EndpointId d = 0; d < n; ++d)
      if (s != d) flows.add(s, d);
  return flows;
}

inline PathTable route(const Routing& routing, const Network& net, const FlowSet& flows, std::uint64_t seed = 1) {
  RouteContext ctx;
  ctx.seed = seed;
  return routing.route_all(net, flows, ctx);
}

// The network as an undirected igraph graph, one edge per cable that is up; freed with the object.
// igraph serves the tests as an independent oracle.
class IgraphGraph {
 public:
  explicit IgraphGraph(const Network& net) {
    igraph_vector_int_t edges;
    igraph_vector_int_init(&edges, 0);
    for (VertexId u = 0; u < net.num_vertices(); ++u)
      for (LinkId l = net.out_begin(u); l < net.out_end(u); ++l)
        if (net.target(l) > u && net.up(l)) {
          igraph_vector_int_push_back(&edges, u);
          igraph_vector_int_push_back(&edges, net.target(l));
        }
    igraph_create(&graph_, &edges, net.num_vertices(), IGRAPH_UNDIRECTED);
    igraph_vector_int_destroy(&edges);
  }
  ~IgraphGraph() { igraph_destroy(&graph_); }
  IgraphGraph(const IgraphGraph&) = delete;
  IgraphGraph& operator=(const IgraphGraph&) = delete;
  const igraph_t* get() const { return &graph_; }

  // Distances between all vertices in links, row-major V x V; infinity when disconnected.
  std::vector<double> all_distances() const {
    igraph_matrix_t m;
    igraph_matrix_init(&m, 0, 0);
    igraph_distances(&graph_, &m, igraph_vss_all(), igraph_vss_all(), IGRAPH_ALL);
    const auto n = static_cast<std::size_t>(igraph_vcount(&graph_));
    std::vector<double> d(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i * n + j] = MATRIX(m, i, j);
    igraph_matrix_destroy(&m);
    return d;
  }

 private:
  igraph_t graph_;
};

// igraph's diameter of the whole network (all vertices, switches included).
inline double igraph_graph_diameter(const Network& net) {
  const IgraphGraph g(net);
  igraph_real_t diameter = 0;
  igraph_diameter(g.get(), &diameter, nullptr, nullptr, nullptr, nullptr, IGRAPH_UNDIRECTED, true);
  return diameter;
}

// igraph's largest endpoint-to-endpoint distance in links (infinity if some pair is disconnected).
inline double igraph_endpoint_diameter(const Network& net) {
  const std::vector<double> d = IgraphGraph(net).all_distances();
  const std::size_t n = net.num_vertices();
  double worst = 0;
  for (EndpointId a = 0; a < net.num_endpoints(); ++a)
    for (EndpointId b = 0; b < net.num_endpoints(); ++b)
      worst = std::max(worst, d[net.endpoint_vertex(a) * n + net.endpoint_vertex(b)]);
  return worst;
}

// Cables crossing the cut between endpoints < N/2 and >= N/2, each switch on the side of the vertex
// on its port 0 (an endpoint in the families whose bisection facts are checked this way).
inline std::uint64_t cables_across_endpoint_halves(const Network& net) {
  const std::uint32_t half = net.num_endpoints() / 2;
  const auto side = [&](VertexId v) {
    return (net.kind(v) == VertexKind::Endpoint ? v : net.target(net.out_begin(v))) < net.endpoint_vertex(half);
  };
  std::uint64_t crossing = 0;
  for (LinkId l = 0; l < net.num_links(); ++l) crossing += side(net.source(l)) != side(net.target(l));
  return crossing / 2;
}

// The value of a topology's closed-form fact, if it reports that key.
inline std::optional<double> find_fact(const Topology& t, const std::string& key) {
  for (const auto& f : t.facts())
    if (f.key == key) return f.value;
  return std::nullopt;
}

// The error message of building `spec`, or "" when it builds.
inline std::string topology_error(const std::string& spec) {
  try {
    build_topology(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A file in a per-process temporary directory, removed with the object.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content) {
    const auto dir = std::filesystem::temp_directory_path() / ("interflow_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    path_ = (dir / name).string();
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    std::filesystem::remove(std::filesystem::path(path_).parent_path(), ignored);  // only if empty
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace interflow::test
