// The application driver's results: who waits forever and for what, messages nobody received, and the
// per-application summaries.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/drivers/driver.hpp"

namespace interflow::drivers {

namespace {

constexpr std::uint8_t kStarted = 1;
constexpr std::uint8_t kCompleted = 2;
constexpr std::uint8_t kQueued = 4;

}  // namespace

// "operation 3 (recv from rank 2, tag 5, 100 bytes)", numbered within its rank (within the graph when
// the graph is not grouped by rank).
std::string Driver::describe(std::uint32_t op) const {
  const OpGraph& g = graph_of_op(op);
  const std::uint32_t i = local(op);
  const std::uint32_t first = g.grouped() ? g.rank_offsets[g.rank_of(i)] : 0;
  std::string text = "operation " + std::to_string(i - first) + " (" + std::string(name_of(g.kind[i]));
  if (g.kind[i] == GraphOp::Calc) return text + " " + std::to_string(g.value[i]) + " s)";
  return text + (g.kind[i] == GraphOp::Send ? " to rank " : " from rank ") + std::to_string(g.peer[i]) + ", tag " +
         std::to_string(g.tag[i]) + ", " + std::to_string(static_cast<std::uint64_t>(g.value[i])) + " bytes)";
}

void Driver::report_blocked() {
  // Per rank, its first unfinished operation (global id): in rank order for grouped graphs, by one
  // scan of the operations for the others.
  std::vector<std::uint32_t> first_open(total_ranks_, kNone);
  for (std::uint32_t op = total_ops_; op-- > 0;)
    if (!(status_[op] & kCompleted)) first_open[op_rank_[op]] = op;
  for (std::uint32_t rank = 0; rank < total_ranks_; ++rank)
    if (ops_left_[rank] > 0) res_.blocked.push_back(blocked_rank(rank, first_open[rank]));
}

// A rank that never finished: its first unfinished operation and what that waits for.
BlockedTask Driver::blocked_rank(std::uint32_t rank, std::uint32_t op) const {
  const auto a = static_cast<std::size_t>(std::upper_bound(res_.task_offset.begin(), res_.task_offset.end(), rank) -
                                          res_.task_offset.begin() - 1);
  const OpGraph& g = *graphs_[a];
  const std::uint32_t local_rank = rank - res_.task_offset[a];
  const auto base = static_cast<std::uint32_t>(res_.op_base[a]);
  const std::uint32_t i = op - base;
  BlockedTask b{static_cast<std::uint32_t>(a), local_rank, i - (g.grouped() ? g.rank_offsets[local_rank] : 0), ""};
  const std::string what = describe(op);
  if (status_[op] & kQueued) {
    b.reason = what + (g.kind[i] == GraphOp::Calc ? " waits for the CPU" : " waits for a slot among the messages in flight");
  } else if (!(status_[op] & kStarted)) {
    std::string waits = "its start time";
    for (std::uint32_t e : g.deps_of(i)) {
      const Dependency d = OpGraph::decode(e);
      if (status_[base + d.op] & (d.on_start ? kStarted : kCompleted)) continue;
      waits = describe(base + d.op) + (d.on_start ? " to start" : " to complete");
      break;
    }
    b.reason = what + " waits for " + waits;
  } else if (g.kind[i] == GraphOp::Recv) {
    const std::uint32_t send = g.match[i];
    if (send == kNoOp)
      b.reason = what + " waits for a message rank " + std::to_string(g.peer[i]) + " never sends";
    else if (!(status_[base + send] & kStarted))
      b.reason = what + " waits for rank " + std::to_string(g.peer[i]) + " to reach the matching " +
                 describe(base + send);
    else
      b.reason = what + " waits for a message that was sent but cannot be delivered";
  } else {
    b.reason = what + " cannot be transferred";
  }
  return b;
}

void Driver::count_unreceived() {
  for (std::size_t msg = 0; msg < delivered_.size(); ++msg) {
    const std::uint32_t recv = message_recv_.empty() ? kNone : message_recv_[msg];
    const bool flow = flags_of(res_.message_op[msg]) & kSendUntilDelivered;
    if (delivered_[msg] && !flow && (recv == kNone || !(status_[recv] & kStarted))) ++res_.unreceived_messages;
  }
}

void summarise_applications(RunResult& res, const std::vector<double>& arrival_s) {
  const std::size_t num_apps = arrival_s.size();
  const MessageTable& m = res.messages;
  const TransportResult& r = res.flows;
  res.apps.assign(num_apps, AppResult{});
  for (std::size_t a = 0; a < num_apps; ++a) {
    AppResult& ar = res.apps[a];
    ar.start_s = arrival_s[a];
    ar.complete = true;
    ar.end_s = ar.start_s;
    for (std::uint32_t g = res.task_offset[a]; g < res.task_offset[a + 1]; ++g) {
      ar.compute_s += res.task_compute_s[g];
      if (std::isnan(res.task_finish_s[g]))
        ar.complete = false;
      else
        ar.end_s = std::max(ar.end_s, res.task_finish_s[g]);
    }
    if (!ar.complete) ar.end_s = std::numeric_limits<double>::quiet_NaN();
  }
  // Latencies of delivered messages, per application.
  std::vector<std::vector<float>> latencies(num_apps);
  const auto app_of_message = [&](std::size_t msg) { return res.message_app.empty() ? 0 : res.message_app[msg]; };
  for (std::size_t msg = 0; msg < m.size(); ++msg) {
    AppResult& ar = res.apps[app_of_message(msg)];
    ++ar.messages;
    ar.bytes += m.bytes[msg];
    if (r.state[msg] != FlowState::Delivered && r.state[msg] != FlowState::Self) continue;
    const double latency = r.finish_s[msg] - r.start_s[msg];
    ar.mean_latency_s += latency;
    ar.max_latency_s = std::max(ar.max_latency_s, latency);
    latencies[app_of_message(msg)].push_back(static_cast<float>(latency));
  }
  for (std::size_t a = 0; a < num_apps; ++a) {
    std::vector<float>& l = latencies[a];
    if (l.empty()) continue;
    AppResult& ar = res.apps[a];
    ar.mean_latency_s /= static_cast<double>(l.size());
    const auto rank = [&](double q) {  // nearest rank: the ceil(q n)-th smallest
      const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(l.size())));
      std::nth_element(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(k - 1), l.end());
      return static_cast<double>(l[k - 1]);
    };
    ar.median_latency_s = rank(0.5);
    ar.p99_latency_s = rank(0.99);
  }
  res.makespan_s = r.makespan_s;
  for (double f : res.task_finish_s)
    if (std::isfinite(f)) res.makespan_s = std::max(res.makespan_s, f);
}

}  // namespace interflow::drivers
