#include "core/op_graph.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/matching.hpp"

namespace interflow {

std::string_view name_of(GraphOp k) {
  switch (k) {
    case GraphOp::Send:
      return "send";
    case GraphOp::Recv:
      return "recv";
    case GraphOp::Calc:
      return "calc";
  }
  return "?";
}

std::uint32_t OpGraph::rank_of(std::uint32_t op) const {
  if (!grouped()) return rank[op];
  const auto it = std::upper_bound(rank_offsets.begin(), rank_offsets.end(), std::uint64_t{op});
  return static_cast<std::uint32_t>(it - rank_offsets.begin() - 1);
}

std::uint32_t OpGraphBuilder::add(std::uint32_t rank, GraphOp kind, std::uint32_t peer, std::uint32_t tag, double value,
                                  std::uint8_t flags, std::uint8_t klass) {
  if (rank_.size() >= (1u << 31) - 1) throw InputError("operation graph: more than 2^31 operations");
  rank_.push_back(rank);
  kind_.push_back(kind);
  peer_.push_back(peer);
  tag_.push_back(tag);
  value_.push_back(value);
  flags_.push_back(flags);
  klass_.push_back(klass);
  match_.push_back(kNoOp);
  return static_cast<std::uint32_t>(rank_.size() - 1);
}

std::uint32_t OpGraphBuilder::send(std::uint32_t rank, std::uint32_t dst, double bytes, std::uint32_t tag,
                                   std::uint8_t klass) {
  return add(rank, GraphOp::Send, dst, tag, bytes, 0, klass);
}

std::uint32_t OpGraphBuilder::recv(std::uint32_t rank, std::uint32_t src, double bytes, std::uint32_t tag) {
  return add(rank, GraphOp::Recv, src, tag, bytes, 0, kAppClass);
}

std::uint32_t OpGraphBuilder::calc(std::uint32_t rank, double seconds, std::uint8_t flags) {
  return add(rank, GraphOp::Calc, 0, 0, seconds, flags, kAppClass);
}

void OpGraphBuilder::depend(std::uint32_t op, Dependency on) {
  deps_.emplace_back(op, on.op << 1 | (on.on_start ? 1u : 0u));
}

void OpGraphBuilder::pair(std::uint32_t send_op, std::uint32_t recv_op) {
  match_[send_op] = recv_op;
  match_[recv_op] = send_op;
}

std::uint32_t OpGraphBuilder::fresh_tags(std::uint32_t count) {
  if (next_tag_ > std::numeric_limits<std::uint32_t>::max() - count)
    throw InputError("operation graph: more than 2^31 collective tags");
  const std::uint32_t first = next_tag_;
  next_tag_ += count;
  return first;
}

OpGraph OpGraphBuilder::build(const std::string& what, std::vector<std::uint32_t>* renumbered) {
  const std::uint32_t n = size();
  OpGraph g;
  g.ranks = ranks_;
  const auto op_text = [&](std::uint32_t op) {
    return what + ": operation " + std::to_string(op) + " (" + std::string(name_of(kind_[op])) + " of rank " +
           std::to_string(rank_[op]) + ")";
  };
  // Checks, in the caller's numbering.
  for (std::uint32_t i = 0; i < n; ++i) {
    if (rank_[i] >= ranks_)
      throw InputError(op_text(i) + ": rank beyond the graph's " + std::to_string(ranks_) + " ranks");
    if (kind_[i] != GraphOp::Calc && peer_[i] >= ranks_)
      throw InputError(op_text(i) + ": peer rank " + std::to_string(peer_[i]) + " beyond the graph's " +
                       std::to_string(ranks_) + " ranks");
    if (!(value_[i] >= 0) || !std::isfinite(value_[i]))
      throw InputError(op_text(i) + ": " + (kind_[i] == GraphOp::Calc ? "duration" : "size") +
                       " must be a finite number >= 0");
  }
  for (const auto& [op, entry] : deps_) {
    const Dependency d = OpGraph::decode(entry);
    if (op >= n || d.op >= n) throw InputError(what + ": a dependency names an operation that does not exist");
    if (rank_[d.op] != rank_[op]) throw InputError(op_text(op) + ": depends on " + op_text(d.op) + ", of another rank");
    if (d.op == op) throw InputError(op_text(op) + ": depends on itself");
  }

  // Group by rank, keeping each rank's order.
  g.rank_offsets.assign(ranks_ + std::size_t{1}, 0);
  for (std::uint32_t r : rank_) ++g.rank_offsets[r + 1];
  for (std::uint32_t r = 0; r < ranks_; ++r) g.rank_offsets[r + 1] += g.rank_offsets[r];
  std::vector<std::uint32_t> new_id(n);
  {
    std::vector<std::uint64_t> cursor(g.rank_offsets.begin(), g.rank_offsets.end() - 1);
    for (std::uint32_t i = 0; i < n; ++i) new_id[i] = static_cast<std::uint32_t>(cursor[rank_[i]]++);
  }
  const auto place = [&](auto& out, const auto& in) {
    out.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) out[new_id[i]] = in[i];
  };
  place(g.kind, kind_);
  place(g.peer, peer_);
  place(g.tag, tag_);
  place(g.value, value_);
  place(g.flags, flags_);
  place(g.klass, klass_);
  g.match.assign(n, kNoOp);
  for (std::uint32_t i = 0; i < n; ++i)
    if (match_[i] != kNoOp) g.match[new_id[i]] = new_id[match_[i]];
  for (auto& [op, entry] : deps_) {
    op = new_id[op];
    entry = new_id[entry >> 1] << 1 | (entry & 1);
  }
  std::sort(deps_.begin(), deps_.end());
  deps_.erase(std::unique(deps_.begin(), deps_.end()), deps_.end());
  g.dep_offsets.assign(n + std::size_t{1}, 0);
  for (const auto& d : deps_) ++g.dep_offsets[d.first + 1];
  for (std::uint32_t i = 0; i < n; ++i) g.dep_offsets[i + 1] += g.dep_offsets[i];
  g.deps.resize(deps_.size());
  for (std::size_t i = 0; i < deps_.size(); ++i) g.deps[i] = deps_[i].second;
  deps_ = {};

