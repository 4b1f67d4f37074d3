#include "engine/maxmin/maxmin.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <malloc.h>

#include "core/crew.hpp"
#include "core/fill_later.hpp"
#include "core/radix_heap.hpp"
#include "core/rank_bitmap.hpp"
#include "engine/maxmin/path_runs.hpp"

namespace interflow::maxmin {

int lowest_bit_exponent(double w) {
  const auto bits = std::bit_cast<std::uint64_t>(w);
  const int biased = static_cast<int>(bits >> 52);  // the sign bit is 0
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased != 0) mantissa |= std::uint64_t{1} << 52;  // normal: the implicit leading bit
  return (biased == 0 ? 1 : biased) - 1075 + std::countr_zero(mantissa);
}

bool weight_sums_exact(double heaviest_sum, int unit_exponent) {
  return std::ldexp(heaviest_sum, -unit_exponent) < 0x1p53;
}

namespace {
constexpr std::size_t kGrain = 1 << 14;  // work items per parallel task
constexpr std::size_t kTrimAfterQueue = 1 << 20;  // queue entries (12 MiB) from which a trim pays

// The links of the problem: those of whichever capacity array is given.
std::size_t num_links_of(const MaxMinInput& in) {
  return in.capacity_exact.empty() ? in.capacity_gbps.size() : in.capacity_exact.size();
}

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
  // Every entry is counted by the part of its link: one not counted lies beyond the last link.
  if (link_first[num_links] != entries)
    throw std::invalid_argument("maxmin: a path crosses a link beyond the network's " + std::to_string(num_links) +
                                " links");
  link_vars.resize(entries);  // not zeroed: the second scan writes every entry
  std::vector<std::uint32_t> cursor(link_first.begin(), link_first.end() - 1);
  for_each_part([&](LinkId l, std::uint32_t v) { link_vars[cursor[l]++] = v; });
}

// Per-link state packed together: freezing a variable touches every link of its path, and one
// cache line per link is far cheaper than one per array. Packed to 20 bytes (unaligned doubles cost
// nothing measurable here); whether a link changed since its heap key was computed is a bit of
// LinkMarks, not a field.
#pragma pack(push, 4)
struct LinkState {
  double load;        // sum of the rates of frozen variables crossing the link
  double weight_sum;  // of the unfrozen variables crossing the link
  std::uint32_t unfrozen;
};
#pragma pack(pop)
using LinkStates = FillLaterVector<LinkState>;

// One bit per link.
class LinkBits {
 public:
  explicit LinkBits(std::size_t num_links) : words_((num_links + 63) / 64, 0) {}
  bool test(LinkId l) const { return (words_[l >> 6] >> (l & 63)) & 1; }
  void set(LinkId l) { words_[l >> 6] |= std::uint64_t{1} << (l & 63); }
  void reset(LinkId l) { words_[l >> 6] &= ~(std::uint64_t{1} << (l & 63)); }

 private:
  std::vector<std::uint64_t> words_;
};

// The links whose last variable froze, and the links changed since their heap key was computed.
// Most heap pops are of links emptied or changed; testing these bitmaps (a few hundred KiB to a few
// MiB, mostly in cache) sorts them out without touching their state (a cache miss each), and a true
// bottleneck is found without reading its state at all.
struct LinkMarks {
  explicit LinkMarks(std::size_t num_links) : emptied(num_links), dirty(num_links) {}
  LinkBits emptied, dirty;
};

