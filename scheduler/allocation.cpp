#include "scheduler/allocation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/error.hpp"

namespace interflow::scheduler {

namespace {
constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
}

NodeAllocator::NodeAllocator(std::uint32_t nodes, const std::string& policy, std::uint64_t seed, const Network* net,
                             double geometric_mean)
    : free_(nodes, 1), count_(nodes), rng_(seed), net_(net), geometric_mean_(geometric_mean) {
  if (policy == "consecutive")
    policy_ = Policy::Consecutive;
  else if (policy == "random")
    policy_ = Policy::Random;
  else if (policy == "locality")
    policy_ = Policy::Locality;
  else if (policy == "geometric")
    policy_ = Policy::Geometric;
  else
    throw InputError("allocation '" + policy + "': expected consecutive, random, locality or geometric");
  if (policy_ == Policy::Locality) {
    if (!net_) throw InputError("allocation locality needs the network (use it with --network-aware)");
    if (nodes > net_->num_endpoints()) throw InputError("allocation locality: more nodes than network endpoints");
    vertex_node_.assign(net_->num_vertices(), kNoNode);
    for (std::uint32_t e = 0; e < nodes; ++e) vertex_node_[net_->endpoint_vertex(e)] = e;
  }
  if (policy_ == Policy::Geometric && !(geometric_mean_ >= 1))
    throw InputError("allocation geometric: the mean cluster size must be >= 1");
}

void NodeAllocator::take(std::uint32_t k, std::vector<std::uint32_t>& out) {
  out.clear();
  switch (policy_) {
    case Policy::Consecutive:
      for (std::uint32_t v = 0; out.size() < k; ++v)
        if (free_[v]) out.push_back(v);
      break;
    case Policy::Random: {
      std::vector<std::uint32_t> candidates;
      candidates.reserve(count_);
      for (std::uint32_t v = 0; v < free_.size(); ++v)
        if (free_[v]) candidates.push_back(v);
      for (std::uint32_t i = 0; i < k; ++i) std::swap(candidates[i], candidates[i + rng_.below(candidates.size() - i)]);
      out.assign(candidates.begin(), candidates.begin() + k);
      break;
    }
    case Policy::Locality:
      take_locality(k, out);
      break;
    case Policy::Geometric:
      take_geometric(k, out);
      break;
  }
  for (std::uint32_t v : out) free_[v] = 0;
  count_ -= k;
}

void NodeAllocator::take_locality(std::uint32_t k, std::vector<std::uint32_t>& out) {
  // Breadth-first from a seed vertex, collecting free nodes in order of distance (ties: the order
  // the search meets them). Seeds: the vertices of free nodes, each switch tried once, the first 256;
  // the best seed has the smallest distance to its k-th node, then the smallest sum of distances.
  const std::uint32_t V = net_->num_vertices();
  std::vector<std::uint32_t> dist(V, kNoNode), queue;
  std::vector<std::uint32_t> best, found;
  std::uint64_t best_radius = kNoNode, best_sum = 0;
  std::vector<std::uint8_t> tried(V, 0);
  std::uint32_t seeds = 0;
  const auto search = [&](std::uint32_t seed_vertex) {
    found.clear();
    queue.assign(1, seed_vertex);
    std::fill(dist.begin(), dist.end(), kNoNode);
    dist[seed_vertex] = 0;
    std::uint64_t sum = 0, radius = 0;
    for (std::size_t h = 0; h < queue.size() && found.size() < k; ++h) {
      const std::uint32_t u = queue[h];
      const std::uint32_t node = vertex_node_[u];
      if (node != kNoNode && free_[node]) {
        found.push_back(node);
        sum += dist[u];
        radius = dist[u];
      }
      for (LinkId l = net_->out_begin(u); l < net_->out_end(u); ++l) {
        const VertexId w = net_->target(l);
        if (dist[w] == kNoNode) {
          dist[w] = dist[u] + 1;
          queue.push_back(w);
        }
      }
    }
    if (found.size() == k && (radius < best_radius || (radius == best_radius && sum < best_sum))) {
      best_radius = radius;
      best_sum = sum;
      best = found;
    }
  };
  for (std::uint32_t node = 0; node < free_.size() && seeds < 256; ++node) {
    if (!free_[node]) continue;
    // Seed at the node's switch (its own vertex in a direct network).
    VertexId v = net_->endpoint_vertex(node);
    if (net_->kind(v) != VertexKind::Switch && net_->degree(v) > 0) v = net_->target(net_->out_begin(v));
    if (tried[v]) continue;
    tried[v] = 1;
    ++seeds;
    search(v);
  }
  if (best.size() != k) {  // a disconnected network: fall back to the first free nodes
    best.clear();
    for (std::uint32_t v = 0; best.size() < k; ++v)
      if (free_[v]) best.push_back(v);
  }
  out = best;
}

void NodeAllocator::take_geometric(std::uint32_t k, std::vector<std::uint32_t>& out) {
  // Inverse transform sampling of a geometric distribution on {1, 2, ...} with mean m: p = 1/m,
  // size = ceil(ln(1 - u) / ln(1 - p)).
  const double p = 1.0 / geometric_mean_;
  const auto n = static_cast<std::uint32_t>(free_.size());
  std::vector<std::uint8_t> taken(n, 0);
  while (out.size() < k) {
    std::uint32_t size = 1;
    if (p < 1)
      size = static_cast<std::uint32_t>(std::max(1.0, std::ceil(std::log(1.0 - rng_.uniform()) / std::log(1.0 - p))));
    // A random free node not taken yet by this job starts the cluster.
    std::uint32_t left = 0;
    for (std::uint32_t v = 0; v < n; ++v) left += free_[v] && !taken[v];
    auto pick = static_cast<std::uint32_t>(rng_.below(left));
    std::uint32_t start = 0;
    for (std::uint32_t v = 0; v < n; ++v)
      if (free_[v] && !taken[v] && pick-- == 0) {
        start = v;
        break;
      }
    // Consecutive free nodes from there, cut at the first busy one.
    for (std::uint32_t v = start; v < n && free_[v] && !taken[v] && size > 0 && out.size() < k; ++v, --size) {
      taken[v] = 1;
      out.push_back(v);
    }
  }
}

void NodeAllocator::give_back(const std::vector<std::uint32_t>& nodes) {
  for (std::uint32_t v : nodes) free_[v] = 1;
  count_ += static_cast<std::uint32_t>(nodes.size());
}

}  // namespace interflow::scheduler
