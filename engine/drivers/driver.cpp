#include "engine/drivers/driver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/error.hpp"

namespace interflow::drivers {

namespace {

// Per operation status bits.
constexpr std::uint8_t kStarted = 1;
constexpr std::uint8_t kCompleted = 2;
constexpr std::uint8_t kQueued = 4;  // waiting for its rank's CPU (a calc) or for a slot (a send)

constexpr double kNever = Transport::kNever;

std::string application_label(std::size_t index, const std::string& name) {
  return "application " + std::to_string(index) + (name.empty() ? "" : " (" + name + ")");
}

void check_application(const Network& net, const std::string& what, const Application& app) {
  if (app.is_graph()) {
    if (!app.graph.built()) throw InputError(what + ": its operation graph is not built");
    const std::size_t n = app.graph.size();
    if ((!app.graph.not_before.empty() && app.graph.not_before.size() != n) ||
        (!app.graph.message_key.empty() && app.graph.message_key.size() != n))
      throw InputError(what + ": its operation graph's start times or message keys do not match its operations");
  } else if (app.program.offsets.size() != app.program.tasks + std::size_t{1}) {
    throw InputError(what + ": its program is not built");
  }
  if (app.placement.size() != app.tasks())
    throw InputError(what + ": " + std::to_string(app.tasks()) + " tasks but " + std::to_string(app.placement.size()) +
                     " placed");
  for (EndpointId e : app.placement)
    if (e == kNone && app.data_ranks > 0)
      throw InputError(what + ": its data ranks (where its tasks' data lives) are not placed: run it with a storage "
                       "system and a data placement policy (manual/storage.md)");
    else if (e >= net.num_endpoints())
      throw InputError(what + ": a task is placed on endpoint " + std::to_string(e) + ", beyond the network's " +
                       std::to_string(net.num_endpoints()));
  if (!(app.arrival_s >= 0) || !std::isfinite(app.arrival_s))
    throw InputError(what + ": arrival time must be finite and >= 0");
}

}  // namespace

void check_driver_options(const DriverOptions& o) {
  if (!(o.cpu_scale >= 0) || !std::isfinite(o.cpu_scale))
    throw InputError("CPU scale factor " + std::to_string(o.cpu_scale) + ": expected a finite number >= 0");
}

Driver::Driver(const Network& net, Transport& transport, const DriverOptions& options)
    : net_(net), transport_(transport), options_(options) {}

RunResult Driver::run(const std::vector<Application>& apps) {
  check_driver_options(options_);
  take_applications(apps);
  number_messages();
  link_dependents();
  mark_awaited();
  transport_.open(res_.messages, res_.flows);
  prepare_state();
  run_batches();
  transport_.close();
  if (options_.summarise) {
    report_blocked();
    count_unreceived();
    std::vector<double> arrivals(apps.size());
    for (std::size_t a = 0; a < apps.size(); ++a) arrivals[a] = apps[a].arrival_s;
    summarise_applications(res_, arrivals);
  }
  converted_.clear();
  return std::move(res_);
}

// Checks every application and takes its graph (converting task programs); numbers operations and
// ranks globally, applications concatenated.
void Driver::take_applications(const std::vector<Application>& apps) {
  apps_ = &apps;
  const std::size_t n = apps.size();
  res_ = RunResult();
  res_.op_base.assign(n + 1, 0);
  res_.task_offset.assign(n + 1, 0);
  converted_.clear();
  converted_.reserve(n);  // graphs_ points into it
  graphs_.assign(n, nullptr);
  for (std::size_t a = 0; a < n; ++a) {
    const Application& app = apps[a];
    check_application(net_, application_label(a, app.name), app);
    if (app.is_graph()) {
      graphs_[a] = &app.graph;
    } else {
      converted_.push_back(graph_form(app, options_.max_in_flight > 0));
      graphs_[a] = &converted_.back();
    }
    res_.op_base[a + 1] = res_.op_base[a] + graphs_[a]->size();
    res_.task_offset[a + 1] = res_.task_offset[a] + app.tasks();
  }
  if (res_.op_base[n] >= (1u << 31)) throw InputError("applications: more than 2^31 operations in all");
  total_ops_ = static_cast<std::uint32_t>(res_.op_base[n]);
  total_ranks_ = res_.task_offset[n];
}

// The sends in message order: operation order, or, when a graph gives start times, by start time and
// message key (flows that run at the same time then sit together in memory). In the second case each
// message's route index is its position in operation order (or its key), so it is routed as it
// would have been numbered without the sort; an index equal to the message's own number is left out.
std::vector<std::uint32_t> Driver::order_messages() {
  std::size_t count = 0;
  bool timed = false;
  for (const OpGraph* g : graphs_) {
    count += static_cast<std::size_t>(std::count(g->kind.begin(), g->kind.end(), GraphOp::Send));
    timed = timed || !g->not_before.empty();
  }
  if (count >= std::numeric_limits<std::uint32_t>::max() - 1) throw InputError("applications: more than 2^32 messages");
  std::vector<std::uint32_t> sends, keys;
  sends.reserve(count);
  if (timed) keys.reserve(count);
  bool sorted = true, identity = true;
  double last_time = -kNever;
  std::uint32_t send_base = 0;  // sends of the applications before
  for (std::size_t a = 0; a < graphs_.size(); ++a) {
    const OpGraph& g = *graphs_[a];
    std::uint32_t index = 0;
    for (std::uint32_t i = 0; i < g.size(); ++i) {
      if (g.kind[i] != GraphOp::Send) continue;
      sends.push_back(static_cast<std::uint32_t>(res_.op_base[a] + i));
      if (!timed) continue;
      const double t = (*apps_)[a].arrival_s + (g.not_before.empty() ? 0.0 : g.not_before[i]);
      const std::uint32_t key = send_base + (g.message_key.empty() ? index : g.message_key[i]);
      sorted = sorted && (t > last_time || (t == last_time && (keys.empty() || key > keys.back())));
      identity = identity && key == keys.size();
      last_time = t;
      keys.push_back(key);
      ++index;
    }
    send_base += index;
  }
  if (!timed) return sends;
  if (!sorted) sort_by_start(sends, keys);
  if (!identity || !sorted) res_.messages.route_index = std::move(keys);
  return sends;
}

// Sorts the sends (and their keys) by start time and key.
void Driver::sort_by_start(std::vector<std::uint32_t>& sends, std::vector<std::uint32_t>& keys) const {
  std::vector<std::tuple<double, std::uint32_t, std::uint32_t>> keyed(sends.size());  // time, key, op
  for (std::size_t k = 0; k < sends.size(); ++k) {
    const std::size_t a = app_of(sends[k]);
    const OpGraph& g = *graphs_[a];
    keyed[k] = {(*apps_)[a].arrival_s + (g.not_before.empty() ? 0.0 : g.not_before[local(sends[k])]), keys[k],
                sends[k]};
  }
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t m = 0; m < keyed.size(); ++m) {
    sends[m] = std::get<2>(keyed[m]);
    keys[m] = std::get<1>(keyed[m]);
  }
}

