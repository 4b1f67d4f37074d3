#include "engine/incremental_maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace interflow {

namespace {

constexpr std::uint64_t kNoIncidence = ~0ULL;
constexpr double kRelative = 1e-9;  // saturation tolerance, relative
// A rate change smaller than this (relative) is rounding noise of the solve: not applied, not reported.
constexpr double kRateChange = 1e-12;
constexpr double kNoFloor = std::numeric_limits<double>::infinity();

}  // namespace

IncrementalMaxMin::IncrementalMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                                     std::span<const LinkId> links, std::span<const double> weight)
    : capacity_(capacity.begin(), capacity.end()),
      initial_capacity_(capacity.begin(), capacity.end()),
      var_offsets_(var_offsets),
      links_(links),
      weight_(weight) {
  const std::size_t vars = weight.size(), num_links = capacity.size();
  rate_.assign(vars, 0.0);
  new_rate_.assign(vars, 0.0);
  active_.assign(vars, 0);
  in_set_.assign(vars, 0);
  new_mark_.assign(vars, 0);
  list_position_.assign(vars, 0);
  load_.assign(num_links, 0.0);
  head_.assign(num_links, kNoIncidence);
  link_stamp_.assign(num_links, 0);
  link_local_.assign(num_links, 0);
  link_walked_.assign(num_links, 0);
  link_above_stamp_.assign(num_links, 0);
  link_above_level_.assign(num_links, 0.0);
  link_weight_.assign(num_links, 0.0);
  for (double c : capacity) max_capacity_ = std::max(max_capacity_, c);
  link_count_.assign(num_links, 0);
  incidence_var_.resize(links.size());
  next_.assign(links.size(), kNoIncidence);
  prev_.assign(links.size(), kNoIncidence);
  for (std::uint32_t v = 0; v < vars; ++v)
    for (std::uint64_t e = var_offsets[v]; e < var_offsets[v + 1]; ++e) incidence_var_[e] = v;
}

bool IncrementalMaxMin::saturated(LinkId l, double load) const {
  // Tolerance relative to the larger of the current and the initial capacity: a residual capacity
  // handed down by a class policy can be a rounding error away from 0.
  return load >= capacity_[l] - kRelative * std::max(capacity_[l], initial_capacity_[l]);
}

void IncrementalMaxMin::set_capacity(LinkId l, double capacity) {
  capacity = std::max(0.0, capacity);
  if (capacity == capacity_[l]) return;
  // Rates on the link can change only if it was a bottleneck or is now over-full.
  const bool was_saturated = saturated(l, load_[l]);
  const double old_capacity = capacity_[l];
  capacity_[l] = capacity;
  const bool affected = was_saturated || saturated(l, load_[l]);
  if (!affected) return;
  pending_capacity_.push_back(l);
  pending_capacity_cut_.push_back(capacity < old_capacity);
  // Filling below the smaller of the two capacities' initial fair shares is the same as before.
  if (link_count_[l] > 0) lower_floor(std::min(capacity, old_capacity) / link_weight_[l]);
}

void IncrementalMaxMin::lower_floor(double level) { floor_level_ = std::min(floor_level_, std::max(0.0, level)); }

bool IncrementalMaxMin::at_least(std::uint32_t var, double level) const {
  // A wide margin: levels that are equal in exact arithmetic differ by rounding errors that scale with
  // the capacities, not with the rates, and taking in a few more variables costs little.
  const double rate = level * weight_[var];
  return rate_[var] >= rate - std::max(1e-6 * rate, kRelative * max_capacity_);
}

void IncrementalMaxMin::activate(std::uint32_t var) {
  if (active_[var]) return;
  active_[var] = 1;
  rate_[var] = 0;
  list_position_[var] = static_cast<std::uint32_t>(active_list_.size());
  active_list_.push_back(var);
  for (std::uint64_t e = var_offsets_[var]; e < var_offsets_[var + 1]; ++e) {
    const LinkId l = links_[e];
    next_[e] = head_[l];
    prev_[e] = kNoIncidence;
    if (head_[l] != kNoIncidence) prev_[head_[l]] = e;
    head_[l] = e;
    link_weight_[l] += weight_[var];
    ++link_count_[l];
  }
  pending_new_.push_back(var);
}

