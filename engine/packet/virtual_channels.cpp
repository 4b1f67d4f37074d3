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

// The dependency edges (from, to) over nodes channel * classes + class, sorted and unique.
std::vector<std::pair<std::uint64_t, std::uint64_t>> dependencies(const Fabric& fabric, const ChannelRoutes& routes,
                                                                   const VcScheme& scheme) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> edges;
  for (std::uint32_t v = 0; v < routes.num_routes(); ++v) {
    VcState state;
    std::uint64_t previous = kNone;
    for (ChannelId c : routes.route(v)) {
      const std::uint32_t cls = enter(scheme, state, c, fabric.link(c) != kNone);
      const std::uint64_t node = static_cast<std::uint64_t>(c) * scheme.classes + cls;
      if (previous != kNone) edges.emplace_back(previous, node);
      previous = node;
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace

std::string dependency_cycle(const Fabric& fabric, const ChannelRoutes& routes, const VcScheme& scheme) {
  const auto edges = dependencies(fabric, routes, scheme);
  const std::uint64_t nodes = static_cast<std::uint64_t>(fabric.num_channels()) * scheme.classes;
  std::vector<std::uint64_t> first(nodes + 1, 0);
  for (const auto& e : edges) ++first[e.first + 1];
  for (std::uint64_t i = 0; i < nodes; ++i) first[i + 1] += first[i];
  // Iterative depth-first search: 0 unseen, 1 on the stack, 2 done.
  std::vector<std::uint8_t> colour(nodes, 0);
  std::vector<std::uint64_t> parent(nodes, kNone), cursor(nodes, 0);
  for (std::uint64_t root = 0; root < nodes; ++root) {
    if (colour[root] != 0 || first[root] == first[root + 1]) continue;
    std::vector<std::uint64_t> stack{root};
    colour[root] = 1;
    cursor[root] = first[root];
    while (!stack.empty()) {
      const std::uint64_t u = stack.back();
      if (cursor[u] == first[u + 1]) {
        colour[u] = 2;
        stack.pop_back();
        continue;
      }
      const std::uint64_t w = edges[cursor[u]++].second;
      if (colour[w] == 1) {  // a back edge: the cycle is w ... u -> w
        std::vector<std::uint64_t> cycle{w};
        for (std::uint64_t x = u; x != w && x != kNone; x = parent[x]) cycle.push_back(x);
        std::reverse(cycle.begin() + 1, cycle.end());
        std::string text;
        for (std::uint64_t x : cycle)
          text += "channel " + std::to_string(x / scheme.classes) + " (class " + std::to_string(x % scheme.classes) +
                  ") -> ";
        return text + "channel " + std::to_string(w / scheme.classes);
      }
      if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = u;
        cursor[w] = first[w];
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
    std::uint32_t hops = 0;
    for (std::size_t i = 0; i + 1 < route.size(); ++i) {
      classes = std::max(classes, hops + 1);
      if (fabric.link(route[i]) != kNone) ++hops;
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