  // Receives not paired explicitly: the k-th receive of a channel (src, dst, tag, bytes) matches the
  // channel's k-th unpaired send, in operation order.
  std::vector<ChannelEnd> sends, recvs;
  for (std::uint32_t r = 0; r < ranks_; ++r)
    for (auto i = static_cast<std::uint32_t>(g.rank_offsets[r]); i < g.rank_offsets[r + 1]; ++i) {
      if (g.match[i] != kNoOp) continue;
      if (g.kind[i] == GraphOp::Send) sends.push_back({std::uint64_t{r} << 32 | g.peer[i], g.tag[i], g.value[i], i});
      if (g.kind[i] == GraphOp::Recv) recvs.push_back({std::uint64_t{g.peer[i]} << 32 | r, g.tag[i], g.value[i], i});
    }
  match_in_order(sends, recvs, [&](const ChannelEnd& send, const ChannelEnd& recv) {
    g.match[recv.id] = send.id;
    g.match[send.id] = recv.id;
  });

  // No cycles.
  const std::vector<std::uint32_t> order = dependency_order(g, dependents_of(g));
  if (order.size() < n) {
    std::vector<std::uint8_t> ordered(n, 0);
    for (std::uint32_t i : order) ordered[i] = 1;
    for (std::uint32_t i = 0; i < n; ++i)
      if (!ordered[i]) {
        const std::uint32_t r = g.rank_of(i);
        throw InputError(what + ": the dependencies of rank " + std::to_string(r) + " form a cycle (through its " +
                         std::string(name_of(g.kind[i])) + " operation " + std::to_string(i - g.rank_offsets[r]) + ")");
      }
  }
  if (renumbered) *renumbered = std::move(new_id);
  *this = OpGraphBuilder(ranks_);
  return g;
}

Dependents dependents_of(const OpGraph& g) {
  const std::uint32_t n = g.size();
  Dependents d;
  d.offsets.assign(n + std::size_t{1}, 0);
  for (std::uint32_t e : g.deps) ++d.offsets[(e >> 1) + 1];
  for (std::uint32_t i = 0; i < n; ++i) d.offsets[i + 1] += d.offsets[i];
  d.entries.resize(g.deps.size());
  std::vector<std::uint64_t> cursor(d.offsets.begin(), d.offsets.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t e : g.deps_of(i)) d.entries[cursor[e >> 1]++] = i << 1 | (e & 1);
  return d;
}

