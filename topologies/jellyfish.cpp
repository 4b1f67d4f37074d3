#include "topologies/jellyfish.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/random.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

constexpr std::uint32_t kAttempts = 16;

// An r-regular graph under construction: degree-bounded adjacency rows plus an edge list that
// supports removal of any edge in O(r).
class RegularGraphDraft {
 public:
  RegularGraphDraft(std::uint32_t n, std::uint32_t r)
      : n_(n), r_(r), adj_(static_cast<std::size_t>(n) * r), deg_(n, 0), open_pos_(n, kNone) {
    edges_.reserve(static_cast<std::size_t>(n) * r / 2);
    open_.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) open_.push_back(v), open_pos_[v] = v;
  }

  bool adjacent(std::uint32_t u, std::uint32_t v) const {
    if (deg_[v] < deg_[u]) std::swap(u, v);
    const std::uint32_t* row = &adj_[static_cast<std::size_t>(u) * r_];
    return std::find(row, row + deg_[u], v) != row + deg_[u];
  }
  void add_edge(std::uint32_t u, std::uint32_t v) {
    adj_[static_cast<std::size_t>(u) * r_ + deg_[u]++] = v;
    adj_[static_cast<std::size_t>(v) * r_ + deg_[v]++] = u;
    edges_.emplace_back(u, v);
    if (deg_[u] == r_) close(u);
    if (deg_[v] == r_) close(v);
  }
  // Removes edge number i (swapping the last edge into its place).
  void remove_edge(std::size_t i) {
    const auto [u, v] = edges_[i];
    drop_from_row(u, v);
    drop_from_row(v, u);
    edges_[i] = edges_.back();
    edges_.pop_back();
    reopen(u);
    reopen(v);
  }

  std::uint32_t free_ports(std::uint32_t v) const { return r_ - deg_[v]; }
  const std::vector<std::uint32_t>& open() const { return open_; }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges() const { return edges_; }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> take_edges() { return std::move(edges_); }

  // Component label of every vertex (the smallest vertex of its component) and the component count.
  std::uint32_t components(std::vector<std::uint32_t>& label) const {
    label.assign(n_, kNone);
    std::vector<std::uint32_t> stack;
    std::uint32_t count = 0;
    for (std::uint32_t s = 0; s < n_; ++s) {
      if (label[s] != kNone) continue;
      ++count;
      label[s] = s;
      stack.push_back(s);
      while (!stack.empty()) {
        const std::uint32_t v = stack.back();
        stack.pop_back();
        for (std::uint32_t i = 0; i < deg_[v]; ++i) {
          const std::uint32_t w = adj_[static_cast<std::size_t>(v) * r_ + i];
          if (label[w] == kNone) label[w] = s, stack.push_back(w);
        }
      }
    }
    return count;
  }

 private:
  void drop_from_row(std::uint32_t u, std::uint32_t v) {
    std::uint32_t* row = &adj_[static_cast<std::size_t>(u) * r_];
    *std::find(row, row + deg_[u], v) = row[deg_[u] - 1];
    --deg_[u];
  }
  void close(std::uint32_t v) {
    const std::uint32_t i = open_pos_[v];
    open_[i] = open_.back();
    open_pos_[open_[i]] = i;
    open_.pop_back();
    open_pos_[v] = kNone;
  }
  void reopen(std::uint32_t v) {
    if (open_pos_[v] != kNone) return;
    open_pos_[v] = static_cast<std::uint32_t>(open_.size());
    open_.push_back(v);
  }

  std::uint32_t n_, r_;
  std::vector<std::uint32_t> adj_, deg_;
  std::vector<std::uint32_t> open_, open_pos_;  // vertices with free ports, and where each sits
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges_;
};

// Jellyfish §3: join uniformly drawn pairs of non-adjacent switches with free ports until none is left.
void join_random_pairs(RegularGraphDraft& g, Rng& rng) {
  std::uint32_t misses = 0;
  while (g.open().size() >= 2) {
    const auto& open = g.open();
    const std::uint64_t size = open.size();
    const std::uint64_t i = rng.below(size);
    std::uint64_t j = rng.below(size - 1);
    if (j >= i) ++j;
    if (!g.adjacent(open[i], open[j])) {
      g.add_edge(open[i], open[j]);
      misses = 0;
      continue;
    }
    if (++misses < 32) continue;
    // Many misses in a row: look for any joinable pair before concluding there is none.
    bool joined = false;
    for (std::size_t a = 0; a < open.size() && !joined; ++a)
      for (std::size_t b = a + 1; b < open.size() && !joined; ++b)
        if (!g.adjacent(open[a], open[b])) {
          g.add_edge(open[a], open[b]);
          joined = true;
        }
    if (!joined) return;
  }
}

