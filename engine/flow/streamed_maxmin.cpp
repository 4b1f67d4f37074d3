#include "engine/flow/streamed_maxmin.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/random.hpp"
#include "core/system.hpp"
#include "engine/maxmin/maxmin.hpp"

namespace interflow::flow {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint64_t kBlock = 4096;  // flows generated at a time (a multiple of 64)
constexpr std::uint64_t kPartsMemory = 512ULL << 20;
// The least an open flow takes in the buffer: its rate, length, count, one variable's offset and weight.
constexpr std::uint64_t kMinBufferedFlowBytes = 4 * sizeof(double) + sizeof(std::uint32_t);
constexpr std::uint64_t kBytesPerLinkPerPart = 3 * sizeof(double) + sizeof(std::uint32_t);
constexpr std::uint64_t kGroupsMemory = 256ULL << 20;
constexpr std::uint64_t bit(std::uint64_t f) { return std::uint64_t{1} << (f & 63); }
}  // namespace

// Counted values in an open-addressing table keyed by the value's bits, with a run of equal values
// counted before it reaches the table (the flows of a part mostly share a few rates).
struct StreamedMaxMin::Tally {
  std::vector<std::uint64_t> keys, counts;  // count 0: empty slot
  std::size_t used = 0;
  std::uint64_t limit = 0;
  const char* what = "";
  double last = 0;
  std::uint64_t run = 0;

  void add(double v) {
    if (run > 0 && v == last) {
      ++run;
      return;
    }
    flush();
    last = v;
    run = 1;
  }
  void flush() {
    if (run == 0) return;
    insert(std::bit_cast<std::uint64_t>(last + 0.0), run);  // + 0.0: -0 counts as 0
    run = 0;
  }
  void add_count(double v, std::uint64_t count) { insert(std::bit_cast<std::uint64_t>(v + 0.0), count); }
  void insert(std::uint64_t key, std::uint64_t count) {
    if (2 * (used + 1) > keys.size()) grow();
    const std::size_t mask = keys.size() - 1;
    for (std::size_t i = slot(key);; i = (i + 1) & mask) {
      if (counts[i] == 0) {
        keys[i] = key;
        counts[i] = count;
        ++used;
        break;
      }
      if (keys[i] == key) {
        counts[i] += count;
        return;
      }
    }
    if (used > limit)
      throw InputError("the streamed solve keeps " + std::string(what) +
                       " as counted values, and one part of the flows has more than " + std::to_string(limit) +
                       " distinct ones: run with --stream off (every flow held in memory)");
  }
  std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - std::countr_zero(keys.size())));
  }
  void grow() {
    std::vector<std::uint64_t> old_keys = std::move(keys), old_counts = std::move(counts);
    const std::size_t size = std::max<std::size_t>(64, 2 * old_keys.size());
    keys.assign(size, 0);
    counts.assign(size, 0);
    used = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_counts[i] > 0) insert(old_keys[i], old_counts[i]);
  }
  void append_to(std::vector<Counted>& out) {
    flush();
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (counts[i] > 0) out.push_back({std::bit_cast<double>(keys[i]), counts[i]});
  }
  // Every value of this tally, mapped by `value`, added to `to` with its count.
  template <typename Map>
  void add_to(Tally& to, Map value) {
    flush();
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (counts[i] > 0) to.add_count(value(std::bit_cast<double>(keys[i])), counts[i]);
  }
};

