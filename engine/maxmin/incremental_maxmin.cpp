#include "engine/maxmin/incremental_maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "engine/maxmin/incremental_rules.hpp"

namespace interflow::maxmin {

using namespace rules;

IncrementalMaxMin::IncrementalMaxMin(std::span<const double> capacity)
    : initial_capacity_(capacity.begin(), capacity.end()) {
  const std::size_t num_links = capacity.size();
  link_.resize(num_links);
  for (LinkId l = 0; l < num_links; ++l) {
    link_[l].capacity = capacity[l];
    link_[l].saturation = saturation_of(l);
  }
  link_above_stamp_.assign(num_links, 0);
  link_above_level_.assign(num_links, 0.0);
  for (double c : capacity) max_capacity_ = std::max(max_capacity_, c);
}

IncrementalMaxMin::IncrementalMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                                     std::span<const LinkId> links, std::span<const double> weight)
    : IncrementalMaxMin(capacity) {
  held_ = true;
  held_offsets_ = var_offsets;
  weight_ = weight.data();
  grow_variables(weight.size());
  // Slots name incidences in 32 bits: 4·10⁹ path links would take 16 GB of paths alone.
  if (links.size() >= kRemoved)
    throw InputError("the paths have " + std::to_string(links.size()) +
                     " links in all; the dynamic engine handles fewer than 2^32 (lower --max-path-memory)");
  // Every incidence that may ever be active on a link has a slot in the link's block.
  for (LinkId l : links) ++link_[l].room;
  std::uint64_t total = 0;
  for (LinkState& s : link_) {
    s.first = total;
    total += s.room;
  }
  slot_.resize(total);
  inc_slot_.resize(links.size());
  inc_base_ = links.data();
}

void IncrementalMaxMin::grow_variables(std::size_t vars) {
  if (vars <= rate_.size()) return;
  rate_.resize(vars, 0.0);
  new_rate_.resize(vars, 0.0);
  active_.resize(vars, 0);
  in_set_.resize(vars, 0);
  new_mark_.resize(vars, 0);
  list_position_.resize(vars, 0);
  if (held_) return;
  own_weight_.resize(vars, 0.0);
  weight_ = own_weight_.data();
  var_links_.resize(vars);
}

double IncrementalMaxMin::saturation_of(LinkId l) const {
  return saturation(link_[l].capacity, initial_capacity_[l]);
}

void IncrementalMaxMin::set_capacity(LinkId l, double capacity) {
  capacity = std::max(0.0, capacity);
  if (capacity == link_[l].capacity) return;
  // Rates on the link can change only if it was a bottleneck or is now over-full.
  const bool was_saturated = saturated(l);
  const double old_capacity = link_[l].capacity;
  link_[l].capacity = capacity;
  link_[l].saturation = saturation_of(l);
  const bool affected = was_saturated || saturated(l);
  if (!affected) return;
  pending_capacity_.push_back(l);
  pending_capacity_cut_.push_back(capacity < old_capacity);
  // Filling below the smaller of the two capacities' initial fair shares is the same as before.
  if (link_[l].count > 0) lower_floor(std::min(capacity, old_capacity) / link_[l].weight);
}

void IncrementalMaxMin::lower_floor(double level) { floor_level_ = std::min(floor_level_, std::max(0.0, level)); }

bool IncrementalMaxMin::above(std::uint32_t var, double level) const {
  // Beyond the solve's rounding: levels that are equal in exact arithmetic (ties, the rule in a
  // symmetric network) differ by far less than this.
  const double rate = level * weight_[var];
  return rate_[var] > rate + kTie * rate + kTieAbsolute * max_capacity_;
}

bool IncrementalMaxMin::at_least(std::uint32_t var, double level) const {
  // A wide margin: levels that are equal in exact arithmetic differ by rounding errors that scale with
  // the capacities, not with the rates, and taking in a few more variables costs little.
  const double rate = level * weight_[var];
  return rate_[var] >= rate - std::max(1e-6 * rate, kRelative * max_capacity_);
}

void IncrementalMaxMin::activate(std::uint32_t var) {
  if (!held_) throw std::logic_error("IncrementalMaxMin::activate(var): no paths given, give the links");
  if (active_[var]) return;
  check_weight(weight_[var]);
  attach(var);
}

