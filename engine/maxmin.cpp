#include "engine/maxmin.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "engine/radix_heap.hpp"

namespace interflow {

void MaxMinSolver::run(const MaxMinInput& in) {
  const std::size_t num_links = in.capacity_gbps.size();
  const std::size_t num_vars = in.weight.size();
  if (in.var_offsets.size() != num_vars + 1) throw std::invalid_argument("maxmin: var_offsets size");
  steps_ = refreshes_ = 0;
  rate_.assign(num_vars, 0.0);
  bottleneck_.assign(num_vars, kNone);

  // Per-link state packed together: freezing a variable touches every link of its path, and one
  // cache line per link is far cheaper than one per array.
  struct LinkState {
    double load;        // sum of the rates of frozen variables crossing the link
    double weight_sum;  // of the unfrozen variables crossing the link
    std::uint32_t unfrozen;
    std::uint32_t dirty;  // changed since its heap key was computed
  };
  if (in.links.size() >= 0xffffffffULL) throw std::length_error("maxmin: more than 4 billion path entries");
  if (!in.link_up.empty() && in.link_up.size() != num_links) throw std::invalid_argument("maxmin: link_up size");
  std::vector<LinkState> link(num_links, LinkState{0.0, 0.0, 0, 0});
  std::vector<std::uint8_t> frozen(num_vars, 0);
  for (std::uint32_t v = 0; v < num_vars; ++v) {
    if (!(in.weight[v] > 0)) throw std::invalid_argument("maxmin: weights must be positive");
    if (in.var_offsets[v] == in.var_offsets[v + 1]) {
      rate_[v] = std::numeric_limits<double>::infinity();
      frozen[v] = 1;
    }
    for (std::uint64_t i = in.var_offsets[v]; i < in.var_offsets[v + 1]; ++i) {
      LinkState& s = link[in.links[i]];
      s.weight_sum += in.weight[v];
      ++s.unfrozen;
    }
  }
  link_paths_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_paths_[l] = link[l].unfrozen;

  // Link -> variables incidence (transpose of the paths) by counting sort, filled from the back so
  // that the end offsets walk down to the start offsets and no second offset array is needed.
  std::vector<std::uint32_t> link_first(num_links + 1, 0);
  for (std::size_t l = 0; l < num_links; ++l) link_first[l + 1] = link_first[l] + link[l].unfrozen;
  std::vector<std::uint32_t> link_vars(in.links.size());
  for (auto v = static_cast<std::uint32_t>(num_vars); v-- > 0;)
    for (std::uint64_t i = in.var_offsets[v]; i < in.var_offsets[v + 1]; ++i)
      link_vars[--link_first[in.links[i] + 1]] = v;
  // Now link_first[l + 1] holds the start of link l: shift down by one.
  std::copy(link_first.begin() + 1, link_first.end(), link_first.begin());
  link_first[num_links] = static_cast<std::uint32_t>(in.links.size());

  auto capacity = [&](std::size_t l) {
    return in.link_up.empty() || in.link_up[l] ? static_cast<double>(in.capacity_gbps[l]) : 0.0;
  };
  auto share_of = [&](std::size_t l) { return std::max(0.0, capacity(l) - link[l].load) / link[l].weight_sum; };
  RadixHeap<LinkId> heap;
  for (std::size_t l = 0; l < num_links; ++l)
    if (link[l].unfrozen > 0) heap.push(share_of(l), static_cast<LinkId>(l));

  while (!heap.empty()) {
    double key;
    LinkId l;
    heap.pop(key, l);
    if (link[l].unfrozen == 0) continue;
    if (link[l].dirty) {  // touched since its key was computed: its share can only have grown
      link[l].dirty = 0;
      ++refreshes_;
      heap.push(share_of(l), l);
      continue;
    }
    // l is a true bottleneck: every other link's share is at least its key >= this key.
    ++steps_;
    const double level = key;
    for (std::uint64_t i = link_first[l]; i < link_first[l + 1]; ++i) {
      const std::uint32_t v = link_vars[i];
      if (frozen[v]) continue;
      frozen[v] = 1;
      const double r = in.weight[v] * level;
      rate_[v] = r;
      bottleneck_[v] = l;
      for (std::uint64_t j = in.var_offsets[v]; j < in.var_offsets[v + 1]; ++j) {
        LinkState& m = link[in.links[j]];
        m.load += r;
        m.weight_sum -= in.weight[v];
        m.dirty = 1;
        if (--m.unfrozen == 0) m.weight_sum = 0;  // avoid drift when a link empties
      }
    }
  }
  link_load_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_load_[l] = link[l].load;
}

}  // namespace interflow
