// Reader of the interflow text graph format (.ifg); the format is specified in
// manual/graph-format.md and in the 'graph' topology's details (graph_file.cpp).
#include <fstream>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/params.hpp"
#include "topologies/graph_file.hpp"

namespace interflow::topo {

namespace {

constexpr std::uint32_t kEndpointBit = 1u << 31;  // a vertex reference: endpoint index | bit, or switch index
constexpr std::int64_t kMaxCount = (1LL << 31) - 1;

struct ParsedCable {
  std::uint32_t a, b;  // vertex references
  float gbps, ns;      // < 0: default of the link class
};

class InterflowGraphParser {
 public:
  explicit InterflowGraphParser(std::string file) : file_(std::move(file)) {}

  Network run(bool forward, const LinkDefaults& defaults) {
    std::ifstream in = open_input(file_, "graph file");
    std::string text;
    while (std::getline(in, text)) {
      ++line_;
      parse_line(text);
    }
    if (in.bad()) throw InputError(file_ + ": read error after line " + std::to_string(line_));
    if (!headers_done()) {
      line_ = std::max<std::size_t>(line_, 1);
      fail(missing_header_text() + ", got the end of the file");
    }
    check_every_endpoint_reachable();
    return build(forward || forward_, defaults);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw file_error(file_, line_, what); }

  bool headers_done() const { return endpoints_line_ != 0 && switches_line_ != 0; }
  std::string missing_header_text() const {
    std::string missing = endpoints_line_ == 0 ? "'endpoints <N>'" : "";
    if (switches_line_ == 0) missing += std::string(missing.empty() ? "" : " and ") + "'switches <M>'";
    return "expected " + missing + " before the first link or host line";
  }

  void parse_line(std::string text) {
    if (const std::size_t hash = text.find('#'); hash != std::string::npos) text.resize(hash);
    std::istringstream words(text);
    tokens_.clear();
    for (std::string w; words >> w;) tokens_.push_back(w);
    if (tokens_.empty()) return;
    const std::string& key = tokens_[0];
    if (key == "endpoints")
      parse_count(endpoints_, endpoints_line_, 1, "endpoints <N>' with N a whole number >= 1");
    else if (key == "switches")
      parse_count(switches_, switches_line_, 0, "switches <M>' with M a whole number >= 0");
    else if (key == "link")
      parse_link();
    else if (key == "host")
      parse_host();
    else if (key == "forward")
      parse_forward();
    else
      fail("expected a line starting with endpoints, switches, link, host or forward, got '" + key + "'");
  }

  void parse_count(std::uint32_t& count, std::size_t& seen_line, std::int64_t min, const std::string& form) {
    if (seen_line != 0)
      fail("duplicate '" + tokens_[0] + "' line (first on line " + std::to_string(seen_line) + "); expected it once");
    const auto n = tokens_.size() == 2 ? parse_int(tokens_[1]) : std::nullopt;
    if (!n || *n < min || *n > kMaxCount) fail("expected '" + form + ", got '" + joined() + "'");
    count = static_cast<std::uint32_t>(*n);
    seen_line = line_;
    if (tokens_[0] == "endpoints") {
      endpoint_host_.assign(count, kNone);
      endpoint_host_line_.assign(count, 0);
      endpoint_link_line_.assign(count, 0);
    } else {
      switch_hosts_.assign(count, kNone);
      switch_links_.assign(count, 0);
    }
  }

  void parse_link() {
    const char* form = "expected 'link <a> <b> [gbps=<x>] [ns=<y>]'";
    if (!headers_done()) fail(missing_header_text() + ", got '" + joined() + "'");
    if (tokens_.size() < 3 || tokens_.size() > 5) fail(std::string(form) + ", got '" + joined() + "'");
    const std::uint32_t a = vertex(tokens_[1]);
    const std::uint32_t b = vertex(tokens_[2]);
    if (a == b) fail("expected a link between two different vertices, got a self-loop at " + tokens_[1]);
    double gbps = -1, ns = -1;
    for (std::size_t i = 3; i < tokens_.size(); ++i) {
      const std::string& t = tokens_[i];
      const std::size_t eq = t.find('=');
      const std::string key = t.substr(0, eq);
      const auto value = eq == std::string::npos ? std::nullopt : parse_real(t.substr(eq + 1));
      if (key == "gbps" && gbps < 0) {
        if (!value || !capacity_fits(*value))
          fail("expected gbps=<capacity in Gbit/s, a finite number > 0 that a float holds>, got '" + t + "'");
        gbps = *value;
      } else if (key == "ns" && ns < 0) {
        if (!value || !latency_fits(*value))
          fail("expected ns=<latency in ns, a finite number >= 0 that a float holds>, got '" + t + "'");
        ns = *value;
      } else {
        fail(std::string(form) + " with each of gbps= and ns= at most once, got '" + t + "'");
      }
    }
    for (std::uint32_t v : {a, b}) {
      if (v & kEndpointBit) {
        const std::uint32_t e = v & ~kEndpointBit;
        if (endpoint_host_[e] != kNone)
          fail("endpoint e" + std::to_string(e) + " is hosted by s" + std::to_string(endpoint_host_[e]) + " (line " +
               std::to_string(endpoint_host_line_[e]) +
               "); expected either links or one host line for an endpoint, not both");
        if (endpoint_link_line_[e] == 0) endpoint_link_line_[e] = line_;
      } else {
        ++switch_links_[v];
      }
    }
    cables_.push_back({a, b, static_cast<float>(gbps), static_cast<float>(ns)});
  }