void IncrementalMaxMin::activate(std::uint32_t var, std::span<const LinkId> links, double weight) {
  if (held_) throw std::logic_error("IncrementalMaxMin::activate(var, links): the paths are held, use activate(var)");
  grow_variables(std::size_t{var} + 1);
  if (active_[var]) return;
  check_weight(weight);
  place_links(var, links);
  own_weight_[var] = weight;
  attach(var);
}

void IncrementalMaxMin::check_weight(double weight) {
  rules::check_weight(weight, "incremental max-min");
  lightest_ = std::min(lightest_, weight);
  heaviest_ = std::max(heaviest_, weight);
}

void IncrementalMaxMin::attach(std::uint32_t var) {
  active_[var] = 1;
  rate_[var] = 0;
  list_position_[var] = static_cast<std::uint32_t>(active_list_.size());
  active_list_.push_back(var);
  const VarLinks r = range_of(var);
  prefetch_links(r);
  for (std::uint32_t e = r.first; e < r.first + r.count; ++e) {
    const LinkId l = inc_base_[e];
    const std::uint32_t position = append_slot(l);
    LinkState& s = link_[l];
    ++s.count;
    slot_[s.first + position] = {var, e};
    inc_slot_[e] = position;
    s.weight += weight_[var];
  }
  pending_new_.push_back(var);
}

std::uint32_t IncrementalMaxMin::place_links(std::uint32_t var, std::span<const LinkId> links) {
  const std::size_t garbage = inc_link_.size() - inc_live_;
  if (garbage > garbage_at_least_ && 2 * garbage > inc_link_.size()) {
    compact_arena();
    // The blocks keep the room of their link's busiest moment: given back once they hold four times
    // what is active (checked here, where the churn that empties them also fills the arena).
    if (slot_.size() > 4 * inc_live_ + garbage_at_least_) compact_slots();
  }
  // Slots name incidences in 32 bits: 4·10⁹ path links would take 16 GB of paths alone.
  if (inc_link_.size() + links.size() >= kRemoved) {
    compact_arena();
    if (inc_link_.size() + links.size() >= kRemoved)
      throw InputError("the paths of the flows in transfer have " + std::to_string(inc_link_.size() + links.size()) +
                       " links in all; the dynamic engine handles fewer than 2^32");
  }
  const auto first = static_cast<std::uint32_t>(inc_link_.size());
  inc_link_.insert(inc_link_.end(), links.begin(), links.end());
  inc_slot_.resize(inc_link_.size());
  inc_base_ = inc_link_.data();
  var_links_[var] = {first, static_cast<std::uint32_t>(links.size())};
  inc_live_ += links.size();
  return first;
}

void IncrementalMaxMin::compact_arena() {
  std::vector<LinkId> links;
  std::vector<std::uint32_t> slots;
  links.reserve(inc_live_);
  slots.reserve(inc_live_);
  for (std::uint32_t v : active_list_) {
    VarLinks& r = var_links_[v];
    const auto first = static_cast<std::uint32_t>(links.size());
    for (std::uint32_t i = 0; i < r.count; ++i) {
      const std::uint32_t e = r.first + i;
      links.push_back(inc_link_[e]);
      slots.push_back(inc_slot_[e]);
      slot_[link_[inc_link_[e]].first + inc_slot_[e]].incidence = first + i;
    }
    r.first = first;
  }
  inc_link_ = std::move(links);
  inc_slot_ = std::move(slots);
  inc_base_ = inc_link_.data();
}

std::uint32_t IncrementalMaxMin::append_slot(LinkId l) {
  LinkState& s = link_[l];
  if (s.end == s.room) {
    if (held_ || (s.room > 0 && 4 * (s.end - s.count) >= s.room))
      compact(l);  // held paths: room for all, so some are marked; otherwise a quarter or more is
    else
      move_block(l, std::max(kMinRoom, 2 * s.room));
  }
  return link_[l].end++;
}

std::uint32_t IncrementalMaxMin::copy_live(const LinkState& s, Slot* to) {
  std::uint32_t kept = 0;
  for (std::uint32_t k = 0; k < s.end; ++k) {
    const Slot slot = slot_[s.first + k];
    if (slot.var == kRemoved) continue;
    to[kept] = slot;
    inc_slot_[slot.incidence] = kept++;
  }
  return kept;
}

