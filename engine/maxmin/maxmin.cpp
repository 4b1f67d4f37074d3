#include "engine/maxmin/maxmin.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/crew.hpp"
#include "core/fill_later.hpp"
#include "core/radix_heap.hpp"
#include "engine/maxmin/path_runs.hpp"

namespace interflow::maxmin {

namespace {
constexpr std::size_t kGrain = 1 << 14;  // work items per parallel task

// The variables' links as stored in a PathTable: the same interface as PathRuns, so the solver reads
// either the same way (a template, not a virtual call per link).
struct TablePaths {
  std::span<const std::uint64_t> offsets;
  std::span<const LinkId> links;
  bool empty(std::uint32_t v) const { return offsets[v] == offsets[v + 1]; }
  std::uint64_t length(std::uint32_t v) const { return offsets[v + 1] - offsets[v]; }
  template <class F>
  void for_each_in(std::uint32_t v, LinkId lo, LinkId hi, F&& f) const {
    for (std::uint64_t i = offsets[v]; i < offsets[v + 1]; ++i)
      if (const LinkId l = links[i]; l >= lo && l < hi) f(l);
  }
};

// Link -> variables incidence (transpose of the paths), without atomics: the links are cut into
// `parts` contiguous ranges, and each part scans every variable's path in variable order, counting
// (then filling) the lists of its own links only. Each list so comes out in increasing variable
// order whatever the number of parts or threads, which fixes the layout and every later
// floating-point sum. A part's reads are sequential and its writes stay within its own links, so
// no cache line is shared between threads and no atomic is needed; the price is one scan of the
// paths per part. (The atomic scatter this replaces spent half of a 1M-endpoint torus run there.)
// The count of link l is link_first[l + 1] - link_first[l]: no separate array of counts is kept.
template <class Paths>
void transpose(const Paths& paths, std::size_t num_vars, std::size_t num_links, std::uint64_t entries,
               std::vector<std::uint32_t>& link_first, FillLaterVector<std::uint32_t>& link_vars) {
  const std::size_t parts =
      std::clamp<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()), 1, 64);
  const auto part_first = [&](std::size_t p) { return num_links * p / parts; };
  const auto for_each_part = [&](auto&& body) {
    tbb::parallel_for(std::size_t{0}, parts, [&](std::size_t p) {
      const auto lo = static_cast<LinkId>(part_first(p)), hi = static_cast<LinkId>(part_first(p + 1));
      for (std::uint32_t v = 0; v < num_vars; ++v) paths.for_each_in(v, lo, hi, [&](LinkId l) { body(l, v); });
    });
  };
  link_first.assign(num_links + 1, 0);
  for_each_part([&](LinkId l, std::uint32_t) { ++link_first[l + 1]; });
  for (std::size_t l = 0; l < num_links; ++l) link_first[l + 1] += link_first[l];
  link_vars.resize(entries);  // not zeroed: the second scan writes every entry
  std::vector<std::uint32_t> cursor(link_first.begin(), link_first.end() - 1);
  for_each_part([&](LinkId l, std::uint32_t v) { link_vars[cursor[l]++] = v; });
}

// Per-link state packed together: freezing a variable touches every link of its path, and one
// cache line per link is far cheaper than one per array.
struct LinkState {
  double load;        // sum of the rates of frozen variables crossing the link
  double weight_sum;  // of the unfrozen variables crossing the link
  std::uint32_t unfrozen;
  std::uint32_t dirty;  // changed since its heap key was computed
};
using LinkStates = FillLaterVector<LinkState>;

// One bit per link, set when its last variable freezes. Most heap pops are of links already emptied;
// testing this bitmap (a few hundred KiB to a few MiB, mostly in cache) skips them without
// touching their state (a cache miss each).
class EmptiedLinks {
 public:
  explicit EmptiedLinks(std::size_t num_links) : words_((num_links + 63) / 64, 0) {}
  bool test(LinkId l) const { return (words_[l >> 6] >> (l & 63)) & 1; }
  void set(LinkId l) { words_[l >> 6] |= std::uint64_t{1} << (l & 63); }