// An edge (x, y) with ok(x, y), drawn uniformly by rejection, or by a scan when draws keep failing.
// Returns the edge index (kNone if none) and whether it must be used as (y, x).
template <class Ok>
std::pair<std::size_t, bool> find_edge(const RegularGraphDraft& g, Rng& rng, Ok ok) {
  const auto& edges = g.edges();
  if (edges.empty()) return {kNone, false};
  for (int draw = 0; draw < 256; ++draw) {
    const std::size_t i = rng.below(edges.size());
    if (ok(edges[i].first, edges[i].second)) return {i, false};
    if (ok(edges[i].second, edges[i].first)) return {i, true};
  }
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (ok(edges[i].first, edges[i].second)) return {i, false};
    if (ok(edges[i].second, edges[i].first)) return {i, true};
  }
  return {kNone, false};
}

// Jellyfish §3 fix-up: a switch a with two free ports removes a random cable (x, y) between switches
// not adjacent to it and joins a-x and a-y. Two switches a, b with one free port each (necessarily
// adjacent, else they would have been joined) likewise replace (x, y) with a-x and b-y.
bool fill_free_ports(RegularGraphDraft& g, Rng& rng) {
  while (!g.open().empty()) {
    const std::uint32_t a = g.open()[0];
    const std::uint32_t b = g.free_ports(a) >= 2 ? a : (g.open().size() > 1 ? g.open()[1] : kNone);
    if (b == kNone) return false;
    if (a != b && !g.adjacent(a, b)) {
      g.add_edge(a, b);
      continue;
    }
    const auto [i, flip] = find_edge(g, rng, [&](std::uint32_t x, std::uint32_t y) {
      return x != a && x != b && y != a && y != b && !g.adjacent(a, x) && !g.adjacent(b, y);
    });
    if (i == kNone) return false;
    auto [x, y] = g.edges()[i];
    if (flip) std::swap(x, y);
    g.remove_edge(i);
    g.add_edge(a, x);
    g.add_edge(b, y);
  }
  return true;
}

// Joins components by double edge swaps: a cable (a, b) of the first component and (c, d) of
// another become (a, c) and (b, d). Degrees stay r and no parallel cable can appear (the new ends
// lie in different components); the component count never grows and drops unless both cables were
// bridges.
bool connect_components(RegularGraphDraft& g, Rng& rng, std::uint32_t n) {
  std::vector<std::uint32_t> label;
  for (std::uint64_t round = 0; round < 1000 + 4ULL * n; ++round) {
    if (g.components(label) == 1) return true;
    std::uint32_t other = 0;
    while (label[other] == label[0]) ++other;
    const auto in = [&](std::uint32_t comp) {
      return find_edge(g, rng, [&](std::uint32_t x, std::uint32_t) { return label[x] == comp; });
    };
    const auto [i, flip_i] = in(label[0]);
    const auto [j, flip_j] = in(label[other]);
    if (i == kNone || j == kNone) return false;
    auto [a, b] = g.edges()[i];
    auto [c, d] = g.edges()[j];
    if (flip_i) std::swap(a, b);
    if (flip_j) std::swap(c, d);
    g.remove_edge(std::max(i, j));
    g.remove_edge(std::min(i, j));
    g.add_edge(a, c);
    g.add_edge(b, d);
  }
  return false;
}