// One message per send: its ends (through the placement), size, class and application; the receive
// it is matched with; every operation's rank and dependency count.
void Driver::number_messages() {
  op_rank_.assign(total_ops_, 0);
  op_message_.assign(total_ops_, kNone);
  pending_.assign(total_ops_, 0);
  for (std::size_t a = 0; a < graphs_.size(); ++a) {
    const OpGraph& g = *graphs_[a];
    const auto base = static_cast<std::uint32_t>(res_.op_base[a]);
    for (std::uint32_t i = 0; i < g.size(); ++i)
      pending_[base + i] = static_cast<std::uint32_t>(g.dep_offsets[i + 1] - g.dep_offsets[i]);
    if (!g.grouped()) {
      for (std::uint32_t i = 0; i < g.size(); ++i) op_rank_[base + i] = res_.task_offset[a] + g.rank[i];
      continue;
    }
    for (std::uint32_t r = 0; r < g.ranks; ++r)
      for (auto i = static_cast<std::uint32_t>(g.rank_offsets[r]); i < g.rank_offsets[r + 1]; ++i)
        op_rank_[base + i] = res_.task_offset[a] + r;
  }
  res_.message_op = order_messages();
  fill_messages();
}

// The message table in message order. Left empty where it says nothing: the classes when every
// message is in class 0, the applications when there is one, the receives when no graph has one.
void Driver::fill_messages() {
  MessageTable& m = res_.messages;
  const std::size_t n = res_.message_op.size();
  bool classes = false, receives = false;
  for (std::size_t a = 0; a < graphs_.size(); ++a) {
    classes = classes || (*apps_)[a].service_class != 0 ||
              std::any_of(graphs_[a]->klass.begin(), graphs_[a]->klass.end(),
                          [](std::uint8_t k) { return k != kAppClass && k != 0; });
    receives = receives || std::count(graphs_[a]->kind.begin(), graphs_[a]->kind.end(), GraphOp::Recv) > 0;
  }
  m.ends.reserve(n);
  m.bytes.reserve(n);
  if (classes) m.service_class.reserve(n);
  if (graphs_.size() > 1) res_.message_app.reserve(n);
  if (receives) message_recv_.reserve(n);
  for (std::uint32_t op : res_.message_op) {
    const std::size_t a = app_of(op);
    const Application& app = (*apps_)[a];
    const OpGraph& g = *graphs_[a];
    const std::uint32_t i = local(op), base = static_cast<std::uint32_t>(res_.op_base[a]);
    const auto id = static_cast<MessageId>(m.size());
    op_message_[op] = id;
    m.ends.add(app.placement[op_rank_[op] - res_.task_offset[a]], app.placement[g.peer[i]]);
    m.bytes.push_back(g.value[i]);
    if (classes) m.service_class.push_back(g.klass[i] == kAppClass ? app.service_class : g.klass[i]);
    if (graphs_.size() > 1) res_.message_app.push_back(static_cast<std::uint32_t>(a));
    if (receives) message_recv_.push_back(g.match[i] == kNoOp ? kNone : base + g.match[i]);
    if (g.match[i] != kNoOp) op_message_[base + g.match[i]] = id;
  }
}

