#include "engine/maxmin/grouped_maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/free_lists.hpp"
#include "engine/maxmin/incremental_rules.hpp"

namespace interflow::maxmin {

using namespace rules;  // the tolerances and bounds of the variable solver, for the same rules

GroupedMaxMin::GroupedMaxMin(std::span<const double> capacity)
    : initial_capacity_(capacity.begin(), capacity.end()) {
  link_.resize(capacity.size());
  link_pairs_.resize(capacity.size());
  for (LinkId l = 0; l < capacity.size(); ++l) {
    link_[l].capacity = capacity[l];
    link_[l].saturation = saturation_of(l);
    max_capacity_ = std::max(max_capacity_, capacity[l]);
  }
}

GroupedMaxMin::GroupedMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                             std::span<const LinkId> links, std::span<const double> weight)
    : GroupedMaxMin(capacity) {
  held_ = true;
  held_offsets_ = var_offsets;
  weight_ = weight.data();
  if (links.size() >= kNone)
    throw InputError("the paths have " + std::to_string(links.size()) +
                     " links in all; the dynamic engine handles fewer than 2^32 (lower --max-path-memory)");
  inc_base_ = links.data();
  inc_pair_.assign(links.size(), kNone);
  inc_next_.assign(links.size(), kNone);
  inc_prev_.assign(links.size(), kNone);
  inc_var_.resize(links.size());
  for (std::uint32_t v = 0; v + 1 < var_offsets.size(); ++v)
    for (std::uint64_t e = var_offsets[v]; e < var_offsets[v + 1]; ++e) inc_var_[e] = v;
  grow_variables(weight.size());
}

double GroupedMaxMin::saturation_of(LinkId l) const {
  return saturation(link_[l].capacity, initial_capacity_[l]);
}

void GroupedMaxMin::grow_variables(std::size_t vars) {
  if (vars <= group_of_.size()) return;
  group_of_.resize(vars, kNone);
  member_pos_.resize(vars, 0);
  followed_.resize(vars, 0);
  var_mark_.resize(vars, 0);
  if (held_) return;
  own_weight_.resize(vars, 0.0);
  weight_ = own_weight_.data();
  var_links_.resize(vars);
  list_position_.resize(vars, 0);
}

void GroupedMaxMin::check_weight(double weight) {
  rules::check_weight(weight, "grouped max-min");
  lightest_ = std::min(lightest_, weight);
  heaviest_ = std::max(heaviest_, weight);
}

void GroupedMaxMin::set_capacity(LinkId l, double capacity) {
  capacity = std::max(0.0, capacity);
  if (capacity == link_[l].capacity) return;
  const bool was_saturated = saturated(l);
  const double old_capacity = link_[l].capacity;
  link_[l].capacity = capacity;
  link_[l].saturation = saturation_of(l);
  if (!was_saturated && !saturated(l)) return;
  pending_capacity_.push_back(l);
  pending_capacity_cut_.push_back(capacity < old_capacity);
  if (link_[l].count > 0) lower_floor(std::min(capacity, old_capacity) / link_[l].weight);
}

// ---- Activation and the arena ----

void GroupedMaxMin::activate(std::uint32_t var) {
  if (!held_) throw std::logic_error("GroupedMaxMin::activate(var): no paths given, give the links");
  if (active(var)) return;
  check_weight(weight_[var]);
  attach(var);
}

void GroupedMaxMin::activate(std::uint32_t var, std::span<const LinkId> links, double weight) {
  if (held_) throw std::logic_error("GroupedMaxMin::activate(var, links): the paths are held, use activate(var)");
  grow_variables(std::size_t{var} + 1);
  if (active(var)) return;
  check_weight(weight);
  own_weight_[var] = weight;
  place_links(var, links);
  attach(var);
}