std::vector<std::uint32_t> dependency_order(const OpGraph& g, const Dependents& d) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> pending(n), order;
  order.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    pending[i] = static_cast<std::uint32_t>(g.dep_offsets[i + 1] - g.dep_offsets[i]);
    if (pending[i] == 0) order.push_back(i);
  }
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::uint64_t j = d.offsets[order[k]]; j < d.offsets[order[k] + 1]; ++j)
      if (--pending[d.entries[j] >> 1] == 0) order.push_back(d.entries[j] >> 1);
  return order;
}

std::vector<std::uint32_t> append_program(OpGraphBuilder& b, const Program& p, std::span<const std::uint32_t> rank_of,
                                          std::span<const std::uint32_t> entry, bool sends_in_order) {
  // Collective tags (>= 2^30) of this program get fresh tags of b, keeping them apart from other
  // programs appended to the same graph.
  std::uint32_t max_tag = 0;
  bool collectives = false;
  for (std::uint32_t t : p.tag)
    if (t >= (1u << 30)) {
      collectives = true;
      max_tag = std::max(max_tag, t);
    }
  const std::uint32_t tag_base = collectives ? b.fresh_tags(max_tag - (1u << 30) + 1) : 0;
  const auto tag_of = [&](std::uint32_t t) { return t >= (1u << 30) ? tag_base + (t - (1u << 30)) : t; };

  std::vector<std::uint32_t> joins(p.tasks);
  std::vector<std::uint32_t> control, outstanding;
  for (std::uint32_t t = 0; t < p.tasks; ++t) {
    const std::uint32_t rank = rank_of.empty() ? t : rank_of[t];
    const auto peer = [&](std::uint64_t i) { return rank_of.empty() ? p.peer[i] : rank_of[p.peer[i]]; };
    control.clear();
    outstanding.clear();
    if (!entry.empty() && entry[t] != kNoOp) control.push_back(entry[t]);
    std::uint32_t last_isend = kNoOp;  // with sends_in_order: the isend whose start the next operation awaits
    const auto after_control = [&](std::uint32_t op) {
      for (std::uint32_t c : control) b.depend(op, {c, false});
      if (last_isend != kNoOp) b.depend(op, {last_isend, true});
      return op;
    };
    for (std::uint64_t i = p.offsets[t]; i < p.offsets[t + 1]; ++i) {
      switch (p.kind[i]) {
        case OpKind::Compute:
        case OpKind::Delay: {
          const std::uint8_t flags = p.kind[i] == OpKind::Compute ? kCalcScaled | kCalcUsesCpu : 0;
          const std::uint32_t op = after_control(b.calc(rank, p.value[i], flags));
          control.assign(1, op);
          last_isend = kNoOp;  // the calc waited for it
          break;
        }
        case OpKind::Send:
        case OpKind::Isend: {
          const std::uint32_t op = after_control(b.send(rank, peer(i), p.value[i], tag_of(p.tag[i]), p.klass[i]));
          if (p.kind[i] == OpKind::Send) {
            control.assign(1, op);
            last_isend = kNoOp;
          } else {
            outstanding.push_back(op);
            if (sends_in_order) last_isend = op;
          }
          break;
        }
        case OpKind::Recv:
        case OpKind::Irecv: {
          const std::uint32_t op = after_control(b.recv(rank, peer(i), p.value[i], tag_of(p.tag[i])));
          if (p.kind[i] == OpKind::Recv) {
            control.assign(1, op);
            last_isend = kNoOp;
          } else {
            outstanding.push_back(op);
          }
          break;
        }
        case OpKind::Wait:
          // Every outstanding operation was issued after the control point and depends on all of
          // it, so once they are complete so is the control point: they alone are the new one (the
          // union would grow with every iteration of a program that never blocks otherwise).
          if (!outstanding.empty()) control.swap(outstanding);
          outstanding.clear();
          last_isend = kNoOp;  // complete, so started
          break;
      }
    }
    if (!outstanding.empty()) control.swap(outstanding);  // as at a wait
    joins[t] = after_control(b.calc(rank, 0, 0));
  }
  return joins;
}

OpGraph graph_of(const Program& p, const std::string& what, bool sends_in_order) {
  OpGraphBuilder b(p.tasks);
  append_program(b, p, {}, {}, sends_in_order);
  return b.build(what);
}

}  // namespace interflow