// Who depends on each operation (entry: dependent << 1 | on_start), applications concatenated; left
// empty when no operation depends on another (flows without dependencies).
void Driver::link_dependents() {
  out_offsets_.clear();
  dependents_.clear();
  if (std::all_of(graphs_.begin(), graphs_.end(), [](const OpGraph* g) { return g->deps.empty(); })) return;
  if (graphs_.size() == 1) {  // one application: its own lists are the global ones
    Dependents d = dependents_of(*graphs_[0]);
    out_offsets_ = std::move(d.offsets);
    dependents_ = std::move(d.entries);
    return;
  }
  out_offsets_.assign(1, 0);
  out_offsets_.reserve(total_ops_ + std::size_t{1});
  for (std::size_t a = 0; a < graphs_.size(); ++a) {
    const Dependents d = dependents_of(*graphs_[a]);
    const std::uint64_t entry_base = dependents_.size();
    const auto base = static_cast<std::uint32_t>(res_.op_base[a]);
    for (std::size_t i = 1; i < d.offsets.size(); ++i) out_offsets_.push_back(entry_base + d.offsets[i]);
    for (std::uint32_t e : d.entries) dependents_.push_back(e + (base << 1));
  }
}

// The messages whose delivery some operation waits for: a matched receive, or a flow (a send that
// completes on delivery) others depend on. The transport reports only those deliveries; every other
// flow's send completes when its transfer ends (its finish time is in the result all the same).
void Driver::mark_awaited() {
  const std::size_t n = res_.messages.size();
  std::vector<std::uint8_t> awaited(n, 1);
  bool all = true;
  for (MessageId m = 0; m < n; ++m) {
    const std::uint32_t op = res_.message_op[m];
    const bool received = !message_recv_.empty() && message_recv_[m] != kNone;
    const bool flow = flags_of(op) & kSendUntilDelivered;
    const bool depended_on = !out_offsets_.empty() && out_offsets_[op + 1] > out_offsets_[op];
    awaited[m] = received || (flow && depended_on) ? 1 : 0;
    all = all && awaited[m];
  }
  res_.messages.awaited = all ? std::vector<std::uint8_t>() : std::move(awaited);
}

