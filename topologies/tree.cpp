#include "topologies/tree.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "topologies/registry.hpp"
#include "topologies/trunks.hpp"

namespace interflow::topo {

namespace {

std::string shape(const std::string& family, std::uint32_t k, std::uint32_t kp, std::uint32_t n) {
  std::string s = family + " k=" + std::to_string(k);
  if (family != "fattree") s += ", kp=" + std::to_string(kp);
  return s + ", n=" + std::to_string(n);
}

}  // namespace

TreeTopology::TreeTopology(std::string family, std::uint32_t k, std::uint32_t kp, std::uint32_t n,
                           const LinkDefaults& defaults)
    : Topology(std::move(family)), k_(k), kp_(kp), n_(n) {
  const std::string what = shape(this->family(), k, kp, n);
  if (k < 2) throw InputError(what + ": k (down ports per switch) must be at least 2");
  if (kp < 1 || kp > k) throw InputError(what + ": kp (up ports per switch) must be between 1 and k");
  if (n < 1) throw InputError(what + ": n (levels) must be at least 1");

  // Endpoints k^n, checked before any power can overflow (k < 2^32 and the bound is 2^31).
  pow_k_[0] = pow_kp_[0] = 1;
  for (std::uint32_t i = 1; i <= n; ++i) {
    if (i > kMaxLevels || pow_k_[i - 1] * k > kMaxNetworkVertices)
      throw InputError(what + ": k^n = " + std::to_string(k) + "^" + std::to_string(n) +
                       " endpoints is more than 2^31, the largest network supported");
    pow_k_[i] = pow_k_[i - 1] * k;
    pow_kp_[i] = pow_kp_[i - 1] * kp;
  }
  const std::uint64_t endpoints = pow_k_[n];
  // Level l has k^(n-1-l) * k'^l switches; every level below the top has k' up cables per switch.
  std::uint64_t vertices = endpoints, cables = endpoints;
  level_first_.assign(n + 1, 0);
  for (std::uint32_t l = 0; l < n; ++l) {
    level_first_[l] = static_cast<std::uint32_t>(std::min(vertices, kMaxNetworkVertices));
    const std::uint64_t size = pow_k_[n - 1 - l] * pow_kp_[l];
    vertices += size;
    if (l + 1 < n) cables += size * kp;
  }
  if (vertices > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(vertices) + " vertices (" + std::to_string(endpoints) +
                     " endpoints plus switches) is more than 2^31, the largest network supported");
  if (2 * cables > kMaxNetworkLinks)
    throw InputError(what + ": " + std::to_string(2 * cables) +
                     " directed links is more than 4e9, the largest network supported");
  level_first_[n] = static_cast<std::uint32_t>(vertices);
  endpoints_ = static_cast<std::uint32_t>(endpoints);

  NetworkBuilder b(defaults);
  b.reserve(vertices, cables);
  for (std::uint32_t e = 0; e < endpoints_; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(vertices - endpoints));
  // Cables are added in port order at both ends, so the builder's per-vertex sort finds them sorted.
  for (EndpointId e = 0; e < endpoints_; ++e) b.add_cable(e, leaf_of(e), -1, -1, 0, e % k_);
  for (std::uint32_t l = 0; l + 1 < n_; ++l) {
    for (std::uint32_t i = 0; i < level_size(l); ++i) {
      const VertexId lower = switch_vertex(l, i);
      const std::uint32_t arrival = up_arrival_port(l, i);
      for (std::uint32_t j = 0; j < kp_; ++j)
        b.add_cable(lower, switch_vertex(l + 1, up_index(l, i, j)), -1, -1, k_ + j, arrival);
    }
  }
  net_ = b.build();
}

std::uint32_t TreeTopology::level_of(VertexId v) const {
  if (v < endpoints_) return kNone;
  const auto it = std::upper_bound(level_first_.begin(), level_first_.end(), v);
  return static_cast<std::uint32_t>(it - level_first_.begin()) - 1;
}

std::uint32_t TreeTopology::label_digit(std::uint32_t level, std::uint32_t index, std::uint32_t pos) const {
  if (pos < level) return static_cast<std::uint32_t>((index / pow_kp_[pos]) % kp_);
  return static_cast<std::uint32_t>((index / pow_kp_[level] / pow_k_[pos - level]) % k_);
}

std::vector<std::uint32_t> TreeTopology::endpoint_grid() const { return std::vector<std::uint32_t>(n_, k_); }

std::vector<TopologyFact> TreeTopology::facts_with_trunks(std::uint32_t trunks) const {
  std::vector<TopologyFact> out;
  out.push_back({"diameter_links", 2.0 * n_,
                 "longest shortest path between endpoints, in links: up to the top level and down again"});
  if (n_ > 1 && trunks == 1)
    out.push_back({"oversubscription", static_cast<double>(k_) / kp_,
                   "down ports per up port of every switch below the top (k / k'); 1 for a fattree"});
  else if (n_ > 1)  // the leaves' endpoint cables are single, their up cables trunks
    out.push_back({"oversubscription", static_cast<double>(k_) / (static_cast<double>(kp_) * trunks),
                   "endpoint cables per up cable of a leaf switch (k / (k' trunks)); k / k' above the leaves"});
  const double half = static_cast<double>(endpoints_ / 2);
  if (kp_ == k_) {
    // Lower bound: a k-ary n-tree is a recursive folded Clos network with as many up as down ports,
    // hence rearrangeably non-blocking (Slepian-Duguid), so any floor(N/2) endpoints can send to the
    // others at full rate on disjoint links, each crossing the cut. Upper bound: cut their own cables.
    // Trunks only add cables between switches: both bounds stand.
    out.push_back({"bisection_cables", half,
                   "minimum bisection: fewest cables cut by splitting the endpoints into halves, floor(N/2) = "
                   "floor(k^n/2) (full bisection bandwidth); " +
                       std::string(trunks == 1 ? "for even k the top-level cut between endpoint ids < N/2 and >= N/2 "
                                                 "attains it"
                                               : "cutting half the endpoints' own cables attains it (the top-level "
                                                 "cut crosses trunks times as many)")});
  } else if (k_ % 2 == 0) {
    // Every subtree below the top keeps its side; each of the k'^(n-1) top switches has k/2 down cables
    // to either half.
    out.push_back({"bisection_cables", static_cast<double>(k_ / 2) * static_cast<double>(pow_kp_[n_ - 1]) * trunks,
                   "cables crossing the top-level cut between endpoint ids < N/2 and >= N/2 with every subtree "
                   "below the top level whole on its side: (k/2) * k'^(n-1)" +
                       std::string(trunks == 1 ? ", k/2 down cables" : " * trunks, k/2 down trunks") +
                       " of each top switch; an upper bound on the minimum bisection"});
  }
  return out;
}

void register_trees(TopologyRegistry& registry) {
  const std::string labelling =
      "Endpoint e has base-k digits e_0 (least significant) .. e_{n-1} and hangs off leaf switch e / k on the "
      "leaf's down port e_0. A level-l switch (level 0 = leaves, n-1 = top) has a label of n-1 digits; positions "
      "< l are base k' (chosen on the way up), positions >= l are base k, and its index in the level is that "
      "mixed-radix number (digit 0 least significant). Up port j goes to the level-(l+1) switch whose label has "
      "digit l replaced by j, arriving on its down port (the lower label's digit l). Vertices 0..N-1 are the "
      "endpoints (vertex e is endpoint e); switch vertices follow, leaves first, each level in index order. "
      "Out-links of a switch: down ports 0..k-1, then up ports k..k+k'-1; an endpoint's only link is port 0." +
      trunks_details();
  registry.add({"fattree",
                "k-ary n-tree: k^n endpoints, n levels of k^(n-1) switches of radix 2k (top: k)",
                {int_param("k", "4", "down ports per switch (also up ports below the top level); endpoints per leaf", 2,
                           1 << 16),
                 int_param("n", "3", "levels of switches; the tree has k^n endpoints", 1, TreeTopology::kMaxLevels),
                 trunks_param()},
                [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
                  const auto k = static_cast<std::uint32_t>(p.get_int("k"));
                  return with_trunks(std::make_unique<TreeTopology>("fattree", k, k,
                                                                    static_cast<std::uint32_t>(p.get_int("n")), defaults),
                                     p);
                },
                "Petrini & Vanneschi, 'k-ary n-trees', IPPS 1997. Cables: k^n endpoint cables plus (n-1) k^n between "
                "switches. " +
                    labelling,
                "fattree:k=4,n=3"});
  registry.add(
      {"thintree",
       "k:k'-ary n-tree: a fat tree oversubscribed k:k' at every level (INRFlow's thintree)",
       {int_param("k", "4", "down ports per switch; endpoints per leaf", 2, 1 << 16),
        int_param("kp", "2", "up ports per switch below the top level (k'), 1..k; kp = k is the fattree", 1, 1 << 16),
        int_param("n", "3", "levels of switches; the tree has k^n endpoints", 1, TreeTopology::kMaxLevels),
        trunks_param()},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         const auto k = static_cast<std::uint32_t>(p.get_int("k"));
         const auto kp = static_cast<std::uint32_t>(p.get_int("kp"));
         if (kp > k) p.fail("kp", "must not exceed k = " + std::to_string(k));
         return with_trunks(
             std::make_unique<TreeTopology>("thintree", k, kp, static_cast<std::uint32_t>(p.get_int("n")), defaults),
             p);
       },
       "Level l (0 = leaves) has k^(n-1-l) k'^l switches, each with k down ports and, below the top, k' up "
       "ports; the upper levels carry k'/k of the fattree's bandwidth per level. " +
           labelling,
       "thintree:k=4,kp=2,n=3"});
}

}  // namespace interflow::topo
