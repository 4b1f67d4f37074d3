#include "engine/packet/dtable_config.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "core/format.hpp"

namespace interflow::packet {

namespace {

constexpr double kTolerance = 1e-9;  // relative: a share equal to its bound (0.35 = 4·2.8/32) is within it
constexpr std::uint64_t kMaxLayoutSteps = 1000000;

using Limits = DTableLimits;

std::string sl_text(const DTableSpec& s, std::size_t i) {
  return "SL " + std::to_string(i) + " '" + s.sls[i].name + "'";
}

// number_text() leaves a value that is not finite empty; a message names it.
std::string shown(double v) {
  return std::isfinite(v) ? number_text(v) : std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

[[noreturn]] void refuse(const std::string& what) { throw InputError("DTable configuration: " + what); }

void check_table(const DTableSpec& s) {
  if (s.entries < 1 || s.entries > Limits::kMaxEntries)
    refuse("entries " + std::to_string(s.entries) + ": expected a table size in [1, " +
           std::to_string(Limits::kMaxEntries) + "]");
  if (s.gmtu < 1 || s.gmtu > Limits::kMaxGmtu)
    refuse("gmtu " + std::to_string(s.gmtu) + ": expected credits in [1, " + std::to_string(Limits::kMaxGmtu) + "]");
  if (s.sls.empty()) refuse("no SL given");
  if (s.sls.size() > Limits::kMaxSls) refuse("more than " + std::to_string(Limits::kMaxSls) + " SLs");
  for (const auto& [name, v] : {std::pair{"k", s.k}, std::pair{"w", s.w}})
    if (v && !(std::isfinite(*v) && *v > 0 && *v <= Limits::kMaxKw))
      refuse(std::string(name) + " " + shown(*v) + ": expected a finite number in (0, " + number_text(Limits::kMaxKw) +
             "]");
  if (s.k && s.w && *s.w < *s.k)
    refuse("w " + number_text(*s.w) + " is below k " + number_text(*s.k) +
           ": the pool N·GMTU·k cannot exceed the largest total weight N·GMTU·w (§4.4: k ≤ w)");
  const std::uint64_t most = std::uint64_t{s.entries} * Limits::kMaxWeight;
  if (s.total_weight && (*s.total_weight < 1 || *s.total_weight > most))
    refuse("total_weight " + std::to_string(*s.total_weight) + ": expected credits in [1, " + std::to_string(most) +
           "] (entries x 2^30)");
}

void check_sl(const DTableSpec& s, std::size_t i) {
  const DTableSlSpec& sl = s.sls[i];
  const std::string who = sl_text(s, i);
  if (sl.name.empty()) refuse("SL " + std::to_string(i) + ": the name is empty");
  if (sl.distance < 1 || sl.distance > s.entries || s.entries % sl.distance != 0)
    refuse(who + ": distance " + std::to_string(sl.distance) + " must divide the table size " +
           std::to_string(s.entries) + " (the SL gets table size / distance entries, exactly distance apart)");
  if (!(std::isfinite(sl.share) && sl.share > 0 && sl.share <= 1))
    refuse(who + ": share " + shown(sl.share) + ": expected a finite number in (0, 1]");
  if (sl.mtu < 1 || sl.mtu > s.gmtu)
    refuse(who + ": mtu " + std::to_string(sl.mtu) + ": expected credits in [1, gmtu = " + std::to_string(s.gmtu) +
           "]");
}

void check_inputs(const DTableSpec& s) {
  check_table(s);
  double shares = 0;
  std::uint64_t entries = 0;
  for (std::size_t i = 0; i < s.sls.size(); ++i) {
    check_sl(s, i);
    shares += s.sls[i].share;
    entries += s.entries / s.sls[i].distance;
  }
  if (shares > 1 + kTolerance) refuse("the shares sum to " + number_text(shares) + ", above 1");
  if (entries > s.entries)
    refuse("the SLs need " + std::to_string(entries) + " entries (table size / distance each), more than the " +
           std::to_string(s.entries) + " of the table; give some SLs larger distances");
}

// The smallest from + t/10 (t = 0, 1, ...) that is at least `needed` (within the tolerance).
double first_step(double from, double needed) {
  if (needed <= from * (1 + kTolerance)) return from;
  const double t = std::ceil((needed - from) * 10 - kTolerance * std::max(1.0, needed * 10));
  return (from * 10 + t) / 10;
}

void check_kw(const std::string& name, double value, double needed) {
  if (value > Limits::kMaxKw)
    refuse("the search needs " + name + " = " + number_text(needed) + ", above " + number_text(Limits::kMaxKw) +
           "; give the SLs larger shares, smaller MTUs or more entries");
}

// k and w: given, or §5.3's search (k from 0.1 until every minφ ≤ φ; w from k until every maxφ ≥ φ).
void choose_kw(const DTableSpec& s, const std::vector<std::uint32_t>& n, DTableConfig& c) {
  const double scale = double(s.entries) * s.gmtu;
  double k_needed = 0;
  for (std::size_t i = 0; i < n.size(); ++i)
    k_needed = std::max(k_needed, double(n[i]) * s.sls[i].mtu / (scale * s.sls[i].share));
  c.k_searched = !s.k;
  c.k = s.k ? *s.k : first_step(0.1, k_needed);
  check_kw("k", c.k, k_needed);
  double w_needed = 0;
  for (std::size_t i = 0; i < n.size(); ++i) w_needed = std::max(w_needed, s.sls[i].share * s.entries * c.k / n[i]);
  c.w_searched = !s.w;
  c.w = s.w ? *s.w : first_step(c.k, w_needed);
  check_kw("w", c.w, w_needed);
  c.w_for_shares = c.w;
  c.pool = scale * c.k;
  c.max_weight = double(s.gmtu) * c.w;
}

// minφ, maxφ and the check that φ lies between them.
void bounds(const DTableSpec& s, const std::vector<std::uint32_t>& n, DTableConfig& c) {
  for (std::size_t i = 0; i < n.size(); ++i) {
    DTableSlResult& r = c.sls[i];
    const double share = s.sls[i].share;
    r.entries = n[i];
    r.entry_fraction = double(n[i]) / s.entries;
    r.min_share = double(n[i]) * s.sls[i].mtu / c.pool;
    r.max_share = double(n[i]) * c.w / (double(s.entries) * c.k);
    if (r.min_share > share * (1 + kTolerance))
      refuse(sl_text(s, i) + ": share " + number_text(share) + " is below its minimum " + number_text(r.min_share) +
             " (entries x mtu / pool = " + std::to_string(n[i]) + " x " + std::to_string(s.sls[i].mtu) + " / " +
             number_text(c.pool) + "); raise k, or give the SL a smaller mtu or a larger distance");
    if (r.max_share < share * (1 - kTolerance))
      refuse(sl_text(s, i) + ": share " + number_text(share) + " is above its maximum " + number_text(r.max_share) +
             " (entries x w / (table size x k)); raise w, or give the SL a smaller distance");
  }
}

// T.W.: the quotas φ_i·T rounded down, the units left to the largest fractions (ties: input order).
void apportion(const DTableSpec& s, DTableConfig& c) {
  const std::size_t m = s.sls.size();
  std::vector<double> quota(m), fraction(m);
  double sum = 0;
  std::uint64_t floors = 0;
  for (std::size_t i = 0; i < m; ++i) {
    quota[i] = s.sls[i].share * c.weight_scale;
    c.sls[i].total_weight = static_cast<std::uint64_t>(std::floor(quota[i] + kTolerance));
    fraction[i] = quota[i] - double(c.sls[i].total_weight);
    sum += quota[i];
    floors += c.sls[i].total_weight;
  }
  const auto target = static_cast<std::uint64_t>(std::llround(sum));
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
  for (std::size_t j = 0; floors + j < target && j < m; ++j) ++c.sls[order[j]].total_weight;
  c.total_weight = 0;
  for (const DTableSlResult& r : c.sls) c.total_weight += r.total_weight;
}

// E.W.: the two entry weights of each SL; raises a searched w when a rounded entry exceeds M.
void entry_weights(const DTableSpec& s, DTableConfig& c) {
  std::uint64_t heaviest = 0;
  for (std::size_t i = 0; i < c.sls.size(); ++i) {
    DTableSlResult& r = c.sls[i];
    const std::uint64_t low = r.total_weight / r.entries, extra = r.total_weight % r.entries;
    const std::uint64_t high = low + (extra ? 1 : 0);
    if (low < s.sls[i].mtu)
      refuse(sl_text(s, i) + ": its total weight " + std::to_string(r.total_weight) + " gives entries of " +
             std::to_string(low) + " credits, below its mtu " + std::to_string(s.sls[i].mtu) +
             "; raise total_weight (or k) or the share");
    if (high > Limits::kMaxWeight)
      refuse(sl_text(s, i) + ": entries of " + std::to_string(high) + " credits, above the scheduler's 2^30");
    r.weight_low = static_cast<std::uint32_t>(low);
    r.weight_high = static_cast<std::uint32_t>(high);
    r.heavy_entries = static_cast<std::uint32_t>(extra);
    heaviest = std::max(heaviest, high);
  }
  const double needed = double(heaviest) / s.gmtu;
  if (double(heaviest) <= c.max_weight * (1 + kTolerance)) return;
  if (!c.w_searched)
    refuse("the rounded weights need entries of " + std::to_string(heaviest) + " credits, above M = gmtu x w = " +
           number_text(c.max_weight) + "; raise w to at least " + number_text(needed));
  c.w = first_step(c.w, needed);
  check_kw("w", c.w, needed);
  c.max_weight = double(s.gmtu) * c.w;
  for (std::size_t i = 0; i < c.sls.size(); ++i)
    c.sls[i].max_share = double(c.sls[i].entries) * c.w / (double(s.entries) * c.k);
}

// Offsets p_i in [0, d_i), SLs in order of increasing distance, first fit with backtracking.
class LayoutSearch {
 public:
  explicit LayoutSearch(const DTableSpec& s)
      : s_(s), used_(s.entries, 0), offset_(s.sls.size(), 0), order_(s.sls.size()) {
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return s.sls[a].distance < s.sls[b].distance; });
  }