void Driver::prepare_state() {
  const std::size_t n = res_.messages.size();
  status_.assign(total_ops_, 0);
  delivered_.assign(n, 0);
  cpu_queue_.reset(total_ranks_);
  cpu_busy_.assign(total_ranks_, 0);
  ops_left_.assign(total_ranks_, 0);
  // The queues of calcs waiting for a CPU and of sends waiting for a slot are linked through
  // next_queued_: needed only when some calc uses the CPU or messages in flight are limited.
  bool queues = options_.max_in_flight > 0;
  for (const OpGraph* g : graphs_)
    queues = queues || std::any_of(g->flags.begin(), g->flags.end(), [&](std::uint8_t f) { return f & kCalcUsesCpu; });
  next_queued_.assign(queues ? total_ops_ : 0, kNone);
  if (options_.max_in_flight > 0) {
    in_flight_.assign(total_ranks_, 0);
    send_queue_.reset(total_ranks_);
  }
  for (std::uint32_t i = 0; i < total_ops_; ++i) ++ops_left_[op_rank_[i]];
  res_.task_finish_s.assign(total_ranks_, std::numeric_limits<double>::quiet_NaN());
  res_.task_compute_s.assign(total_ranks_, 0.0);
  if (options_.record_operations) {
    res_.op_start_s.assign(total_ops_, std::numeric_limits<double>::quiet_NaN());
    res_.op_done_s = res_.op_start_s;
  }
  events_ = {};
  for (std::size_t a = 0; a < graphs_.size(); ++a)
    events_.push({(*apps_)[a].arrival_s, static_cast<std::uint32_t>(a), EventKind::Arrival});
  list_initial_starts();
}

// Operations free of dependencies in graphs with start times start in time order without a heap (a
// million-entry heap would cost a cache miss per level on every pop): the sends straight from the
// message order, which is by start time; the few other operations (phase barriers) from a short
// sorted list.
void Driver::list_initial_starts() {
  initial_.clear();
  next_initial_ = 0;
  next_initial_send_ = 0;
  for (std::size_t a = 0; a < graphs_.size(); ++a) {
    const OpGraph& g = *graphs_[a];
    if (g.not_before.empty()) continue;
    for (std::uint32_t i = 0; i < g.size(); ++i)
      if (g.kind[i] != GraphOp::Send && g.dep_offsets[i + 1] == g.dep_offsets[i])
        initial_.push_back({(*apps_)[a].arrival_s + g.not_before[i], static_cast<std::uint32_t>(res_.op_base[a] + i)});
  }
  std::stable_sort(initial_.begin(), initial_.end(), [](const Timed& x, const Timed& y) { return x.time < y.time; });
  skip_to_initial_send();
}

// Moves the send cursor to the next send that starts from the list (no dependencies, a start time).
void Driver::skip_to_initial_send() {
  while (next_initial_send_ < res_.message_op.size()) {
    const std::uint32_t op = res_.message_op[next_initial_send_];
    const OpGraph& g = graph_of_op(op);
    const std::uint32_t i = local(op);
    if (!g.not_before.empty() && g.dep_offsets[i + 1] == g.dep_offsets[i]) return;
    ++next_initial_send_;
  }
}

double Driver::next_initial_time() const {
  double t = next_initial_ < initial_.size() ? initial_[next_initial_].time : kNever;
  if (next_initial_send_ < res_.message_op.size()) {
    const std::uint32_t op = res_.message_op[next_initial_send_];
    const std::size_t a = app_of(op);
    t = std::min(t, (*apps_)[a].arrival_s + graphs_[a]->not_before[local(op)]);
  }
  return t;
}

// The next operation of the list (the caller checked next_initial_time()): on a tie, the send first.
std::uint32_t Driver::pop_initial() {
  const double t = next_initial_time();
  if (next_initial_send_ < res_.message_op.size()) {
    const std::uint32_t op = res_.message_op[next_initial_send_];
    const std::size_t a = app_of(op);
    if ((*apps_)[a].arrival_s + graphs_[a]->not_before[local(op)] == t) {
      ++next_initial_send_;
      skip_to_initial_send();
      return op;
    }
  }
  return initial_[next_initial_++].op;
}

