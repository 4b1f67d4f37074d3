#include "engine/maxmin/classed_maxmin.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/error.hpp"
#include "engine/maxmin/grouped_maxmin.hpp"
#include "engine/maxmin/incremental_maxmin.hpp"
#include "engine/maxmin/maxmin.hpp"

namespace interflow::maxmin {

namespace {

// Priority levels in serving order and the level of each class.
struct LevelPlan {
  std::vector<std::uint32_t> class_level;
  std::size_t levels = 1;
  std::vector<std::uint32_t> capped_slot;  // per class: its block of virtual links, kNone if uncapped
  std::size_t capped = 0;
};

LevelPlan plan_levels(const ClassPolicy& policy) {
  LevelPlan plan;
  std::map<std::uint32_t, std::uint32_t> level_of_priority;
  for (const ClassRule& c : policy.classes) level_of_priority.emplace(c.priority, 0);
  std::uint32_t next = 0;
  for (auto& [priority, level] : level_of_priority) level = next++;
  plan.levels = std::max<std::size_t>(1, level_of_priority.size());
  for (const ClassRule& c : policy.classes) {
    plan.class_level.push_back(level_of_priority[c.priority]);
    plan.capped_slot.push_back(c.cap < 1.0 ? static_cast<std::uint32_t>(plan.capped++) : kNone);
  }
  return plan;
}

std::uint32_t class_of(std::span<const std::uint32_t> var_class, std::uint32_t v) {
  return var_class.empty() ? 0 : var_class[v];
}

// A path as its level's solver takes it: its links, then, for a capped class (its block of virtual
// links, slot), the virtual twin of each, numbered (slot + 1) × num_links + link.
void append_level_path(std::vector<LinkId>& to, std::span<const LinkId> path, std::uint32_t slot,
                       std::size_t num_links) {
  to.insert(to.end(), path.begin(), path.end());
  if (slot != kNone)
    for (const LinkId l : path) to.push_back(static_cast<LinkId>((slot + 1) * num_links + l));
}

// (automatic starts over variables: the flow transport calls regroup() when it switches.)
std::unique_ptr<RateSolver> make_solver(SolverKind kind, std::span<const double> capacity) {
  if (kind == SolverKind::groups) return std::make_unique<GroupedMaxMin>(capacity);
  return std::make_unique<IncrementalMaxMin>(capacity);
}

std::unique_ptr<RateSolver> make_solver(SolverKind kind, std::span<const double> capacity,
                                        std::span<const std::uint64_t> var_offsets, std::span<const LinkId> links,
                                        std::span<const double> weight) {
  if (kind == SolverKind::groups) return std::make_unique<GroupedMaxMin>(capacity, var_offsets, links, weight);
  return std::make_unique<IncrementalMaxMin>(capacity, var_offsets, links, weight);
}

}  // namespace

ClassedMaxMin::ClassedMaxMin(const ClassPolicy& policy, std::span<const double> capacity,
                             std::span<const std::uint64_t> var_offsets, std::span<const LinkId> links,
                             std::span<const double> weight, std::span<const std::uint32_t> var_class,
                             SolverKind kind)
    : held_(true),
      kind_(kind),
      held_offsets_(var_offsets),
      held_links_(links),
      held_weight_(weight),
      capacity_(capacity.begin(), capacity.end()) {
  const std::size_t vars = weight.size();
  policy_ = policy;
  if (policy.plain()) {
    plain_ = true;
    levels_.push_back(make_solver(kind, capacity, var_offsets, links, weight));
    return;
  }
  const LevelPlan plan = plan_levels(policy);
  class_level_ = plan.class_level;
  capped_slot_ = plan.capped_slot;
  var_level_.resize(vars);
  for (std::uint32_t v = 0; v < vars; ++v) {
    policy.rule(class_of(var_class, v));  // throws for a class the policy lacks
    var_level_[v] = plan.class_level[class_of(var_class, v)];
  }
  hold_level_paths(plan.levels, var_class);
  make_levels(policy, capacity);
  var_stamp_.assign(vars, 0);
}

void ClassedMaxMin::hold_level_paths(std::size_t levels, std::span<const std::uint32_t> var_class) {
  const std::size_t vars = held_weight_.size();
  level_offsets_.assign(levels, {});
  level_links_.assign(levels, {});
  std::vector<std::size_t> size(levels, 0);  // counted first: no vector grows past its need
  for (std::uint32_t v = 0; v < vars; ++v)
    size[var_level_[v]] += (held_offsets_[v + 1] - held_offsets_[v]) * (capped_slot_[class_of(var_class, v)] == kNone ? 1 : 2);
  for (std::size_t k = 0; k < levels; ++k) {
    level_offsets_[k].reserve(vars + 1);
    level_offsets_[k].push_back(0);
    level_links_[k].reserve(size[k]);
  }
  for (std::uint32_t v = 0; v < vars; ++v) {
    append_level_path(level_links_[var_level_[v]], links(v), capped_slot_[class_of(var_class, v)], capacity_.size());
    for (std::size_t k = 0; k < levels; ++k) level_offsets_[k].push_back(level_links_[k].size());
  }
}

ClassedMaxMin::ClassedMaxMin(const ClassPolicy& policy, std::span<const double> capacity, SolverKind kind)
    : kind_(kind), capacity_(capacity.begin(), capacity.end()) {
  if (policy.plain()) {
    plain_ = true;
    levels_.push_back(make_solver(kind, capacity));
    return;
  }
  const LevelPlan plan = plan_levels(policy);
  policy_ = policy;
  class_level_ = plan.class_level;
  capped_slot_ = plan.capped_slot;
  make_levels(policy, capacity);
}

void ClassedMaxMin::make_levels(const ClassPolicy& policy, std::span<const double> capacity) {
  const LevelPlan plan = plan_levels(policy);
  const std::size_t num_links = capacity.size();
  aug_capacity_.assign(capacity.begin(), capacity.end());
  if (plan.capped > 0) {
    for (std::size_t c = 0; c < policy.classes.size(); ++c)
      if (plan.capped_slot[c] != kNone) {
        slot_cap_.push_back(policy.classes[c].cap);
        for (std::size_t l = 0; l < num_links; ++l) aug_capacity_.push_back(policy.classes[c].cap * capacity[l]);
      }
    leftover_ = held_ ? make_solver(kind_, capacity, held_offsets_, held_links_, held_weight_)
                      : make_solver(kind_, capacity);
    leftover_->track_load_changes(false);
  }
  for (std::size_t k = 0; k < plan.levels; ++k) {
    levels_.push_back(held_ ? make_solver(kind_, aug_capacity_, level_offsets_[k], level_links_[k], held_weight_)
                            : make_solver(kind_, aug_capacity_));
    levels_.back()->track_load_changes(true);
  }
  link_stamp_.assign(num_links, 0);
}

ClassedMaxMin::~ClassedMaxMin() = default;

void ClassedMaxMin::activate(std::uint32_t var) {
  level_solver(var).activate(var);
  if (leftover_) leftover_->activate(var);
}

void ClassedMaxMin::activate(std::uint32_t var, std::span<const LinkId> links, double weight, std::uint32_t cls) {
  if (plain_) {
    levels_[0]->activate(var, links, weight);
    return;
  }
  if (active(var)) return;
  assign_class(var, cls);
  scratch_links_.clear();
  append_level_path(scratch_links_, links, capped_slot_[cls], capacity_.size());
  levels_[var_level_[var]]->activate(var, scratch_links_, weight);
  if (leftover_) leftover_->activate(var, links, weight);
}

void ClassedMaxMin::assign_class(std::uint32_t var, std::uint32_t cls) {
  if (plain_) return;
  policy_.rule(cls);  // throws for a class the policy lacks
  if (var >= var_level_.size()) {
    var_level_.resize(std::size_t{var} + 1, 0);
    var_stamp_.resize(std::size_t{var} + 1, 0);
  }
  if (!active(var)) var_level_[var] = class_level_[cls];
}

void ClassedMaxMin::deactivate(std::uint32_t var) {
  if (!active(var)) return;
  level_solver(var).deactivate(var);
  if (leftover_) leftover_->deactivate(var);
}

double ClassedMaxMin::rate(std::uint32_t var) const {
  if (!var_level_.empty() && var >= var_level_.size()) return 0.0;
  return level_solver(var).rate(var) + (leftover_ ? leftover_->rate(var) : 0.0);
}

std::span<const LinkId> ClassedMaxMin::links(std::uint32_t var) const {
  if (held_) return held_links_.subspan(held_offsets_[var], held_offsets_[var + 1] - held_offsets_[var]);
  const std::span<const LinkId> all = level_solver(var).links(var);
  // A capped class's virtual links (numbered after the physical ones) follow its physical links.
  std::size_t physical = 0;
  while (physical < all.size() && all[physical] < capacity_.size()) ++physical;
  return all.first(physical);
}

double ClassedMaxMin::left_after(LinkId l, std::size_t levels) const {
  double left = capacity_[l];
  for (std::size_t k = 0; k < levels; ++k) left -= levels_[k]->load(l);
  return left > 1e-12 * capacity_[l] ? left : 0.0;  // a rounding error away from full is full
}

void ClassedMaxMin::collect(RateSolver& solver, bool propagate) {
  for (std::uint32_t v : solver.changed())
    if (var_stamp_[v] != stamp_) {
      var_stamp_[v] = stamp_;
      changed_.push_back(v);
    }
  if (!propagate) return;
  for (LinkId l : solver.load_changes())
    if (l < capacity_.size() && link_stamp_[l] != stamp_) {  // virtual links stay within their level
      link_stamp_[l] = stamp_;
      dirty_.push_back(l);
    }
  solver.clear_load_changes();
}

void ClassedMaxMin::set_capacity(LinkId l, double capacity) {
  capacity_[l] = capacity;
  if (plain_)
    levels_[0]->set_capacity(l, capacity);
  else
    pending_capacity_.push_back(l);
  // The capped classes' virtual links of l follow its capacity (each level holds them all).
  for (std::size_t slot = 0; slot < slot_cap_.size(); ++slot)
    for (const auto& level : levels_)
      level->set_capacity(static_cast<LinkId>((slot + 1) * capacity_.size() + l), slot_cap_[slot] * capacity);
}

void ClassedMaxMin::update() {
  if (plain_) {
    levels_[0]->update();
    return;
  }
  ++stamp_;
  changed_.clear();
  dirty_.clear();
  for (LinkId l : pending_capacity_)  // passed down every level like a load change
    if (link_stamp_[l] != stamp_) {
      link_stamp_[l] = stamp_;
      dirty_.push_back(l);
    }
  pending_capacity_.clear();
  for (std::size_t k = 0; k < levels_.size(); ++k) {
    for (LinkId l : dirty_) levels_[k]->set_capacity(l, left_after(l, k));
    levels_[k]->update();
    collect(*levels_[k], true);
  }
  if (leftover_) {
    for (LinkId l : dirty_) leftover_->set_capacity(l, left_after(l, levels_.size()));
    leftover_->update();
    collect(*leftover_, false);
  }
}

void ClassedMaxMin::solve_all() {
  if (plain_) {
    levels_[0]->solve_all();
    return;
  }
  pending_capacity_.clear();  // every link's capacity is handed down below
  ++stamp_;
  changed_.clear();
  for (std::size_t k = 0; k < levels_.size(); ++k) {
    for (LinkId l = 0; l < capacity_.size(); ++l) levels_[k]->set_capacity(l, left_after(l, k));
    levels_[k]->solve_all();
    collect(*levels_[k], false);
    levels_[k]->clear_load_changes();
  }
  if (leftover_) {
    for (LinkId l = 0; l < capacity_.size(); ++l) leftover_->set_capacity(l, left_after(l, levels_.size()));
    leftover_->solve_all();
    collect(*leftover_, false);
  }
}

void ClassedMaxMin::regroup(SolverKind to, const std::function<void()>& follow, std::span<const double> weight,
                            std::span<const std::uint32_t> var_class) {
  if (to == SolverKind::automatic) throw std::logic_error("ClassedMaxMin::regroup: to variables or groups");
  if (kind_ == to) return;
  // The active variables; given at activation, with a copy of their physical links.
  const std::size_t vars = held_ ? held_weight_.size() : weight.size();
  std::vector<std::uint32_t> active_vars;
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  for (std::uint32_t v = 0; v < vars; ++v) {
    if (!active(v)) continue;
    active_vars.push_back(v);
    if (held_) continue;
    const std::span<const LinkId> own = this->links(v);
    links.insert(links.end(), own.begin(), own.end());
    offsets.push_back(links.size());
  }
  retired_ = stats();
  kind_ = to;
  levels_.clear();
  leftover_.reset();
  slot_cap_.clear();
  if (plain_)
    levels_.push_back(held_ ? make_solver(kind_, capacity_, held_offsets_, held_links_, held_weight_)
                           : make_solver(kind_, capacity_));
  else
    make_levels(policy_, capacity_);
  follow();
  for (std::size_t i = 0; i < active_vars.size(); ++i) {
    const std::uint32_t v = active_vars[i];
    if (held_)
      activate(v);
    else
      activate(v, std::span<const LinkId>(links).subspan(offsets[i], offsets[i + 1] - offsets[i]), weight[v],
               class_of(var_class, v));
  }
  solve_all();  // (make_levels gave the capped classes' virtual links their caps of capacity_ now)
}

std::size_t ClassedMaxMin::grouped_levels() const {
  return kind_ == SolverKind::groups ? levels_.size() : 0;
}

GroupedMaxMin* ClassedMaxMin::grouped_leftover() const {
  return kind_ == SolverKind::groups && leftover_ ? static_cast<GroupedMaxMin*>(leftover_.get()) : nullptr;
}

GroupedMaxMin* ClassedMaxMin::grouped(std::size_t k) const {
  return k < grouped_levels() ? static_cast<GroupedMaxMin*>(levels_[k].get()) : nullptr;
}

IncrementalStats ClassedMaxMin::stats() const {
  IncrementalStats total = retired_;  // the solvers regroup() replaced, then the current ones
  std::uint64_t updates = 0;          // each current solver counts every update: the most of them
  const auto add = [&](const RateSolver& s) {
    updates = std::max(updates, s.stats().updates);
    total.solved_vars += s.stats().solved_vars;
    total.rounds += s.stats().rounds;
    total.changed_vars += s.stats().changed_vars;
    total.spread_solves += s.stats().spread_solves;
  };
  for (const auto& level : levels_) add(*level);
  if (leftover_) add(*leftover_);
  total.updates += updates;
  return total;
}

std::size_t ClassedMaxMin::incidence_storage() const {
  std::size_t total = leftover_ ? leftover_->incidence_storage() : 0;
  for (const auto& level : levels_) total += level->incidence_storage();
  return total;
}

std::vector<double> solve_classes_from_scratch(const ClassPolicy& policy, std::span<const double> capacity,
                                               std::span<const std::uint64_t> var_offsets,
                                               std::span<const LinkId> links, std::span<const double> weight,
                                               std::span<const std::uint32_t> var_class,
                                               std::span<const std::uint8_t> active) {
  const std::size_t vars = weight.size(), num_links = capacity.size();
  std::vector<double> rate(vars, 0.0), left(capacity.begin(), capacity.end());
  const LevelPlan plan = policy.classes.empty() ? LevelPlan{{0}, 1, {kNone}, 0} : plan_levels(policy);
  const auto cls = [&](std::uint32_t v) { return policy.classes.empty() ? 0 : class_of(var_class, v); };
  const auto solve = [&](auto&& member, auto&& extra_links, const std::vector<double>& cap) {
    std::vector<std::uint64_t> offsets{0};
    std::vector<LinkId> ls;
    std::vector<double> w;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t v = 0; v < vars; ++v) {
      if (!active[v] || !member(v)) continue;
      for (std::uint64_t e = var_offsets[v]; e < var_offsets[v + 1]; ++e) ls.push_back(links[e]);
      extra_links(v, ls);
      offsets.push_back(ls.size());
      w.push_back(weight[v]);
      ids.push_back(v);
    }
    MaxMinSolver solver;
    MaxMinInput input;
    input.var_offsets = offsets;
    input.links = ls;
    input.weight = w;
    input.capacity_exact = cap;
    solver.run(input);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::uint32_t v = ids[i];
      rate[v] += solver.rates()[i];
      if (std::isfinite(solver.rates()[i]))
        for (std::uint64_t e = var_offsets[v]; e < var_offsets[v + 1]; ++e) left[links[e]] -= solver.rates()[i];
    }
  };
  for (std::uint32_t level = 0; level < plan.levels; ++level) {
    std::vector<double> cap(num_links * (1 + plan.capped));
    for (std::size_t l = 0; l < num_links; ++l) cap[l] = std::max(0.0, left[l]);
    for (std::size_t c = 0; c < policy.classes.size(); ++c)
      if (plan.capped_slot[c] != kNone)
        for (std::size_t l = 0; l < num_links; ++l)
          cap[(plan.capped_slot[c] + 1) * num_links + l] = policy.classes[c].cap * capacity[l];
    solve([&](std::uint32_t v) { return plan.class_level[cls(v)] == level; },
          [&](std::uint32_t v, std::vector<LinkId>& ls) {
            const std::uint32_t slot = plan.capped_slot[cls(v)];
            if (slot == kNone) return;
            for (std::uint64_t e = var_offsets[v]; e < var_offsets[v + 1]; ++e)
              ls.push_back(static_cast<LinkId>((slot + 1) * num_links + links[e]));
          },
          cap);
  }
  if (plan.capped > 0) {
    std::vector<double> cap(num_links);
    for (std::size_t l = 0; l < num_links; ++l) cap[l] = std::max(0.0, left[l]);
    solve([](std::uint32_t) { return true; }, [](std::uint32_t, std::vector<LinkId>&) {}, cap);
  }
  return rate;
}

}  // namespace interflow::maxmin