struct alignas(128) StreamedMaxMin::Part {  // aligned: parts are written by different threads
  std::uint64_t first = 0, last = 0;   // its flows (first a multiple of 64: it owns its words of closed_)
  std::vector<double> closed_load;     // per link: rates of its closed flows (kept from pass to pass)
  std::vector<double> open_load, weight;  // per link, this pass: frozen variables of open flows; unfrozen weights
  std::vector<std::uint32_t> paths;    // per link: all variables (first pass)
  Tally rates, lengths;                // of closed flows
  std::uint64_t self = 0, routed = 0, unroutable = 0, vars = 0;
  std::uint64_t open_at_start = 0, open = 0;  // flows open when this pass began, and after it (not pending)
  // Predictions, [k * links + l]: the weight of the variables whose first group is k, of closable
  // flows (final if group k is accepted) and of the other open flows (this pass only, made on demand).
  std::vector<double> closable_weight, group_open_weight;
  std::vector<Tally> group_weights, group_lengths;  // per group: closable flows' weights and lengths
  std::vector<std::uint64_t> pending;  // per group: closable flows marked pending
  // The unfrozen variables of this pass, in flow order (links as CSR, weights), and per open flow
  // the rate of its frozen variables, its length and its number of unfrozen variables.
  std::vector<std::uint64_t> var_offsets{0};
  std::vector<LinkId> links;
  std::vector<double> var_weight, open_rate, open_length;
  std::vector<std::uint32_t> open_vars;
  std::uint64_t buffer_limit = 0;
  bool overflow = false;
  std::vector<double> var_level;  // per variable of the flow at hand: the smallest level of its links
  std::vector<std::uint8_t> var_group;  // and the first predicted group it crosses (kNoGroup: none)
  PathSink sink;
  FlowSet block;

  std::uint64_t buffer_bytes() const {
    return links.size() * sizeof(LinkId) + var_offsets.size() * sizeof(std::uint64_t) +
           (var_weight.size() + open_rate.size() + open_length.size()) * sizeof(double) +
           open_vars.size() * sizeof(std::uint32_t);
  }
  void drop_buffer() {
    overflow = true;
    var_offsets = {0};
    links = {};
    var_weight = {};
    open_rate = {};
    open_length = {};
    open_vars = {};
  }
  void start_pass(std::size_t num_links, bool first_pass, std::size_t groups) {
    if (first_pass) {
      closed_load.assign(num_links, 0.0);
      paths.assign(num_links, 0);
    }
    open_load.assign(num_links, 0.0);
    weight.assign(num_links, 0.0);
    closable_weight.assign(groups * num_links, 0.0);
    group_open_weight.clear();
    group_weights.assign(groups, Tally{});
    group_lengths.assign(groups, Tally{});
    for (std::size_t k = 0; k < groups; ++k) {
      group_weights[k].limit = group_lengths[k].limit = rates.limit;
      group_weights[k].what = rates.what;
      group_lengths[k].what = lengths.what;
    }
    pending.assign(groups, 0);
    open = 0;
    var_offsets.assign(1, 0);
    links.clear();
    var_weight.clear();
    open_rate.clear();
    open_length.clear();
    open_vars.clear();
    overflow = false;
  }
  // An unfrozen variable, kept in the buffer while it has room.
  void buffer_variable(std::span<const LinkId> path, double split) {
    if (overflow) return;
    links.insert(links.end(), path.begin(), path.end());
    var_offsets.push_back(links.size());
    var_weight.push_back(split);
  }
  // An open flow whose unfrozen variables were just buffered.
  void buffer_flow(double rate, double length, std::uint32_t unfrozen) {
    if (overflow) return;
    open_rate.push_back(rate);
    open_length.push_back(length);
    open_vars.push_back(unfrozen);
    if (buffer_bytes() > buffer_limit) drop_buffer();
  }
};

StreamedMaxMin::StreamedMaxMin(const Network& net, const PerFlowRouting& routing, const FlowStream& flows,
                               const StreamedInput& input)
    : net_(net), routing_(routing), flows_(flows), in_(input) {}

StreamedMaxMin::~StreamedMaxMin() = default;

std::size_t StreamedMaxMin::parts_for(std::size_t num_links) {
  const std::uint64_t per_part = std::max<std::uint64_t>(1, num_links * kBytesPerLinkPerPart);
  return std::clamp<std::size_t>(kPartsMemory / per_part, 1, kMaxParts);
}

std::size_t StreamedMaxMin::groups_for(std::size_t num_links) {
  // Per group and link: a closable and an open weight per part, and the merged sum.
  const std::uint64_t per_group =
      std::max<std::uint64_t>(1, (2 * parts_for(num_links) + 1) * num_links * sizeof(double));
  return std::min<std::size_t>(kMaxGroups, kGroupsMemory / per_group);
}

