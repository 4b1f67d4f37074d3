// locality: the free nodes nearest (in hops) to one switch.
#include <algorithm>
#include <limits>

#include "engine/error.hpp"
#include "scheduler/allocation.hpp"

namespace interflow::scheduler {

namespace {

constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

class Locality : public AllocationPolicy {
 public:
  Locality(const Network& net, std::uint32_t centres) : net_(net), centres_(centres) {}

  void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) override {
    if (vertex_node_.empty()) {
      if (s.free.size() > net_.num_endpoints())
        throw InputError("allocation locality: the machine has more nodes than the network has endpoints");
      vertex_node_.assign(net_.num_vertices(), kNoNode);
      for (std::uint32_t e = 0; e < s.free.size(); ++e) vertex_node_[net_.endpoint_vertex(e)] = e;
      dist_.assign(net_.num_vertices(), kNoNode);
      tried_.assign(net_.num_vertices(), 0);
    }
    std::fill(tried_.begin(), tried_.end(), 0);
    best_.clear();
    best_radius_ = kNoNode;
    std::uint32_t centres = 0;
    for (std::uint32_t node = 0; node < s.free.size() && centres < centres_; ++node) {
      if (!s.free[node]) continue;
      VertexId v = net_.endpoint_vertex(node);  // its switch (itself in a direct network)
      if (net_.kind(v) != VertexKind::Switch && net_.degree(v) > 0) v = net_.target(net_.out_begin(v));
      if (tried_[v]) continue;
      tried_[v] = 1;
      ++centres;
      search(s, k, v);
    }
    if (best_.size() != k)  // a disconnected network: the first free nodes
      for (std::uint32_t v = 0; best_.size() < k; ++v)
        if (s.free[v] && std::find(best_.begin(), best_.end(), v) == best_.end()) best_.push_back(v);
    out.insert(out.end(), best_.begin(), best_.begin() + k);
  }

 private:
  // Breadth-first from `centre`, collecting free nodes in order of distance; keeps the best centre:
  // the smallest distance to its k-th node, then the smallest sum of distances.
  void search(const FreeNodes& s, std::uint32_t k, VertexId centre) {
    found_.clear();
    queue_.assign(1, centre);
    for (VertexId v : visited_) dist_[v] = kNoNode;
    visited_.assign(1, centre);
    dist_[centre] = 0;
    std::uint64_t sum = 0, radius = 0;
    for (std::size_t h = 0; h < queue_.size() && found_.size() < k; ++h) {
      const VertexId u = queue_[h];
      const std::uint32_t node = vertex_node_[u];
      if (node != kNoNode && s.free[node]) {
        found_.push_back(node);
        sum += dist_[u];
        radius = dist_[u];
      }
      for (LinkId l = net_.out_begin(u); l < net_.out_end(u); ++l) {
        const VertexId w = net_.target(l);
        if (dist_[w] != kNoNode) continue;
        dist_[w] = dist_[u] + 1;
        queue_.push_back(w);
        visited_.push_back(w);
      }
    }
    if (found_.size() == k && (radius < best_radius_ || (radius == best_radius_ && sum < best_sum_))) {
      best_radius_ = radius;
      best_sum_ = sum;
      best_ = found_;
    }
  }

  const Network& net_;
  std::uint32_t centres_;
  std::vector<std::uint32_t> vertex_node_, dist_, found_, best_;
  std::vector<VertexId> queue_, visited_;
  std::vector<std::uint8_t> tried_;
  std::uint64_t best_radius_ = kNoNode, best_sum_ = 0;
};

}  // namespace

void register_locality_allocation(AllocationRegistry& registry) {
  registry.add({"locality",
                "the free nodes nearest in hops to one switch (network-aware runs)",
                {int_param("centres", "256", "switches with free nodes tried as the centre, in node id order", 1, 1e9)},
                [](const ParamSet& p, const Network* net) -> std::unique_ptr<AllocationPolicy> {
                  if (!net) throw InputError("allocation locality needs the network: use it with --network-aware");
                  return std::make_unique<Locality>(*net, static_cast<std::uint32_t>(p.get_int("centres")));
                },
                "A breadth-first search from a centre switch collects free nodes in order of distance: the switch's "
                "own endpoints, then those one switch away (a pod, a group, a compact region of a torus). Every "
                "switch holding a free node is a candidate centre (up to `centres`, in node id order); the one whose "
                "k-th nearest free node is closest wins, ties broken by the smaller sum of distances, then the "
                "earlier centre."});
}

}  // namespace interflow::scheduler