void GroupedMaxMin::place_links(std::uint32_t var, std::span<const LinkId> links) {
  const std::size_t garbage = inc_link_.size() - inc_live_;
  if (garbage > garbage_at_least_ && 2 * garbage > inc_link_.size()) compact_arena();
  if (inc_link_.size() + links.size() >= kNone) {
    compact_arena();
    if (inc_link_.size() + links.size() >= kNone)
      throw InputError("the paths of the flows in transfer have " + std::to_string(inc_link_.size() + links.size()) +
                       " links in all; the dynamic engine handles fewer than 2^32");
  }
  const auto first = static_cast<std::uint32_t>(inc_link_.size());
  inc_link_.insert(inc_link_.end(), links.begin(), links.end());
  inc_pair_.resize(inc_link_.size(), kNone);
  inc_next_.resize(inc_link_.size(), kNone);
  inc_prev_.resize(inc_link_.size(), kNone);
  inc_var_.resize(inc_link_.size(), var);
  inc_base_ = inc_link_.data();
  var_links_[var] = {first, static_cast<std::uint32_t>(links.size())};
  inc_live_ += links.size();
}

void GroupedMaxMin::compact_arena() {
  // The live incidences move to the front in the order of active_list_; the pairs' lists are
  // renumbered through the map from old to new numbers.
  std::vector<std::uint32_t> renumber(inc_link_.size(), kNone);
  std::uint32_t next = 0;
  for (std::uint32_t v : active_list_)
    for (std::uint32_t i = 0; i < var_links_[v].count; ++i) renumber[var_links_[v].first + i] = next++;
  const auto moved = [&](std::uint32_t e) { return e == kNone ? kNone : renumber[e]; };
  std::vector<LinkId> links(next);
  std::vector<std::uint32_t> pairs(next), succ(next), pred(next), vars(next);
  for (std::uint32_t v : active_list_) {
    VarLinks& r = var_links_[v];
    for (std::uint32_t i = 0; i < r.count; ++i) {
      const std::uint32_t e = r.first + i, to = renumber[e];
      links[to] = inc_link_[e];
      pairs[to] = inc_pair_[e];
      succ[to] = moved(inc_next_[e]);
      pred[to] = moved(inc_prev_[e]);
      vars[to] = v;
      if (inc_prev_[e] == kNone) pair_[inc_pair_[e]].head = to;
    }
    r.first = r.count == 0 ? 0 : renumber[r.first];
  }
  inc_link_ = std::move(links);
  inc_pair_ = std::move(pairs);
  inc_next_ = std::move(succ);
  inc_prev_ = std::move(pred);
  inc_var_ = std::move(vars);
  inc_base_ = inc_link_.data();
}

void GroupedMaxMin::attach(std::uint32_t var) {
  if (fresh_group_ == kNone) {
    fresh_group_ = new_group();
    group_[fresh_group_].fresh = true;
  }
  if (!held_) {
    list_position_[var] = static_cast<std::uint32_t>(active_list_.size());
    active_list_.push_back(var);
  }
  add_member(fresh_group_, var);
  for (const LinkId l : links_of(var)) {
    link_[l].weight += weight_[var];
    ++link_[l].count;
  }
}

void GroupedMaxMin::deactivate(std::uint32_t var) {
  if (!active(var)) return;
  const double rate_now = rate(var);
  for (const LinkId l : links_of(var)) {
    LinkState& s = link_[l];
    --s.count;
    s.weight = s.count == 0 ? 0.0 : s.weight - weight_[var];
    pending_links_.push_back(l);
    pending_saturated_.push_back(rate_now > 0 && saturated(l));
    if (track_loads_ && rate_now != 0) load_changes_.push_back(l);
    if (std::isfinite(rate_now)) s.load = s.count == 0 ? 0.0 : std::max(0.0, s.load - rate_now);
  }
  const std::uint32_t g = group_of_[var];
  drop_member(var);
  if (group_[g].members.empty() && g != fresh_group_) free_group(g);
  if (!held_) {
    const std::uint32_t last = active_list_.back();
    active_list_[list_position_[var]] = last;
    list_position_[last] = list_position_[var];
    active_list_.pop_back();
    inc_live_ -= var_links_[var].count;
    var_links_[var].count = 0;
  }
  if (rate_now > 0) lower_floor(rate_now / weight_[var]);
}

// ---- Groups and pairs ----

std::uint32_t GroupedMaxMin::new_group() {
  const std::uint32_t g = take_number(group_, free_groups_);
  Group& G = group_[g];
  G.alive = true;
  G.frozen = G.fresh = false;
  G.level = G.new_level = 0;
  G.in_set = G.changed_mark = 0;
  return g;
}