void Driver::run_batches() {
  if (options_.progress) options_.progress->phase("simulating: messages sent", res_.messages.size());
  for (;;) {
    const double own = std::min(events_.empty() ? kNever : events_.top().time, next_initial_time());
    const double next = std::min(transport_.next_event(own), own);
    if (next == kNever) break;
    horizon_ = transport_.advance_to(next);
    sent_.clear();
    transport_.take_sent(horizon_, sent_);
    batch_events_ = sent_.size();
    for (MessageId m : sent_) send_ended(m);
    for (;;) {
      handle_due_events();
      if (ready_.empty()) break;
      run_ready();
    }
    res_.flows.events += batch_events_;
    if (options_.progress) options_.progress->counter()->store(sent_count_, std::memory_order_relaxed);
    transport_.end_batch();
  }
}

// Deliveries, the driver's own events and timed starts due by the batch's time, in time order. Only
// the transport's transfer ends are taken up to the batch's horizon (a relative 1e-12 later): what
// starts something (a timed start, a delivery, a computation's end) is never brought forward, so no
// flow starts before its start time or before what it waits for.
void Driver::handle_due_events() {
  const double now = transport_.now();
  for (;;) {
    const double d = transport_.next_delivery();
    const double e = events_.empty() ? kNever : events_.top().time;
    const double i = next_initial_time();
    if (std::min({d, e, i}) > now) return;
    ++batch_events_;
    if (d <= e && d <= i) {
      delivered(transport_.pop_delivery());
    } else if (e < i || (e == i && events_.top().kind != EventKind::Release)) {
      const Event ev = events_.top();
      events_.pop();
      handle_event(ev);
    } else {
      start_due(pop_initial());
    }
  }
}

void Driver::handle_event(const Event& e) {
  switch (e.kind) {
    case EventKind::CalcDone:
      calc_done(e.id);
      break;
    case EventKind::Arrival:
      arrive(e.id);
      break;
    case EventKind::Release:
      start_due(e.id);
      break;
  }
}

void Driver::run_ready() {
  while (!ready_.empty()) {
    const std::uint32_t op = ready_.back();
    ready_.pop_back();
    run_op(op);
  }
}

std::size_t Driver::app_of(std::uint32_t op) const {
  return static_cast<std::size_t>(std::upper_bound(res_.op_base.begin(), res_.op_base.end(), op) -
                                  res_.op_base.begin() - 1);
}

// A ready operation: it starts now, or at its start time if that is later.
void Driver::run_op(std::uint32_t op) {
  const std::size_t a = app_of(op);
  const OpGraph& g = *graphs_[a];
  if (!g.not_before.empty()) {
    const double t = (*apps_)[a].arrival_s + g.not_before[op - res_.op_base[a]];
    if (t > transport_.now()) {
      events_.push({t, op, EventKind::Release});
      return;
    }
  }
  start_due(op);
}

// A ready operation whose start time has come.
void Driver::start_due(std::uint32_t op) {
  const OpGraph& g = graph_of_op(op);
  const std::uint32_t i = local(op);
  switch (g.kind[i]) {
    case GraphOp::Send:
      start_send(op);
      break;
    case GraphOp::Recv:
      start_op(op);
      if (op_message_[op] != kNone && delivered_[op_message_[op]]) complete_op(op);
      break;
    case GraphOp::Calc: {
      const std::uint32_t rank = op_rank_[op];
      if ((g.flags[i] & kCalcUsesCpu) && cpu_busy_[rank]) {
        enqueue(cpu_queue_, rank, op);
        break;
      }
      begin_calc(op);
      break;
    }
  }
}

// Per-rank FIFO queues of operations (calcs waiting for the CPU, sends waiting for a slot), linked
// through next_queued_: an operation waits in at most one queue at a time.
void Driver::enqueue(RankQueues& q, std::uint32_t rank, std::uint32_t op) {
  status_[op] |= kQueued;
  (q.tail[rank] == kNone ? q.head[rank] : next_queued_[q.tail[rank]]) = op;
  q.tail[rank] = op;
}

std::uint32_t Driver::dequeue(RankQueues& q, std::uint32_t rank) {
  const std::uint32_t op = q.head[rank];
  if (op == kNone) return kNone;
  q.head[rank] = next_queued_[op];
  if (q.head[rank] == kNone) q.tail[rank] = kNone;
  status_[op] &= static_cast<std::uint8_t>(~kQueued);
  return op;
}

