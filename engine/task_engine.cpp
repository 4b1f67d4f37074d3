#include "engine/task_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "engine/error.hpp"
#include "engine/flow_simulator.hpp"
#include "engine/matching.hpp"
#include "engine/system.hpp"

namespace interflow {

namespace {

enum class TaskState : std::uint8_t { NotArrived, Running, Computing, InSend, InRecv, InWait, AtLimit, Done };

// Per message flags.
constexpr std::uint8_t kNonBlocking = 1;  // sent by isend: the sender's wait() counts it
constexpr std::uint8_t kDelivered = 2;
constexpr std::uint8_t kPosted = 4;     // an irecv for it is outstanding
constexpr std::uint8_t kAwaited = 8;    // a blocking recv waits for it
constexpr std::uint8_t kReceived = 16;  // matched by a receive

struct Event {
  double time;
  std::uint32_t id;  // a task (wake-up) or a message (delivery)
  bool delivery;
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (delivery != o.delivery) return !delivery;  // deliveries first
    return id > o.id;
  }
};

std::string describe(const Program& p, std::uint64_t op) {
  const OpKind k = p.kind[op];
  std::string text(name_of(k));
  if (!is_send(k) && !is_receive(k)) return text;
  text += (is_send(k) ? " to task " : " from task ") + std::to_string(p.peer[op]);
  if (k == OpKind::Send || k == OpKind::Recv)  // the blocking ones: which message exactly
    text += " (tag " + std::to_string(p.tag[op]) + ", " + std::to_string(static_cast<std::uint64_t>(p.value[op])) +
            " bytes)";
  return text;
}

}  // namespace

void check_task_options(const TaskOptions& o) {
  if (!(o.cpu_scale >= 0) || !std::isfinite(o.cpu_scale))
    throw InputError("CPU scale factor " + std::to_string(o.cpu_scale) + ": expected a finite number >= 0");
}

std::string application_label(std::size_t index, const std::string& name) {
  return "application " + std::to_string(index) + (name.empty() ? "" : " (" + name + ")");
}

void route_messages(const Network& net, const Routing& routing, TaskResult& res, const DynamicOptions& o) {
  const RouteContext ctx = RouteContext::of(o.seed, o.max_path_bytes, o.progress);
  if (o.progress) o.progress->phase("routing messages", res.messages.size());
  Stopwatch clock;
  res.flows.paths = routing.route_all(net, res.messages.flows, ctx);
  res.flows.route_seconds = clock.seconds();
}

void check_application(const Network& net, const std::string& what, std::uint32_t tasks,
                       const std::vector<EndpointId>& placement, double arrival_s) {
  if (placement.size() != tasks)
    throw InputError(what + ": " + std::to_string(tasks) + " tasks but " + std::to_string(placement.size()) +
                     " placed");
  for (EndpointId e : placement)
    if (e >= net.num_endpoints())
      throw InputError(what + ": a task is placed on endpoint " + std::to_string(e) + ", beyond the network's " +
                       std::to_string(net.num_endpoints()));
  if (!(arrival_s >= 0) || !std::isfinite(arrival_s)) throw InputError(what + ": arrival time must be finite and >= 0");
}