  void parse_host() {
    if (!headers_done()) fail(missing_header_text() + ", got '" + joined() + "'");
    const std::uint32_t e = tokens_.size() == 3 ? vertex(tokens_[1]) : 0;
    const std::uint32_t s = tokens_.size() == 3 ? vertex(tokens_[2]) : kEndpointBit;
    if (!(e & kEndpointBit) || (s & kEndpointBit))
      fail("expected 'host <eI> <sJ>' (an endpoint hosted by a switch), got '" + joined() + "'");
    const std::uint32_t i = e & ~kEndpointBit;
    if (endpoint_host_[i] != kNone)
      fail("endpoint " + tokens_[1] + " is already hosted (line " + std::to_string(endpoint_host_line_[i]) +
           "); expected one host line per endpoint");
    if (endpoint_link_line_[i] != 0)
      fail("endpoint " + tokens_[1] + " has a link (line " + std::to_string(endpoint_link_line_[i]) +
           "); expected either links or one host line for an endpoint, not both");
    if (switch_hosts_[s] != kNone)
      fail("switch " + tokens_[2] + " already hosts e" + std::to_string(switch_hosts_[s]) +
           "; expected at most one endpoint per switch");
    endpoint_host_[i] = s;
    endpoint_host_line_[i] = line_;
    switch_hosts_[s] = i;
  }

  void parse_forward() {
    if (forward_line_ != 0)
      fail("duplicate 'forward' line (first on line " + std::to_string(forward_line_) + "); expected it once");
    if (tokens_.size() != 2 || (tokens_[1] != "yes" && tokens_[1] != "no"))
      fail("expected 'forward yes' or 'forward no', got '" + joined() + "'");
    forward_ = tokens_[1] == "yes";
    forward_line_ = line_;
  }

  // "e12" or "s3", in range; returns a vertex reference.
  std::uint32_t vertex(const std::string& name) const {
    const bool endpoint = !name.empty() && name[0] == 'e';
    const bool is_switch = !name.empty() && name[0] == 's';
    const bool digits = name.size() >= 2 && name.find_first_not_of("0123456789", 1) == std::string::npos;
    const auto index = digits ? parse_int(name.substr(1)) : std::nullopt;
    const std::uint32_t count = endpoint ? endpoints_ : switches_;
    if ((!endpoint && !is_switch) || !index || *index >= count) {
      std::string valid = "e0..e" + std::to_string(endpoints_ - 1);
      valid += switches_ > 0 ? " or s0..s" + std::to_string(switches_ - 1) : " (there are no switches)";
      fail("expected a vertex name " + valid + ", got '" + name + "'");
    }
    return static_cast<std::uint32_t>(*index) | (endpoint ? kEndpointBit : 0);
  }

  void check_every_endpoint_reachable() {
    for (std::uint32_t e = 0; e < endpoints_; ++e) {
      const std::uint32_t s = endpoint_host_[e];
      if (s == kNone && endpoint_link_line_[e] == 0) {
        line_ = endpoints_line_;
        fail("endpoint e" + std::to_string(e) + " has no link and no host line, so it is unreachable; expected " +
             "'link e" + std::to_string(e) + " <vertex>' or 'host e" + std::to_string(e) + " <sJ>'");
      }
      if (s != kNone && switch_links_[s] == 0 && endpoints_ > 1) {
        line_ = endpoint_host_line_[e];
        fail("endpoint e" + std::to_string(e) + " is hosted by s" + std::to_string(s) +
             ", which has no link, so it is unreachable; expected a link to s" + std::to_string(s));
      }
    }
  }

  Network build(bool forward, const LinkDefaults& defaults) {
    NetworkBuilder b(defaults);
    b.reserve(std::size_t{switches_} + endpoints_, cables_.size());
    b.add_switches(switches_);
    std::vector<VertexId> endpoint_vertex(endpoints_, kNone);
    for (std::uint32_t e = 0; e < endpoints_; ++e) {
      if (endpoint_host_[e] != kNone)
        b.add_direct_endpoint(endpoint_host_[e]);
      else
        b.add_endpoint_vertex(&endpoint_vertex[e]);
    }
    auto vertex_id = [&](std::uint32_t ref) {
      return (ref & kEndpointBit) ? endpoint_vertex[ref & ~kEndpointBit] : ref;
    };
    for (const ParsedCable& c : cables_) b.add_cable(vertex_id(c.a), vertex_id(c.b), c.gbps, c.ns);
    b.set_endpoints_forward(forward);
    return b.build();
  }

  std::string joined() const {
    std::string out;
    for (const auto& t : tokens_) out += (out.empty() ? "" : " ") + t;
    return out;
  }

  std::string file_;
  std::size_t line_ = 0;
  std::vector<std::string> tokens_;
  std::uint32_t endpoints_ = 0, switches_ = 0;
  std::size_t endpoints_line_ = 0, switches_line_ = 0, forward_line_ = 0;
  bool forward_ = false;
  std::vector<std::uint32_t> endpoint_host_;     // switch index or kNone
  std::vector<std::size_t> endpoint_host_line_;  // line of its host statement
  std::vector<std::size_t> endpoint_link_line_;  // line of its first link (0: none)
  std::vector<std::uint32_t> switch_hosts_;      // hosted endpoint or kNone
  std::vector<std::uint32_t> switch_links_;      // number of links
  std::vector<ParsedCable> cables_;
};

}  // namespace

Network read_interflow_graph(const GraphFileOptions& options, const LinkDefaults& defaults) {
  return InterflowGraphParser(options.file).run(options.forward, defaults);
}

}  // namespace interflow::topo