void IncrementalMaxMin::deactivate(std::uint32_t var) {
  if (!active_[var]) return;
  active_[var] = 0;
  const std::uint32_t last = active_list_.back();
  active_list_[list_position_[var]] = last;
  list_position_[last] = list_position_[var];
  active_list_.pop_back();
  for (std::uint64_t e = var_offsets_[var]; e < var_offsets_[var + 1]; ++e) {
    const LinkId l = links_[e];
    if (prev_[e] != kNoIncidence)
      next_[prev_[e]] = next_[e];
    else
      head_[l] = next_[e];
    if (next_[e] != kNoIncidence) prev_[next_[e]] = prev_[e];
    link_weight_[l] = --link_count_[l] == 0 ? 0.0 : link_weight_[l] - weight_[var];
    pending_links_.push_back(l);
    pending_saturated_.push_back(rate_[var] > 0 && saturated(l, load_[l]));
    if (track_loads_ && rate_[var] != 0) load_changes_.push_back(l);
    load_[l] -= rate_[var];
    if (load_[l] < 0) load_[l] = 0;
  }
  if (rate_[var] > 0) lower_floor(rate_[var] / weight_[var]);
  rate_[var] = 0;
}

void IncrementalMaxMin::add_to_set(std::uint32_t var) {
  if (in_set_[var] == stamp_) return;
  in_set_[var] = stamp_;
  set_.push_back(var);
}

void IncrementalMaxMin::add_link_bottlenecked(LinkId l) {
  if (link_walked_[l] == stamp_) return;  // walked already in this update: a second walk adds nothing
  link_walked_[l] = stamp_;
  double top = 0;
  for (std::uint64_t e = head_[l]; e != kNoIncidence; e = next_[e])
    top = std::max(top, rate_[incidence_var_[e]] / weight_[incidence_var_[e]]);
  for (std::uint64_t e = head_[l]; e != kNoIncidence; e = next_[e]) {
    const std::uint32_t v = incidence_var_[e];
    if (at_least(v, top) && at_least(v, floor_level_)) add_to_set(v);
  }
}

void IncrementalMaxMin::add_link_above(LinkId l, double level) {
  if (link_above_stamp_[l] == stamp_ && link_above_level_[l] <= level) return;
  link_above_stamp_[l] = stamp_;
  link_above_level_[l] = level;
  for (std::uint64_t e = head_[l]; e != kNoIncidence; e = next_[e])
    if (at_least(incidence_var_[e], level)) add_to_set(incidence_var_[e]);
}

