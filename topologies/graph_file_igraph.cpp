// Reader of the igraph formats (edge list, GraphML, GML, Pajek) for topology 'graph'. igraph parses
// the file into an undirected multigraph; its edges and the attributes we use are copied out into
// plain arrays, then assembled into a Network by the chosen EndpointRule.
#include <igraph.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "topologies/graph_file.hpp"

namespace interflow::topo {

namespace {

// igraph 0.10.2 as packaged by Debian keeps its error handler, its "finally" stack and the
// attribute table in process-wide state and is not built thread-safe: one igraph call at a time,
// with our handlers installed only for its duration.
std::mutex igraph_mutex;
char igraph_error_text[512];

void record_igraph_error(const char* reason, const char*, int, igraph_error_t) {
  if (igraph_error_text[0] == '\0') std::snprintf(igraph_error_text, sizeof igraph_error_text, "%s", reason);
  IGRAPH_FINALLY_FREE();  // igraph expects a returning handler to release its temporaries
}

class IgraphSession {
 public:
  IgraphSession() : lock_(igraph_mutex) {
    static std::once_flag attributes_once;
    std::call_once(attributes_once, [] { igraph_set_attribute_table(&igraph_cattribute_table); });
    igraph_error_text[0] = '\0';
    previous_error_ = igraph_set_error_handler(record_igraph_error);
    previous_warning_ = igraph_set_warning_handler(igraph_warning_handler_ignore);
  }
  ~IgraphSession() {
    igraph_set_error_handler(previous_error_);
    igraph_set_warning_handler(previous_warning_);
  }
  IgraphSession(const IgraphSession&) = delete;
  IgraphSession& operator=(const IgraphSession&) = delete;
  std::string error() const { return igraph_error_text[0] ? igraph_error_text : "unknown igraph error"; }

 private:
  std::lock_guard<std::mutex> lock_;
  igraph_error_handler_t* previous_error_;
  igraph_warning_handler_t* previous_warning_;
};

struct GraphGuard {
  igraph_t graph;
  bool live = false;
  ~GraphGuard() {
    if (live) igraph_destroy(&graph);
  }
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// igraph makes an edge list's graph as large as its largest vertex id before it checks anything, so a
// stray huge id would cost gigabytes before the reader's own limit of 2^31 vertices: the ids are
// checked first, naming the line. Tokens that are no whole number >= 0 are left to igraph's parser.
void check_edge_list_ids(const std::string& file) {
  std::ifstream in = open_input(file, "graph file");
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number)
    for (std::size_t at = 0; at < line.size();) {
      if (std::isspace(static_cast<unsigned char>(line[at]))) {
        ++at;
        continue;
      }
      std::size_t end = at;
      while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
      std::uint64_t id = 0;
      const auto [stop, ec] = std::from_chars(line.data() + at, line.data() + end, id);
      const bool digits = stop == line.data() + end;
      if (digits && (ec == std::errc::result_out_of_range || id >= (std::uint64_t{1} << 31) - 1))
        throw file_error(file, number,
                         "vertex id " + line.substr(at, end - at) + " is 2^31 - 1 or more (at most 2^31 - 1 vertices)");
      at = end;
    }
}

enum class Kind : std::uint8_t { Endpoint, Switch, Router };

// What the reader keeps of the igraph graph.
struct RawGraph {
  std::uint32_t vertices = 0;
  std::vector<std::uint32_t> ends;  // two per edge
  std::vector<double> gbps, ns;     // per edge when the attribute exists; NaN = default
  std::vector<Kind> kind;           // per vertex, for EndpointRule::Attribute
  std::size_t edges() const { return ends.size() / 2; }
};

class IgraphReader {
 public:
  IgraphReader(const GraphFileOptions& options, EndpointRule rule) : options_(options), rule_(rule) {}