StreamedResult StreamedMaxMin::run() {
  const std::size_t num_links = net_.num_links();
  const std::uint64_t n = flows_.size();
  const std::size_t parts = parts_for(num_links);
  parts_ = std::vector<Part>(parts);
  const std::uint64_t words = (n + 63) / 64;
  for (std::size_t p = 0; p < parts; ++p) {
    Part& part = parts_[p];
    part.first = std::min(n, words * p / parts * 64);
    part.last = std::min(n, words * (p + 1) / parts * 64);
    part.rates.limit = part.lengths.limit = in_.max_distinct_values;
    part.rates.what = "flow rates";
    part.lengths.what = "path lengths";
    part.buffer_limit = in_.buffer_bytes / parts;
  }
  res_ = StreamedResult();
  res_.flows = n;
  closed_.assign(words, 0);
  pending_.assign(words, 0);
  if (n % 64 != 0) closed_.back() = ~((std::uint64_t{1} << (n % 64)) - 1);  // no flow beyond the last
  level_.assign(num_links, kInf);
  group_.assign(num_links, kNoGroup);
  groups_ = last_accepted_ = 0;
  any_pending_ = false;
  first_pass_ = true;
  predict_from_sample();
  for (;;) {
    pass();
    merge_parts();
    first_pass_ = false;
    if (open_flows_ == 0) break;
    if (buffer_complete()) {
      solve_buffered();
      break;
    }
    accept_predictions();
    if (open_flows_ == 0) break;
    // With every open variable frozen by accepted groups (flows of several variables are not
    // closable), nothing is left to saturate: the next pass closes those flows.
    if (std::any_of(weight_.begin(), weight_.end(), [](double w) { return w > 0; })) saturate_next_links();
    predict_groups();
  }
  collect_tallies();
  res_.link_load_gbps = std::move(load_);
  parts_.clear();
  return std::move(res_);
}

// One pass over the open flows, parts in parallel.
void StreamedMaxMin::pass() {
  ++res_.passes;
  if (in_.progress)
    in_.progress->phase("streamed solve, pass " + std::to_string(res_.passes) + ": flows", flows_.size());
  const std::size_t num_links = net_.num_links();
  const Stopwatch clock;
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t p) {
    Part& part = parts_[p];
    part.start_pass(num_links, first_pass_, groups_);
    part.open_at_start = 0;
    for (std::uint64_t w = part.first / 64; w < (part.last + 63) / 64; ++w)
      part.open_at_start += static_cast<std::uint64_t>(64 - std::popcount(closed_[w]));
    // A part whose open flows could not fit its buffer even with no link each does not try.
    if (part.open_at_start * kMinBufferedFlowBytes > part.buffer_limit) part.drop_buffer();
    stream_part(part);
  });
  res_.pass_seconds.push_back(clock.seconds());
  std::uint64_t open = 0;
  for (const Part& part : parts_) open += part.open_at_start;
  res_.pass_flows.push_back(open);
}

// The part's open flows, generated a block at a time (a block of closed flows is skipped whole).
void StreamedMaxMin::stream_part(Part& part) {
  for (std::uint64_t begin = part.first; begin < part.last; begin += kBlock) {
    const std::uint64_t end = std::min(part.last, begin + kBlock);
    if (std::all_of(closed_.begin() + static_cast<std::ptrdiff_t>(begin / 64),
                    closed_.begin() + static_cast<std::ptrdiff_t>((end + 63) / 64),
                    [](std::uint64_t w) { return w == ~std::uint64_t{0}; })) {
      if (in_.progress) in_.progress->counter()->fetch_add(end - begin, std::memory_order_relaxed);
      continue;
    }
    part.block.clear();
    flows_.fill(begin, end, part.block);
    for (std::uint64_t f = begin; f < end; ++f) {
      if (closed(f)) continue;
      const EndpointId src = part.block.src[f - begin], dst = part.block.dst[f - begin];
      if (src == dst) {  // first pass only: afterwards it is closed
        ++part.self;
        close(f);
        continue;
      }
      route_flow(f, src, dst, part.sink);
      add_flow(part, f, part.sink);
    }
    if (in_.progress) in_.progress->counter()->fetch_add(end - begin, std::memory_order_relaxed);
  }
}