void GroupedMaxMin::free_group(std::uint32_t g) {
  Group& G = group_[g];
  G.alive = false;
  G.members.clear();
  G.pairs.clear();
  G.in_set = 0;
  G.unfollowed = 0;
  free_groups_.push_back(g);
}

// The pairs by (group, link): core/id_index.hpp, with a hint per link (the pair found last).
std::uint32_t GroupedMaxMin::find_pair(std::uint32_t g, LinkId l) {
  const std::uint32_t hint = link_[l].hint;
  if (hint != kNone && pair_[hint].group == g && pair_[hint].link == l) return hint;
  const std::uint32_t p =
      index_.find(key_hash(g, l), [&](std::uint32_t q) { return pair_[q].group == g && pair_[q].link == l; });
  if (p != kNone) link_[l].hint = p;
  return p;
}

std::uint32_t GroupedMaxMin::pair_of(std::uint32_t g, LinkId l) {
  const std::uint32_t found = find_pair(g, l);
  if (found != kNone) return found;
  const std::uint32_t p = take_number(pair_, free_pairs_);
  Pair& P = pair_[p];
  P.group = g;
  P.link = l;
  P.count = P.distinct = 0;
  P.weight = P.peak = 0;
  P.head = kNone;
  list_in_group(p, g);
  P.at_link = static_cast<std::uint32_t>(link_pairs_[l].size());
  link_pairs_[l].push_back(p);
  link_[l].hint = p;
  ++live_pairs_;
  return p;
}

void GroupedMaxMin::unlist_from_group(std::uint32_t p) {
  index_.erase(p, [&](std::uint32_t q) { return key_hash(pair_[q].group, pair_[q].link); });
  const Pair& P = pair_[p];
  std::vector<std::uint32_t>& list = group_[P.group].pairs;
  pair_[list.back()].at_group = P.at_group;
  list[P.at_group] = list.back();
  list.pop_back();
}

void GroupedMaxMin::list_in_group(std::uint32_t p, std::uint32_t g) {
  pair_[p].group = g;
  pair_[p].at_group = static_cast<std::uint32_t>(group_[g].pairs.size());
  group_[g].pairs.push_back(p);
  index_.insert(p, [&](std::uint32_t q) { return key_hash(pair_[q].group, pair_[q].link); });
}

void GroupedMaxMin::free_pair(std::uint32_t p) {
  unlist_from_group(p);
  Pair& P = pair_[p];
  std::vector<std::uint32_t>& of_link = link_pairs_[P.link];
  pair_[of_link.back()].at_link = P.at_link;
  of_link[P.at_link] = of_link.back();
  of_link.pop_back();
  if (link_[P.link].hint == p) link_[P.link].hint = kNone;
  P.group = kNone;
  P.head = kNone;
  free_pairs_.push_back(p);
  --live_pairs_;
}

void GroupedMaxMin::add_incidence(std::uint32_t p, std::uint32_t var, std::uint32_t e, bool first) {
  Pair& P = pair_[p];
  inc_pair_[e] = p;
  inc_prev_[e] = kNone;
  inc_next_[e] = P.head;
  if (P.head != kNone) inc_prev_[P.head] = e;
  P.head = e;
  ++P.count;
  if (first) ++P.distinct;
  P.weight += weight_[var];
  P.peak = std::max(P.peak, P.weight);
}

// A pair's weight is kept by subtracting the weights of the members that leave, so its rounding error
// stays that of the largest sum it held; once what is left falls below 2^-10 of that, it is summed
// again from its members (as IncrementalMaxMin::unfrozen_weight does for a link), at most once per
// 2^10 fall: a constant factor on the removals.
void GroupedMaxMin::remove_incidence(std::uint32_t e, bool first) {
  const std::uint32_t p = inc_pair_[e];
  Pair& P = pair_[p];
  const std::uint32_t before = inc_prev_[e], after = inc_next_[e];
  if (before == kNone)
    P.head = after;
  else
    inc_next_[before] = after;
  if (after != kNone) inc_prev_[after] = before;
  inc_pair_[e] = kNone;
  --P.count;
  if (first) --P.distinct;
  if (P.count == 0) {
    free_pair(p);
    return;
  }
  P.weight -= weight_[inc_var_[e]];
  if (P.weight < P.peak * 0x1p-10) {
    double sum = 0;
    for (std::uint32_t k = P.head; k != kNone; k = inc_next_[k]) sum += weight_[inc_var_[k]];
    P.weight = P.peak = sum;
  }
}

