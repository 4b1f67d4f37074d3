// locality: the free nodes nearest (in hops) to one switch.
#include <algorithm>
#include <limits>
#include <utility>

#include "core/error.hpp"
#include "scheduler/allocation.hpp"

namespace interflow::scheduler {

namespace {

constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

class Locality : public AllocationPolicy {
 public:
  Locality(const Network& net, std::uint32_t centres, std::vector<std::uint32_t> grid, bool wraps)
      : net_(net), centres_(centres), grid_(std::move(grid)), wraps_(wraps) {}

  void choose(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) override {
    if (!grid_.empty() && take_block(s, k, out)) return;
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

  // Grid topologies: an axis-aligned box of exactly k free nodes (wrapping around a torus), the most
  // compact shape first (smallest sum of sides, then longest in dimension 0, 1, ...), origins in id
  // order. False if none is free.
  bool take_block(const FreeNodes& s, std::uint32_t k, std::vector<std::uint32_t>& out) const {
    const std::size_t d = grid_.size();
    std::uint64_t total = 1;
    for (std::uint32_t g : grid_) total *= g;
    if (total != s.free.size() || total > (1u << 20)) return false;  // not the machine's grid, or too large to scan
    std::vector<std::vector<std::uint32_t>> shapes;
    std::vector<std::uint32_t> shape(d, 1);
    // Every factorisation of k into d sides that fit the grid.
    const auto build = [&](auto&& self, std::size_t dim, std::uint32_t left) -> void {
      if (dim + 1 == d) {
        if (left <= grid_[dim]) {
          shape[dim] = left;
          shapes.push_back(shape);
        }
        return;
      }
      for (std::uint32_t a = 1; a <= left && a <= grid_[dim]; ++a)
        if (left % a == 0) {
          shape[dim] = a;
          self(self, dim + 1, left / a);
        }
    };
    build(build, 0, k);
    // Most compact first (smallest sum of sides); among equals the one longest in the fastest
    // dimensions (runs of consecutive ids).
    std::sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
      std::uint64_t sa = 0, sb = 0;
      for (std::uint32_t x : a) sa += x;
      for (std::uint32_t x : b) sb += x;
      return sa != sb ? sa < sb : a > b;
    });
    std::vector<std::uint32_t> origin(d), offset(d), box;
    for (const auto& sh : shapes)
      for (std::uint64_t o = 0; o < total; ++o) {
        std::uint64_t rest = o;
        bool fits = true;
        for (std::size_t i = 0; i < d; ++i) {
          origin[i] = static_cast<std::uint32_t>(rest % grid_[i]);
          rest /= grid_[i];
          if (!wraps_ && origin[i] + sh[i] > grid_[i]) fits = false;
        }
        if (!fits) continue;
        box.clear();
        std::fill(offset.begin(), offset.end(), 0);
        for (std::uint32_t n = 0; n < k && fits; ++n) {
          std::uint64_t id = 0, stride = 1;
          for (std::size_t i = 0; i < d; ++i) {
            id += ((origin[i] + offset[i]) % grid_[i]) * stride;
            stride *= grid_[i];
          }
          if (!s.free[id]) fits = false;
          box.push_back(static_cast<std::uint32_t>(id));
          for (std::size_t i = 0; i < d && ++offset[i] == sh[i]; ++i) offset[i] = 0;  // next cell of the box
        }
        if (!fits) continue;
        std::sort(box.begin(), box.end());
        out.insert(out.end(), box.begin(), box.end());
        return true;
      }
    return false;
  }

  const Network& net_;
  std::uint32_t centres_;
  std::vector<std::uint32_t> grid_;
  bool wraps_;
  std::vector<std::uint32_t> vertex_node_, dist_, found_, best_;
  std::vector<VertexId> queue_, visited_;
  std::vector<std::uint8_t> tried_;
  std::uint64_t best_radius_ = kNoNode, best_sum_ = 0;
};

}  // namespace

void register_locality_allocation(AllocationRegistry& registry) {
  registry.add(
      {"locality",
       "a free sub-block of a torus or mesh, else the free nodes nearest in hops to one switch",
       {int_param("centres", "256", "switches with free nodes tried as the centre, in node id order", 1, 1e9)},
       [](const ParamSet& p, const AllocationContext& ctx) -> std::unique_ptr<AllocationPolicy> {
         if (!ctx.network) throw InputError("allocation locality needs the network: use it with --network-aware");
         return std::make_unique<Locality>(*ctx.network, static_cast<std::uint32_t>(p.get_int("centres")), ctx.grid,
                                           ctx.wraps);
       },
       "On a torus or mesh the job first gets a free axis-aligned sub-block of exactly its size when one exists "
       "(the most compact shape first: smallest sum of sides, then longest in the fastest dimensions; origins in "
       "id order; wrapping around a torus). "
       "Otherwise, and on every other topology, a breadth-first search from a centre switch collects free nodes "
       "in order of distance: the switch's own endpoints, then those one switch away (a pod, a group). Every "
       "switch holding a free node is a candidate centre (up to `centres`, in node id order); the one whose k-th "
       "nearest free node is closest wins, ties broken by the smaller sum of distances, then the earlier centre. "
       "Network-aware runs only."});
}

}  // namespace interflow::scheduler