std::string shape(std::uint32_t n, std::uint32_t k, std::uint32_t r) {
  return "jellyfish N=" + std::to_string(n) + ", k=" + std::to_string(k) + ", r=" + std::to_string(r);
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> random_regular_graph(std::uint32_t n, std::uint32_t r,
                                                                          std::uint64_t seed, const std::string& what) {
  if (r >= n)
    throw InputError(what + ": r = " + std::to_string(r) + " switch ports need more than r other switches, " +
                     "so r must be less than N = " + std::to_string(n));
  if ((static_cast<std::uint64_t>(n) * r) % 2 != 0)
    throw InputError(what + ": the degree sum N*r = " + std::to_string(static_cast<std::uint64_t>(n) * r) +
                     " is odd, but it must be even (every cable uses two switch ports)");
  if (r == 0 || (r == 1 && n > 2))
    throw InputError(what + ": an r-regular graph with r = " + std::to_string(r) +
                     " is connected only for N <= " + std::to_string(r + 1) + "; use r >= 2");
  for (std::uint32_t attempt = 0; attempt < kAttempts; ++attempt) {
    Rng rng(derive_seed(seed, Stream::Topology, attempt));
    RegularGraphDraft g(n, r);
    join_random_pairs(g, rng);
    if (!fill_free_ports(g, rng) || !connect_components(g, rng, n)) continue;
    return g.take_edges();
  }
  throw InputError(what + ": no simple connected r-regular graph found in " + std::to_string(kAttempts) +
                   " attempts; try another seed or a smaller r");
}

JellyfishTopology::JellyfishTopology(std::uint32_t switches, std::uint32_t ports, std::uint32_t switch_ports,
                                     std::uint64_t seed, const LinkDefaults& defaults)
    : Topology("jellyfish"), n_(switches), r_(switch_ports), p_(0) {
  const std::string what = shape(switches, ports, switch_ports);
  if (switch_ports >= ports)
    throw InputError(what + ": r (switch-to-switch ports) must be less than k (ports per switch), leaving " +
                     "p = k - r >= 1 ports for servers");
  p_ = ports - switch_ports;
  const std::uint64_t endpoints = static_cast<std::uint64_t>(n_) * p_;
  const std::uint64_t vertices = endpoints + n_;
  const std::uint64_t cables = endpoints + static_cast<std::uint64_t>(n_) * r_ / 2;
  if (vertices > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(vertices) +
                     " vertices (N*(k-r) servers plus N switches) is more than 2^31, the largest network supported");
  if (2 * cables > kMaxNetworkLinks)
    throw InputError(what + ": " + std::to_string(2 * cables) +
                     " directed links is more than 4e9, the largest network supported");

  auto edges = random_regular_graph(n_, r_, seed, what);
  // Each switch's neighbours in ascending order give its port numbers p .. p+r-1.
  std::vector<std::uint32_t> neighbours(static_cast<std::size_t>(n_) * r_), filled(n_, 0);
  for (const auto& [u, v] : edges) {
    neighbours[static_cast<std::size_t>(u) * r_ + filled[u]++] = v;
    neighbours[static_cast<std::size_t>(v) * r_ + filled[v]++] = u;
  }
  for (std::uint32_t s = 0; s < n_; ++s) {
    auto* row = &neighbours[static_cast<std::size_t>(s) * r_];
    std::sort(row, row + r_);
  }
  const auto port_of = [&](std::uint32_t s, std::uint32_t t) {
    const auto* row = &neighbours[static_cast<std::size_t>(s) * r_];
    return p_ + static_cast<std::uint32_t>(std::lower_bound(row, row + r_, t) - row);
  };

  NetworkBuilder b(defaults);
  b.reserve(vertices, cables);
  for (std::uint64_t e = 0; e < endpoints; ++e) b.add_endpoint_vertex();
  b.add_switches(n_);
  for (EndpointId e = 0; e < endpoints; ++e) b.add_cable(e, switch_vertex(e / p_), -1, -1, 0, e % p_);
  for (std::uint32_t s = 0; s < n_; ++s)
    for (std::uint32_t i = 0; i < r_; ++i) {
      const std::uint32_t t = neighbours[static_cast<std::size_t>(s) * r_ + i];
      if (s < t) b.add_cable(switch_vertex(s), switch_vertex(t), -1, -1, p_ + i, port_of(t, s));
    }
  net_ = b.build();
}

std::vector<TopologyFact> JellyfishTopology::facts() const {
  return {
      {"switch_degree", static_cast<double>(r_), "switch-to-switch cables of every switch (r; the graph is r-regular)"},
      {"endpoints_per_switch", static_cast<double>(p_), "servers on every switch (p = k - r)"}};
}

void register_jellyfish(TopologyRegistry& registry) {
  registry.add(
      {"jellyfish",
       "random r-regular graph of N switches with k ports, k-r servers per switch (Singla et al. 2012)",
       {int_param("N", "16", "switches", 2, 1 << 30),
        int_param("k", "6", "ports per switch: r to other switches plus p = k - r to servers", 2, 1 << 16),
        int_param("r", "4", "ports per switch used for switch-to-switch cables (the graph's degree); N*r must be even",
                  1, 1 << 16),
        int_param("seed", "1",
                  "seed of the random graph (the topology's own seed, independent of the run seed): the same "
                  "seed always gives the same network",
                  0, 9.2e18)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return std::make_unique<JellyfishTopology>(
             static_cast<std::uint32_t>(p.get_int("N")), static_cast<std::uint32_t>(p.get_int("k")),
             static_cast<std::uint32_t>(p.get_int("r")), static_cast<std::uint64_t>(p.get_int("seed")), defaults);
       },
       "Singla, Hong, Popa, Godfrey, 'Jellyfish: networking data centers randomly', NSDI 2012, section 3. The "
       "switch graph is a simple (no self-loop, no parallel cable) connected r-regular graph drawn with the "
       "paper's incremental procedure: uniformly chosen pairs of non-adjacent switches with free ports are "
       "joined until no such pair is left; then a switch with two free ports removes a random cable (x, y) "
       "between switches it is not adjacent to and joins itself to x and y, and two adjacent switches with one "
       "free port each replace a random cable (x, y) with a-x and b-y. Should the graph be disconnected, "
       "double edge swaps between components ((a, b), (c, d) -> (a, c), (b, d)) join them. All draws come from "
       "derive_seed(seed, topology stream, attempt), so a seed always gives the same network, independent of "
       "the run seed. Refused: N*r odd (the degree sum must be even), r >= N, r = 1 with N > 2 (never "
       "connected), r >= k (no server port). Numbering: endpoint vertices 0..N*p-1 (vertex e is endpoint e), "
       "on switch e / p at port e % p; switch s is vertex N*p + s; a switch's out-links are its p server ports "
       "then its r switch cables in ascending order of the neighbour switch. Default routing: bfs.",
       "jellyfish:N=24,k=6,r=4"});
}

}  // namespace interflow::topo