void GroupedMaxMin::set_followed(std::uint32_t var, bool on) {
  grow_variables(std::size_t{var} + 1);
  if (active(var)) throw std::logic_error("GroupedMaxMin::set_followed: the variable is active");
  followed_[var] = on ? 1 : 0;
}

void GroupedMaxMin::add_member(std::uint32_t g, std::uint32_t var) {
  group_of_[var] = g;
  if (!followed_[var]) ++group_[g].unfollowed;
  member_pos_[var] = static_cast<std::uint32_t>(group_[g].members.size());
  group_[g].members.push_back(var);
  walk_path(var, [&](std::uint32_t e, LinkId l, bool first) { add_incidence(pair_of(g, l), var, e, first); });
}

void GroupedMaxMin::drop_member(std::uint32_t var) {
  const std::uint32_t g = group_of_[var];
  std::vector<std::uint32_t>& members = group_[g].members;
  const std::uint32_t at = member_pos_[var];
  members[at] = members.back();
  member_pos_[members[at]] = at;
  members.pop_back();
  if (!followed_[var]) --group_[g].unfollowed;
  group_of_[var] = kNone;
  walk_path(var, [&](std::uint32_t e, LinkId, bool first) { remove_incidence(e, first); });
}

void GroupedMaxMin::move_member(std::uint32_t var, std::uint32_t to) {
  drop_member(var);
  add_member(to, var);
  if (followed_[var]) moved_.push_back(var);
}

void GroupedMaxMin::splice(std::uint32_t from, std::uint32_t to) {
  Pair& F = pair_[from];
  Pair& T = pair_[to];
  std::uint32_t last = kNone;
  for (std::uint32_t e = F.head; e != kNone; e = inc_next_[e]) {
    inc_pair_[e] = to;
    last = e;
  }
  if (last != kNone) {
    inc_next_[last] = T.head;
    if (T.head != kNone) inc_prev_[T.head] = last;
    T.head = F.head;
  }
  T.count += F.count;
  T.distinct += F.distinct;
  T.weight += F.weight;
  T.peak = std::max(T.peak, T.weight);
  F.head = kNone;
  F.count = 0;
}

void GroupedMaxMin::merge(std::uint32_t into, std::uint32_t from) {
  scratch_.assign(group_[from].pairs.begin(), group_[from].pairs.end());
  for (const std::uint32_t q : scratch_) {
    const LinkId l = pair_[q].link;
    const std::uint32_t p = find_pair(into, l);
    if (p != kNone) {  // the shorter list is spliced into the longer
      const bool keep_q = pair_[q].count > pair_[p].count;
      splice(keep_q ? p : q, keep_q ? q : p);
      free_pair(keep_q ? p : q);
      if (!keep_q) continue;
    }
    // q changes group (its incidences stay where they are)
    unlist_from_group(q);
    list_in_group(q, into);
  }
  for (const std::uint32_t v : group_[from].members) {
    group_of_[v] = into;
    member_pos_[v] = static_cast<std::uint32_t>(group_[into].members.size());
    group_[into].members.push_back(v);
    if (followed_[v]) moved_.push_back(v);
  }
  group_[into].unfollowed += group_[from].unfollowed;
  free_group(from);
}

// ---- The rules ----

bool GroupedMaxMin::at_least(std::uint32_t g, double level) const {
  // IncrementalMaxMin::at_least per member: rate >= level × w - max(1e-6 × level × w, kRelative × C).
  // In levels the absolute margin is largest for the lightest weight, which includes most.
  const double lambda = group_[g].level;
  return lambda >= level - std::max(1e-6 * level, kRelative * max_capacity_ / lightest_);
}

bool GroupedMaxMin::above(std::uint32_t g, double level) const {
  // IncrementalMaxMin::above per member; the absolute margin is smallest for the heaviest weight.
  return group_[g].level > level + kTie * level + kTieAbsolute * max_capacity_ / heaviest_;
}

void GroupedMaxMin::add_to_set(std::uint32_t g) {
  Group& G = group_[g];
  if (G.in_set == stamp_) return;
  G.in_set = stamp_;
  set_.push_back(g);
  set_pairs_ += G.pairs.size();
}