void IncrementalMaxMin::move_block(LinkId l, std::uint32_t room) {
  const std::uint64_t first = slot_.size();
  slot_.resize(first + room);
  LinkState& s = link_[l];
  s.end = copy_live(s, slot_.data() + first);
  s.first = first;
  s.room = room;
}

void IncrementalMaxMin::compact_slots() {
  std::vector<Slot> fresh;
  std::size_t total = 0;
  for (const LinkState& s : link_)
    if (s.count > 0) total += std::max(kMinRoom, 2 * s.count);
  fresh.reserve(total);
  for (LinkState& s : link_) {
    if (s.count == 0) {  // an idle link gives its block back
      s.first = s.end = s.room = 0;
      continue;
    }
    const std::uint64_t first = fresh.size();
    s.room = std::max(kMinRoom, 2 * s.count);  // room to grow by as much again before moving
    fresh.resize(first + s.room);
    s.end = copy_live(s, fresh.data() + first);
    s.first = first;
  }
  slot_ = std::move(fresh);
}

void IncrementalMaxMin::deactivate(std::uint32_t var) {
  if (!active(var)) return;
  active_[var] = 0;
  const std::uint32_t last = active_list_.back();
  active_list_[list_position_[var]] = last;
  list_position_[last] = list_position_[var];
  active_list_.pop_back();
  const VarLinks r = range_of(var);
  prefetch_links(r);
  for (std::uint32_t e = r.first; e < r.first + r.count; ++e) {
    const LinkId l = inc_base_[e];
    LinkState& s = link_[l];
    // The slot is only marked; the block is compacted once marks outnumber its live slots (kCompactRatio).
    slot_[s.first + inc_slot_[e]].var = kRemoved;
    const std::uint32_t live = --s.count;
    s.weight = live == 0 ? 0.0 : s.weight - weight_[var];
    if (live == 0)
      s.end = 0;
    else if (s.end - live > kCompactRatio * live + kCompactAtLeast)
      compact(l);
    pending_links_.push_back(l);
    pending_saturated_.push_back(rate_[var] > 0 && saturated(l));
    if (track_loads_ && rate_[var] != 0) load_changes_.push_back(l);
    link_[l].load -= rate_[var];
    if (link_[l].load < 0) link_[l].load = 0;
  }
  if (!held_) {
    inc_live_ -= r.count;
    var_links_[var].count = 0;  // its incidences are garbage now
  }
  if (rate_[var] > 0) lower_floor(rate_[var] / weight_[var]);
  rate_[var] = 0;
}

void IncrementalMaxMin::compact(LinkId l) {
  LinkState& s = link_[l];
  s.end = copy_live(s, slot_.data() + s.first);  // in place: a slot only moves to the front
}

void IncrementalMaxMin::add_to_set(std::uint32_t var) {
  if (in_set_[var] == stamp_) return;
  in_set_[var] = stamp_;
  set_.push_back(var);
}

void IncrementalMaxMin::add_link_bottlenecked(LinkId l) {
  if (link_[l].walked == stamp_) return;  // walked already in this update: a second walk adds nothing
  link_[l].walked = stamp_;
  const std::span<const Slot> slots = slots_of(l);
  double top = 0;
  for (const Slot& slot : slots)
    if (slot.var != kRemoved) top = std::max(top, rate_[slot.var] / weight_[slot.var]);
  for (const Slot& slot : slots)
    if (slot.var != kRemoved && at_least(slot.var, top) && at_least(slot.var, floor_level_)) add_to_set(slot.var);
}

void IncrementalMaxMin::add_link_from(LinkId l, double level) {
  for (const Slot& slot : slots_of(l))
    if (slot.var != kRemoved && at_least(slot.var, level)) add_to_set(slot.var);
}

void IncrementalMaxMin::add_link_above(LinkId l, double level) {
  // A walk at a lower level took in everything this one would (strictly above a lower level).
  if (link_above_stamp_[l] == stamp_ && link_above_level_[l] <= level) return;
  link_above_stamp_[l] = stamp_;
  link_above_level_[l] = level;
  for (const Slot& slot : slots_of(l))
    if (slot.var != kRemoved && above(slot.var, level)) add_to_set(slot.var);
}

