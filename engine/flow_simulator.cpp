#include "engine/flow_simulator.hpp"

#include <algorithm>
#include <cmath>

#include "engine/system.hpp"

namespace interflow {

FlowSimulator::FlowSimulator(const Network& net, DynamicResult& r, const FlowSet& flows, std::span<const double> bytes,
                             std::span<const std::uint32_t> service_class, const DynamicOptions& options)
    : net_(net), r_(r), paths_(r.paths), flows_(flows), bytes_(bytes), options_(options) {
  const std::size_t n = paths_.num_flows();
  const std::uint32_t vars = paths_.num_vars();
  weight_.resize(vars);
  var_flow_.resize(vars);
  var_class_.resize(service_class.empty() ? 0 : vars);
  r.latency_s.assign(n, 0.0f);
  for (FlowId f = 0; f < n; ++f)
    for (std::uint32_t v = paths_.first_var(f); v < paths_.end_var(f); ++v) {
      weight_[v] = flows.weight_of(f) * paths_.split(v);
      var_flow_[v] = f;
      if (!var_class_.empty()) var_class_[v] = service_class[f];
      double ns = 0;
      for (LinkId l : paths_.links(v)) ns += net.latency_ns(l);
      r.latency_s[f] = std::max(r.latency_s[f], static_cast<float>(ns * 1e-9));
    }
  capacity_.assign(net.capacities().begin(), net.capacities().end());
  for (LinkId l = 0; l < capacity_.size(); ++l)
    if (!net.up(l)) capacity_[l] = 0;
  solver_ = std::make_unique<ClassedMaxMin>(options.policy, capacity_, paths_.var_offsets(), paths_.all_links(),
                                            weight_, var_class_);

  flow_.assign(n, FlowProgress{});
  completion_ = IndexedMinHeap(n);
  var_.assign(vars, VarProgress{});
  link_active_.assign(net.num_links(), 0);
  busy_since_.assign(net.num_links(), 0);
  r.state.assign(n, FlowState::Blocked);
  r.start_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  r.transfer_end_s = r.start_s;
  r.finish_s = r.start_s;
  r.link_bytes.assign(net.num_links(), 0);
  r.link_busy_s.assign(net.num_links(), 0);
}

void FlowSimulator::settle_var(std::uint32_t v) {
  var_[v].bits += var_[v].rate * 1e9 * (now_ - var_[v].last);
  var_[v].last = now_;
}

bool FlowSimulator::start(FlowId f) {
  r_.start_s[f] = now_;
  const bool self = flows_.src[f] == flows_.dst[f];
  if (self || !paths_.routed(f) || bytes_[f] == 0) {
    flow_[f].phase = Phase::Done;
    r_.state[f] = self ? FlowState::Self : !paths_.routed(f) ? FlowState::Unroutable : FlowState::Delivered;
    r_.transfer_end_s[f] = now_;
    r_.finish_s[f] = now_ + (r_.state[f] == FlowState::Delivered ? r_.latency_s[f] : 0.0);
    return false;
  }
  flow_[f].phase = Phase::Active;
  ++active_flows_;
  flow_[f].remaining_bits = bytes_[f] * 8;
  flow_[f].last = now_;
  for (std::uint32_t v = paths_.first_var(f); v < paths_.end_var(f); ++v) {
    var_[v].last = now_;
    solver_->activate(v);
    for (LinkId l : paths_.links(v))
      if (link_active_[l]++ == 0) busy_since_[l] = now_;
  }
  return true;
}

double FlowSimulator::next_end() { return completion_.empty() ? kNever : completion_.top_key(); }

double FlowSimulator::advance_to(double t) {
  now_ = std::max(now_, t);
  return now_ + 1e-12 * std::max(1.0, now_);
}

void FlowSimulator::end_due(double horizon, std::vector<FlowId>& ended) {
  while (!completion_.empty() && completion_.top_key() <= horizon) {
    const FlowId f = completion_.top();
    completion_.pop();
    flow_[f].phase = Phase::Done;
    r_.state[f] = FlowState::Delivered;
    r_.transfer_end_s[f] = now_;
    r_.finish_s[f] = now_ + r_.latency_s[f];
    total_gbps_ -= flow_[f].rate;
    --active_flows_;
    for (std::uint32_t v = paths_.first_var(f); v < paths_.end_var(f); ++v) {
      settle_var(v);
      var_[v].rate = 0;
      solver_->deactivate(v);
      for (LinkId l : paths_.links(v))
        if (--link_active_[l] == 0) r_.link_busy_s[l] += now_ - busy_since_[l];
    }
    ended.push_back(f);
  }
}

void FlowSimulator::resolve() {
  ++r_.batches;
  // The solver's share of the time: every batch of the first 64, then every 8th counted 8 times (reading
  // the clock around every batch costs a few per cent of a light-load run).
  const bool timed = r_.batches <= 64 || r_.batches % 8 == 0;
  const double weight_of_batch = r_.batches <= 64 ? 1.0 : 8.0;
  if (timed) solve_clock_.reset();
  if (options_.incremental)
    solver_->update();
  else
    solver_->solve_all();
  if (timed) r_.solve_seconds += weight_of_batch * solve_clock_.seconds();
  ++stamp_;
  touched_.clear();
  for (std::uint32_t v : solver_->changed()) {
    settle_var(v);
    var_[v].rate = solver_->rate(v);
    const FlowId f = var_flow_[v];
    if (flow_[f].mark != stamp_) {
      flow_[f].mark = stamp_;
      touched_.push_back(f);
    }
  }
  for (FlowId f : touched_) {
    if (flow_[f].phase != Phase::Active) continue;
    flow_[f].remaining_bits = std::max(0.0, flow_[f].remaining_bits - flow_[f].rate * 1e9 * (now_ - flow_[f].last));
    flow_[f].last = now_;
    double rate = 0;
    for (std::uint32_t v = paths_.first_var(f); v < paths_.end_var(f); ++v) rate += var_[v].rate;
    total_gbps_ += rate - flow_[f].rate;
    flow_[f].rate = rate;
    if (rate > 0)
      completion_.set(f, now_ + (std::isinf(rate) ? 0.0 : flow_[f].remaining_bits / (rate * 1e9)));
    else
      completion_.erase(f);
  }
  segments_.push_back({now_, std::max(0.0, total_gbps_), active_flows_});
  if (options_.verify) verify();
}

void FlowSimulator::verify() {
  const std::uint32_t vars = paths_.num_vars();
  std::vector<std::uint8_t> active(vars);
  for (std::uint32_t v = 0; v < vars; ++v) active[v] = solver_->active(v);
  const std::vector<double> full = solve_classes_from_scratch(options_.policy, capacity_, paths_.var_offsets(),
                                                              paths_.all_links(), weight_, var_class_, active);
  // Relative error, with rates a rounding error away from 0 measured against the largest capacity.
  const double floor = 1e-9 * std::max(1.0, *std::max_element(capacity_.begin(), capacity_.end()));
  for (std::uint32_t v = 0; v < vars; ++v)
    if (active[v] && std::isfinite(full[v]))
      r_.max_verify_error =
          std::max(r_.max_verify_error, std::abs(solver_->rate(v) - full[v]) / std::max(floor, std::abs(full[v])));
}

void FlowSimulator::close() {
  // Flows left active (a rate of 0 forever) or never started stay blocked.
  const std::size_t n = paths_.num_flows();
  for (FlowId f = 0; f < n; ++f)
    if (flow_[f].phase == Phase::Active)
      for (std::uint32_t v = paths_.first_var(f); v < paths_.end_var(f); ++v) settle_var(v);
  for (FlowId f = 0; f < n; ++f)
    if (std::isfinite(r_.finish_s[f])) r_.makespan_s = std::max(r_.makespan_s, r_.finish_s[f]);
  for (std::uint32_t v = 0; v < paths_.num_vars(); ++v)
    for (LinkId l : paths_.links(v)) r_.link_bytes[l] += var_[v].bits / 8;
  for (LinkId l = 0; l < net_.num_links(); ++l)
    if (link_active_[l] > 0) r_.link_busy_s[l] += now_ - busy_since_[l];
  const IncrementalStats st = solver_->stats();
  r_.solved_vars = st.solved_vars;
  r_.changed_vars = st.changed_vars;
  r_.solver_rounds = st.rounds;

  // Time series: the piecewise-constant rate and active count averaged over equal bins.
  const std::uint32_t bins = std::max<std::uint32_t>(1, options_.series_bins);
  r_.bin_s = r_.makespan_s > 0 ? r_.makespan_s / bins : 0;
  r_.series_gbps.assign(bins, 0);
  r_.series_active.assign(bins, 0);
  if (r_.bin_s > 0)
    for (std::size_t i = 0; i < segments_.size(); ++i) {
      const double a = segments_[i].time, b = i + 1 < segments_.size() ? segments_[i + 1].time : r_.makespan_s;
      for (double t = a; t < b;) {
        const auto bin = std::min<std::size_t>(bins - 1, static_cast<std::size_t>(t / r_.bin_s));
        const double end = std::min(b, static_cast<double>(bin + 1) * r_.bin_s);
        const double share = (std::max(end, t) - t) / r_.bin_s;
        r_.series_gbps[bin] += segments_[i].gbps * share;
        r_.series_active[bin] += segments_[i].active * share;
        if (end <= t) break;
        t = end;
      }
    }
}

}  // namespace interflow