void IncrementalMaxMin::update() {
  ++stats_.updates;
  ++stamp_;
  set_.clear();
  changed_.clear();
  ++update_mark_;
  // A newcomer gets at least the smallest initial fair share C / W of its links (fair shares only grow
  // during progressive filling), so filling below that level is unchanged by its arrival.
  for (std::uint32_t v : pending_new_)
    if (active_[v])
      for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e)
        lower_floor(capacity_[links_[e]] / link_weight_[links_[e]]);
  for (std::uint32_t v : pending_new_)
    if (active_[v]) {
      add_to_set(v);
      new_mark_[v] = update_mark_;  // a newcomer changes its links even when it gets rate 0
    }
  for (std::size_t i = 0; i < pending_links_.size(); ++i)
    if (pending_saturated_[i]) add_link_bottlenecked(pending_links_[i]);
  // A raised capacity helps the variables at the link's top level; a cut one can leave the variables
  // outside S over it, so every variable that may change (at or above the floor) is taken in.
  for (std::size_t i = 0; i < pending_capacity_.size(); ++i)
    if (pending_capacity_cut_[i])
      add_link_above(pending_capacity_[i], floor_level_);
    else
      add_link_bottlenecked(pending_capacity_[i]);
  if (set_.empty()) {
    end_batch();
    return;
  }

  // Close S over the links that are saturated now: a change reaches the variables behind a saturated
  // link, so taking them in at once saves the solve-and-expand rounds that would find them one ring at a
  // time. When S covers most active variables, solving all of them is cheaper than tracking S.
  for (std::size_t i = 0; i < set_.size(); ++i) {
    const std::uint32_t v = set_[i];
    for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e)
      if (saturated(links_[e], load_[links_[e]])) add_link_bottlenecked(links_[e]);
  }
  if (2 * set_.size() > active_list_.size())
    for (std::uint32_t v : active_list_)
      if (at_least(v, floor_level_)) add_to_set(v);

  for (;;) {
    solve_set();
    // Links that froze variables of S, and saturated links where a rate changed, bring variables in.
    const std::size_t before = set_.size();
    for (std::size_t li = 0; li < local_links_.size(); ++li) {
      const LinkId l = local_links_[li];
      bool changed = false;
      for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1]; ++k) {
        const std::uint32_t v = set_[local_vars_[k]];
        const double d = new_rate_[v] - rate_[v];
        changed =
            changed || new_mark_[v] == update_mark_ || std::abs(d) > kRateChange * std::max(1.0, std::abs(rate_[v]));
      }
      // A link that froze variables of S is their bottleneck: no variable outside S may be above them there.
      if (bottleneck_[li]) add_link_above(l, freeze_level_[li]);
      // A saturated link whose load changed is no longer a valid bottleneck for the variables outside S
      // that had it as one (those at its top level); the others keep theirs.
      if (changed && saturated(l, load_[l])) add_link_bottlenecked(l);
    }
    if (set_.size() == before) break;
  }

  stats_.solved_vars += set_.size();
  commit(kRateChange);
  stats_.changed_vars += changed_.size();
  end_batch();
}

void IncrementalMaxMin::solve_all() {
  ++stamp_;
  set_.clear();
  changed_.clear();
  end_batch();
  for (std::uint32_t v : active_list_) add_to_set(v);
  ++stats_.updates;
  stats_.solved_vars += set_.size();
  if (set_.empty()) return;
  solve_set();
  commit(0);
}

void IncrementalMaxMin::commit(double tolerance) {
  for (std::uint32_t v : set_) {
    const double d = new_rate_[v] - rate_[v];
    // (A variable leaving rate 0 always counts: its flow gets a completion time. Equal rates never do,
    // also when both are infinite, a variable without links.)
    if (new_rate_[v] == rate_[v] ||
        (std::abs(d) <= tolerance * std::max(1.0, std::abs(rate_[v])) && !(rate_[v] == 0 && new_rate_[v] > 0)))
      continue;
    changed_.push_back(v);
    if (std::isfinite(new_rate_[v]))
      for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
        load_[links_[e]] += d;
        if (track_loads_) load_changes_.push_back(links_[e]);
      }
    rate_[v] = new_rate_[v];
  }
}

void IncrementalMaxMin::end_batch() {
  pending_new_.clear();
  pending_links_.clear();
  pending_saturated_.clear();
  pending_capacity_.clear();
  pending_capacity_cut_.clear();
  floor_level_ = kNoFloor;
}