void GroupedMaxMin::add_top(LinkId l) {
  if (link_[l].walked == stamp_) return;
  link_[l].walked = stamp_;
  double top = 0;
  for (const std::uint32_t p : link_pairs_[l]) top = std::max(top, group_[pair_[p].group].level);
  for (const std::uint32_t p : link_pairs_[l]) {
    const std::uint32_t g = pair_[p].group;
    if (at_least(g, top) && at_least(g, floor_level_)) add_to_set(g);
  }
}

void GroupedMaxMin::add_from(LinkId l, double level) {
  for (const std::uint32_t p : link_pairs_[l])
    if (at_least(pair_[p].group, level)) add_to_set(pair_[p].group);
}

void GroupedMaxMin::add_above(LinkId l, double level) {
  LinkState& s = link_[l];
  if (s.above_stamp == stamp_ && s.above_level <= level) return;
  s.above_stamp = stamp_;
  s.above_level = level;
  for (const std::uint32_t p : link_pairs_[l])
    if (above(pair_[p].group, level)) add_to_set(pair_[p].group);
}

// ---- The update ----

void GroupedMaxMin::update() {
  if (heaviest_ > lightest_ * kWeightSpread) {
    ++stats_.spread_solves;
    solve_all();
    return;
  }
  ++stats_.updates;
  if (!seed_set()) {
    end_batch();
    return;
  }
  const std::size_t bound = kCloseFactor * set_pairs_ + kCloseAtLeast;
  const bool bounded = closure_score_ <= 0;
  close_limit_ = bounded ? bound : std::numeric_limits<std::size_t>::max();
  const std::size_t closed = close_set();
  const bool beyond = bounded ? numbered_ < set_.size() : closed > bound;
  const std::size_t first = set_pairs_;
  const std::uint64_t rounds_before = stats_.rounds, solved_before = stats_.solved_vars;
  solve_until_closed();
  for (const std::uint32_t g : set_) stats_.solved_vars += group_[g].members.size();
  const std::uint64_t changed_before = stats_.changed_vars;
  commit(kRateChange);
  const std::uint64_t changed = stats_.changed_vars - changed_before;
  if (beyond) learn_closure_bound(bounded, bound, first, changed);
  if (stats_.rounds - rounds_before > 1) later_closures_.learn(stats_.solved_vars - solved_before, changed);
  merge_frozen();
  end_batch();
}

void GroupedMaxMin::begin_update() {
  ++stamp_;
  set_.clear();
  set_pairs_ = 0;
  changed_.clear();
  moved_.clear();
  level_changed_.clear();
  level_changed_members_.clear();
  begin_numbering();
}

bool GroupedMaxMin::seed_set() {
  begin_update();
  if (fresh_group_ != kNone) {
    const Group& F = group_[fresh_group_];
    if (F.members.empty()) {
      free_group(fresh_group_);
      fresh_group_ = kNone;
    } else {
      // A newcomer gets at least the smallest C / W of its links: filling below that is unchanged.
      for (const std::uint32_t p : F.pairs) {
        const LinkState& s = link_[pair_[p].link];
        lower_floor(s.capacity / s.weight);
      }
      add_to_set(fresh_group_);
    }
  }
  for (std::size_t i = 0; i < pending_links_.size(); ++i)
    if (pending_saturated_[i]) add_top(pending_links_[i]);
  for (std::size_t i = 0; i < pending_capacity_.size(); ++i)
    if (pending_capacity_cut_[i])
      add_from(pending_capacity_[i], floor_level_);
    else
      add_top(pending_capacity_[i]);
  return !set_.empty();
}

std::size_t GroupedMaxMin::close_set() {
  while (numbered_ < set_.size() && set_pairs_ < close_limit_) {
    const std::uint32_t g = set_[numbered_++];
    number_group(g);
    for (const std::uint32_t p : group_[g].pairs) {
      const LinkId l = pair_[p].link;
      if (link_[l].walked != stamp_ && saturated(l)) add_top(l);
    }
  }
  const std::size_t closed = set_pairs_;
  if (2 * set_pairs_ > live_pairs_)
    for (std::uint32_t g = 0; g < group_.size(); ++g)
      if (group_[g].alive && at_least(g, floor_level_)) add_to_set(g);
  return closed;
}