void IncrementalMaxMin::update() {
  if (heaviest_ > lightest_ * kWeightSpread) {  // beyond what the rules below are tested for
    ++stats_.spread_solves;
    solve_all();
    return;
  }
  ++stats_.updates;
  if (solve_alone()) return;
  if (!seed_set()) {
    end_batch();
    return;
  }
  // The first closure is bounded, unless bounds have proved useless in this run (learn_closure_bound):
  // where most links are saturated it can reach every variable at the top of one (the whole network)
  // for a change that stays local. Once a solve shows the change spreading (S grows), the closure is
  // not bounded any more.
  const std::size_t bound = kCloseFactor * set_.size() + kCloseAtLeast;
  const bool bounded = closure_score_ <= 0;
  close_limit_ = bounded ? bound : std::numeric_limits<std::size_t>::max();
  const std::size_t closed = close_set();
  // Whether the bound stopped the closure (bounded), or would have (unbounded); and S after it.
  const bool beyond = bounded ? numbered_ < closed : closed > bound;
  const std::size_t first = set_.size();
  const std::uint64_t rounds_before = stats_.rounds;
  solve_until_closed();
  stats_.solved_vars += set_.size();
  commit(kRateChange);
  stats_.changed_vars += changed_.size();
  if (beyond) learn_closure_bound(bounded, bound, first);
  if (stats_.rounds - rounds_before > 1) later_closures_.learn(set_.size(), changed_.size());
  end_batch();
}

bool IncrementalMaxMin::seed_set() {
  ++stamp_;
  set_.clear();
  changed_.clear();
  begin_numbering();
  ++update_mark_;
  // A newcomer gets at least the smallest initial fair share C / W of its links (fair shares only grow
  // during progressive filling), so filling below that level is unchanged by its arrival.
  for (std::uint32_t v : pending_new_)
    if (active_[v])
      for (const LinkId l : links_of(v)) lower_floor(link_[l].capacity / link_[l].weight);
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
      add_link_from(pending_capacity_[i], floor_level_);
    else
      add_link_bottlenecked(pending_capacity_[i]);
  return !set_.empty();
}

void IncrementalMaxMin::solve_until_closed() {
  for (;;) {
    solve_set();
    const std::size_t before = set_.size();
    bring_in_affected();
    if (set_.size() == before) return;
    close_limit_ = later_closures_.taken() ? std::numeric_limits<std::size_t>::max() : set_.size();
    close_set();
  }
}

void IncrementalMaxMin::bring_in_affected() {
  // Whether each variable of S changes (a newcomer always does), then per link whether any of its do.
  const std::size_t solved = set_.size();
  var_changed_.resize(solved);
  for (std::size_t k = 0; k < solved; ++k) {
    const std::uint32_t v = set_[k];
    const double d = new_rate_[v] - rate_[v];
    var_changed_[k] = new_mark_[v] == update_mark_ || std::abs(d) > kRateChange * change_scale(v);
  }
  for (std::size_t li = 0; li < local_links_.size(); ++li) {
    const LinkId l = local_links_[li];
    bool changed = false;
    for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1] && !changed; ++k)
      changed = var_changed_[local_vars_[k]] != 0;
    // A link that froze variables of S is their bottleneck: no variable outside S may be above them
    // there. One at their level may stay out: it is at the top of the link with them, so the link is
    // still a valid bottleneck for both (taking such ties in made S grow by thousands of variables
    // that do not change, one ring of ties per round, on a contended fat tree).
    if (bottleneck_[li]) add_link_above(l, freeze_level_[li]);
    // A saturated link whose load changed is no longer a valid bottleneck for the variables outside S
    // that had it as one (those at its top level); the others keep theirs.
    if (changed && saturated(l)) add_link_bottlenecked(l);
  }
}

void IncrementalMaxMin::learn_closure_bound(bool bounded, std::size_t bound, std::size_t first) {
  // A bound that stopped the closure was useless when later rounds still grew S, to more than twice
  // the bound: the change did spread, and the solve of the part closed first only added a round,
  // whose interim rates brought in variables the final ones leave alone (on the contended fat tree
  // of bench/RESULTS.md such updates were 4 % of all and held half the variables solved). (A bound
  // overshot by one link's variables, with nothing added after the first solve, did its job.) An
  // unbounded closure that went beyond the bound was needed when more variables than the bound
  // changed. Each outcome moves the score by one, within ±kClosureScoreMax, so that a run settles
  // on what its updates show.
  const bool against_bound = bounded ? set_.size() > first && set_.size() > 2 * bound : changed_.size() > bound;
  closure_score_ = std::clamp(closure_score_ + (against_bound ? 1 : -1), -kClosureScoreMax, kClosureScoreMax);
}

