#include "engine/graph_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "engine/error.hpp"
#include "engine/flow_simulator.hpp"
#include "engine/system.hpp"

namespace interflow {

namespace {

// Per operation status bits.
constexpr std::uint8_t kStarted = 1;
constexpr std::uint8_t kCompleted = 2;
constexpr std::uint8_t kQueued = 4;  // a calc waiting for its rank's CPU

enum class EventKind : std::uint8_t { Delivery, CalcDone, Arrival };

struct Event {
  double time;
  std::uint32_t id;  // a message, an operation or an application
  EventKind kind;
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (kind != o.kind) return kind > o.kind;  // deliveries first, arrivals last
    return id > o.id;
  }
};

std::string describe(const OpGraph& g, std::uint32_t op) {
  const std::uint32_t r = g.rank_of(op);
  std::string text = "operation " + std::to_string(op - g.rank_offsets[r]) + " (" + std::string(name_of(g.kind[op]));
  if (g.kind[op] == GraphOp::Calc) return text + " " + std::to_string(g.value[op]) + " s)";
  return text + (g.kind[op] == GraphOp::Send ? " to rank " : " from rank ") + std::to_string(g.peer[op]) + ", tag " +
         std::to_string(g.tag[op]) + ", " + std::to_string(static_cast<std::uint64_t>(g.value[op])) + " bytes)";
}

}  // namespace

GraphApplication as_graph(const Application& app) {
  if (app.is_trace()) return {app.name, app.graph, app.placement, app.service_class, app.arrival_s};
  return {app.name, graph_of(app.program, "application " + app.name), app.placement, app.service_class, app.arrival_s};
}