void GroupedMaxMin::learn_closure_bound(bool bounded, std::size_t bound, std::size_t first, std::uint64_t changed) {
  // As IncrementalMaxMin::learn_closure_bound, with S measured in pairs; `changed` counts every
  // variable whose rate changed, followed or not (changed() leaves the followed ones out).
  const bool against_bound = bounded ? set_pairs_ > first && set_pairs_ > 2 * bound : changed > bound;
  closure_score_ = std::clamp(closure_score_ + (against_bound ? 1 : -1), -kClosureScoreMax, kClosureScoreMax);
}

void GroupedMaxMin::solve_until_closed() {
  for (;;) {
    solve_set();
    const std::size_t before = set_.size();
    bring_in_affected();
    if (set_.size() == before) return;
    close_limit_ = later_closures_.taken() ? std::numeric_limits<std::size_t>::max() : set_pairs_;
    close_set();
  }
}

void GroupedMaxMin::bring_in_affected() {
  for (const std::uint32_t g : set_) {
    Group& G = group_[g];
    const double d = G.new_level - G.level;
    const bool changed = G.fresh || (G.new_level != G.level &&
                                     std::abs(d) > kRateChange * std::max(1.0 / heaviest_, std::abs(G.level)));
    if (changed) G.changed_mark = round_;
  }
  // The local links that a changed group crosses, marked from the groups' pairs.
  const std::size_t n = local_links_.size();
  link_changed_.assign(n, 0);
  for (const std::uint32_t g : set_)
    if (group_[g].changed_mark == round_)
      for (const std::uint32_t p : group_[g].pairs) link_changed_[link_[pair_[p].link].local] = 1;
  for (std::size_t li = 0; li < n; ++li) {
    const LinkId l = local_links_[li];
    if (bottleneck_[li]) add_above(l, freeze_level_[li]);
    if (link_changed_[li] && saturated(l)) add_top(l);
  }
}

void GroupedMaxMin::begin_numbering() {
  ++solve_stamp_;
  local_links_.clear();
  numbered_ = 0;
}

std::uint32_t GroupedMaxMin::local_of(LinkId l) {
  LinkState& s = link_[l];
  if (s.solve_stamp != solve_stamp_) {
    s.solve_stamp = solve_stamp_;
    s.local = static_cast<std::uint32_t>(local_links_.size());
    local_links_.push_back(l);
  }
  return s.local;
}

void GroupedMaxMin::number_group(std::uint32_t g) {
  for (const std::uint32_t p : group_[g].pairs) local_of(pair_[p].link);
}

// ---- The filling ----

void GroupedMaxMin::solve_set() {
  ++stats_.rounds;
  ++round_;
  while (numbered_ < set_.size()) number_group(set_[numbered_++]);
  start_filling();
  const auto share = [&](std::uint32_t li) { return std::max(0.0, residual_[li]) / unfrozen_weight(li); };
  const auto is_stale = [](double now, double key) { return now > key * (1 + 1e-12) + 1e-300; };
  const auto review = [&](std::uint32_t li, double key) {
    if (unfrozen_[li] == 0) return -1.0;
    const double now = share(li);
    return is_stale(now, key) ? now : key;
  };
  double key;
  std::uint32_t li;
  while (open_ > 0 && heap_.pop_reviewed(key, li, review)) {
    if (unfrozen_[li] == 0) continue;
    const double now = share(li);
    if (is_stale(now, key)) {
      heap_.push(now, li);
      continue;
    }
    bottleneck_[li] = 1;
    freeze_level_[li] = now;
    ++pops_;
    freeze_link(local_links_[li], now);
  }
  // What is left unfrozen crosses no link: nothing limits it.
  for (const std::uint32_t g : set_)
    if (!group_[g].frozen) {
      group_[g].frozen = true;
      group_[g].new_level = std::numeric_limits<double>::infinity();
    }
}