bool IncrementalMaxMin::solve_alone() {
  if (!solve_alone_ || pending_new_.size() != 1 || !pending_links_.empty() || !pending_capacity_.empty())
    return false;
  const std::uint32_t v = pending_new_[0];
  if (!active_[v]) return false;
  const std::span<const LinkId> links = links_of(v);
  if (links.empty()) return false;
  double tightest = std::numeric_limits<double>::infinity();
  for (const LinkId l : links) {
    if (link_[l].count != 1) return false;  // another variable crosses it (or v crosses it twice)
    tightest = std::min(tightest, std::max(0.0, link_[l].capacity - link_[l].load));
  }
  // Alone on every link: no other rate can change, and its own is its tightest link's capacity
  // (the same arithmetic as solve_set's one-variable case and commit(), so the same bits).
  changed_.clear();
  ++stats_.rounds;
  ++stats_.solved_vars;
  if (tightest > 0) {
    rate_[v] = tightest;
    changed_.push_back(v);
    ++stats_.changed_vars;
    if (std::isfinite(tightest))  // as commit(): an infinite rate (links of infinite capacity) adds no load
      for (const LinkId l : links) {
        link_[l].load += tightest;
        if (track_loads_) load_changes_.push_back(l);
      }
  }
  end_batch();
  return true;
}

std::size_t IncrementalMaxMin::close_set() {
  // A change reaches the variables behind a saturated link, so taking them in at once saves the
  // solve-and-expand rounds that would find them one ring at a time; doing so again for the variables
  // a round took in cut the rounds per update from 1.8 to 1.1 on a contended fat tree (bench/RESULTS.md).
  // It stops at close_limit_ variables (the rest of S is numbered by solve_set, not closed).
  // (The same pass numbers S's links for solve_set: each path is read once.)
  while (numbered_ < set_.size() && set_.size() < close_limit_) {
    const std::size_t k = numbered_;
    number_next();
    for (std::uint32_t j = set_incidence_offsets_[k]; j < set_incidence_offsets_[k + 1]; ++j) {
      const LinkId l = local_links_[set_local_link_[j]];
      if (link_[l].walked != stamp_ && saturated(l)) add_link_bottlenecked(l);
    }
  }
  const std::size_t closed = set_.size();
  // When S covers most active variables, solving all of them is cheaper than tracking S.
  if (2 * set_.size() > active_list_.size())
    for (std::uint32_t v : active_list_)
      if (at_least(v, floor_level_)) add_to_set(v);
  return closed;
}

void IncrementalMaxMin::solve_all() {
  ++stamp_;
  set_.clear();
  changed_.clear();
  begin_numbering();
  end_batch();
  for (std::uint32_t v : active_list_) add_to_set(v);
  ++stats_.updates;
  stats_.solved_vars += set_.size();
  if (set_.empty()) return;
  solve_set();
  commit(0);
  stats_.changed_vars += changed_.size();
}

void IncrementalMaxMin::commit(double tolerance) {
  // Load changes are summed per local link first: one visit to each link instead of one per path.
  load_delta_.assign(local_links_.size(), 0.0);
  for (std::size_t k = 0; k < set_.size(); ++k) {
    const std::uint32_t v = set_[k];
    const double d = new_rate_[v] - rate_[v];
    // (A variable leaving rate 0 always counts: its flow gets a completion time. Equal rates never do,
    // also when both are infinite, a variable without links.)
    if (new_rate_[v] == rate_[v] ||
        (std::abs(d) <= tolerance * change_scale(v) && !(rate_[v] == 0 && new_rate_[v] > 0)))
      continue;
    changed_.push_back(v);
    if (std::isfinite(new_rate_[v]))
      for (std::uint32_t j = set_incidence_offsets_[k]; j < set_incidence_offsets_[k + 1]; ++j)
        load_delta_[set_local_link_[j]] += d;
    rate_[v] = new_rate_[v];
  }
  for (std::size_t li = 0; li < local_links_.size(); ++li)
    if (load_delta_[li] != 0) {
      link_[local_links_[li]].load += load_delta_[li];
      if (track_loads_) load_changes_.push_back(local_links_[li]);
    }
}