  RawGraph run() {
    // fopen opens a directory (reads then fail with no word of why): the file is checked first.
    check_readable(options_.file, "graph file");
    errno = 0;
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(options_.file.c_str(), "r"));
    if (!file)
      throw InputError("graph file '" + options_.file + "': cannot read: " + std::strerror(errno != 0 ? errno : EIO));
    IgraphSession session;
    GraphGuard g;
    igraph_error_t rc = IGRAPH_SUCCESS;
    switch (options_.format) {
      case GraphFormat::EdgeList:
        check_edge_list_ids(options_.file);
        rc = igraph_read_graph_edgelist(&g.graph, file.get(), 0, false);
        break;
      case GraphFormat::GraphML:
        rc = igraph_read_graph_graphml(&g.graph, file.get(), 0);
        break;
      case GraphFormat::Gml:
        rc = igraph_read_graph_gml(&g.graph, file.get());
        break;
      case GraphFormat::Pajek:
        rc = igraph_read_graph_pajek(&g.graph, file.get());
        break;
      case GraphFormat::Interflow:
        throw std::logic_error("interflow format is not read by igraph");
    }
    if (rc != IGRAPH_SUCCESS)
      fail("not a valid " + std::string(format_name(options_.format)) + " file: " + session.error());
    g.live = true;
    RawGraph raw;
    copy_structure(g.graph, raw, session);
    if (options_.format == GraphFormat::GraphML || options_.format == GraphFormat::Gml) {
      raw.gbps = edge_numbers(g.graph, "capacity_gbps", session);
      raw.ns = edge_numbers(g.graph, "latency_ns", session);
    }
    if (rule_ == EndpointRule::Attribute) raw.kind = vertex_kinds(g.graph, session);
    return raw;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw InputError(options_.file + ": " + what); }

  void check(igraph_error_t rc, const IgraphSession& session) const {
    if (rc != IGRAPH_SUCCESS) fail("igraph failed: " + session.error());
  }

  void copy_structure(const igraph_t& graph, RawGraph& raw, const IgraphSession& session) const {
    const igraph_integer_t n = igraph_vcount(&graph);
    if (n >= (igraph_integer_t{1} << 31)) fail("more than 2^31 vertices");
    raw.vertices = static_cast<std::uint32_t>(n);
    igraph_vector_int_t list;
    check(igraph_vector_int_init(&list, 0), session);
    const igraph_error_t rc = igraph_get_edgelist(&graph, &list, false);
    if (rc != IGRAPH_SUCCESS) igraph_vector_int_destroy(&list);
    check(rc, session);
    const igraph_integer_t size = igraph_vector_int_size(&list);
    raw.ends.resize(static_cast<std::size_t>(size));
    for (igraph_integer_t i = 0; i < size; ++i) raw.ends[i] = static_cast<std::uint32_t>(VECTOR(list)[i]);
    igraph_vector_int_destroy(&list);
  }

  // Type of a vertex or edge attribute, or nothing when the graph lacks it.
  static bool attribute_type(const igraph_t& graph, igraph_attribute_elemtype_t where, const char* name,
                             igraph_attribute_type_t& type) {
    if (!igraph_cattribute_has_attr(&graph, where, name)) return false;
    igraph_strvector_t names;
    igraph_vector_int_t types;
    igraph_strvector_init(&names, 0);
    igraph_vector_int_init(&types, 0);
    if (where == IGRAPH_ATTRIBUTE_VERTEX)
      igraph_cattribute_list(&graph, nullptr, nullptr, &names, &types, nullptr, nullptr);
    else
      igraph_cattribute_list(&graph, nullptr, nullptr, nullptr, nullptr, &names, &types);
    bool found = false;
    for (igraph_integer_t i = 0; i < igraph_strvector_size(&names); ++i)
      if (std::string(igraph_strvector_get(&names, i)) == name) {
        type = static_cast<igraph_attribute_type_t>(VECTOR(types)[i]);
        found = true;
      }
    igraph_strvector_destroy(&names);
    igraph_vector_int_destroy(&types);
    return found;
  }