void GroupedMaxMin::start_filling() {
  const std::size_t n = local_links_.size();
  residual_.resize(n);
  weight_sum_.assign(n, 0.0);
  unfrozen_.assign(n, 0);
  bottleneck_.assign(n, 0);
  freeze_level_.resize(n);
  for (std::size_t li = 0; li < n; ++li)
    residual_[li] = link_[local_links_[li]].capacity - link_[local_links_[li]].load;
  open_ = 0;
  for (const std::uint32_t g : set_) {
    Group& G = group_[g];
    G.frozen = false;
    ++open_;
    for (const std::uint32_t p : G.pairs) {
      const Pair& P = pair_[p];
      const std::uint32_t lj = link_[P.link].local;
      if (std::isfinite(G.level)) residual_[lj] += P.weight * G.level;  // S's own rates are not fixed
      weight_sum_[lj] += P.weight;
      unfrozen_[lj] += P.count;
    }
  }
  weight_summed_.assign(weight_sum_.begin(), weight_sum_.end());
  heap_.clear();
  double lowest = std::numeric_limits<double>::infinity();
  for (std::uint32_t li = 0; li < n; ++li)
    if (unfrozen_[li] > 0) lowest = std::min(lowest, std::max(0.0, residual_[li]) / unfrozen_weight(li));
  heap_.raise_floor(lowest);
  for (std::uint32_t li = 0; li < n; ++li)
    if (unfrozen_[li] > 0) heap_.push(std::max(0.0, residual_[li]) / unfrozen_weight(li), li);
}

// As IncrementalMaxMin::unfrozen_weight: summed again from the unfrozen pairs of S once it has fallen
// below 2^-10 of the sum last summed.
double GroupedMaxMin::unfrozen_weight(std::uint32_t li) {
  if (weight_sum_[li] >= weight_summed_[li] * 0x1p-10) return weight_sum_[li];
  double sum = 0;
  for (const std::uint32_t p : link_pairs_[local_links_[li]]) {
    const Group& G = group_[pair_[p].group];
    if (G.in_set == stamp_ && !G.frozen) sum += pair_[p].weight;
  }
  weight_sum_[li] = weight_summed_[li] = sum;
  return sum;
}

void GroupedMaxMin::freeze_link(LinkId l, double level) {
  // The pairs change as groups split: the unfrozen groups of S on the link are listed first.
  freezing_.clear();
  for (const std::uint32_t p : link_pairs_[l]) {
    const Group& G = group_[pair_[p].group];
    if (G.in_set == stamp_ && !G.frozen) freezing_.push_back(p);
  }
  for (const std::uint32_t p : freezing_) {
    const std::uint32_t g = pair_[p].group;
    if (pair_[p].distinct == group_[g].members.size())
      freeze_group(g, level);
    else
      split_and_freeze(g, p, level);
  }
}

void GroupedMaxMin::split_and_freeze(std::uint32_t g, std::uint32_t p, double level) {
  // The members crossing the link freeze, the others stay unfrozen: whichever part is smaller moves
  // to a new group (its paths read), the larger keeps g.
  ++walk_;
  std::size_t crossing = 0;
  for (std::uint32_t e = pair_[p].head; e != kNone; e = inc_next_[e])
    if (var_mark_[inc_var_[e]] != walk_) {
      var_mark_[inc_var_[e]] = walk_;
      ++crossing;
    }
  const std::uint32_t mark = walk_;
  const std::uint32_t h = new_group();  // new_group may move group_: no references held across it
  group_[h].level = group_[g].level;
  group_[h].fresh = group_[g].fresh;
  group_[h].in_set = stamp_;
  set_.push_back(h);
  ++numbered_;  // its links are some of g's, numbered already
  ++open_;      // unfrozen until one part freezes below
  std::uint32_t frozen_part;
  scratch_members_.clear();
  if (2 * crossing <= group_[g].members.size()) {
    // Each crossing member once (a path may cross the link twice): unmarked as it is listed.
    for (std::uint32_t e = pair_[p].head; e != kNone; e = inc_next_[e])
      if (var_mark_[inc_var_[e]] == mark) {
        var_mark_[inc_var_[e]] = mark - 1;
        scratch_members_.push_back(inc_var_[e]);
      }
    frozen_part = h;
  } else {
    for (const std::uint32_t v : group_[g].members)
      if (var_mark_[v] != mark) scratch_members_.push_back(v);
    frozen_part = g;
  }
  for (const std::uint32_t v : scratch_members_) move_member(v, h);
  set_pairs_ += group_[h].pairs.size();
  freeze_group(frozen_part, level);
  const std::uint32_t unfrozen_part = frozen_part == h ? g : h;
  if (group_[unfrozen_part].pairs.empty()) {  // what is left crosses no link
    group_[unfrozen_part].frozen = true;
    group_[unfrozen_part].new_level = std::numeric_limits<double>::infinity();
    --open_;
  }
}