void IncrementalMaxMin::begin_numbering() {
  ++solve_stamp_;
  local_links_.clear();
  set_local_link_.clear();
  set_incidence_offsets_.assign(1, 0);
  numbered_ = 0;
}

std::uint32_t IncrementalMaxMin::local_of(LinkId l) {
  LinkState& s = link_[l];
  if (s.solve_stamp != solve_stamp_) {
    s.solve_stamp = solve_stamp_;
    s.local = static_cast<std::uint32_t>(local_links_.size());
    local_links_.push_back(l);
  }
  return s.local;
}

void IncrementalMaxMin::number_next() {
  const std::size_t k = numbered_++;
  const std::uint32_t v = set_[k];
  // What the next variables need is requested now, in stages, so that it arrives while this one is
  // numbered (otherwise three dependent cache misses per variable: its range, its links, their
  // records): the records of the next variable's links, the links of the one after, the range of
  // the fourth.
  const std::size_t size = set_.size();
  if (k + 1 < size)
    for (const LinkId l : links_of(set_[k + 1])) __builtin_prefetch(&link_[l]);
  if (k + 2 < size) __builtin_prefetch(inc_base_ + range_of(set_[k + 2]).first);
  if (k + 4 < size)
    __builtin_prefetch(held_ ? static_cast<const void*>(&held_offsets_[set_[k + 4]])
                             : static_cast<const void*>(&var_links_[set_[k + 4]]));
  for (const LinkId l : links_of(v)) set_local_link_.push_back(local_of(l));
  set_incidence_offsets_.push_back(static_cast<std::uint32_t>(set_local_link_.size()));
}

void IncrementalMaxMin::number_set() {
  while (numbered_ < set_.size()) number_next();
}

void IncrementalMaxMin::end_batch() {
  pending_new_.clear();
  pending_links_.clear();
  pending_saturated_.clear();
  pending_capacity_.clear();
  pending_capacity_cut_.clear();
  floor_level_ = kNoFloor;
}

// A link's weight sum is kept by subtracting the weights of the variables that freeze, so its
// rounding error stays that of the largest sum it held: about 2^-53 of weight_summed_ per
// operation. Relative to what is left that error grows as the sum falls; with weights far apart
// (2^53, 1 and 1 on one link) the sum left can round to 0 or below while variables remain, and a
// share would come out infinite or negative. Once the sum has fallen below 2^-10 of the sum last
// summed, it is summed again from the link's unfrozen variables, so the error stays within about
// 2^-43 of what is left per operation. A link's sum is summed again at most once per 2^10 fall,
// at the cost of its variables: a small constant factor on the filling at most.
double IncrementalMaxMin::unfrozen_weight(std::uint32_t li) {
  if (weight_sum_[li] >= weight_summed_[li] * 0x1p-10) return weight_sum_[li];
  double sum = 0;
  for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1]; ++k)
    if (!frozen_[local_vars_[k]]) sum += weight_[set_[local_vars_[k]]];
  weight_sum_[li] = weight_summed_[li] = sum;
  return sum;
}

