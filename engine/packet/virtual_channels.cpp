#include "engine/packet/virtual_channels.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "engine/packet/fabric.hpp"

namespace interflow::packet {

std::string VcScheme::name() const {
  switch (kind) {
    case VcSchemeKind::Single:
      return "single";
    case VcSchemeKind::Dateline:
      return "dateline";
    case VcSchemeKind::Hops:
      return "hops";
  }
  return "?";
}

namespace {

// The channel dependency graph of the routes over nodes channel * classes + class. A node's
// successors can only be the output channels of the element its channel leads to (in any class), so
// each node keeps one bit per such (output, class): a route's hop sets one bit, duplicates cost
// nothing, and the graph takes sum over channels of outputs x classes^2 bits instead of an edge per
// hop of every route (170 million for the 2048-endpoint torus with trunks).
class DependencyGraph {
 public:
  DependencyGraph(const Fabric& fabric, const ChannelRoutes& routes, const VcScheme& scheme)
      : fabric_(fabric), classes_(scheme.classes) {
    const std::uint64_t nodes = num_nodes();
    first_bit_.assign(nodes + 1, 0);
    for (std::uint64_t u = 0; u < nodes; ++u)
      first_bit_[u + 1] = first_bit_[u] + fabric.outputs(fabric.dst(channel(u))).size() * classes_;
    bits_.assign((first_bit_[nodes] + 63) / 64, 0);
    for (std::uint32_t v = 0; v < routes.num_routes(); ++v) add_route(routes.route(v), routes.first_hops(v), scheme);
  }

  std::uint64_t num_nodes() const { return static_cast<std::uint64_t>(fabric_.num_channels()) * classes_; }
  ChannelId channel(std::uint64_t u) const { return static_cast<ChannelId>(u / classes_); }

  // The successors of node u from number k on: the next one (k moves past it), or kNone.
  std::uint64_t next_successor(std::uint64_t u, std::uint64_t& k) const {
    for (std::uint64_t b = first_bit_[u] + k; b < first_bit_[u + 1]; ++b) {
      ++k;
      if ((bits_[b / 64] >> (b % 64) & 1) == 0) continue;
      const std::uint64_t offset = b - first_bit_[u];
      const ChannelId out = fabric_.outputs(fabric_.dst(channel(u)))[offset / classes_];
      return static_cast<std::uint64_t>(out) * classes_ + offset % classes_;
    }
    return kNone;
  }

 private:
  void add_route(std::span<const ChannelId> route, std::uint32_t first_hops, const VcScheme& scheme) {
    VcState state;
    state.hops = first_hops;
    std::uint64_t previous = kNone;
    for (const ChannelId c : route) {
      const std::uint32_t cls = enter(scheme, state, c, fabric_.between_routers(c));
      if (previous != kNone) {
        const std::uint64_t b = first_bit_[previous] + std::uint64_t{fabric_.output_position(c)} * classes_ + cls;
        bits_[b / 64] |= std::uint64_t{1} << (b % 64);
      }
      previous = static_cast<std::uint64_t>(c) * classes_ + cls;
    }
  }

  const Fabric& fabric_;
  std::uint32_t classes_;
  std::vector<std::uint64_t> first_bit_, bits_;
};

// The cycle closed by the back edge u -> w of a depth-first search: w ... u -> w.
std::string cycle_text(std::uint64_t w, std::uint64_t u, const std::vector<std::uint64_t>& parent,
                       std::uint32_t classes) {
  std::vector<std::uint64_t> cycle{w};
  for (std::uint64_t x = u; x != w && x != kNone; x = parent[x]) cycle.push_back(x);
  std::reverse(cycle.begin() + 1, cycle.end());
  std::string text;
  for (const std::uint64_t x : cycle)
    text += "channel " + std::to_string(x / classes) + " (class " + std::to_string(x % classes) + ") -> ";
  return text + "channel " + std::to_string(w / classes);
}

}  // namespace

std::string dependency_cycle(const Fabric& fabric, const ChannelRoutes& routes, const VcScheme& scheme) {
  const DependencyGraph graph(fabric, routes, scheme);
  const std::uint64_t nodes = graph.num_nodes();
  // Iterative depth-first search: 0 unseen, 1 on the stack, 2 done.
  std::vector<std::uint8_t> colour(nodes, 0);
  std::vector<std::uint64_t> parent(nodes, kNone), cursor(nodes, 0);
  std::vector<std::uint64_t> stack;
  for (std::uint64_t root = 0; root < nodes; ++root) {
    if (colour[root] != 0) continue;
    stack.assign(1, root);
    colour[root] = 1;
    while (!stack.empty()) {
      const std::uint64_t u = stack.back();
      const std::uint64_t w = graph.next_successor(u, cursor[u]);
      if (w == kNone) {
        colour[u] = 2;
        stack.pop_back();
        continue;
      }
      if (colour[w] == 1) return cycle_text(w, u, parent, scheme.classes);  // a back edge u -> w
      if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = u;
        stack.push_back(w);
      }
    }
  }
  return {};
}