void GroupedMaxMin::freeze_group(std::uint32_t g, double level) {
  Group& G = group_[g];
  G.frozen = true;
  G.new_level = level;
  G.pop = pops_;
  --open_;
  for (const std::uint32_t p : G.pairs) {
    const Pair& P = pair_[p];
    const std::uint32_t lj = link_[P.link].local;
    residual_[lj] -= P.weight * level;
    weight_sum_[lj] -= P.weight;
    unfrozen_[lj] -= P.count;
  }
}

// ---- After the filling ----

void GroupedMaxMin::commit(double tolerance) {
  // Load changes are summed per local link first (a part split off a group during the update carries
  // the group's level from before it, the one the loads hold).
  load_delta_.assign(local_links_.size(), 0.0);
  for (const std::uint32_t g : set_) {
    Group& G = group_[g];
    G.fresh = false;
    if (G.new_level == G.level) continue;
    const double d = G.new_level - G.level;
    if (std::abs(d) <= tolerance * std::max(1.0 / heaviest_, std::abs(G.level)) && !(G.level == 0 && G.new_level > 0))
      continue;
    if (std::isfinite(G.new_level))
      for (const std::uint32_t p : G.pairs) load_delta_[link_[pair_[p].link].local] += pair_[p].weight * d;
    G.level = G.new_level;
    level_changed_.push_back(g);
    level_changed_members_.push_back(static_cast<std::uint32_t>(G.members.size()));
    stats_.changed_vars += G.members.size();
    if (G.unfollowed == G.members.size())
      changed_.insert(changed_.end(), G.members.begin(), G.members.end());
    else if (G.unfollowed > 0)
      for (const std::uint32_t v : G.members)
        if (!followed_[v]) changed_.push_back(v);
  }
  for (std::size_t li = 0; li < local_links_.size(); ++li)
    if (load_delta_[li] != 0) {
      LinkState& s = link_[local_links_[li]];
      s.load = std::max(0.0, s.load + load_delta_[li]);
      if (track_loads_) load_changes_.push_back(local_links_[li]);
    }
}

void GroupedMaxMin::merge_frozen() {
  // Groups frozen at one pop share its level bit for bit (if their commits kept it); the largest of
  // them takes in the others.
  std::vector<std::uint32_t>& order = merge_order_;  // (merge uses scratch_)
  order.clear();
  for (const std::uint32_t g : set_)
    if (group_[g].alive && group_[g].frozen && group_[g].level == group_[g].new_level &&
        std::isfinite(group_[g].level))
      order.push_back(g);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (group_[a].pop != group_[b].pop) return group_[a].pop < group_[b].pop;
    if (group_[a].members.size() != group_[b].members.size())
      return group_[a].members.size() > group_[b].members.size();
    return a < b;
  });
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && group_[order[j]].pop == group_[order[i]].pop) ++j;
    for (std::size_t k = i + 1; k < j; ++k)
      if (group_[order[k]].level == group_[order[i]].level) merge(order[i], order[k]);
    i = j;
  }
}

void GroupedMaxMin::end_batch() {
  pending_links_.clear();
  pending_saturated_.clear();
  pending_capacity_.clear();
  pending_capacity_cut_.clear();
  floor_level_ = kNoFloor;
  if (fresh_group_ != kNone && group_[fresh_group_].alive && group_[fresh_group_].members.empty())
    free_group(fresh_group_);
  fresh_group_ = kNone;
}

void GroupedMaxMin::solve_all() {
  begin_update();
  end_batch();
  for (std::uint32_t g = 0; g < group_.size(); ++g)
    if (group_[g].alive) add_to_set(g);
  ++stats_.updates;
  if (set_.empty()) return;
  solve_set();
  for (const std::uint32_t g : set_) stats_.solved_vars += group_[g].members.size();
  commit(0);
  merge_frozen();
}

}  // namespace interflow::maxmin