  std::vector<std::uint32_t> run() {
    if (place(0)) return offset_;
    std::string distances;
    for (const DTableSlSpec& sl : s_.sls) distances += (distances.empty() ? "" : ", ") + std::to_string(sl.distance);
    refuse(steps_ > kMaxLayoutSteps
               ? "no table layout found in " + std::to_string(kMaxLayoutSteps) + " steps for the distances " + distances
               : "the distances " + distances + " cannot share a table of " + std::to_string(s_.entries) +
                     " entries: each SL's entries are exactly its distance apart and no choice of offsets keeps "
                     "them apart; use distances that divide one another (e.g. powers of two)");
  }

 private:
  bool fits(std::uint32_t p, std::uint32_t d) const {
    for (std::uint32_t q = p; q < s_.entries; q += d)
      if (used_[q]) return false;
    return true;
  }

  void mark(std::uint32_t p, std::uint32_t d, std::uint8_t v) {
    for (std::uint32_t q = p; q < s_.entries; q += d) used_[q] = v;
  }

  bool place(std::size_t k) {
    if (k == order_.size()) return true;
    const std::size_t i = order_[k];
    const std::uint32_t d = s_.sls[i].distance;
    for (std::uint32_t p = 0; p < d; ++p) {
      if (++steps_ > kMaxLayoutSteps) return false;
      if (!fits(p, d)) continue;
      mark(p, d, 1);
      offset_[i] = p;
      if (place(k + 1)) return true;
      mark(p, d, 0);
    }
    return false;
  }