void Driver::start_op(std::uint32_t op) {
  status_[op] |= kStarted;
  if (options_.record_operations) res_.op_start_s[op] = transport_.now();
  notify(op, true);
}

void Driver::complete_op(std::uint32_t op) {
  status_[op] |= kCompleted;
  if (options_.record_operations) res_.op_done_s[op] = transport_.now();
  const std::uint32_t rank = op_rank_[op];
  if (--ops_left_[rank] == 0) res_.task_finish_s[rank] = transport_.now();
  notify(op, false);
}

void Driver::notify(std::uint32_t op, bool started) {
  if (out_offsets_.empty()) return;  // nothing depends on anything
  for (std::uint64_t j = out_offsets_[op]; j < out_offsets_[op + 1]; ++j)
    if (((dependents_[j] & 1) != 0) == started && --pending_[dependents_[j] >> 1] == 0)
      ready_.push_back(dependents_[j] >> 1);
}

// A send starts its message, unless its rank has as many messages in flight as allowed: it then waits
// for a slot, behind the rank's other waiting sends.
void Driver::start_send(std::uint32_t op) {
  const std::uint32_t rank = op_rank_[op];
  if (options_.max_in_flight > 0) {
    if (in_flight_[rank] >= options_.max_in_flight) {
      enqueue(send_queue_, rank, op);
      return;
    }
    ++in_flight_[rank];
  }
  const MessageId msg = op_message_[op];
  start_op(op);
  if (!transport_.start(msg)) send_ended(msg);
}

// A message's last bit has left its source.
void Driver::send_ended(MessageId msg) {
  ++sent_count_;
  const std::uint32_t op = res_.message_op[msg];
  // A send completes now; a flow when delivered, unless nothing waits for its delivery.
  if (!(flags_of(op) & kSendUntilDelivered) || !res_.messages.delivery_awaited(msg))
    complete_op(op);
  if (options_.max_in_flight == 0) return;
  const std::uint32_t rank = op_rank_[op];
  --in_flight_[rank];
  const std::uint32_t next = dequeue(send_queue_, rank);
  if (next != kNone) start_send(next);
}

void Driver::delivered(MessageId msg) {
  delivered_[msg] = 1;
  const std::uint32_t send = res_.message_op[msg];
  if (flags_of(send) & kSendUntilDelivered) complete_op(send);
  const std::uint32_t recv = message_recv_.empty() ? kNone : message_recv_[msg];
  if (recv != kNone && (status_[recv] & kStarted) && !(status_[recv] & kCompleted)) complete_op(recv);
}

void Driver::begin_calc(std::uint32_t op) {
  const OpGraph& g = graph_of_op(op);
  const std::uint32_t i = local(op), rank = op_rank_[op];
  const bool scaled = g.flags[i] & kCalcScaled;
  const double d = g.value[i] * (scaled ? options_.cpu_scale : 1.0);
  if (scaled) res_.task_compute_s[rank] += d;
  if (g.flags[i] & kCalcUsesCpu) cpu_busy_[rank] = 1;
  start_op(op);
  events_.push({transport_.now() + d, op, EventKind::CalcDone});
}

void Driver::calc_done(std::uint32_t op) {
  const std::uint32_t rank = op_rank_[op];
  complete_op(op);
  if (!(flags_of(op) & kCalcUsesCpu)) return;
  cpu_busy_[rank] = 0;
  const std::uint32_t next = dequeue(cpu_queue_, rank);
  if (next != kNone) begin_calc(next);
}

// An application arrives: its ranks without operations are done, its operations without dependencies
// are ready (those with start times are already in the sorted list).
void Driver::arrive(std::uint32_t a) {
  for (std::uint32_t rank = res_.task_offset[a]; rank < res_.task_offset[a + 1]; ++rank)
    if (ops_left_[rank] == 0) res_.task_finish_s[rank] = transport_.now();
  if (!graphs_[a]->not_before.empty()) return;
  for (auto i = static_cast<std::uint32_t>(res_.op_base[a + 1]); i-- > res_.op_base[a];)
    if (pending_[i] == 0) ready_.push_back(i);
}

}  // namespace interflow::drivers
