#pragma once
// Virtual-channel classes for deadlock freedom, and the check that a set of routes cannot deadlock.
//
// A packet's virtual channel on each hop lies in its current class: the V virtual channels of a
// channel are split into C classes of V / C each. The scheme says how the class evolves:
//   - single:   one class; safe only when the routes' channel dependency graph is acyclic
//               (up*/down* on trees, dimension order on meshes);
//   - dateline: for rings and tori with dimension-order routing (Dally and Seitz 1987): class 0 in
//               each dimension until the packet crosses that dimension's wrap-around link, class 1
//               from there to the end of the dimension; needs 2 classes;
//   - hops:     the class is the number of router-to-router channels crossed so far (distance
//               classes, Günther 1981), safe for any routing whose routes have at most C such hops.
// Whatever the scheme, dependency_cycle() builds the channel dependency graph of the actual routes
// over (channel, class) pairs (Dally and Seitz 1987: a routing is deadlock-free when this graph is
// acyclic) and returns a cycle if there is one, so a run that could deadlock is refused before it
// starts rather than hanging.
#include <cstdint>
#include <string>
#include <vector>

#include "core/network.hpp"
#include "core/paths.hpp"
#include "core/types.hpp"

namespace interflow::packet {

class Fabric;
class ChannelRoutes;

enum class VcSchemeKind { Single, Dateline, Hops };

struct VcScheme {
  VcSchemeKind kind = VcSchemeKind::Single;
  std::uint32_t classes = 1;
  // Dateline only, per channel: its ring dimension (kNone: none) and whether it is the ring's
  // wrap-around link.
  std::vector<std::uint32_t> dimension;
  std::vector<std::uint8_t> wraps;

  std::string name() const;
};

struct VcState {
  std::uint32_t cls = 0, dim = kNone, hops = 0;
};

// The class of a packet entering channel c (and its updated state). `network` says whether c joins
// two routers (Fabric::between_routers): an endpoint's injection or ejection, its own cable or a
// router's local port, never lies on a dependency cycle, so it does not use up a hop class.
inline std::uint32_t enter(const VcScheme& s, VcState& state, std::uint32_t c, bool network) {
  switch (s.kind) {
    case VcSchemeKind::Single:
      return 0;
    case VcSchemeKind::Dateline:
      if (s.dimension[c] != state.dim) {
        state.dim = s.dimension[c];
        state.cls = 0;
      }
      if (s.wraps[c]) state.cls = 1;
      return state.cls;
    case VcSchemeKind::Hops: {
      const std::uint32_t cls = state.hops < s.classes ? state.hops : s.classes - 1;
      if (network) ++state.hops;
      return cls;
    }
  }
  return 0;
}

// The dateline scheme of a torus whose routers are numbered in mixed radix over `dims` (dimension 0
// fastest, as core/topology.hpp BlockGrid): each network channel's dimension, and whether it is a
// ring's wrap-around link (between coordinates k-1 and 0 of a ring of k >= 3).
VcScheme dateline_scheme(const Fabric& fabric, const Network& net, const std::vector<std::uint32_t>& dims);

// The classes the hops scheme needs for these routes.
std::uint32_t longest_route(const Fabric& fabric, const ChannelRoutes& routes);

// The first scheme that makes the routes deadlock-free with `vcs` virtual channels, in this order:
// single, dateline (when `torus_dims` is given), hops; InputError naming the routing, the topology
// and the virtual channels needed when none does. `requested` = "auto" tries them all, a name only
// that one.
VcScheme choose_scheme(const std::string& requested, const Fabric& fabric, const Network& net, const ChannelRoutes& routes,
                       const std::vector<std::uint32_t>& torus_dims, std::uint32_t vcs, const std::string& what);

// A cycle in the channel dependency graph of every route, as "channel 3 (class 0) -> channel 7
// (class 0) -> ... -> channel 3", or "" when the graph is acyclic.
std::string dependency_cycle(const Fabric& fabric, const ChannelRoutes& routes, const VcScheme& scheme);

}  // namespace interflow::packet