// Flow f, alone in `sink`, routed with its own random stream (the same path on every pass).
void StreamedMaxMin::route_flow(std::uint64_t f, EndpointId src, EndpointId dst, PathSink& sink) const {
  sink.clear();
  sink.begin_flow();
  routing_.route(net_, src, dst, derive_seed(in_.seed, Stream::Routing, f), sink);
  sink.end_flow();
}

// A routed flow (or, on the first pass, one found unroutable): closed if every variable of it is
// frozen, open otherwise; a flow left pending by the last pass is first checked against it.
void StreamedMaxMin::add_flow(Part& part, std::uint64_t f, const PathSink& sink) {
  const auto lengths = sink.var_lengths();
  if (first_pass_) {
    ++(lengths.empty() ? part.unroutable : part.routed);
    part.vars += lengths.size();
  }
  if (lengths.empty()) {
    close(f);
    return;
  }
  if (any_pending_ && pending(f)) {
    pending_[f >> 6] &= ~bit(f);
    if (settled_by_prediction(sink)) {
      close(f);
      return;
    }
  }
  for (std::size_t v = 0; v < lengths.size(); ++v)
    if (lengths[v] > 0 && !(sink.splits()[v] > 0))
      throw InputError("the routing gave a path a split weight of " + std::to_string(sink.splits()[v]));
  const bool all_frozen = groups_ == 0 ? find_levels<false>(part, sink) : find_levels<true>(part, sink);
  settle_flow(part, f, sink, all_frozen);
  if (all_frozen) close(f);
}

// Per variable of the flow, the smallest level of its links (the first pass: none yet, and the
// paths are counted), and with kGroups the first predicted group it crosses; true when every
// variable has a level. (Two instances, so that a pass without groups reads no group.)
template <bool kGroups>
bool StreamedMaxMin::find_levels(Part& part, const PathSink& sink) const {
  const auto lengths = sink.var_lengths();
  part.var_level.resize(lengths.size());
  if constexpr (kGroups) part.var_group.resize(lengths.size());
  const LinkId* next = sink.links().data();
  bool all_frozen = true;
  for (std::size_t v = 0; v < lengths.size(); ++v) {
    double level = lengths[v] == 0 ? 0.0 : kInf;  // a path with no link: not limited by the network
    std::uint8_t group = kNoGroup;
    if (first_pass_)
      for (std::uint32_t i = 0; i < lengths[v]; ++i) {
        ++part.paths[next[i]];
        if constexpr (kGroups) group = std::min(group, group_[next[i]]);
      }
    else
      for (std::uint32_t i = 0; i < lengths[v]; ++i) {
        level = std::min(level, level_[next[i]]);
        if constexpr (kGroups) group = std::min(group, group_[next[i]]);
      }
    next += lengths[v];
    part.var_level[v] = level;
    if constexpr (kGroups) part.var_group[v] = group;
    all_frozen = all_frozen && level < kInf;
  }
  return all_frozen;
}

// A flow the last pass left pending: closable then, it was settled with its group if that group was
// accepted (all its variables had that group first, so it is their smallest over the flow's links).
bool StreamedMaxMin::settled_by_prediction(const PathSink& sink) const {
  std::uint8_t group = kNoGroup;
  for (LinkId l : sink.links()) group = std::min(group, last_group_[l]);
  return group < last_accepted_;
}