TaskResult GraphEngine::run(const std::vector<GraphApplication>& apps, const TaskOptions& o) const {
  check_task_options(o);
  TaskResult res;
  const std::size_t num_apps = apps.size();
  std::vector<std::uint64_t> op_base(num_apps + 1, 0);
  res.task_offset.assign(num_apps + 1, 0);
  for (std::size_t a = 0; a < num_apps; ++a) {
    const GraphApplication& app = apps[a];
    const std::string what = application_label(a, app.name);
    if (app.graph.rank_offsets.size() != app.graph.ranks + std::size_t{1})
      throw InputError(what + ": its operation graph is not built");
    check_application(net_, what, app.graph.ranks, app.placement, app.arrival_s);
    op_base[a + 1] = op_base[a] + app.graph.size();
    res.task_offset[a + 1] = res.task_offset[a] + app.graph.ranks;
  }
  if (op_base[num_apps] >= (1u << 31)) throw InputError("applications: more than 2^31 operations in all");
  const auto total_ops = static_cast<std::uint32_t>(op_base[num_apps]);
  const std::uint32_t total_ranks = res.task_offset[num_apps];

  // Global ids: operation o of application a is op_base[a] + o; rank r of a is task_offset[a] + r.
  std::vector<std::uint32_t> op_rank(total_ops), op_message(total_ops, kNone), pending(total_ops);
  std::vector<std::uint32_t> message_send, message_recv;
  DynamicWorkload& m = res.messages;
  for (std::size_t a = 0; a < num_apps; ++a) {
    const OpGraph& g = apps[a].graph;
    const auto base = static_cast<std::uint32_t>(op_base[a]);
    for (std::uint32_t r = 0; r < g.ranks; ++r)
      for (auto i = static_cast<std::uint32_t>(g.rank_offsets[r]); i < g.rank_offsets[r + 1]; ++i) {
        op_rank[base + i] = res.task_offset[a] + r;
        pending[base + i] = static_cast<std::uint32_t>(g.dep_offsets[i + 1] - g.dep_offsets[i]);
        if (g.kind[i] != GraphOp::Send) continue;
        const auto id = static_cast<std::uint32_t>(m.size());
        op_message[base + i] = id;
        m.add(apps[a].placement[r], apps[a].placement[g.peer[i]], g.value[i], 0.0);
        m.service_class.push_back(g.klass[i] == kAppClass ? apps[a].service_class : g.klass[i]);
        res.message_app.push_back(static_cast<std::uint32_t>(a));
        message_send.push_back(base + i);
        message_recv.push_back(g.match[i] == kNoOp ? kNone : base + g.match[i]);
        if (g.match[i] != kNoOp) op_message[base + g.match[i]] = id;
      }
  }
  // Who depends on each operation (entry: dependent << 1 | on_start), applications concatenated.
  std::vector<std::uint64_t> out_offsets{0};
  std::vector<std::uint32_t> dependents;
  out_offsets.reserve(total_ops + std::size_t{1});
  for (std::size_t a = 0; a < num_apps; ++a) {
    const Dependents d = dependents_of(apps[a].graph);
    const std::uint64_t entry_base = dependents.size();
    const auto base = static_cast<std::uint32_t>(op_base[a]);
    for (std::size_t i = 1; i < d.offsets.size(); ++i) out_offsets.push_back(entry_base + d.offsets[i]);
    for (std::uint32_t e : d.entries) dependents.push_back(e + (base << 1));
  }

  // Route every message, then run.
  const std::size_t n = m.size();
  route_messages(net_, routing_, res, o.dynamic);
  Stopwatch clock;
  DynamicResult& r = res.flows;
  FlowSimulator sim(net_, r, m.flows, m.bytes, m.service_class, o.dynamic);

  std::vector<std::uint8_t> status(total_ops, 0), delivered(n, 0);
  std::vector<std::uint32_t> next_queued(total_ops, kNone), queue_head(total_ranks, kNone),
      queue_tail(total_ranks, kNone), ops_left(total_ranks, 0);
  std::vector<std::uint8_t> cpu_busy(total_ranks, 0);
  for (std::uint32_t i = 0; i < total_ops; ++i) ++ops_left[op_rank[i]];
  res.task_finish_s.assign(total_ranks, std::numeric_limits<double>::quiet_NaN());
  res.task_compute_s.assign(total_ranks, 0.0);
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (std::size_t a = 0; a < num_apps; ++a)
    events.push({apps[a].arrival_s, static_cast<std::uint32_t>(a), EventKind::Arrival});

  const auto app_of = [&](std::uint32_t op) {
    return static_cast<std::size_t>(std::upper_bound(op_base.begin(), op_base.end(), op) - op_base.begin() - 1);
  };
  std::vector<std::uint32_t> ready;
  const auto notify = [&](std::uint32_t op, bool started) {
    for (std::uint64_t j = out_offsets[op]; j < out_offsets[op + 1]; ++j)
      if (((dependents[j] & 1) != 0) == started && --pending[dependents[j] >> 1] == 0)
        ready.push_back(dependents[j] >> 1);
  };
  const bool record = o.record_operations;
  if (record) {
    res.op_start_s.assign(total_ops, std::numeric_limits<double>::quiet_NaN());
    res.op_done_s = res.op_start_s;
  }
  const auto complete = [&](std::uint32_t op) {
    status[op] |= kCompleted;
    if (record) res.op_done_s[op] = sim.now();
    const std::uint32_t rank = op_rank[op];
    if (--ops_left[rank] == 0) res.task_finish_s[rank] = sim.now();
    notify(op, false);
  };
  const auto start = [&](std::uint32_t op) {
    status[op] |= kStarted;
    if (record) res.op_start_s[op] = sim.now();
    notify(op, true);
  };
  const auto deliver = [&](std::uint32_t msg) {
    delivered[msg] = 1;
    const std::uint32_t recv = message_recv[msg];
    if (recv != kNone && (status[recv] & kStarted) && !(status[recv] & kCompleted)) complete(recv);
  };
  std::uint64_t ended_messages = 0;  // for the progress line
  const auto transfer_ended = [&](std::uint32_t msg) {
    ++ended_messages;
    complete(message_send[msg]);
    events.push({r.finish_s[msg], msg, EventKind::Delivery});
  };
  const auto begin_calc = [&](std::uint32_t op, const OpGraph& g, std::uint32_t local) {
    const std::uint32_t rank = op_rank[op];
    const bool scaled = g.flags[local] & kCalcScaled;
    const double d = g.value[local] * (scaled ? o.cpu_scale : 1.0);
    if (scaled) res.task_compute_s[rank] += d;
    if (g.flags[local] & kCalcUsesCpu) cpu_busy[rank] = 1;
    start(op);
    events.push({sim.now() + d, op, EventKind::CalcDone});
  };
  // Starts a ready operation (or queues a calc for its rank's CPU).
  const auto run_op = [&](std::uint32_t op) {
    const std::size_t a = app_of(op);
    const OpGraph& g = apps[a].graph;
    const auto local = static_cast<std::uint32_t>(op - op_base[a]);
    switch (g.kind[local]) {
      case GraphOp::Send: {
        const std::uint32_t msg = op_message[op];
        start(op);
        if (!sim.start(msg)) transfer_ended(msg);
        break;
      }
      case GraphOp::Recv:
        start(op);
        if (op_message[op] != kNone && delivered[op_message[op]]) complete(op);
        break;
      case GraphOp::Calc: {
        const std::uint32_t rank = op_rank[op];
        if ((g.flags[local] & kCalcUsesCpu) && cpu_busy[rank]) {
          status[op] |= kQueued;
          (queue_tail[rank] == kNone ? queue_head[rank] : next_queued[queue_tail[rank]]) = op;
          queue_tail[rank] = op;
          break;
        }
        begin_calc(op, g, local);
        break;
      }
    }
  };
  const auto calc_done = [&](std::uint32_t op) {
    const std::size_t a = app_of(op);
    const auto local = static_cast<std::uint32_t>(op - op_base[a]);
    const std::uint32_t rank = op_rank[op];
    complete(op);
    if (!(apps[a].graph.flags[local] & kCalcUsesCpu)) return;
    cpu_busy[rank] = 0;
    const std::uint32_t next = queue_head[rank];
    if (next == kNone) return;
    queue_head[rank] = next_queued[next];
    if (queue_head[rank] == kNone) queue_tail[rank] = kNone;
    status[next] &= static_cast<std::uint8_t>(~kQueued);
    const std::size_t na = app_of(next);
    begin_calc(next, apps[na].graph, static_cast<std::uint32_t>(next - op_base[na]));
  };
  const auto arrive = [&](std::uint32_t a) {
    for (std::uint32_t rank = res.task_offset[a]; rank < res.task_offset[a + 1]; ++rank)
      if (ops_left[rank] == 0) res.task_finish_s[rank] = sim.now();
    for (auto i = static_cast<std::uint32_t>(op_base[a + 1]); i-- > op_base[a];)
      if (pending[i] == 0) ready.push_back(i);
  };

  if (o.dynamic.progress) o.dynamic.progress->phase("simulating: messages sent", n);
  sim.run(
      events, ready, transfer_ended,
      [&](const Event& e) {
        if (e.kind == EventKind::Delivery)
          deliver(e.id);
        else if (e.kind == EventKind::CalcDone)
          calc_done(e.id);
        else
          arrive(e.id);
      },
      run_op, o.dynamic.progress, ended_messages);
  r.simulate_seconds = clock.seconds();
  sim.close();

  // Ranks that never finished: their first unfinished operation and what it waits for.
  for (std::uint32_t rank = 0; rank < total_ranks; ++rank) {
    if (ops_left[rank] == 0) continue;
    const auto a = static_cast<std::size_t>(std::upper_bound(res.task_offset.begin(), res.task_offset.end(), rank) -
                                            res.task_offset.begin() - 1);
    const OpGraph& g = apps[a].graph;
    const std::uint32_t local_rank = rank - res.task_offset[a];
    const auto base = static_cast<std::uint32_t>(op_base[a]);
    std::uint32_t local = static_cast<std::uint32_t>(g.rank_offsets[local_rank]);
    while (status[base + local] & kCompleted) ++local;
    const std::uint32_t op = base + local;
    BlockedTask b{static_cast<std::uint32_t>(a), local_rank, local - g.rank_offsets[local_rank], ""};
    const std::string what = describe(g, local);
    if (!(status[op] & kStarted)) {
      std::string waits;
      for (std::uint32_t e : g.deps_of(local)) {
        const Dependency d = OpGraph::decode(e);
        if (status[base + d.op] & (d.on_start ? kStarted : kCompleted)) continue;
        waits = describe(g, d.op) + (d.on_start ? " to start" : " to complete");
        break;
      }
      b.reason = status[op] & kQueued ? what + " waits for the CPU" : what + " waits for " + waits;
    } else if (g.kind[local] == GraphOp::Recv) {
      const std::uint32_t send = g.match[local];
      if (send == kNoOp)
        b.reason = what + " waits for a message rank " + std::to_string(g.peer[local]) + " never sends";
      else if (!(status[base + send] & kStarted))
        b.reason =
            what + " waits for rank " + std::to_string(g.peer[local]) + " to reach the matching " + describe(g, send);
      else
        b.reason = what + " waits for a message that was sent but cannot be delivered";
    } else {
      b.reason = what + " cannot be transferred";
    }
    res.blocked.push_back(std::move(b));
  }
  for (std::size_t msg = 0; msg < n; ++msg)
    if (delivered[msg] && (message_recv[msg] == kNone || !(status[message_recv[msg]] & kStarted)))
      ++res.unreceived_messages;

  std::vector<double> arrivals(num_apps);
  for (std::size_t a = 0; a < num_apps; ++a) arrivals[a] = apps[a].arrival_s;
  summarise_applications(res, arrivals);
  return res;
}

TaskResult run_applications(const Network& net, const Routing& routing, const std::vector<Application>& apps,
                            const TaskOptions& options) {
  if (std::none_of(apps.begin(), apps.end(), [](const Application& a) { return a.is_trace(); }))
    return TaskEngine(net, routing).run(apps, options);
  std::vector<GraphApplication> graphs;
  graphs.reserve(apps.size());
  for (const Application& app : apps) graphs.push_back(as_graph(app));
  return GraphEngine(net, routing).run(graphs, options);
}

}  // namespace interflow
