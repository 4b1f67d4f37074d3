#include "engine/maxmin.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace interflow {

namespace {

struct HeapEntry {
  double share;
  LinkId link;
};

// std heap functions build a max-heap; "later" entries sort first so the top is the smallest share,
// ties broken by the lower link id (deterministic).
struct Later {
  bool operator()(const HeapEntry& a, const HeapEntry& b) const {
    return a.share != b.share ? a.share > b.share : a.link > b.link;
  }
};

}  // namespace

void MaxMinSolver::run(const MaxMinInput& in) {
  const std::size_t num_links = in.capacity_gbps.size();
  const std::size_t num_vars = in.weight.size();
  if (in.var_offsets.size() != num_vars + 1) throw std::invalid_argument("maxmin: var_offsets size");
  steps_ = refreshes_ = 0;
  rate_.assign(num_vars, 0.0);
  bottleneck_.assign(num_vars, kNone);

  // Link -> variables incidence (transpose of the paths), by counting sort.
  std::vector<std::uint64_t> link_first(num_links + 1, 0);
  for (LinkId l : in.links) ++link_first[l + 1];
  for (std::size_t l = 0; l < num_links; ++l) link_first[l + 1] += link_first[l];
  std::vector<std::uint32_t> link_vars(in.links.size());
  {
    std::vector<std::uint64_t> fill(link_first.begin(), link_first.end() - 1);
    for (std::uint32_t v = 0; v < num_vars; ++v)
      for (std::uint64_t i = in.var_offsets[v]; i < in.var_offsets[v + 1]; ++i)
        link_vars[fill[in.links[i]]++] = v;
  }

  std::vector<double> remaining(num_links);
  std::vector<double> weight_sum(num_links, 0.0);
  std::vector<std::uint32_t> unfrozen(num_links, 0);
  std::vector<std::uint8_t> dirty(num_links, 0);
  std::vector<std::uint8_t> frozen(num_vars, 0);
  for (std::size_t l = 0; l < num_links; ++l) remaining[l] = in.capacity_gbps[l];
  for (std::uint32_t v = 0; v < num_vars; ++v) {
    if (!(in.weight[v] > 0)) throw std::invalid_argument("maxmin: weights must be positive");
    if (in.var_offsets[v] == in.var_offsets[v + 1]) {
      rate_[v] = std::numeric_limits<double>::infinity();
      frozen[v] = 1;
    }
    for (std::uint64_t i = in.var_offsets[v]; i < in.var_offsets[v + 1]; ++i) {
      weight_sum[in.links[i]] += in.weight[v];
      ++unfrozen[in.links[i]];
    }
  }

  auto share_of = [&](std::size_t l) { return std::max(0.0, remaining[l]) / weight_sum[l]; };
  std::vector<HeapEntry> heap;
  for (std::size_t l = 0; l < num_links; ++l)
    if (unfrozen[l] > 0) heap.push_back({share_of(l), static_cast<LinkId>(l)});
  std::make_heap(heap.begin(), heap.end(), Later{});

  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), Later{});
    const HeapEntry top = heap.back();
    heap.pop_back();
    const LinkId l = top.link;
    if (unfrozen[l] == 0) continue;
    if (dirty[l]) {  // touched since its key was computed: its share can only have grown
      dirty[l] = 0;
      ++refreshes_;
      heap.push_back({share_of(l), l});
      std::push_heap(heap.begin(), heap.end(), Later{});
      continue;
    }
    // l is a true bottleneck: every other link's share is at least its key >= top.share.
    ++steps_;
    const double level = top.share;
    for (std::uint64_t i = link_first[l]; i < link_first[l + 1]; ++i) {
      const std::uint32_t v = link_vars[i];
      if (frozen[v]) continue;
      frozen[v] = 1;
      const double r = in.weight[v] * level;
      rate_[v] = r;
      bottleneck_[v] = l;
      for (std::uint64_t j = in.var_offsets[v]; j < in.var_offsets[v + 1]; ++j) {
        const LinkId m = in.links[j];
        remaining[m] -= r;
        weight_sum[m] -= in.weight[v];
        --unfrozen[m];
        dirty[m] = 1;
        if (unfrozen[m] == 0) weight_sum[m] = 0;  // avoid drift when a link empties
      }
    }
  }
}

}  // namespace interflow