VcScheme dateline_scheme(const Fabric& fabric, const Network& net, const std::vector<std::uint32_t>& dims) {
  VcScheme s;
  s.kind = VcSchemeKind::Dateline;
  s.classes = 2;
  s.dimension.assign(fabric.num_channels(), kNone);
  s.wraps.assign(fabric.num_channels(), 0);
  std::uint64_t routers = 1;
  for (std::uint32_t k : dims) routers *= k;
  for (ChannelId c = 0; c < fabric.num_channels(); ++c) {
    const LinkId l = fabric.link(c);
    if (l == kNone || net.source(l) >= routers || net.target(l) >= routers) continue;
    std::uint64_t a = net.source(l), b = net.target(l);
    for (std::uint32_t d = 0; d < dims.size(); ++d, a /= dims[d - 1], b /= dims[d - 1]) {
      const std::uint64_t x = a % dims[d], y = b % dims[d];
      if (x == y) continue;
      s.dimension[c] = d;
      s.wraps[c] = dims[d] >= 3 && (x + y == dims[d] - 1) && (x == 0 || y == 0);
      break;
    }
  }
  return s;
}

std::uint32_t longest_route(const Fabric& fabric, const ChannelRoutes& routes) {
  // The classes the hops scheme needs: one more than the highest class any channel but a route's
  // last (into a NIC, which needs none) gets, the class being the network channels crossed before.
  std::uint32_t classes = 1;
  for (std::uint32_t v = 0; v < routes.num_routes(); ++v) {
    const auto route = routes.route(v);
    std::uint32_t hops = routes.first_hops(v);
    for (std::size_t i = 0; i + 1 < route.size(); ++i) {
      classes = std::max(classes, hops + 1);
      if (fabric.between_routers(route[i])) ++hops;
    }
  }
  return classes;
}

VcScheme choose_scheme(const std::string& requested, const Fabric& fabric, const Network& net, const ChannelRoutes& routes,
                       const std::vector<std::uint32_t>& torus_dims, std::uint32_t vcs, const std::string& what) {
  std::vector<VcScheme> candidates;
  if (requested == "auto" || requested == "single") candidates.push_back(VcScheme{});
  if ((requested == "auto" || requested == "dateline") && !torus_dims.empty())
    candidates.push_back(dateline_scheme(fabric, net, torus_dims));
  if (requested == "auto" || requested == "hops") {
    VcScheme hops;
    hops.kind = VcSchemeKind::Hops;
    hops.classes = std::max<std::uint32_t>(1, longest_route(fabric, routes));
    candidates.push_back(hops);
  }
  if (candidates.empty())
    throw InputError("--vc-scheme " + requested + ": " +
                     (requested == "dateline" ? "the dateline scheme needs a torus" : "unknown scheme") +
                     " (auto, single, dateline or hops)");
  std::string tried;
  for (const VcScheme& s : candidates) {
    const std::string cycle = dependency_cycle(fabric, routes, s);
    if (cycle.empty() && s.classes <= vcs) return s;
    tried += (tried.empty() ? "" : "; ") + s.name() + " needs " + std::to_string(s.classes) + " virtual channel(s)" +
             (cycle.empty() ? "" : " and still has the dependency cycle " + cycle);
  }
  throw InputError(what + " could deadlock with " + std::to_string(vcs) + " virtual channel(s): " + tried +
                   "; give more --vcs or a deadlock-free routing");
}

}  // namespace interflow::packet