// Applies the variables frozen at one bottleneck to the links they cross. With W workers the links
// are cut into W contiguous ranges and each worker reads every frozen variable's path, in freezing
// order, updating only the links of its own range: each link so receives its updates in exactly
// the order one worker would apply them, and the sums are bit-identical for any thread count. The
// updates are random accesses to a large array (a cache miss each), so W workers take about 1/W of
// the time; a step with fewer than kParallelUpdates updates is applied by the caller alone, as
// handing it out would cost more than it saves. The ranges start at multiples of 64 links, so no two
// workers write the same word of a LinkBits. The crew's helpers, which hold their
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
  void apply(const MaxMinInput& in, const std::vector<double>& rate, LinkStates& link, LinkMarks& marks) {
    if (workers_ == 1 || updates_ < kParallelUpdates) {
      apply_range(in, rate, link, marks, 0, static_cast<LinkId>(num_links_));
      return;
    }
    if (!crew_) crew_.emplace(workers_);
    auto part = [&](std::size_t p) {
      apply_range(in, rate, link, marks, range_start(p, workers_), range_start(p + 1, workers_));
    };
    crew_->run(part);
  }

 private:
  LinkId range_start(std::size_t p, std::size_t parts) const {
    if (p == parts) return static_cast<LinkId>(num_links_);
    return static_cast<LinkId>((num_links_ * p / parts) & ~std::size_t{63});
  }
  void apply_range(const MaxMinInput& in, const std::vector<double>& rate, LinkStates& link, LinkMarks& marks,
                   LinkId lo, LinkId hi) const {
    for (std::uint32_t v : vars_) {
      const double r = rate[v], w = in.weight[v];
      paths_.for_each_in(v, lo, hi, [&](LinkId l) {
        LinkState& m = link[l];
        m.load += r;
        m.weight_sum -= w;
        marks.dirty.set(l);
        if (--m.unfrozen == 0) {
          m.weight_sum = 0;  // avoid drift when a link empties
          marks.emptied.set(l);
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

// The links some variable crosses, numbered densely in link-id order, for a solve whose per-link
// arrays hold those links only. Correctness: a link no variable crosses takes no part in progressive
// filling (it is never a bottleneck and no freeze updates it), so dropping it changes nothing, and
// renumbering the used links by rank keeps their relative order, hence the heap's tie order and
// every floating-point operation of the solve: the results, mapped back by link_of, are
// bit-identical.
class UsedLinks {
 public:
  // Compacting pays when at least this share of the links carries no variable (the tori use nearly
  // all of theirs; a fat tree under a random pattern about two thirds).
  static constexpr double kUnusedShare = 0.1;

  UsedLinks(std::span<const LinkId> links, std::size_t num_links) : used_(num_links) {
    for (const LinkId l : links) {
      if (l >= num_links)
        throw std::invalid_argument("maxmin: a path crosses link " + std::to_string(l) + " of a network of " +
                                    std::to_string(num_links) + " links");
      used_.set(l);
    }
    used_.finish();
  }
  std::size_t count() const { return used_.count(); }
  bool worth_it() const {
    return static_cast<double>(used_.count()) <= (1 - kUnusedShare) * static_cast<double>(used_.size());
  }
  // Per-link values of the used links only, in their new order.
  template <class T>
  std::vector<T> compact(std::span<const T> per_link) const {
    std::vector<T> out;
    if (per_link.empty()) return out;
    out.reserve(count());
    for (std::size_t l = 0; l < per_link.size(); ++l)
      if (used_.contains(l)) out.push_back(per_link[l]);
    return out;
  }
  // Per-link values of all links, in place, from those of the used links (`fill` for the others):
  // from the last link down, the value of the d-th used link moves to its id l >= d, a place no
  // value still to be moved occupies. (The resize copies them once; reserving room for all links
  // in the solve instead raised the peak, as the room was taken while the link states were alive.)
  template <class T>
  void expand(std::vector<T>& values, T fill) const {
    std::size_t d = values.size();
    values.resize(used_.size());
    for (std::size_t l = used_.size(); l-- > 0;) values[l] = used_.contains(l) ? values[--d] : fill;
  }
  void renumber(std::span<LinkId> links) const {
    map_in_place(links, [&](LinkId l) { return static_cast<LinkId>(used_.rank(l)); });
  }
  // Back from new numbers to link ids, with link_of().
  static void restore(std::span<LinkId> links, const std::vector<LinkId>& link_of) {
    map_in_place(links, [&](LinkId d) { return link_of[d]; });
  }
  // The link id of each used link, by new number.
  std::vector<LinkId> link_of() const {
    std::vector<LinkId> out;
    out.reserve(count());
    for (std::size_t l = 0; l < used_.size(); ++l)
      if (used_.contains(l)) out.push_back(static_cast<LinkId>(l));
    return out;
  }

 private:
  template <class F>
  static void map_in_place(std::span<LinkId> links, F&& f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, links.size(), kGrain), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) links[i] = f(links[i]);
    });
  }

  RankBitmap used_;
};

}  // namespace

