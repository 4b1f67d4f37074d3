#include "engine/flow/streamed_maxmin.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
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
constexpr std::uint64_t kBytesPerLinkPerPart = 3 * sizeof(double) + 2 * sizeof(std::uint32_t);
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
};

struct StreamedMaxMin::Part {
  std::uint64_t first = 0, last = 0;   // its flows (first a multiple of 64: it owns its words of closed_)
  std::vector<double> closed_load;     // per link: rates of its closed flows (kept from pass to pass)
  std::vector<double> open_load, weight;  // per link, this pass: frozen variables of open flows; unfrozen weights
  std::vector<std::uint32_t> unfrozen, paths;  // per link: unfrozen variables (this pass), all variables
  Tally rates, lengths;                // of closed flows
  std::uint64_t self = 0, routed = 0, unroutable = 0, vars = 0;
  std::uint64_t open_at_start = 0, open = 0;  // flows open when this pass began, and after it
  // The unfrozen variables of this pass, in flow order (links as CSR, weights), and per open flow
  // the rate of its frozen variables, its length and its number of unfrozen variables.
  std::vector<std::uint64_t> var_offsets{0};
  std::vector<LinkId> links;
  std::vector<double> var_weight, open_rate, open_length;
  std::vector<std::uint32_t> open_vars;
  std::uint64_t buffer_limit = 0;
  bool overflow = false;
  std::vector<double> var_level;  // per variable of the flow at hand: the smallest level of its links
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
  void start_pass(std::size_t num_links, bool first_pass) {
    if (first_pass) {
      closed_load.assign(num_links, 0.0);
      paths.assign(num_links, 0);
    }
    open_load.assign(num_links, 0.0);
    weight.assign(num_links, 0.0);
    unfrozen.assign(num_links, 0);
    open = 0;
    var_offsets.assign(1, 0);
    links.clear();
    var_weight.clear();
    open_rate.clear();
    open_length.clear();
    open_vars.clear();
    overflow = false;
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
  if (n % 64 != 0) closed_.back() = ~((std::uint64_t{1} << (n % 64)) - 1);  // no flow beyond the last
  level_.assign(num_links, kInf);
  first_pass_ = true;
  for (;;) {
    pass();
    merge_parts();
    first_pass_ = false;
    if (open_flows_ == 0) break;
    if (buffer_complete()) {
      solve_buffered();
      break;
    }
    saturate_next_links();
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
    part.start_pass(num_links, first_pass_);
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
      part.sink.clear();
      part.sink.begin_flow();
      routing_.route(net_, src, dst, derive_seed(in_.seed, Stream::Routing, f), part.sink);
      part.sink.end_flow();
      add_flow(part, f, part.sink);
    }
    if (in_.progress) in_.progress->counter()->fetch_add(end - begin, std::memory_order_relaxed);
  }
}

// A routed flow (or, on the first pass, one found unroutable): closed if every variable of it is
// frozen, open otherwise.
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
  part.var_level.resize(lengths.size());
  const LinkId* next = sink.links().data();
  bool all_frozen = true;
  for (std::size_t v = 0; v < lengths.size(); ++v) {
    if (lengths[v] > 0 && !(sink.splits()[v] > 0))
      throw InputError("the routing gave a path a split weight of " + std::to_string(sink.splits()[v]));
    double level = lengths[v] == 0 ? 0.0 : kInf;  // a path with no link: not limited by the network
    if (first_pass_)  // no level yet
      for (std::uint32_t i = 0; i < lengths[v]; ++i) ++part.paths[next[i]];
    else
      for (std::uint32_t i = 0; i < lengths[v]; ++i) level = std::min(level, level_[next[i]]);
    next += lengths[v];
    part.var_level[v] = level;
    all_frozen = all_frozen && level < kInf;
  }
  settle_flow(part, sink, all_frozen);
  if (all_frozen) close(f);
}

// A routed flow's variables, with their levels in part.var_level. Closed (every variable frozen):
// its rates load its links for good and its rate and length are final. Open: its frozen variables
// load their links for this pass only, its unfrozen ones add their weights, and it is buffered while
// the part's buffer has room.
void StreamedMaxMin::settle_flow(Part& part, const PathSink& sink, bool closed) const {
  const auto lengths = sink.var_lengths();
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
      for (LinkId l : links) part.weight[l] += split;
      if (!first_pass_)  // on the first, every variable is unfrozen: the counts are `paths`
        for (LinkId l : links) ++part.unfrozen[l];
      ++unfrozen;
      if (!part.overflow) {
        part.links.insert(part.links.end(), links.begin(), links.end());
        part.var_offsets.push_back(part.links.size());
        part.var_weight.push_back(split);
      }
    }
  }
  if (closed) {
    part.rates.add(rate);
    part.lengths.add(length);
    return;
  }
  ++part.open;
  if (part.overflow) return;
  part.open_rate.push_back(rate);
  part.open_length.push_back(length);
  part.open_vars.push_back(unfrozen);
  if (part.buffer_bytes() > part.buffer_limit) part.drop_buffer();
}

// Per-link sums and counts over the parts, in part order.
void StreamedMaxMin::merge_parts() {
  const std::size_t num_links = net_.num_links();
  load_.assign(num_links, 0.0);
  weight_.assign(num_links, 0.0);
  unfrozen_.assign(num_links, 0);
  if (first_pass_) res_.link_paths.assign(num_links, 0);
  open_flows_ = 0;
  res_.flows_self = res_.flows_routed = res_.flows_unroutable = res_.path_variables = 0;
  for (const Part& p : parts_) {
    for (std::size_t l = 0; l < num_links; ++l) {
      load_[l] += p.closed_load[l] + p.open_load[l];
      weight_[l] += p.weight[l];
      unfrozen_[l] += first_pass_ ? p.paths[l] : p.unfrozen[l];
      if (first_pass_) res_.link_paths[l] += p.paths[l];
    }
    open_flows_ += p.open;
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

// The links of smallest fair share (within kTie) saturate: each gets its share as its level.
void StreamedMaxMin::saturate_next_links() {
  const std::size_t num_links = net_.num_links();
  const auto share = [&](std::size_t l) { return std::max(0.0, capacity(l) - load_[l]) / weight_[l]; };
  double smallest = kInf;
  for (std::size_t l = 0; l < num_links; ++l)
    if (unfrozen_[l] > 0) smallest = std::min(smallest, share(l));
  if (!(smallest < kInf)) throw std::logic_error("streamed max-min: open flows but no link to saturate");
  for (std::size_t l = 0; l < num_links; ++l) {
    if (unfrozen_[l] == 0) continue;
    const double s = share(l);
    if (s <= smallest * (1 + kTie)) {
      level_[l] = s;
      ++res_.levels;
    }
  }
}

void StreamedMaxMin::collect_tallies() {
  for (Part& p : parts_) {
    p.rates.append_to(res_.flow_rate_gbps);
    p.lengths.append_to(res_.path_links);
  }
}

}  // namespace interflow::flow
