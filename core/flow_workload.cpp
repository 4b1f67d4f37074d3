#include "core/flow_workload.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/program.hpp"
#include "core/radix_sort.hpp"

namespace interflow {

namespace {

std::string flow_text(std::size_t f) { return "dynamic workload: flow " + std::to_string(f); }

void check_lists(const FlowWorkload& w) {
  const std::size_t n = w.size();
  if (w.flows.dst.size() != n || w.bytes.size() != n || w.start_s.size() != n)
    throw InputError("dynamic workload: src, dst, bytes and start lists differ in length");
  if (!w.service_class.empty() && w.service_class.size() != n)
    throw InputError("dynamic workload: the class list needs one entry per flow");
  if (!w.phase.empty() && w.phase.size() != n)
    throw InputError("dynamic workload: the phase list needs one entry per flow");
  if (!w.after_offsets.empty() && w.after_offsets.size() != n + 1)
    throw InputError("dynamic workload: the dependency offsets need one entry per flow plus one");
  if (n >= (1u << 30)) throw InputError("dynamic workload: more than 2^30 flows");
}

}  // namespace

void check_flow_workload(const FlowWorkload& w, std::uint32_t endpoints) {
  check_lists(w);
  const std::size_t n = w.size();
  for (std::size_t f = 0; f < n; ++f) {
    if (w.flows.src[f] >= endpoints || w.flows.dst[f] >= endpoints)
      throw InputError(flow_text(f) + " names an endpoint beyond the network's " + std::to_string(endpoints));
    if (!(w.bytes[f] >= 0) || !std::isfinite(w.bytes[f]))
      throw InputError(flow_text(f) + " has a size that is not a finite number >= 0");
    if (!(w.start_s[f] >= 0) || !std::isfinite(w.start_s[f]))
      throw InputError(flow_text(f) + " has a start time that is not finite and >= 0");
    if (!w.service_class.empty() && w.service_class[f] >= kAppClass)
      throw InputError(flow_text(f) + " has class " + std::to_string(w.service_class[f]) + "; classes go up to " +
                       std::to_string(kAppClass - 1));
    if (w.after_offsets.empty()) continue;
    for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k) {
      if (w.after[k] >= n || w.after[k] == f)
        throw InputError(flow_text(f) + " waits for flow " + std::to_string(w.after[k]) +
                         ", which is itself or does not exist");
      if (!w.phase.empty() && w.phase[w.after[k]] > w.phase[f])
        throw InputError(flow_text(f) + " (phase " + std::to_string(w.phase[f]) + ") waits for flow " +
                         std::to_string(w.after[k]) + " of the later phase " + std::to_string(w.phase[w.after[k]]));
    }
  }
}

namespace {

// flow_graph's steps. Barrier b (a 0 s calc, operation n + b, on rank 0) opens phase b + 1.
class FlowGraphBuilder {
 public:
  FlowGraphBuilder(const FlowWorkload& w, std::uint32_t endpoints, std::vector<std::uint32_t>& op_of)
      : w_(w), n_(w.size()), op_of_(op_of) {
    std::uint32_t phases = 0;
    for (std::uint32_t p : w.phase) phases = std::max(phases, p + 1);
    barriers_ = phases > 1 ? phases - 1 : 0;
    g_.ranks = std::max<std::uint32_t>(endpoints, 1);
  }

  OpGraph build() {
    order_by_start();
    fill_operations();
    link_dependencies();
    if (!w_.after.empty()) check_cycles();
    drop_what_says_nothing();
    return std::move(g_);
  }

 private:
  std::uint32_t barrier(std::uint32_t b) const { return static_cast<std::uint32_t>(n_ + b); }

  // Operations by start time (ties by flow), not grouped by rank: the flows active at once then sit
  // together in memory.
  void order_by_start() {
    op_of_.resize(n_);
    if (std::is_sorted(w_.start_s.begin(), w_.start_s.end())) {  // e.g. every flow at time 0
      for (std::size_t f = 0; f < n_; ++f) op_of_[f] = static_cast<std::uint32_t>(f);
      return;
    }
    const std::vector<std::uint32_t> order = order_by_key(w_.start_s);
    for (std::size_t k = 0; k < n_; ++k) op_of_[order[k]] = static_cast<std::uint32_t>(k);
  }