void MaxMinSolver::run(const MaxMinInput& in) {
  const std::size_t num_links = num_links_of(in);
  const std::size_t num_vars = in.weight.size();
  if (in.runs ? in.runs->num_vars() != num_vars : in.var_offsets.size() != num_vars + 1)
    throw std::invalid_argument("maxmin: the paths do not have one entry per variable");
  if (!in.link_up.empty() && in.link_up.size() != num_links) throw std::invalid_argument("maxmin: link_up size");
  if (!in.capacity_exact.empty() && !in.capacity_gbps.empty() && in.capacity_gbps.size() != num_links)
    throw std::invalid_argument("maxmin: capacity_gbps and capacity_exact differ in size");
  unit_exponent_ = std::numeric_limits<int>::max();
  for (std::uint32_t v = 0; v < num_vars; ++v) {
    if (!(std::isfinite(in.weight[v]) && in.weight[v] > 0))
      throw std::invalid_argument("maxmin: weights must be finite and positive");
    unit_exponent_ = std::min(unit_exponent_, lowest_bit_exponent(in.weight[v]));
  }
  if (in.runs)
    solve(in, *in.runs);
  else if (in.renumberable_links.empty() || !solve_on_used_links(in))
    solve(in, TablePaths{in.var_offsets, in.links});
}

// The solve on the links in use only (UsedLinks): the paths' ids renumbered in place, the per-link
// inputs compacted alike, the results mapped back and the ids restored. Returns false, having
// changed nothing, when too few links are unused for it to pay.
bool MaxMinSolver::solve_on_used_links(const MaxMinInput& in) {
  if (in.renumberable_links.data() != in.links.data() || in.renumberable_links.size() != in.links.size())
    throw std::invalid_argument("maxmin: renumberable_links must be the links array");
  const std::size_t num_links = num_links_of(in);
  const UsedLinks used(in.links, num_links);
  if (!used.worth_it()) return false;
  used.renumber(in.renumberable_links);
  {
    const std::vector<float> capacity_gbps = used.compact(in.capacity_gbps);
    const std::vector<double> capacity_exact = used.compact(in.capacity_exact);
    std::vector<std::uint8_t> link_up = used.compact(in.link_up);
    if (std::all_of(link_up.begin(), link_up.end(), [](std::uint8_t up) { return up != 0; }))
      std::vector<std::uint8_t>().swap(link_up);  // all up: no array needed
    MaxMinInput dense = in;
    dense.capacity_gbps = capacity_gbps;
    dense.capacity_exact = capacity_exact;
    dense.link_up = link_up;
    dense.renumberable_links = {};
    solve(dense, TablePaths{in.var_offsets, in.links});
  }
  const std::vector<LinkId> link_of = used.link_of();
  UsedLinks::restore(in.renumberable_links, link_of);
  for (LinkId& b : bottleneck_)
    if (b != kNone) b = link_of[b];
  used.expand(link_paths_, std::uint32_t{0});
  used.expand(link_load_, 0.0);
  return true;
}

