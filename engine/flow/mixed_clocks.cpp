#include "engine/flow/mixed_clocks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "core/free_lists.hpp"
#include "core/random.hpp"
#include "engine/maxmin/classed_maxmin.hpp"
#include "engine/maxmin/grouped_maxmin.hpp"

namespace interflow::flow {

MixedClocks::MixedClocks(const maxmin::ClassedMaxMin& solver, std::span<const double> var_weight)
    : solver_(solver), var_weight_(var_weight) {
  for (std::size_t k = 0; k < solver.grouped_levels(); ++k) sources_.push_back(solver.grouped(k));
  if (solver.grouped_leftover() != nullptr) {
    leftover_ = static_cast<std::uint32_t>(sources_.size());
    sources_.push_back(solver.grouped_leftover());
  }
  if (sources_.empty()) throw std::logic_error("MixedClocks: the solver is not over groups");
  heads_.resize(sources_.size());
  integral_.resize(sources_.size());
}

std::uint32_t MixedClocks::source_of(std::uint32_t var, int slot) const {
  return slot == 0 ? solver_.level_of(var) : leftover_;
}

void MixedClocks::follow(std::uint32_t var) {
  for (int slot = 0; slot < slots(); ++slot) sources_[source_of(var, slot)]->set_followed(var, true);
}

// ---- Transfers ----

void MixedClocks::grow(std::uint32_t t, std::uint32_t end) {
  if (end > transfer_of_.size()) {
    transfer_of_.resize(end, kNone);
    bits_.resize(end, 0.0);
    for (int slot = 0; slot < slots(); ++slot) {
      group_[slot].resize(end, kNone);
      joined_[slot].resize(end, 0.0);
    }
  }
  if (t >= first_.size()) {
    first_.resize(std::size_t{t} + 1, 0);
    end_.resize(std::size_t{t} + 1, 0);
    mix_of_.resize(std::size_t{t} + 1, kNone);
    weight_.resize(std::size_t{t} + 1, 0.0);
    remix_mark_.resize(std::size_t{t} + 1, 0);
  }
}

void MixedClocks::start(std::uint32_t t, std::uint32_t first, std::uint32_t end, double bits, double now) {
  grow(t, end);
  double total = 0;
  for (std::uint32_t v = first; v < end; ++v) {
    transfer_of_[v] = t;
    bits_[v] = 0;
    total += var_weight_[v];
    for (int slot = 0; slot < slots(); ++slot) enter(v, slot, now);
  }
  first_[t] = first;
  end_[t] = end;
  weight_[t] = total;
  terms_of(t);
  const std::uint32_t mix = hold(scratch_);
  mix_of_[t] = mix;
  clocks_.join(t, mix, bits, total, level(mix), now);
}

double MixedClocks::rate(std::uint32_t t) const { return weight_[t] * clocks_.level(mix_of_[t]); }

double MixedClocks::finish(std::uint32_t t, double now, double total_bits) {
  const double left = clocks_.leave(t, now);
  release(mix_of_[t]);
  mix_of_[t] = kNone;
  for (std::uint32_t v = first_[t]; v < end_[t]; ++v) {
    for (int slot = 0; slot < slots(); ++slot) leave(v, slot, now);
    transfer_of_[v] = kNone;
  }
  scale_bits(t, total_bits - left);
  return left;
}

void MixedClocks::settle(std::uint32_t t, double now, double total_bits) {
  for (std::uint32_t v = first_[t]; v < end_[t]; ++v)
    for (int slot = 0; slot < slots(); ++slot) {
      leave(v, slot, now);
      enter(v, slot, now);
    }
  scale_bits(t, total_bits - clocks_.bits_left(t, now));
}

// The variables' sums of w_v × ΔΛ, scaled to the transfer's bits sent (by weight when all are 0).
void MixedClocks::scale_bits(std::uint32_t t, double total_bits) {
  double sum = 0;
  for (std::uint32_t v = first_[t]; v < end_[t]; ++v) sum += bits_[v];
  for (std::uint32_t v = first_[t]; v < end_[t]; ++v)
    bits_[v] = sum > 0 ? bits_[v] * (total_bits / sum) : total_bits * var_weight_[v] / weight_[t];
}

// ---- After an update ----

void MixedClocks::update(double now) {
  ++stamp_;
  remix_.clear();
  for (std::uint32_t s = 0; s < sources_.size(); ++s) {
    const int slot = s == leftover_ ? 1 : 0;
    for (const std::uint32_t v : sources_[s]->moved()) {
      if (v >= transfer_of_.size() || transfer_of_[v] == kNone) continue;  // starts after this update
      if (group_[slot][v] == sources_[s]->group_of(v)) continue;           // back in its group
      leave(v, slot, now);
      enter(v, slot, now);
      const std::uint32_t t = transfer_of_[v];
      if (remix_mark_[t] != stamp_) {
        remix_mark_[t] = stamp_;
        remix_.push_back(t);
      }
    }
  }
  for (const std::uint32_t t : remix_) remix(t, now);
  // Each mix whose groups' levels changed takes its new level once.
  relevel_.clear();
  for (std::uint32_t s = 0; s < sources_.size(); ++s)
    for (const std::uint32_t g : sources_[s]->level_changed()) {
      if (g < integral_[s].size() && integral_[s][g].vars > 0) {
        lambda(s, g, now);
        integral_[s][g].level = sources_[s]->group_level(g);
      }
      if (g >= heads_[s].size()) continue;
      for (std::uint32_t t = heads_[s][g]; t != kNone; t = terms_[t].next) {
        Mix& M = mix_[terms_[t].mix];
        if (M.mark == stamp_) continue;
        M.mark = stamp_;
        relevel_.push_back(terms_[t].mix);
      }
    }
  for (const std::uint32_t m : relevel_) clocks_.set_level(m, level(m), now);
}

void MixedClocks::remix(std::uint32_t t, double now) {
  terms_of(t);
  const std::uint32_t old = mix_of_[t];
  const std::uint32_t mix = hold(scratch_);
  if (mix == old) {
    release(mix);
    return;
  }
  const double bits = clocks_.leave(t, now);
  release(old);
  mix_of_[t] = mix;
  clocks_.join(t, mix, bits, weight_[t], level(mix), now);
}

// The terms (source, group, Σ w_v / W) of the transfer, sorted, into scratch_.
void MixedClocks::terms_of(std::uint32_t t) {
  scratch_.clear();
  for (std::uint32_t v = first_[t]; v < end_[t]; ++v)
    for (int slot = 0; slot < slots(); ++slot) {
      Term term;
      term.source = source_of(v, slot);
      term.group = group_[slot][v];
      term.coef = end_[t] - first_[t] == 1 ? 1.0 : var_weight_[v] / weight_[t];
      scratch_.push_back(term);
    }
  std::sort(scratch_.begin(), scratch_.end(), [](const Term& a, const Term& b) {
    return a.source != b.source ? a.source < b.source : a.group < b.group;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < scratch_.size(); ++i)
    if (out > 0 && scratch_[out - 1].source == scratch_[i].source && scratch_[out - 1].group == scratch_[i].group)
      scratch_[out - 1].coef += scratch_[i].coef;
    else
      scratch_[out++] = scratch_[i];
  scratch_.resize(out);
}

// ---- Integrals of the groups' levels ----

double MixedClocks::lambda(std::uint32_t source, std::uint32_t group, double now) {
  Integral& I = integral_[source][group];
  if (now > I.last && std::isfinite(I.level)) I.value += I.level * (now - I.last);
  I.last = std::max(I.last, now);
  return I.value;
}

void MixedClocks::enter(std::uint32_t var, int slot, double now) {
  const std::uint32_t s = source_of(var, slot);
  const std::uint32_t g = sources_[s]->group_of(var);
  std::vector<Integral>& of = integral_[s];
  if (g >= of.size()) of.resize(std::size_t{g} + 1);
  if (of[g].vars == 0) of[g] = Integral{0.0, now, sources_[s]->group_level(g), 0};
  ++of[g].vars;
  group_[slot][var] = g;
  joined_[slot][var] = lambda(s, g, now);
}

void MixedClocks::leave(std::uint32_t var, int slot, double now) {
  const std::uint32_t s = source_of(var, slot);
  const std::uint32_t g = group_[slot][var];
  const double sent = var_weight_[var] * 1e9 * (lambda(s, g, now) - joined_[slot][var]);
  if (std::isfinite(sent)) bits_[var] += sent;
  --integral_[s][g].vars;
  group_[slot][var] = kNone;
}

// ---- Mixes ----

double MixedClocks::level(std::uint32_t mix) const {
  const Mix& M = mix_[mix];
  double sum = 0;
  for (std::uint32_t t = M.first; t < M.first + M.count; ++t)
    sum += terms_[t].coef * sources_[terms_[t].source]->group_level(terms_[t].group);
  return sum;
}

std::uint32_t MixedClocks::hold(std::span<const Term> terms) {
  std::uint64_t hash = terms.size();
  for (const Term& t : terms)
    hash = mix64(hash ^ mix64(std::uint64_t{t.source} << 32 | t.group) ^ std::bit_cast<std::uint64_t>(t.coef));
  const std::uint32_t found = index_.find(hash, [&](std::uint32_t m) { return same_terms(m, terms, hash); });
  if (found != kNone) {
    ++mix_[found].holders;
    return found;
  }
  const std::uint32_t m = take_number(mix_, free_mixes_);
  const auto count = static_cast<std::uint32_t>(terms.size());
  mix_[m] = Mix{take_terms(count), count, 1, 0, hash};
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t t = mix_[m].first + i;
    terms_[t] = terms[i];
    terms_[t].mix = m;
    link_term(t);
  }
  index_.insert(m, [&](std::uint32_t q) { return mix_[q].hash; });
  return m;
}

void MixedClocks::release(std::uint32_t mix) {
  Mix& M = mix_[mix];
  if (--M.holders > 0) return;
  index_.erase(mix, [&](std::uint32_t q) { return mix_[q].hash; });
  for (std::uint32_t t = M.first; t < M.first + M.count; ++t) unlink_term(t);
  free_terms_.give(M.first, M.count);
  free_mixes_.push_back(mix);
}

bool MixedClocks::same_terms(std::uint32_t mix, std::span<const Term> terms, std::uint64_t hash) const {
  const Mix& M = mix_[mix];
  if (M.hash != hash || M.count != terms.size()) return false;
  for (std::uint32_t k = 0; k < M.count; ++k) {
    const Term& a = terms_[M.first + k];
    if (a.source != terms[k].source || a.group != terms[k].group || a.coef != terms[k].coef) return false;
  }
  return true;
}

std::uint32_t MixedClocks::take_terms(std::uint32_t count) {
  const std::uint32_t reused = free_terms_.take(count);
  if (reused != FreeRanges::kNone) return reused;
  const auto first = static_cast<std::uint32_t>(terms_.size());
  terms_.resize(terms_.size() + count);
  return first;
}

std::uint32_t& MixedClocks::head(std::uint32_t source, std::uint32_t group) {
  std::vector<std::uint32_t>& of = heads_[source];
  if (group >= of.size()) of.resize(std::size_t{group} + 1, kNone);
  return of[group];
}

void MixedClocks::link_term(std::uint32_t t) {
  std::uint32_t& first = head(terms_[t].source, terms_[t].group);
  terms_[t].prev = kNone;
  terms_[t].next = first;
  if (first != kNone) terms_[first].prev = t;
  first = t;
}

void MixedClocks::unlink_term(std::uint32_t t) {
  const Term& T = terms_[t];
  if (T.prev != kNone)
    terms_[T.prev].next = T.next;
  else
    head(T.source, T.group) = T.next;
  if (T.next != kNone) terms_[T.next].prev = T.prev;
}

}  // namespace interflow::flow