// A routed flow's variables, with their levels in part.var_level. Closed (every variable frozen):
// its rates load its links for good and its rate and length are final. Closable (no variable
// frozen, all with the same first group): settle_closable. Otherwise open: its frozen variables load
// their links for this pass only, its unfrozen ones add their weights (per first group, if any),
// and it is buffered while the part's buffer has room.
void StreamedMaxMin::settle_flow(Part& part, std::uint64_t f, const PathSink& sink, bool closed) {
  const auto lengths = sink.var_lengths();
  if (!closed && groups_ > 0) {
    const std::uint8_t group = part.var_group[0];
    bool closable = group != kNoGroup;
    for (std::size_t v = 0; v < lengths.size() && closable; ++v)
      closable = part.var_group[v] == group && !(part.var_level[v] < kInf);
    if (closable) return settle_closable(part, f, sink, group);
  }
  const std::size_t num_links = net_.num_links();
  const LinkId* next = sink.links().data();
  std::vector<double>& load = closed ? part.closed_load : part.open_load;
  double rate = 0, length = 0;
  std::uint32_t unfrozen = 0;
  for (std::size_t v = 0; v < lengths.size(); ++v) {
    const double split = sink.splits()[v];
    const std::span<const LinkId> links(next, lengths[v]);
    next += lengths[v];
    length += split * static_cast<double>(links.size());
    if (links.empty()) {
      rate += split * in_.direct_endpoint_gbps;  // two endpoints of one router: not limited by the network
    } else if (part.var_level[v] < kInf) {
      const double r = split * part.var_level[v];
      rate += r;
      for (LinkId l : links) load[l] += r;
    } else {
      if (groups_ == 0 || part.var_group[v] == kNoGroup) {
        for (LinkId l : links) part.weight[l] += split;
      } else {
        if (part.group_open_weight.empty()) part.group_open_weight.assign(groups_ * num_links, 0.0);
        double* weight = part.group_open_weight.data() + part.var_group[v] * num_links;
        for (LinkId l : links) weight[l] += split;
      }
      ++unfrozen;
      part.buffer_variable(links, split);
    }
  }
  if (closed) {
    part.rates.add(rate);
    part.lengths.add(length);
    return;
  }
  ++part.open;
  part.buffer_flow(rate, length, unfrozen);
}

// A closable flow: every variable is unfrozen and crosses `group` first. Its weights are summed per
// link for that group, its weight and length tallied for it, and it is marked pending; it is also
// buffered as an open flow, for a pass that ends with the buffer complete.
void StreamedMaxMin::settle_closable(Part& part, std::uint64_t f, const PathSink& sink, std::uint32_t group) {
  const auto lengths = sink.var_lengths();
  const LinkId* next = sink.links().data();
  double* weights = part.closable_weight.data() + group * net_.num_links();
  double weight = 0, length = 0;
  for (std::size_t v = 0; v < lengths.size(); ++v) {
    const double split = sink.splits()[v];
    const std::span<const LinkId> links(next, lengths[v]);
    next += lengths[v];
    for (LinkId l : links) weights[l] += split;
    weight += split;
    length += split * static_cast<double>(links.size());
    part.buffer_variable(links, split);
  }
  part.group_weights[group].add(weight);
  part.group_lengths[group].add(length);
  ++part.pending[group];
  pending_[f >> 6] |= bit(f);
  part.buffer_flow(0.0, length, static_cast<std::uint32_t>(lengths.size()));
}

// Per-link sums and counts over the parts, in part order.
void StreamedMaxMin::merge_parts() {
  const std::size_t num_links = net_.num_links();
  load_.assign(num_links, 0.0);
  weight_.assign(num_links, 0.0);
  group_weight_.assign(groups_ * num_links, 0.0);
  if (first_pass_) res_.link_paths.assign(num_links, 0);
  open_flows_ = 0;
  res_.flows_self = res_.flows_routed = res_.flows_unroutable = res_.path_variables = 0;
  for (const Part& p : parts_) {
    for (std::size_t l = 0; l < num_links; ++l) {
      load_[l] += p.closed_load[l] + p.open_load[l];
      weight_[l] += p.weight[l];
      if (first_pass_) res_.link_paths[l] += p.paths[l];
    }
    for (std::size_t i = 0; i < group_weight_.size(); ++i)
      group_weight_[i] += p.closable_weight[i] + (p.group_open_weight.empty() ? 0.0 : p.group_open_weight[i]);
    open_flows_ += p.open;
    for (std::uint64_t pending : p.pending) open_flows_ += pending;
    res_.flows_self += p.self;
    res_.flows_routed += p.routed;
    res_.flows_unroutable += p.unroutable;
    res_.path_variables += p.vars;
  }
}

bool StreamedMaxMin::buffer_complete() const {
  return std::none_of(parts_.begin(), parts_.end(), [](const Part& p) { return p.overflow; });
}