 private:
  std::vector<std::uint64_t> words_;
};

// Applies the variables frozen at one bottleneck to the links they cross. With W workers the links
// are cut into W contiguous ranges and each worker reads every frozen variable's path, in freezing
// order, updating only the links of its own range: each link so receives its updates in exactly
// the order one worker would apply them, and the sums are bit-identical for any thread count. The
// updates are random accesses to a large array (a cache miss each), so W workers take about 1/W of
// the time; a step with fewer than kParallelUpdates updates is applied by the caller alone, as
// handing it out would cost more than it saves. The ranges start at multiples of 64 links, so no two
// workers write the same word of the emptied-links bitmap. The crew's helpers, which hold their
// threads spinning, start at the first step that is handed out: a solve whose steps are all small
// (a fat tree's) never starts them.
template <class Paths>
class LinkUpdater {
 public:
  static constexpr std::uint64_t kParallelUpdates = 128;

  LinkUpdater(const Paths& paths, std::size_t num_links)
      : paths_(paths),
        num_links_(num_links),
        workers_(std::clamp<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()), 1, 8)) {}
  void clear() {
    vars_.clear();
    updates_ = 0;
  }
  void add(std::uint32_t v) {
    vars_.push_back(v);
    updates_ += paths_.length(v);
  }
  void apply(const MaxMinInput& in, const std::vector<double>& rate, LinkStates& link, EmptiedLinks& emptied) {
    if (workers_ == 1 || updates_ < kParallelUpdates) {
      apply_range(in, rate, link, emptied, 0, static_cast<LinkId>(num_links_));
      return;
    }
    if (!crew_) crew_.emplace(workers_);
    auto part = [&](std::size_t p) {
      apply_range(in, rate, link, emptied, range_start(p, workers_), range_start(p + 1, workers_));
    };
    crew_->run(part);
  }

 private:
  LinkId range_start(std::size_t p, std::size_t parts) const {
    if (p == parts) return static_cast<LinkId>(num_links_);
    return static_cast<LinkId>((num_links_ * p / parts) & ~std::size_t{63});
  }
  void apply_range(const MaxMinInput& in, const std::vector<double>& rate, LinkStates& link, EmptiedLinks& emptied,
                   LinkId lo, LinkId hi) const {
    for (std::uint32_t v : vars_) {
      const double r = rate[v], w = in.weight[v];
      paths_.for_each_in(v, lo, hi, [&](LinkId l) {
        LinkState& m = link[l];
        m.load += r;
        m.weight_sum -= w;
        m.dirty = 1;
        if (--m.unfrozen == 0) {
          m.weight_sum = 0;  // avoid drift when a link empties
          emptied.set(l);
        }
      });
    }
  }

  const Paths& paths_;
  std::size_t num_links_, workers_;
  std::optional<Crew> crew_;
  std::vector<std::uint32_t> vars_;
  std::uint64_t updates_ = 0;
};

}  // namespace

void MaxMinSolver::run(const MaxMinInput& in) {
  const std::size_t num_links = in.capacity_exact.empty() ? in.capacity_gbps.size() : in.capacity_exact.size();
  const std::size_t num_vars = in.weight.size();
  if (in.runs ? in.runs->num_vars() != num_vars : in.var_offsets.size() != num_vars + 1)
    throw std::invalid_argument("maxmin: the paths do not have one entry per variable");
  if (!in.link_up.empty() && in.link_up.size() != num_links) throw std::invalid_argument("maxmin: link_up size");
  for (std::uint32_t v = 0; v < num_vars; ++v)
    if (!(in.weight[v] > 0)) throw std::invalid_argument("maxmin: weights must be positive");
  if (in.runs)
    solve(in, *in.runs);
  else
    solve(in, TablePaths{in.var_offsets, in.links});
}