// Progressive filling of the variables in set_ on the residual capacities (capacity minus the rates of
// the active variables outside the set). Links in a min-heap keyed by fair share = residual / weight of
// the unfrozen variables; shares only grow as variables freeze, so stale keys are refreshed when popped.
void IncrementalMaxMin::solve_set() {
  ++stats_.rounds;
  const std::uint32_t local_stamp = ++solve_stamp_;  // a fresh stamp for the local link numbering
  local_links_.clear();
  for (std::uint32_t v : set_)
    for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
      const LinkId l = links_[e];
      if (link_stamp_[l] != local_stamp) {
        link_stamp_[l] = local_stamp;
        link_local_[l] = static_cast<std::uint32_t>(local_links_.size());
        local_links_.push_back(l);
      }
    }
  const std::size_t n = local_links_.size();
  if (set_.size() == 1 && n > 0) {  // the common case at light load: one variable, its tightest link
    const std::uint32_t v = set_[0];
    double tightest = std::numeric_limits<double>::infinity();
    residual_.resize(n);
    for (std::size_t li = 0; li < n; ++li) {
      residual_[li] = std::max(0.0, capacity_[local_links_[li]] - load_[local_links_[li]] + rate_[v]);
      tightest = std::min(tightest, residual_[li]);
    }
    new_rate_[v] = tightest;
    local_var_offsets_.resize(n + 1);
    local_vars_.assign(n, 0);
    bottleneck_.resize(n);
    freeze_level_.resize(n);
    for (std::size_t li = 0; li < n; ++li) {
      local_var_offsets_[li] = static_cast<std::uint32_t>(li);
      bottleneck_[li] = residual_[li] == tightest;
      freeze_level_[li] = tightest / weight_[v];
    }
    local_var_offsets_[n] = static_cast<std::uint32_t>(n);
    return;
  }
  residual_.assign(n, 0.0);
  weight_sum_.assign(n, 0.0);
  local_var_offsets_.assign(n + 1, 0);
  for (std::size_t li = 0; li < n; ++li) residual_[li] = capacity_[local_links_[li]] - load_[local_links_[li]];
  for (std::uint32_t v : set_)
    for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
      const std::uint32_t li = link_local_[links_[e]];
      residual_[li] += rate_[v];  // the set's own current rates are not fixed
      weight_sum_[li] += weight_[v];
      ++local_var_offsets_[li + 1];
    }
  for (std::size_t li = 0; li < n; ++li) local_var_offsets_[li + 1] += local_var_offsets_[li];
  local_vars_.resize(local_var_offsets_[n]);
  cursor_.assign(local_var_offsets_.begin(), local_var_offsets_.end() - 1);
  for (std::uint32_t k = 0; k < set_.size(); ++k) {
    const std::uint32_t v = set_[k];
    for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e)
      local_vars_[cursor_[link_local_[links_[e]]]++] = k;
  }
  frozen_.assign(set_.size(), 0);
  bottleneck_.assign(n, 0);
  freeze_level_.resize(n);
  std::vector<std::uint32_t>& unfrozen = unfrozen_;
  unfrozen.resize(n);
  for (std::size_t li = 0; li < n; ++li) unfrozen[li] = local_var_offsets_[li + 1] - local_var_offsets_[li];
  heap_.clear();
  const auto share = [&](std::uint32_t li) { return std::max(0.0, residual_[li]) / weight_sum_[li]; };
  for (std::uint32_t li = 0; li < n; ++li) heap_.push(share(li), li);
  for (std::uint32_t k = 0; k < set_.size(); ++k)
    if (var_offsets_[set_[k]] == var_offsets_[set_[k] + 1]) {  // no link: nothing limits it
      new_rate_[set_[k]] = std::numeric_limits<double>::infinity();
      frozen_[k] = 1;
    }
  while (!heap_.empty()) {
    double key;
    std::uint32_t li;
    heap_.pop(key, li);
    if (unfrozen[li] == 0) continue;
    const double now = share(li);
    if (now > key * (1 + 1e-12) + 1e-300) {  // stale: re-key (shares only grow, so the heap stays monotone)
      heap_.push(now, li);
      continue;
    }
    bottleneck_[li] = 1;
    freeze_level_[li] = now;
    for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1]; ++k) {
      const std::uint32_t idx = local_vars_[k];
      if (frozen_[idx]) continue;
      frozen_[idx] = 1;
      const std::uint32_t v = set_[idx];
      const double r = weight_[v] * now;
      new_rate_[v] = r;
      for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
        const std::uint32_t lj = link_local_[links_[e]];
        residual_[lj] -= r;
        weight_sum_[lj] -= weight_[v];
        --unfrozen[lj];
      }
    }
  }
}

}  // namespace interflow