  std::vector<double> edge_numbers(const igraph_t& graph, const char* name, const IgraphSession& session) const {
    igraph_attribute_type_t type{};
    if (!attribute_type(graph, IGRAPH_ATTRIBUTE_EDGE, name, type)) return {};
    if (type != IGRAPH_ATTRIBUTE_NUMERIC)
      fail("edge attribute '" + std::string(name) + "' is not numeric; expected a number on every edge");
    igraph_vector_t values;
    check(igraph_vector_init(&values, 0), session);
    const igraph_error_t rc = igraph_cattribute_EANV(&graph, name, igraph_ess_all(IGRAPH_EDGEORDER_ID), &values);
    if (rc != IGRAPH_SUCCESS) igraph_vector_destroy(&values);
    check(rc, session);
    std::vector<double> out(static_cast<std::size_t>(igraph_vector_size(&values)));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = VECTOR(values)[i];
    igraph_vector_destroy(&values);
    return out;
  }

  std::vector<Kind> vertex_kinds(const igraph_t& graph, const IgraphSession& session) const {
    igraph_attribute_type_t type{};
    if (!attribute_type(graph, IGRAPH_ATTRIBUTE_VERTEX, "kind", type) || type != IGRAPH_ATTRIBUTE_STRING)
      fail(
          "no text vertex attribute 'kind'; expected kind = endpoint, switch or router on every vertex "
          "(endpoints=attribute), or choose endpoints=all, leaves or per_switch");
    igraph_strvector_t values;
    check(igraph_strvector_init(&values, 0), session);
    const igraph_error_t rc = igraph_cattribute_VASV(&graph, "kind", igraph_vss_all(), &values);
    if (rc != IGRAPH_SUCCESS) igraph_strvector_destroy(&values);
    check(rc, session);
    std::vector<Kind> out(static_cast<std::size_t>(igraph_strvector_size(&values)));
    std::string bad;
    for (std::size_t v = 0; v < out.size() && bad.empty(); ++v) {
      const std::string k = igraph_strvector_get(&values, static_cast<igraph_integer_t>(v));
      if (k == "endpoint")
        out[v] = Kind::Endpoint;
      else if (k == "switch")
        out[v] = Kind::Switch;
      else if (k == "router")
        out[v] = Kind::Router;
      else
        bad = "vertex #" + std::to_string(v) + " (counting from 0) has kind '" + k +
              "'; expected endpoint, switch or router";
    }
    igraph_strvector_destroy(&values);
    if (!bad.empty()) fail(bad);
    return out;
  }

  const GraphFileOptions& options_;
  EndpointRule rule_;
};

// Builds the network: vertex ids keep the file's order (endpoints added by per_switch come last).
class RawGraphAssembler {
 public:
  RawGraphAssembler(const RawGraph& raw, const GraphFileOptions& options, EndpointRule rule)
      : raw_(raw), options_(options), rule_(rule) {}