void summarise_applications(TaskResult& res, const std::vector<double>& arrival_s) {
  const std::size_t num_apps = arrival_s.size();
  const DynamicWorkload& m = res.messages;
  const DynamicResult& r = res.flows;
  const std::size_t n = m.size();
  res.apps.resize(num_apps);
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
  // Latencies of delivered messages, grouped by application (messages are in application order).
  std::vector<float> latencies;
  std::size_t first = 0;
  for (std::size_t msg = 0; msg <= n; ++msg) {
    if (msg == n || (msg > 0 && res.message_app[msg] != res.message_app[msg - 1])) {
      if (!latencies.empty()) {
        AppResult& ar = res.apps[res.message_app[first]];
        ar.mean_latency_s /= static_cast<double>(latencies.size());
        const auto rank = [&](double q) {  // nearest rank: the ceil(q n)-th smallest
          const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(latencies.size())));
          std::nth_element(latencies.begin(), latencies.begin() + (k - 1), latencies.end());
          return static_cast<double>(latencies[k - 1]);
        };
        ar.median_latency_s = rank(0.5);
        ar.p99_latency_s = rank(0.99);
      }
      latencies.clear();
      first = msg;
      if (msg == n) break;
    }
    AppResult& ar = res.apps[res.message_app[msg]];
    ++ar.messages;
    ar.bytes += m.bytes[msg];
    if (r.state[msg] != FlowState::Delivered && r.state[msg] != FlowState::Self) continue;
    const double latency = r.finish_s[msg] - r.start_s[msg];
    ar.mean_latency_s += latency;
    ar.max_latency_s = std::max(ar.max_latency_s, latency);
    latencies.push_back(static_cast<float>(latency));
  }
  res.makespan_s = r.makespan_s;
  for (double f : res.task_finish_s)
    if (std::isfinite(f)) res.makespan_s = std::max(res.makespan_s, f);
}