template <class Paths>
void MaxMinSolver::solve(const MaxMinInput& in, const Paths& paths) {
  const std::size_t num_links = in.capacity_exact.empty() ? in.capacity_gbps.size() : in.capacity_exact.size();
  const std::size_t num_vars = in.weight.size();
  steps_ = refreshes_ = 0;
  rate_.assign(num_vars, 0.0);
  bottleneck_.assign(num_vars, kNone);
  std::uint64_t entries = 0;
  for (std::uint32_t v = 0; v < num_vars; ++v) entries += paths.length(v);
  if (entries >= 0xffffffffULL) throw std::length_error("maxmin: more than 4 billion path entries");

  std::vector<std::uint32_t> link_first;
  FillLaterVector<std::uint32_t> link_vars;
  transpose(paths, num_vars, num_links, entries, link_first, link_vars);
  using Range = tbb::blocked_range<std::size_t>;

  LinkStates link(num_links);  // not zeroed: every entry is written below
  tbb::parallel_for(Range(0, num_links, kGrain), [&](const Range& r) {
    for (std::size_t l = r.begin(); l < r.end(); ++l) {
      auto first = link_vars.begin() + link_first[l];
      auto last = link_vars.begin() + link_first[l + 1];
      double weight_sum = 0;
      for (auto it = first; it != last; ++it) weight_sum += in.weight[*it];
      link[l] = {0.0, weight_sum, link_first[l + 1] - link_first[l], 0};
    }
  });
  std::vector<std::uint8_t> frozen(num_vars, 0);
  for (std::uint32_t v = 0; v < num_vars; ++v) {
    if (paths.empty(v)) {
      rate_[v] = std::numeric_limits<double>::infinity();
      frozen[v] = 1;
    }
  }

  auto capacity = [&](std::size_t l) {
    if (!in.link_up.empty() && !in.link_up[l]) return 0.0;
    return in.capacity_exact.empty() ? static_cast<double>(in.capacity_gbps[l]) : in.capacity_exact[l];
  };
  auto share_of = [&](std::size_t l) { return std::max(0.0, capacity(l) - link[l].load) / link[l].weight_sum; };
  RadixHeap<LinkId> heap;
  double lowest = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < num_links; ++l)
    if (link[l].unfrozen > 0) lowest = std::min(lowest, share_of(l));
  heap.raise_floor(lowest);
  for (std::size_t l = 0; l < num_links; ++l)
    if (link[l].unfrozen > 0) heap.push(share_of(l), static_cast<LinkId>(l));

  std::uint64_t frozen_count = 0;
  LinkUpdater<Paths> updater(paths, num_links);
  EmptiedLinks emptied(num_links);
  while (!heap.empty()) {
    double key;
    LinkId l;
    heap.pop(key, l);
    if (emptied.test(l)) continue;
    if (link[l].dirty) {  // touched since its key was computed: its share can only have grown
      link[l].dirty = 0;
      ++refreshes_;
      heap.push(share_of(l), l);
      continue;
    }
    // l is a true bottleneck: every other link's share is at least its key >= this key.
    if ((++steps_ & 1023) == 0 && in.progress) in.progress->store(frozen_count, std::memory_order_relaxed);
    const double level = key;
    updater.clear();
    for (std::uint64_t i = link_first[l]; i < link_first[l + 1]; ++i) {
      const std::uint32_t v = link_vars[i];
      if (frozen[v]) continue;
      frozen[v] = 1;
      ++frozen_count;
      rate_[v] = in.weight[v] * level;
      bottleneck_[v] = l;
      updater.add(v);
    }
    updater.apply(in, rate_, link, emptied);
  }
  // The per-link results, each made after freeing what it no longer needs, so that they do not
  // raise the peak.
  FillLaterVector<std::uint32_t>().swap(link_vars);
  link_paths_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_paths_[l] = link_first[l + 1] - link_first[l];
  std::vector<std::uint32_t>().swap(link_first);
  link_load_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_load_[l] = link[l].load;
}

}  // namespace interflow::maxmin