  void fill_operations() {
    const std::size_t ops = n_ + barriers_;
    g_.rank_offsets.clear();
    g_.rank.assign(ops, 0);
    g_.kind.assign(ops, GraphOp::Calc);
    g_.peer.assign(ops, 0);
    g_.tag.assign(ops, 0);
    g_.value.assign(ops, 0.0);
    g_.flags.assign(ops, 0);
    g_.klass.assign(ops, kAppClass);
    g_.match.assign(ops, kNoOp);
    g_.not_before.assign(ops, 0.0);
    g_.message_key.assign(ops, kNoOp);
    for (std::size_t f = 0; f < n_; ++f) {
      const std::uint32_t op = op_of_[f];
      g_.rank[op] = w_.flows.src[f];
      g_.kind[op] = GraphOp::Send;
      g_.peer[op] = w_.flows.dst[f];
      g_.value[op] = w_.bytes[f];
      g_.flags[op] = kSendUntilDelivered;
      if (!w_.service_class.empty()) g_.klass[op] = static_cast<std::uint8_t>(w_.service_class[f]);
      g_.not_before[op] = w_.start_s[f];
      g_.message_key[op] = static_cast<std::uint32_t>(f);
    }
  }

  // Completion dependencies: a flow on its `after` flows and on the barrier opening its phase; a
  // barrier on every flow of the phase before it and on the barrier before it. Counted, then placed.
  template <class F>
  void for_each_dependency(F&& depend) const {
    const bool phased = !w_.phase.empty();
    for (std::size_t f = 0; f < n_; ++f) {
      const std::uint32_t op = op_of_[f];
      if (!w_.after_offsets.empty())
        for (std::uint32_t k = w_.after_offsets[f]; k < w_.after_offsets[f + 1]; ++k) depend(op, op_of_[w_.after[k]]);
      if (phased && w_.phase[f] > 0) depend(op, barrier(w_.phase[f] - 1));
      if (phased && w_.phase[f] < barriers_) depend(barrier(w_.phase[f]), op);
    }
    for (std::uint32_t b = 1; b < barriers_; ++b) depend(barrier(b), barrier(b - 1));
  }

  void link_dependencies() {
    const std::size_t ops = n_ + barriers_;
    g_.dep_offsets.assign(ops + 1, 0);
    for_each_dependency([&](std::uint32_t op, std::uint32_t) { ++g_.dep_offsets[op + 1]; });
    for (std::size_t i = 0; i < ops; ++i) g_.dep_offsets[i + 1] += g_.dep_offsets[i];
    g_.deps.resize(g_.dep_offsets[ops]);
    std::vector<std::uint64_t> cursor(g_.dep_offsets.begin(), g_.dep_offsets.end() - 1);
    for_each_dependency([&](std::uint32_t op, std::uint32_t on) { g_.deps[cursor[op]++] = on << 1; });
  }

  // Start times all 0 say nothing (every operation is ready when the application arrives, and the
  // driver starts those in operation order), nor do message keys equal to the operation's own number:
  // 12 bytes a flow saved.
  void drop_what_says_nothing() {
    if (std::all_of(w_.start_s.begin(), w_.start_s.end(), [](double t) { return t == 0; }))
      std::vector<double>().swap(g_.not_before);
    bool identity = true;
    for (std::size_t f = 0; f < n_ && identity; ++f) identity = op_of_[f] == f;
    if (identity) std::vector<std::uint32_t>().swap(g_.message_key);
  }

  void check_cycles() const {
    const std::vector<std::uint32_t> order = dependency_order(g_, dependents_of(g_));
    if (order.size() == g_.size()) return;
    std::size_t stuck = n_;
    for (std::uint32_t op : order) stuck -= g_.kind[op] == GraphOp::Send ? 1 : 0;
    throw InputError("dynamic workload: the dependencies ('after') form a cycle; " + std::to_string(stuck) +
                     " flows could never start");
  }

  const FlowWorkload& w_;
  std::size_t n_;
  std::vector<std::uint32_t>& op_of_;
  std::uint32_t barriers_ = 0;
  OpGraph g_;
};

}  // namespace

OpGraph flow_graph(const FlowWorkload& w, std::uint32_t endpoints, std::vector<std::uint32_t>& op_of) {
  check_flow_workload(w, endpoints);
  return FlowGraphBuilder(w, endpoints, op_of).build();
}

}  // namespace interflow
