#include "engine/incremental_maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace interflow {

namespace {

constexpr std::uint64_t kNoIncidence = ~0ULL;
constexpr double kRelative = 1e-9;  // saturation and rate-change tolerance, relative

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
  capacity_[l] = capacity;
  const bool affected = was_saturated || saturated(l, load_[l]);
  if (affected) pending_capacity_.push_back(l);
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
    pending_links_.push_back(l);
    pending_saturated_.push_back(rate_[var] > 0 && saturated(l, load_[l]));
    if (track_loads_ && rate_[var] != 0) load_changes_.push_back(l);
    load_[l] -= rate_[var];
    if (load_[l] < 0) load_[l] = 0;
  }
  rate_[var] = 0;
}

void IncrementalMaxMin::add_to_set(std::uint32_t var) {
  if (in_set_[var] == stamp_) return;
  in_set_[var] = stamp_;
  set_.push_back(var);
}

void IncrementalMaxMin::add_link_vars(LinkId l) {
  for (std::uint64_t e = head_[l]; e != kNoIncidence; e = next_[e]) add_to_set(incidence_var_[e]);
}

void IncrementalMaxMin::update() {
  ++stats_.updates;
  ++stamp_;
  set_.clear();
  changed_.clear();
  ++update_mark_;
  for (std::uint32_t v : pending_new_)
    if (active_[v]) {
      add_to_set(v);
      new_mark_[v] = update_mark_;  // a newcomer changes its links even when it gets rate 0
    }
  for (std::size_t i = 0; i < pending_links_.size(); ++i)
    if (pending_saturated_[i]) add_link_vars(pending_links_[i]);
  for (LinkId l : pending_capacity_) add_link_vars(l);
  pending_new_.clear();
  pending_links_.clear();
  pending_saturated_.clear();
  pending_capacity_.clear();
  if (set_.empty()) return;

  // Close S over the links that are saturated now: a change reaches the variables behind a saturated
  // link, so taking them in at once saves the solve-and-expand rounds that would find them one ring at a
  // time. When S covers most active variables, solving all of them is cheaper than tracking S.
  for (std::size_t i = 0; i < set_.size(); ++i) {
    const std::uint32_t v = set_[i];
    for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e)
      if (saturated(links_[e], load_[links_[e]])) add_link_vars(links_[e]);
  }
  if (2 * set_.size() > active_list_.size())
    for (std::uint32_t v : active_list_) add_to_set(v);

  for (;;) {
    solve_set();
    // Links where a rate changed and that are (or were) saturated bring their other variables in.
    const std::size_t before = set_.size();
    for (std::size_t li = 0; li < local_links_.size(); ++li) {
      const LinkId l = local_links_[li];
      double delta = 0;
      bool changed = false;
      for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1]; ++k) {
        const std::uint32_t v = set_[local_vars_[k]];
        const double d = new_rate_[v] - rate_[v];
        delta += d;
        changed =
            changed || new_mark_[v] == update_mark_ || std::abs(d) > kRelative * std::max(1.0, std::abs(rate_[v]));
      }
      // A link that froze variables of S is their bottleneck: every variable on it must be in S, or one
      // outside with a higher rate would leave them without a valid bottleneck.
      if (bottleneck_[li]) {
        add_link_vars(l);
        continue;
      }
      if (!changed) continue;
      const double after = load_[l] + delta;
      if (saturated(l, load_[l]) || saturated(l, after)) add_link_vars(l);
    }
    if (set_.size() == before) break;
  }

  stats_.solved_vars += set_.size();
  for (std::uint32_t v : set_) {
    const double d = new_rate_[v] - rate_[v];
    if (std::abs(d) <= kRelative * std::max(1.0, std::abs(rate_[v])) && !(rate_[v] == 0 && new_rate_[v] > 0)) continue;
    changed_.push_back(v);
    if (std::isfinite(new_rate_[v]))
      for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
        load_[links_[e]] += d;
        if (track_loads_) load_changes_.push_back(links_[e]);
      }
    rate_[v] = new_rate_[v];
  }
  stats_.changed_vars += changed_.size();
}

void IncrementalMaxMin::solve_all() {
  ++stamp_;
  set_.clear();
  changed_.clear();
  pending_new_.clear();
  pending_links_.clear();
  pending_saturated_.clear();
  pending_capacity_.clear();
  for (std::uint32_t v : active_list_) add_to_set(v);
  ++stats_.updates;
  stats_.solved_vars += set_.size();
  if (set_.empty()) return;
  solve_set();
  for (std::uint32_t v : set_) {
    if (new_rate_[v] != rate_[v]) changed_.push_back(v);
    if (std::isfinite(new_rate_[v]))
      for (std::uint64_t e = var_offsets_[v]; e < var_offsets_[v + 1]; ++e) {
        load_[links_[e]] += new_rate_[v] - rate_[v];
        if (track_loads_ && new_rate_[v] != rate_[v]) load_changes_.push_back(links_[e]);
      }
    rate_[v] = new_rate_[v];
  }
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
    for (std::size_t li = 0; li < n; ++li) {
      local_var_offsets_[li] = static_cast<std::uint32_t>(li);
      bottleneck_[li] = residual_[li] == tightest;
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
  std::vector<std::uint32_t>& unfrozen = unfrozen_;
  unfrozen.resize(n);
  for (std::size_t li = 0; li < n; ++li) unfrozen[li] = local_var_offsets_[li + 1] - local_var_offsets_[li];
  heap_.clear();
  const auto share = [&](std::uint32_t li) { return std::max(0.0, residual_[li]) / weight_sum_[li]; };
  for (std::uint32_t li = 0; li < n; ++li) heap_.push_back({share(li), li});
  const auto cmp = [](const auto& a, const auto& b) { return a.first > b.first; };
  std::make_heap(heap_.begin(), heap_.end(), cmp);
  for (std::uint32_t k = 0; k < set_.size(); ++k)
    if (var_offsets_[set_[k]] == var_offsets_[set_[k] + 1]) {  // no link: nothing limits it
      new_rate_[set_[k]] = std::numeric_limits<double>::infinity();
      frozen_[k] = 1;
    }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), cmp);
    const auto [key, li] = heap_.back();
    heap_.pop_back();
    if (unfrozen[li] == 0) continue;
    const double now = share(li);
    if (now > key * (1 + 1e-12) + 1e-300) {  // stale: re-key
      heap_.push_back({now, li});
      std::push_heap(heap_.begin(), heap_.end(), cmp);
      continue;
    }
    bottleneck_[li] = 1;
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