  Network run(const LinkDefaults& defaults) {
    check_edges();
    std::vector<std::uint32_t> degree(raw_.vertices, 0);
    for (std::uint32_t v : raw_.ends) ++degree[v];
    NetworkBuilder b(defaults);
    const std::size_t extra = rule_ == EndpointRule::PerSwitch ? std::size_t{raw_.vertices} * options_.per_switch : 0;
    b.reserve(raw_.vertices + extra, raw_.edges() + extra);
    std::uint64_t endpoints = 0;
    for (VertexId v = 0; v < raw_.vertices; ++v) {
      const bool is_endpoint = (rule_ == EndpointRule::Attribute && raw_.kind[v] == Kind::Endpoint) ||
                               (rule_ == EndpointRule::Leaves && degree[v] == 1);
      const bool hosts =
          rule_ == EndpointRule::All || (rule_ == EndpointRule::Attribute && raw_.kind[v] == Kind::Router);
      if (is_endpoint) {
        b.add_endpoint_vertex();
      } else {
        b.add_switch();
        if (hosts) b.add_direct_endpoint(v);
      }
      if ((is_endpoint || hosts) && degree[v] == 0 && raw_.vertices > 1)
        fail("vertex #" + std::to_string(v) +
             " (counting from 0) is or hosts an endpoint but has no edge, so it "
             "is unreachable; expected at least one edge at every endpoint");
      endpoints += is_endpoint || hosts;
    }
    for (std::size_t i = 0; i < raw_.edges(); ++i) {
      const double gbps = raw_.gbps.empty() || std::isnan(raw_.gbps[i]) ? -1 : raw_.gbps[i];
      const double ns = raw_.ns.empty() || std::isnan(raw_.ns[i]) ? -1 : raw_.ns[i];
      b.add_cable(raw_.ends[2 * i], raw_.ends[2 * i + 1], gbps, ns);
    }
    if (rule_ == EndpointRule::PerSwitch) {
      if (extra >= (std::size_t{1} << 31))
        fail("more than 2^31 endpoints with c = " + std::to_string(options_.per_switch));
      for (VertexId v = 0; v < raw_.vertices; ++v)
        for (std::uint32_t j = 0; j < options_.per_switch; ++j) {
          VertexId e = 0;
          b.add_endpoint_vertex(&e);
          b.add_cable(e, v);
        }
      endpoints += extra;
    }
    if (endpoints == 0)
      fail(std::string("no vertex is an endpoint with endpoints=") + rule_name() +
           "; expected at least one (try endpoints=all or per_switch)");
    b.set_endpoints_forward(options_.forward);
    return b.build();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw InputError(options_.file + ": " + what); }

  const char* rule_name() const {
    switch (rule_) {
      case EndpointRule::Attribute:
        return "attribute";
      case EndpointRule::All:
        return "all";
      case EndpointRule::Leaves:
        return "leaves";
      case EndpointRule::PerSwitch:
        return "per_switch";
      case EndpointRule::Auto:
        break;
    }
    return "auto";
  }

  static std::string number_text(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
  }

  void check_edges() const {
    for (std::size_t i = 0; i < raw_.edges(); ++i) {
      const std::string edge = "edge #" + std::to_string(i) + " (counting from 0)";
      if (raw_.ends[2 * i] == raw_.ends[2 * i + 1])
        fail(edge + " joins vertex #" + std::to_string(raw_.ends[2 * i]) +
             " to itself; expected no self-loops (a cable joins two different vertices)");
      // NaN is how igraph marks an edge without the attribute: it takes the default.
      if (!raw_.gbps.empty() && !std::isnan(raw_.gbps[i]) && !capacity_fits(raw_.gbps[i]))
        fail(edge + " has capacity_gbps " + number_text(raw_.gbps[i]) +
             "; expected a finite number > 0 that a float holds (1.2e-38..3.4e38)");
      if (!raw_.ns.empty() && !std::isnan(raw_.ns[i]) && !latency_fits(raw_.ns[i]))
        fail(edge + " has latency_ns " + number_text(raw_.ns[i]) +
             "; expected a finite number >= 0 that a float holds (at most 3.4e38)");
    }
  }

  const RawGraph& raw_;
  const GraphFileOptions& options_;
  EndpointRule rule_;
};

}  // namespace

Network read_igraph_graph(const GraphFileOptions& options, const LinkDefaults& defaults) {
  EndpointRule rule = options.endpoints;
  if (rule == EndpointRule::Auto)
    rule = options.format == GraphFormat::GraphML || options.format == GraphFormat::Gml ? EndpointRule::Attribute
                                                                                        : EndpointRule::All;
  const RawGraph raw = IgraphReader(options, rule).run();
  return RawGraphAssembler(raw, options, rule).run(defaults);
}

}  // namespace interflow::topo