TaskResult TaskEngine::run(const std::vector<Application>& apps, const TaskOptions& o) const {
  check_task_options(o);
  TaskResult res;
  const std::size_t num_apps = apps.size();
  std::vector<std::uint64_t> op_base(num_apps + 1, 0);
  res.task_offset.assign(num_apps + 1, 0);
  for (std::size_t a = 0; a < num_apps; ++a) {
    const Application& app = apps[a];
    const std::string what = application_label(a, app.name);
    if (app.is_trace()) throw InputError(what + ": a trace runs on the graph engine, not the task engine");
    if (app.program.offsets.size() != app.program.tasks + std::size_t{1})
      throw InputError(what + ": its program is not built");
    check_application(net_, what, app.program.tasks, app.placement, app.arrival_s);
    op_base[a + 1] = op_base[a] + app.program.size();
    res.task_offset[a + 1] = res.task_offset[a] + app.program.tasks;
  }
  const std::uint64_t total_ops = op_base[num_apps];
  const std::uint32_t total_tasks = res.task_offset[num_apps];

  // Messages: one flow per send, in application, task and program order.
  std::vector<std::uint32_t> op_message(total_ops, kNone);  // send: its message; receive: the matched one
  std::vector<std::uint32_t> message_sender, message_receiver;
  std::vector<ChannelEnd> sends, recvs;
  DynamicWorkload& m = res.messages;
  for (std::size_t a = 0; a < num_apps; ++a) {
    const Program& p = apps[a].program;
    const std::uint32_t base_task = res.task_offset[a];
    for (std::uint32_t t = 0; t < p.tasks; ++t)
      for (std::uint64_t i = p.offsets[t]; i < p.offsets[t + 1]; ++i) {
        const std::uint64_t g = op_base[a] + i;
        if (is_send(p.kind[i])) {
          if (m.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
            throw InputError("applications: more than 2^32 messages");
          const auto id = static_cast<std::uint32_t>(m.size());
          op_message[g] = id;
          m.add(apps[a].placement[t], apps[a].placement[p.peer[i]], p.value[i], 0.0);
          m.service_class.push_back(p.klass[i] == kAppClass ? apps[a].service_class : p.klass[i]);
          res.message_app.push_back(static_cast<std::uint32_t>(a));
          message_sender.push_back(base_task + t);
          message_receiver.push_back(base_task + p.peer[i]);
          sends.push_back({(std::uint64_t{base_task + t} << 32) | (base_task + p.peer[i]), p.tag[i], p.value[i], id});
        } else if (is_receive(p.kind[i])) {
          if (g >= std::numeric_limits<std::uint32_t>::max())
            throw InputError("applications: more than 2^32 operations");
          recvs.push_back({(std::uint64_t{base_task + p.peer[i]} << 32) | (base_task + t), p.tag[i], p.value[i],
                           static_cast<std::uint32_t>(g)});
        }
      }
  }
  match_in_order(sends, recvs, [&](const ChannelEnd& send, const ChannelEnd& recv) { op_message[recv.id] = send.id; });
  sends = {};
  recvs = {};

  // Route every message, then run.
  const std::size_t n = m.size();
  route_messages(net_, routing_, res, o.dynamic);
  Stopwatch clock;
  DynamicResult& r = res.flows;
  FlowSimulator sim(net_, r, m.flows, m.bytes, m.service_class, o.dynamic);

  std::vector<std::uint8_t> flags(n, 0);
  std::vector<TaskState> state(total_tasks, TaskState::NotArrived);
  std::vector<std::uint64_t> pc(total_tasks), end_op(total_tasks);
  std::vector<std::uint32_t> task_app(total_tasks), outstanding(total_tasks, 0), in_flight(total_tasks, 0);
  std::vector<std::uint32_t> waiting_for(total_tasks, kNone);
  res.task_finish_s.assign(total_tasks, std::numeric_limits<double>::quiet_NaN());
  res.task_compute_s.assign(total_tasks, 0.0);
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (std::size_t a = 0; a < num_apps; ++a)
    for (std::uint32_t t = 0; t < apps[a].program.tasks; ++t) {
      const std::uint32_t g = res.task_offset[a] + t;
      task_app[g] = static_cast<std::uint32_t>(a);
      pc[g] = op_base[a] + apps[a].program.offsets[t];
      end_op[g] = op_base[a] + apps[a].program.offsets[t + 1];
      events.push({apps[a].arrival_s, g, false});
    }

  std::vector<std::uint32_t> ready;
  const auto wake = [&](std::uint32_t task) {
    state[task] = TaskState::Running;
    ready.push_back(task);
  };
  std::uint64_t ended_messages = 0;                     // for the progress line
  const auto transfer_ended = [&](std::uint32_t msg) {  // the last bit has left the sender
    ++ended_messages;
    const std::uint32_t s = message_sender[msg];
    --in_flight[s];
    if (flags[msg] & kNonBlocking) --outstanding[s];
    if ((state[s] == TaskState::InSend && waiting_for[s] == msg) || state[s] == TaskState::AtLimit ||
        (state[s] == TaskState::InWait && outstanding[s] == 0))
      wake(s);
    events.push({r.finish_s[msg], msg, true});
  };
  const auto delivered = [&](std::uint32_t msg) {
    flags[msg] |= kDelivered;
    const std::uint32_t d = message_receiver[msg];
    if (flags[msg] & kPosted) {
      --outstanding[d];
      if (state[d] == TaskState::InWait && outstanding[d] == 0) wake(d);
    }
    if ((flags[msg] & kAwaited) && state[d] == TaskState::InRecv) wake(d);
  };
  // Runs a task from its current operation until it blocks or ends.
  const auto advance = [&](std::uint32_t task) {
    const Application& app = apps[task_app[task]];
    const Program& p = app.program;
    const std::uint64_t base = op_base[task_app[task]];
    while (pc[task] < end_op[task]) {
      const std::uint64_t g = pc[task], i = g - base;
      switch (p.kind[i]) {
        case OpKind::Compute:
        case OpKind::Delay: {
          const double d = p.kind[i] == OpKind::Compute ? p.value[i] * o.cpu_scale : p.value[i];
          ++pc[task];
          if (p.kind[i] == OpKind::Compute) res.task_compute_s[task] += d;
          if (d > 0) {
            state[task] = TaskState::Computing;
            events.push({sim.now() + d, task, false});
            return;
          }
          break;
        }
        case OpKind::Send:
        case OpKind::Isend: {
          if (o.max_in_flight > 0 && in_flight[task] >= o.max_in_flight) {
            state[task] = TaskState::AtLimit;
            return;
          }
          const std::uint32_t msg = op_message[g];
          ++pc[task];
          ++in_flight[task];
          const bool blocking = p.kind[i] == OpKind::Send;
          if (!blocking) {
            flags[msg] |= kNonBlocking;
            ++outstanding[task];
          }
          if (!sim.start(msg)) transfer_ended(msg);
          if (blocking && std::isnan(r.transfer_end_s[msg])) {
            state[task] = TaskState::InSend;
            waiting_for[task] = msg;
            return;
          }
          break;
        }
        case OpKind::Recv:
        case OpKind::Irecv: {
          const std::uint32_t msg = op_message[g];
          if (msg == kNone) {  // never sent: waits forever (reported at the end)
            state[task] = TaskState::InRecv;
            waiting_for[task] = kNone;
            return;
          }
          ++pc[task];
          flags[msg] |= kReceived;
          if (flags[msg] & kDelivered) break;  // a pending notification: already here
          if (p.kind[i] == OpKind::Irecv) {
            flags[msg] |= kPosted;
            ++outstanding[task];
            break;
          }
          flags[msg] |= kAwaited;
          state[task] = TaskState::InRecv;
          waiting_for[task] = msg;
          return;
        }
        case OpKind::Wait:
          if (outstanding[task] > 0) {
            state[task] = TaskState::InWait;
            return;
          }
          ++pc[task];
          break;
      }
    }
    if (outstanding[task] > 0) {  // a program ending with operations outstanding waits for them
      state[task] = TaskState::InWait;
      return;
    }
    state[task] = TaskState::Done;
    res.task_finish_s[task] = sim.now();
  };

  if (o.dynamic.progress) o.dynamic.progress->phase("simulating: messages sent", n);
  sim.run(
      events, ready, transfer_ended,
      [&](const Event& e) {
        if (e.delivery)
          delivered(e.id);
        else
          wake(e.id);
      },
      [&](std::uint32_t task) {
        if (state[task] == TaskState::Running) advance(task);
      },
      o.dynamic.progress, ended_messages);
  r.simulate_seconds = clock.seconds();
  sim.close();

  // Tasks that never finished: who waits for what.
  for (std::uint32_t task = 0; task < total_tasks; ++task) {
    if (state[task] == TaskState::Done) continue;
    const std::uint32_t a = task_app[task];
    const Program& p = apps[a].program;
    const std::uint32_t t = task - res.task_offset[a];
    const std::uint64_t at = pc[task] - op_base[a];  // the next operation (the program's size at its end)
    // A blocking send or a matched receive has already stepped past its operation.
    const bool stepped =
        state[task] == TaskState::InSend || (state[task] == TaskState::InRecv && waiting_for[task] != kNone);
    BlockedTask b{a, t, (stepped ? at - 1 : at) - p.offsets[t], ""};
    switch (state[task]) {
      case TaskState::InRecv:
        if (!stepped)
          b.reason = "waits in " + describe(p, at) + ": a message its sender's program never sends";
        else if (std::isnan(r.start_s[waiting_for[task]]))
          b.reason = "waits in " + describe(p, at - 1) + ": task " + std::to_string(p.peer[at - 1]) +
                     " has not reached the matching send";
        else
          b.reason = "waits in " + describe(p, at - 1) + ": the message was sent but cannot be delivered";
        break;
      case TaskState::InWait:
        b.reason = "waits for " + std::to_string(outstanding[task]) + " outstanding isend/irecv operation(s)" +
                   (at == p.offsets[t + 1] ? " at the end of its program" : "");
        break;
      case TaskState::InSend:
        b.reason = "waits in " + describe(p, at - 1) + ": the message cannot be transferred";
        break;
      default:
        b.reason = "never ran to its end";
    }
    res.blocked.push_back(std::move(b));
  }
  for (std::size_t msg = 0; msg < n; ++msg)
    if ((flags[msg] & kDelivered) && !(flags[msg] & kReceived)) ++res.unreceived_messages;

  std::vector<double> arrivals(num_apps);
  for (std::size_t a = 0; a < num_apps; ++a) arrivals[a] = apps[a].arrival_s;
  summarise_applications(res, arrivals);
  return res;
}

}  // namespace interflow