double StreamedMaxMin::capacity(std::size_t l) const {
  const auto id = static_cast<LinkId>(l);
  return net_.up(id) ? net_.capacity_gbps(id) : 0.0;
}

// A link's fair share at this point of progressive filling (weight_ > 0: it carries open weight).
double StreamedMaxMin::share(std::size_t l) const { return std::max(0.0, capacity(l) - load_[l]) / weight_[l]; }

// The rest of progressive filling in memory: max-min among the buffered variables over the
// capacities the frozen ones left; then each open flow's rate is complete.
void StreamedMaxMin::solve_buffered() {
  const std::size_t num_links = net_.num_links();
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  std::vector<double> weight, residual(num_links);
  for (const Part& p : parts_) {
    const std::uint64_t base = links.size();
    for (std::size_t v = 1; v < p.var_offsets.size(); ++v) offsets.push_back(base + p.var_offsets[v]);
    links.insert(links.end(), p.links.begin(), p.links.end());
    weight.insert(weight.end(), p.var_weight.begin(), p.var_weight.end());
  }
  for (std::size_t l = 0; l < num_links; ++l) residual[l] = std::max(0.0, capacity(l) - load_[l]);
  maxmin::MaxMinSolver solver;
  maxmin::MaxMinInput input;
  input.var_offsets = offsets;
  input.links = links;
  input.weight = weight;
  input.capacity_exact = residual;
  solver.run(input);
  res_.residual_variables = weight.size();
  res_.residual_steps = solver.bottleneck_steps();
  res_.residual_refreshes = solver.heap_refreshes();
  std::size_t v = 0;
  for (Part& p : parts_) {
    for (std::size_t f = 0; f < p.open_rate.size(); ++f) {
      double rate = p.open_rate[f];
      for (std::uint32_t k = 0; k < p.open_vars[f]; ++k) rate += solver.rates()[v++];
      p.rates.add(rate);
      p.lengths.add(p.open_length[f]);
    }
  }
  for (std::size_t l = 0; l < num_links; ++l) load_[l] += solver.link_load()[l];
}

// Checks this pass's prediction step by step (see the header): at step k, weight_ is the open weight
// of the variables with no group or a first group k or later, and group k is accepted when its
// links saturate next. Stops at the first group that does not; weight_ and load_ are then the state
// of progressive filling after the accepted groups.
void StreamedMaxMin::accept_predictions() {
  last_accepted_ = 0;
  const std::size_t num_links = net_.num_links();
  std::vector<double> no_group = weight_;
  std::size_t k = 0;
  for (;; ++k) {
    for (std::size_t l = 0; l < num_links; ++l) {
      double w = no_group[l];
      for (std::size_t j = groups_; j-- > k;) w += group_weight_[j * num_links + l];
      weight_[l] = w;
    }
    if (k == 0) order_links_by_share();
    if (k == groups_ || !group_saturates_next(k)) break;
  }
  last_accepted_ = k;
  std::uint64_t still_pending = 0;  // of the groups not accepted; those of accepted ones are settled
  for (const Part& p : parts_)
    for (std::size_t j = 0; j < groups_; ++j) {
      if (j < k)
        open_flows_ -= p.pending[j];
      else
        still_pending += p.pending[j];
    }
  any_pending_ = still_pending > 0;
  if (!any_pending_) {  // every pending flow settled: none needs routing again
    for (std::size_t w = 0; w < closed_.size(); ++w) closed_[w] |= pending_[w];
    std::fill(pending_.begin(), pending_.end(), 0);
  }
  last_group_ = group_;
}

// Group k (with weight_ the open weights at its step) saturates next: every link of it carrying
// open weight has the smallest share of all (within kTie); then it is committed at that share.
bool StreamedMaxMin::group_saturates_next(std::size_t k) {
  double smallest = kInf;
  for (std::size_t l = 0; l < weight_.size(); ++l)
    if (weight_[l] > 0) smallest = std::min(smallest, share(l));
  if (!(smallest < kInf)) return true;  // no open weight left: the group has no variable either
  for (LinkId l : group_links_[k])
    if (weight_[l] > 0 && share(l) > smallest * (1 + kTie)) return false;
  commit_group(k, smallest);
  return true;
}