  const DTableSpec& s_;
  std::vector<std::uint8_t> used_;
  std::vector<std::uint32_t> offset_;
  std::vector<std::size_t> order_;
  std::uint64_t steps_ = 0;
};

// Positions of every SL and the table in position order; heavy entries spread over each SL's entries.
void lay_out(const DTableSpec& s, DTableConfig& c) {
  const std::vector<std::uint32_t> offset = LayoutSearch(s).run();
  for (std::size_t i = 0; i < c.sls.size(); ++i) {
    DTableSlResult& r = c.sls[i];
    const std::uint32_t d = s.sls[i].distance;
    for (std::uint32_t j = 0; j < r.entries; ++j) {
      const std::uint64_t heavy =
          (std::uint64_t{j} + 1) * r.heavy_entries / r.entries - std::uint64_t{j} * r.heavy_entries / r.entries;
      r.positions.push_back(offset[i] + j * d);
      c.table.push_back({offset[i] + j * d, static_cast<std::uint32_t>(i), heavy ? r.weight_high : r.weight_low});
    }
  }
  std::sort(c.table.begin(), c.table.end(),
            [](const DTableEntry& a, const DTableEntry& b) { return a.position < b.position; });
}

}  // namespace

DTableConfig configure_dtable(const DTableSpec& spec) {
  check_inputs(spec);
  std::vector<std::uint32_t> n;
  for (const DTableSlSpec& sl : spec.sls) n.push_back(spec.entries / sl.distance);
  DTableConfig c;
  c.sls.resize(spec.sls.size());
  choose_kw(spec, n, c);
  bounds(spec, n, c);
  c.weight_scale = spec.total_weight ? double(*spec.total_weight) : c.pool;
  apportion(spec, c);
  entry_weights(spec, c);
  lay_out(spec, c);
  for (DTableSlResult& r : c.sls) r.share = double(r.total_weight) / double(c.total_weight);
  return c;
}

}  // namespace interflow::packet