template <class Paths>
void MaxMinSolver::solve(const MaxMinInput& in, const Paths& paths) {
  const std::size_t num_links = num_links_of(in);
  const std::size_t num_vars = in.weight.size();
  steps_ = refreshes_ = 0;
  solved_links_ = num_links;
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
  const double heaviest_sum = tbb::parallel_reduce(
      Range(0, num_links, kGrain), 0.0,
      [&](const Range& r, double heaviest) {
        for (std::size_t l = r.begin(); l < r.end(); ++l) {
          auto first = link_vars.begin() + link_first[l];
          auto last = link_vars.begin() + link_first[l + 1];
          double weight_sum = 0;
          for (auto it = first; it != last; ++it) weight_sum += in.weight[*it];
          link[l] = {0.0, weight_sum, link_first[l + 1] - link_first[l]};
          heaviest = std::max(heaviest, weight_sum);
        }
        return heaviest;
      },
      [](double a, double b) { return std::max(a, b); });
  // Every weight is a whole multiple of 2^unit_exponent_, so every sum of some of a link's weights
  // is too, and none exceeds the link's whole sum: below 2^53 units they are all doubles, and
  // every addition and subtraction of weights is exact (single-path weights of 1, ECMP's per-hop
  // splits on most networks).
  exact_sums_ = weight_sums_exact(heaviest_sum, unit_exponent_);
  FillLaterVector<double> summed;  // per link: its weight sum when last summed (exact_sums_ off)
  if (!exact_sums_) {
    summed.resize(num_links);
    tbb::parallel_for(Range(0, num_links, kGrain), [&](const Range& r) {
      for (std::size_t l = r.begin(); l < r.end(); ++l) summed[l] = link[l].weight_sum;
    });
  }
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
  // A link's weight sum is kept by subtracting the weights that freeze. Unless those operations are
  // exact (exact_sums_), each rounds by up to 2^-53 of the sum last summed, so the error relative to
  // what is left grows as the sum falls: behind 10^5 heavy variables a light one's share was 2e-5
  // off, and with weights 2^53 apart a light weight vanishes altogether (2^53 + 1 + 1 is 2^53, which
  // leaves 0 for two variables once the heavy one froze). So a sum that has fallen below
  // 1/kResumFall of its last summing is summed again from the link's unfrozen variables: the error
  // stays within about kResumFall x (the link's variables) x 2^-53 of what is left. As each summing
  // follows a fall by kResumFall, a link is summed at most 1 + log16(its sum / its lightest weight)
  // times, each a read of its variables.
  auto weight_of = [&](std::size_t l) {
    if (exact_sums_) return link[l].weight_sum;
    const double kept = link[l].weight_sum;
    if (kept >= summed[l] * (1 / kResumFall)) return kept;
    double sum = 0;
    for (std::uint64_t i = link_first[l]; i < link_first[l + 1]; ++i)
      if (!frozen[link_vars[i]]) sum += in.weight[link_vars[i]];
    link[l].weight_sum = summed[l] = sum;
    return sum;
  };
  auto share_of = [&](std::size_t l) { return std::max(0.0, capacity(l) - link[l].load) / weight_of(l); };
  RadixHeap<LinkId> heap;
  double lowest = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < num_links; ++l)
    if (link[l].unfrozen > 0) lowest = std::min(lowest, share_of(l));
  heap.raise_floor(lowest);
  for (std::size_t l = 0; l < num_links; ++l)
    if (link[l].unfrozen > 0) heap.push(share_of(l), static_cast<LinkId>(l));
  const bool large_queue = heap.size() >= kTrimAfterQueue;

  std::uint64_t frozen_count = 0;
  LinkUpdater<Paths> updater(paths, num_links);
  LinkMarks marks(num_links);
  // The heap's refills drop each emptied link they would move (RadixHeap::pop_reviewed) instead of
  // moving it down to the top first. Changed links are left to the pop: re-keyed in the refill they
  // were read half as often again (a link's key re-computed there can go stale again before its
  // turn), and links of equal share left the queue in another order.
  const auto review = [&](LinkId l, double key) { return marks.emptied.test(l) ? -1.0 : key; };
  double key;
  LinkId top;
  while (heap.pop_reviewed(key, top, review)) {
    const LinkId l = top;
    if (marks.emptied.test(l)) continue;
    if (marks.dirty.test(l)) {  // touched since its key was computed: its share can only have grown
      marks.dirty.reset(l);
      ++refreshes_;
      heap.push(share_of(l), l);
      continue;
    }
    // l is a true bottleneck: every other link's share is at least its key >= this key.
    if ((++steps_ & 1023) == 0 && in.progress) in.progress->store(frozen_count, std::memory_order_relaxed);
    // Its key is its share, unless the heap raised a share rounded an ulp below the last key to
    // that key (RadixHeap::push): the level is the share itself, so no link gets more than its
    // capacity. Never below 0, whatever the rounding of the weight sums (weight_of).
    const double share = share_of(l);
    const double level = share < key ? std::max(0.0, share) : key;
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
    updater.apply(in, rate_, link, marks);
  }
  // The per-link results, each made after freeing what it no longer needs, so that they do not
  // raise the peak. A large queue's chunks, freed as it emptied, lie scattered in malloc's heap,
  // which keeps them resident; malloc_trim gives their pages back first (a few ms, so not after the
  // small solves that run many times, such as the dynamic engine's checks from scratch).
  FillLaterVector<std::uint32_t>().swap(link_vars);
  if (large_queue) malloc_trim(0);
  link_paths_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_paths_[l] = link_first[l + 1] - link_first[l];
  std::vector<std::uint32_t>().swap(link_first);
  link_load_.resize(num_links);
  for (std::size_t l = 0; l < num_links; ++l) link_load_[l] = link[l].load;
}

}  // namespace interflow::maxmin