// Group k saturates at `level`: its links get it, the variables whose first group is k freeze at
// weight * level (loads for this pass; for good for closable flows), and its closable flows' rates
// and lengths are final.
void StreamedMaxMin::commit_group(std::size_t k, double level) {
  const std::size_t num_links = net_.num_links();
  for (LinkId l : group_links_[k])
    if (weight_[l] > 0) {
      level_[l] = level;
      ++res_.levels;
      ++res_.predicted_levels;
    }
  const double* weight = group_weight_.data() + k * num_links;
  for (std::size_t l = 0; l < num_links; ++l) load_[l] += weight[l] * level;
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t p) {
    Part& part = parts_[p];
    const double* closable = part.closable_weight.data() + k * num_links;
    for (std::size_t l = 0; l < num_links; ++l) part.closed_load[l] += closable[l] * level;
    part.group_weights[k].add_to(part.rates, [&](double w) { return w * level; });
    part.group_lengths[k].add_to(part.lengths, [](double length) { return length; });
  });
}

// The links of smallest fair share (within kTie) saturate: each gets its share as its level.
void StreamedMaxMin::saturate_next_links() {
  const std::size_t num_links = net_.num_links();
  double smallest = kInf;
  for (std::size_t l = 0; l < num_links; ++l)
    if (weight_[l] > 0) smallest = std::min(smallest, share(l));
  if (!(smallest < kInf)) throw std::logic_error("streamed max-min: open flows but no link to saturate");
  for (std::size_t l = 0; l < num_links; ++l) {
    if (!(weight_[l] > 0)) continue;
    const double s = share(l);
    if (s <= smallest * (1 + kTie)) {
      level_[l] = s;
      ++res_.levels;
    }
  }
}

// The links carrying open weight at the start of the check, in increasing order of their shares
// then: the order the next pass's prediction follows. (Not the shares after the accepted groups: a
// part of a set of links of equal share, once frozen, makes the rest unequal.)
void StreamedMaxMin::order_links_by_share() {
  share_order_.clear();
  for (std::size_t l = 0; l < weight_.size(); ++l)
    if (weight_[l] > 0) share_order_.emplace_back(share(l), static_cast<LinkId>(l));
  std::sort(share_order_.begin(), share_order_.end());
}

// The next pass's prediction: the links of share_order_ not saturated since, cut into groups of
// equal share (within kGroupTie).
void StreamedMaxMin::predict_groups() {
  std::vector<std::pair<double, LinkId>> order;
  if (in_.predict)
    for (const auto& [s, l] : share_order_)
      if (level_[l] == kInf) order.emplace_back(s, l);
  set_groups(order, kGroupTie, false);
}

// The first pass's prediction, from a sample of the flows (see the header); none when the run is
// small enough for a sample to save nothing.
void StreamedMaxMin::predict_from_sample() {
  const unsigned bits = sample_bits();
  if (bits == 0) return;
  if (in_.progress) in_.progress->phase("streamed solve, sample of 1/" + std::to_string(1ULL << bits), flows_.size());
  const Stopwatch clock;
  const std::vector<double> weight = sampled_weights(bits);
  std::vector<std::pair<double, LinkId>> order;
  for (std::size_t l = 0; l < weight.size(); ++l)
    if (weight[l] > 0) order.emplace_back(capacity(l) / weight[l], static_cast<LinkId>(l));
  std::sort(order.begin(), order.end());
  set_groups(order, kSampleGap, true);
  res_.sample_seconds = clock.seconds();
}

