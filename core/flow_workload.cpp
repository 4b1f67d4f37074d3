#include "core/flow_workload.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/program.hpp"

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

OpGraph flow_graph(const FlowWorkload& w, std::uint32_t endpoints, std::vector<std::uint32_t>& op_of) {
  check_flow_workload(w, endpoints);
  const std::size_t n = w.size();
  std::uint32_t phases = 0;
  for (std::uint32_t p : w.phase) phases = std::max(phases, p + 1);
  const std::uint32_t barriers = phases > 1 ? phases - 1 : 0;  // barrier b opens phase b + 1
  OpGraph g;
  g.ranks = std::max<std::uint32_t>(endpoints, 1);

  // Operations by start time (ties by flow), not grouped by rank: the flows active at once then sit
  // together in memory. The barriers come last, on rank 0.
  const std::size_t ops = n + barriers;
  {
    std::vector<std::pair<double, std::uint32_t>> keyed(n);
    for (std::size_t f = 0; f < n; ++f) keyed[f] = {w.start_s[f], static_cast<std::uint32_t>(f)};
    std::sort(keyed.begin(), keyed.end());
    op_of.resize(n);
    for (std::size_t k = 0; k < n; ++k) op_of[keyed[k].second] = static_cast<std::uint32_t>(k);
  }
  std::vector<std::uint32_t> barrier_op(barriers);
  for (std::uint32_t b = 0; b < barriers; ++b) barrier_op[b] = static_cast<std::uint32_t>(n + b);
  g.rank_offsets.clear();
  g.rank.assign(ops, 0);
  for (std::size_t f = 0; f < n; ++f) g.rank[op_of[f]] = w.flows.src[f];

  g.kind.assign(ops, GraphOp::Calc);
  g.peer.assign(ops, 0);
  g.tag.assign(ops, 0);
  g.value.assign(ops, 0.0);
  g.flags.assign(ops, 0);
  g.klass.assign(ops, kAppClass);
  g.match.assign(ops, kNoOp);
  g.not_before.assign(ops, 0.0);
  g.message_key.assign(ops, kNoOp);
  for (std::size_t f = 0; f < n; ++f) {
    const std::uint32_t op = op_of[f];
    g.kind[op] = GraphOp::Send;
    g.peer[op] = w.flows.dst[f];
    g.value[op] = w.bytes[f];
    g.flags[op] = kSendUntilDelivered;
    if (!w.service_class.empty()) g.klass[op] = static_cast<std::uint8_t>(w.service_class[f]);
    g.not_before[op] = w.start_s[f];
    g.message_key[op] = static_cast<std::uint32_t>(f);
  }

  // Dependencies (completion): a flow on its `after` flows and on the barrier opening its phase; a
  // barrier on every flow of the phase before it and on the barrier before it.
  std::vector<std::uint32_t> count(ops, 0);
  for (std::size_t f = 0; f < n; ++f) {
    if (!w.after_offsets.empty()) count[op_of[f]] += w.after_offsets[f + 1] - w.after_offsets[f];
    if (!w.phase.empty() && w.phase[f] > 0) ++count[op_of[f]];
    if (!w.phase.empty() && w.phase[f] < barriers) ++count[barrier_op[w.phase[f]]];
  }
  for (std::uint32_t b = 1; b < barriers; ++b) ++count[barrier_op[b]];
  g.dep_offsets.assign(ops + 1, 0);
  for (std::size_t i = 0; i < ops; ++i) g.dep_offsets[i + 1] = g.dep_offsets[i] + count[i];
  g.deps.resize(g.dep_offsets[ops]);
  std::vector<std::uint64_t> cursor(g.dep_offsets.begin(), g.dep_offsets.end() - 1);
  const auto depend = [&](std::uint32_t op, std::uint32_t on) { g.deps[cursor[op]++] = on << 1; };
  for (std::size_t f = 0; f < n; ++f) {
    const std::uint32_t op = op_of[f];
    if (!w.after_offsets.empty())
      for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k) depend(op, op_of[w.after[k]]);
    if (!w.phase.empty() && w.phase[f] > 0) depend(op, barrier_op[w.phase[f] - 1]);
    if (!w.phase.empty() && w.phase[f] < barriers) depend(barrier_op[w.phase[f]], op);
  }
  for (std::uint32_t b = 1; b < barriers; ++b) depend(barrier_op[b], barrier_op[b - 1]);

  if (!w.after.empty()) {
    const std::vector<std::uint32_t> order = dependency_order(g, dependents_of(g));
    if (order.size() != ops) {
      std::size_t stuck = n;
      for (std::uint32_t op : order) stuck -= g.kind[op] == GraphOp::Send ? 1 : 0;
      throw InputError("dynamic workload: the dependencies ('after') form a cycle; " + std::to_string(stuck) +
                       " flows could never start");
    }
  }
  return g;
}

}  // namespace interflow