// Progressive filling of the variables in set_ on the residual capacities (capacity minus the rates of
// the active variables outside the set). Links in a min-heap keyed by fair share = residual / weight of
// the unfrozen variables; shares only grow as variables freeze, so stale keys are refreshed when popped.
void IncrementalMaxMin::solve_set() {
  ++stats_.rounds;
  number_set();  // S only grows within an update: the variables added since the last round
  const std::size_t n = local_links_.size();
  // The common case at light load: one variable, its tightest link (a path that crosses a link twice
  // takes twice its rate there: left to the general filling).
  if (set_.size() == 1 && n > 0 && n == set_local_link_.size()) {
    const std::uint32_t v = set_[0];
    double tightest = std::numeric_limits<double>::infinity();
    residual_.resize(n);
    for (std::size_t li = 0; li < n; ++li) {
      residual_[li] = std::max(0.0, link_[local_links_[li]].capacity - link_[local_links_[li]].load + rate_[v]);
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
  for (std::size_t li = 0; li < n; ++li)
    residual_[li] = link_[local_links_[li]].capacity - link_[local_links_[li]].load;
  for (std::size_t k = 0; k < set_.size(); ++k) {
    const std::uint32_t v = set_[k];
    const double rate = rate_[v], weight = weight_[v];
    for (std::uint32_t j = set_incidence_offsets_[k]; j < set_incidence_offsets_[k + 1]; ++j) {
      const std::uint32_t li = set_local_link_[j];
      residual_[li] += rate;  // the set's own current rates are not fixed
      weight_sum_[li] += weight;
      ++local_var_offsets_[li + 1];
    }
  }
  for (std::size_t li = 0; li < n; ++li) local_var_offsets_[li + 1] += local_var_offsets_[li];
  weight_summed_.assign(weight_sum_.begin(), weight_sum_.end());
  local_vars_.resize(local_var_offsets_[n]);
  cursor_.assign(local_var_offsets_.begin(), local_var_offsets_.end() - 1);
  for (std::uint32_t k = 0; k < set_.size(); ++k)
    for (std::uint32_t j = set_incidence_offsets_[k]; j < set_incidence_offsets_[k + 1]; ++j)
      local_vars_[cursor_[set_local_link_[j]]++] = k;
  frozen_.assign(set_.size(), 0);
  bottleneck_.assign(n, 0);
  freeze_level_.resize(n);
  std::vector<std::uint32_t>& unfrozen = unfrozen_;
  unfrozen.resize(n);
  for (std::size_t li = 0; li < n; ++li) unfrozen[li] = local_var_offsets_[li + 1] - local_var_offsets_[li];
  heap_.clear();
  const auto share = [&](std::uint32_t li) { return std::max(0.0, residual_[li]) / unfrozen_weight(li); };
  // The smallest share first, so that the links go straight to their buckets relative to it, not
  // all into the top bucket relative to 0 (which the first pop would sort out, moving every one).
  double lowest = std::numeric_limits<double>::infinity();
  for (std::uint32_t li = 0; li < n; ++li) lowest = std::min(lowest, share(li));
  heap_.raise_floor(lowest);
  for (std::uint32_t li = 0; li < n; ++li) heap_.push(share(li), li);
  std::size_t open = set_.size();  // variables of S not frozen yet
  for (std::uint32_t k = 0; k < set_.size(); ++k)
    if (range_of(set_[k]).count == 0) {  // no link: nothing limits it
      new_rate_[set_[k]] = std::numeric_limits<double>::infinity();
      frozen_[k] = 1;
      --open;
    }
  // Once every variable is frozen, the links left in the heap can freeze nothing: the filling ends
  // there instead of popping them (most of a contended batch's links, each moved down the heap's
  // buckets on the way).
  // A link is stale when its share grew since it was keyed (beyond rounding), dead when every
  // variable on it froze. The heap's refills re-key the stale links and drop the dead ones they move
  // (most of the links of a contended batch die before their turn); the pops check again.
  const auto is_stale = [](double now, double key) { return now > key * (1 + 1e-12) + 1e-300; };
  const auto review = [&](std::uint32_t li, double key) {
    if (unfrozen[li] == 0) return -1.0;
    const double now = share(li);
    return is_stale(now, key) ? now : key;
  };
  double key;
  std::uint32_t li;
  while (open > 0 && heap_.pop_reviewed(key, li, review)) {
    if (unfrozen[li] == 0) continue;
    const double now = share(li);
    if (is_stale(now, key)) {  // re-key (shares only grow, so the heap stays monotone)
      heap_.push(now, li);
      continue;
    }
    bottleneck_[li] = 1;
    freeze_level_[li] = now;
    for (std::uint32_t k = local_var_offsets_[li]; k < local_var_offsets_[li + 1]; ++k) {
      const std::uint32_t idx = local_vars_[k];
      if (frozen_[idx]) continue;
      frozen_[idx] = 1;
      --open;
      const std::uint32_t v = set_[idx];
      const double r = weight_[v] * now;
      new_rate_[v] = r;
      for (std::uint32_t j = set_incidence_offsets_[idx]; j < set_incidence_offsets_[idx + 1]; ++j) {
        const std::uint32_t lj = set_local_link_[j];
        residual_[lj] -= r;
        weight_sum_[lj] -= weight_[v];
        --unfrozen[lj];
      }
    }
  }
}

}  // namespace interflow::maxmin