// log2 of the inverse of the sampled fraction: the largest b >= 2 whose 1/2^b of the flows still put
// sample_weight on the average link (the mean path weight from a pilot of up to 4,096 flows spread
// over the run); 0 (no sample) when the flows fit the buffer or no b >= 2 is small enough.
unsigned StreamedMaxMin::sample_bits() const {
  const std::uint64_t n = flows_.size();
  if (n == 0 || !in_.predict || !(in_.sample_weight > 0) || n * kMinBufferedFlowBytes <= in_.buffer_bytes) return 0;
  const std::uint64_t pilot = std::min<std::uint64_t>(n, 4096);
  PathSink sink;
  FlowSet one;
  double weight = 0;  // of the pilot's paths: split times length, summed
  for (std::uint64_t i = 0; i < pilot; ++i) {
    const std::uint64_t f = static_cast<std::uint64_t>(static_cast<double>(i) / static_cast<double>(pilot) *
                                                       static_cast<double>(n));
    one.clear();
    flows_.fill(f, f + 1, one);
    if (one.src[0] == one.dst[0]) continue;
    route_flow(f, one.src[0], one.dst[0], sink);
    for (std::size_t v = 0; v < sink.var_lengths().size(); ++v) weight += static_cast<double>(sink.splits()[v]) * sink.var_lengths()[v];
  }
  const double per_link = weight / static_cast<double>(pilot) * static_cast<double>(n) /
                          static_cast<double>(std::max<std::size_t>(1, net_.num_links()));
  unsigned bits = 0;
  while (bits < 40 && per_link / std::ldexp(1.0, static_cast<int>(bits + 1)) >= in_.sample_weight) ++bits;
  return bits >= 2 ? bits : 0;
}

// Per link, the path weight of the flows whose index hashes to 0 in its top `bits` bits, summed per
// part and merged in part order.
std::vector<double> StreamedMaxMin::sampled_weights(unsigned bits) {
  const std::size_t num_links = net_.num_links();
  std::vector<std::uint64_t> routed(parts_.size(), 0);
  tbb::parallel_for(std::size_t{0}, parts_.size(), [&](std::size_t p) {
    Part& part = parts_[p];
    part.weight.assign(num_links, 0.0);
    for (std::uint64_t begin = part.first; begin < part.last; begin += kBlock) {
      const std::uint64_t end = std::min(part.last, begin + kBlock);
      part.block.clear();
      flows_.fill(begin, end, part.block);
      for (std::uint64_t f = begin; f < end; ++f) {
        const EndpointId src = part.block.src[f - begin], dst = part.block.dst[f - begin];
        if (mix64(f) >> (64 - bits) != 0 || src == dst) continue;
        route_flow(f, src, dst, part.sink);
        ++routed[p];
        const LinkId* next = part.sink.links().data();
        for (std::size_t v = 0; v < part.sink.var_lengths().size(); ++v)
          for (std::uint32_t i = 0; i < part.sink.var_lengths()[v]; ++i) part.weight[*next++] += part.sink.splits()[v];
      }
      if (in_.progress) in_.progress->counter()->fetch_add(end - begin, std::memory_order_relaxed);
    }
  });
  std::vector<double> weight(num_links, 0.0);
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    for (std::size_t l = 0; l < num_links; ++l) weight[l] += parts_[p].weight[l];
    res_.sample_flows += routed[p];
  }
  return weight;
}

// Groups from links in increasing order of predicted share: a new group starts where a share exceeds
// the group's first (or, `consecutive`, the link before it) by more than `tie`, relative; at most
// groups_for() groups, the links after them in none.
void StreamedMaxMin::set_groups(const std::vector<std::pair<double, LinkId>>& order, double tie, bool consecutive) {
  std::fill(group_.begin(), group_.end(), kNoGroup);
  group_links_.clear();
  groups_ = 0;
  const std::size_t most = groups_for(net_.num_links());
  double anchor = 0;
  for (const auto& [s, l] : order) {
    if (most == 0) break;
    if (group_links_.empty() || s > anchor * (1 + tie)) {
      if (group_links_.size() == most) break;
      group_links_.emplace_back();
      anchor = s;
    }
    if (consecutive) anchor = s;
    group_links_.back().push_back(l);
    group_[l] = static_cast<std::uint8_t>(group_links_.size() - 1);
  }
  groups_ = group_links_.size();
}

void StreamedMaxMin::collect_tallies() {
  for (Part& p : parts_) {
    p.rates.append_to(res_.flow_rate_gbps);
    p.lengths.append_to(res_.path_links);
  }
}

}  // namespace interflow::flow
