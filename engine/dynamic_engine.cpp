#include "engine/dynamic_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <string>

#include "engine/error.hpp"
#include "engine/flow_simulator.hpp"
#include "engine/system.hpp"

namespace interflow {

namespace {

struct Timed {
  double time;
  FlowId flow;
  bool operator>(const Timed& o) const { return time != o.time ? time > o.time : flow > o.flow; }
};
using MinHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<>>;

void validate(const Network& net, const DynamicWorkload& w) {
  const std::size_t n = w.size();
  if (w.flows.dst.size() != n || w.bytes.size() != n || w.start_s.size() != n)
    throw InputError("dynamic workload: src, dst, bytes and start lists differ in length");
  if (!w.service_class.empty() && w.service_class.size() != n)
    throw InputError("dynamic workload: the class list needs one entry per flow");
  if (!w.phase.empty() && w.phase.size() != n)
    throw InputError("dynamic workload: the phase list needs one entry per flow");
  if (!w.after_offsets.empty() && w.after_offsets.size() != n + 1)
    throw InputError("dynamic workload: the dependency offsets need one entry per flow plus one");
  for (std::size_t f = 0; f < n; ++f) {
    if (w.flows.src[f] >= net.num_endpoints() || w.flows.dst[f] >= net.num_endpoints())
      throw InputError("dynamic workload: flow " + std::to_string(f) + " names an endpoint beyond the network's " +
                       std::to_string(net.num_endpoints()));
    if (!(w.bytes[f] >= 0) || !std::isfinite(w.bytes[f]))
      throw InputError("dynamic workload: flow " + std::to_string(f) + " has a size that is not a finite number >= 0");
    if (!(w.start_s[f] >= 0) || !std::isfinite(w.start_s[f]))
      throw InputError("dynamic workload: flow " + std::to_string(f) + " has a start time that is not finite and >= 0");
    if (w.after_offsets.empty()) continue;
    for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k) {
      if (w.after[k] >= n || w.after[k] == f)
        throw InputError("dynamic workload: flow " + std::to_string(f) + " waits for flow " +
                         std::to_string(w.after[k]) + ", which is itself or does not exist");
      if (!w.phase.empty() && w.phase[w.after[k]] > w.phase[f])
        throw InputError("dynamic workload: flow " + std::to_string(f) + " (phase " + std::to_string(w.phase[f]) +
                         ") waits for flow " + std::to_string(w.after[k]) + " of the later phase " +
                         std::to_string(w.phase[w.after[k]]));
    }
  }
}

}  // namespace

DynamicResult DynamicEngine::run(const DynamicWorkload& w, const DynamicOptions& o) const {
  validate(net_, w);
  const std::size_t n = w.size();
  Stopwatch clock;
  if (o.progress) o.progress->phase("routing flows", n);
  const RouteContext ctx = RouteContext::of(o.seed, o.max_path_bytes, o.progress);
  PathTable paths = routing_.route_all(net_, w.flows, ctx);  // in the caller's flow order: same seeds as static
  const double route_seconds = clock.seconds();

  // Simulate with the flows numbered by start time, so that the flows active at once sit close together
  // in memory; results go back to the caller's order.
  std::vector<std::pair<double, FlowId>> keyed(n);  // sorted by value: contiguous keys, ties by flow id
  for (std::size_t f = 0; f < n; ++f) keyed[f] = {w.start_s[f], static_cast<FlowId>(f)};
  std::sort(keyed.begin(), keyed.end());
  std::vector<FlowId> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = keyed[i].second;
  keyed = {};
  bool identity = true;
  for (std::size_t i = 0; i < n && identity; ++i) identity = order[i] == i;
  DynamicResult r;
  if (identity) {
    r = simulate(w, std::move(paths), o);
  } else {
    std::vector<FlowId> rank(n);
    for (std::size_t i = 0; i < n; ++i) rank[order[i]] = static_cast<FlowId>(i);
    DynamicWorkload p;
    p.flows.reserve(n);
    for (FlowId f : order) p.add(w.flows.src[f], w.flows.dst[f], w.bytes[f], w.start_s[f]);
    if (!w.flows.weight.empty())
      for (FlowId f : order) p.flows.weight.push_back(w.flows.weight[f]);
    if (!w.phase.empty())
      for (FlowId f : order) p.phase.push_back(w.phase[f]);
    if (!w.service_class.empty())
      for (FlowId f : order) p.service_class.push_back(w.service_class[f]);
    if (!w.after_offsets.empty()) {
      p.after_offsets.assign(1, 0);
      for (FlowId f : order) {
        for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k) p.after.push_back(rank[w.after[k]]);
        p.after_offsets.push_back(static_cast<std::uint32_t>(p.after.size()));
      }
    }
    PathTable internal = PathTableBuilder::permuted(paths, order);
    paths = PathTable();
    r = simulate(p, std::move(internal), o);
    r.paths = PathTableBuilder::permuted(r.paths, rank);
    const auto back = [&](auto& values) {
      auto copy = values;
      for (std::size_t i = 0; i < n; ++i) values[order[i]] = copy[i];
    };
    back(r.state);
    back(r.start_s);
    back(r.transfer_end_s);
    back(r.finish_s);
    back(r.latency_s);
  }
  r.route_seconds = route_seconds;
  return r;
}

DynamicResult DynamicEngine::simulate(const DynamicWorkload& w, PathTable routed, const DynamicOptions& o) const {
  const std::size_t n = w.size();
  DynamicResult r;
  Stopwatch clock;

  // Dependencies: reverse lists and a cycle check (Kahn's algorithm).
  std::vector<std::uint32_t> deps_left(n, 0), dependent_offsets(n + 1, 0);
  std::vector<FlowId> dependents;
  if (!w.after_offsets.empty()) {
    for (std::size_t f = 0; f < n; ++f) {
      deps_left[f] = w.after_offsets[f + 1] - w.after_offsets[f];
      for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k) ++dependent_offsets[w.after[k] + 1];
    }
    for (std::size_t f = 0; f < n; ++f) dependent_offsets[f + 1] += dependent_offsets[f];
    dependents.resize(dependent_offsets[n]);
    std::vector<std::uint32_t> cursor(dependent_offsets.begin(), dependent_offsets.end() - 1);
    for (std::size_t f = 0; f < n; ++f)
      for (std::uint32_t k = w.after_offsets[f]; k < w.after_offsets[f + 1]; ++k)
        dependents[cursor[w.after[k]]++] = static_cast<FlowId>(f);
    std::vector<std::uint32_t> left = deps_left;
    std::vector<FlowId> queue;
    for (std::size_t f = 0; f < n; ++f)
      if (left[f] == 0) queue.push_back(static_cast<FlowId>(f));
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (std::uint32_t k = dependent_offsets[queue[i]]; k < dependent_offsets[queue[i] + 1]; ++k)
        if (--left[dependents[k]] == 0) queue.push_back(dependents[k]);
    if (queue.size() != n)
      throw InputError("dynamic workload: the dependencies ('after') form a cycle; " +
                       std::to_string(n - queue.size()) + " flows could never start");
  }

  // Phases: the flows of each phase (CSR), how many of a phase are still to be delivered, when its last
  // was. A flow of phase p > 0 waits for its phase to open (one more dependency); a phase with no flow
  // left opens the next one.
  std::uint32_t phases = 0;
  std::vector<std::uint32_t> phase_offsets, phase_members, phase_left;
  std::vector<double> phase_finish;
  if (!w.phase.empty()) {
    for (std::uint32_t p : w.phase) phases = std::max(phases, p + 1);
    phase_offsets.assign(phases + 1, 0);
    for (std::uint32_t p : w.phase) ++phase_offsets[p + 1];
    phase_left.assign(phase_offsets.begin() + 1, phase_offsets.end());
    for (std::uint32_t p = 0; p < phases; ++p) phase_offsets[p + 1] += phase_offsets[p];
    phase_members.resize(n);
    std::vector<std::uint32_t> cursor(phase_offsets.begin(), phase_offsets.end() - 1);
    for (std::size_t f = 0; f < n; ++f) phase_members[cursor[w.phase[f]]++] = static_cast<FlowId>(f);
    phase_finish.assign(phases, 0.0);
    for (std::size_t f = 0; f < n; ++f) deps_left[f] += w.phase[f] > 0 ? 1 : 0;
  }

  r.paths = std::move(routed);
  clock.reset();
  FlowSimulator sim(net_, r, w.flows, w.bytes, w.service_class, o);
  std::vector<double> ready_time(n, 0);

  // Flows free of dependencies start in the order of a sorted list (a million-entry heap would cost a
  // cache miss per level on every pop); flows released by others go through the `ready` heap.
  std::vector<Timed> initial;
  for (FlowId f = 0; f < n; ++f)
    if (deps_left[f] == 0) initial.push_back({w.start_s[f], f});
  std::sort(initial.begin(), initial.end(), [](const Timed& a, const Timed& b) { return b > a; });
  std::size_t next_initial = 0;
  MinHeap ready;

  const auto release = [&](FlowId g, double when) {
    ready_time[g] = std::max(ready_time[g], when);
    if (--deps_left[g] == 0) ready.push({std::max(w.start_s[g], ready_time[g]), g});
  };
  const auto open_phases_after = [&](std::uint32_t p) {  // phase p is complete
    for (; p + 1 < phases; ++p) {
      for (std::uint32_t k = phase_offsets[p + 1]; k < phase_offsets[p + 2]; ++k)
        release(phase_members[k], phase_finish[p]);
      if (phase_left[p + 1] > 0) return;
      phase_finish[p + 1] = std::max(phase_finish[p + 1], phase_finish[p]);
    }
  };
  const auto release_dependents = [&](FlowId f) {
    if (!w.after_offsets.empty())
      for (std::uint32_t k = dependent_offsets[f]; k < dependent_offsets[f + 1]; ++k)
        release(dependents[k], r.finish_s[f]);
    if (phases > 0) {
      const std::uint32_t p = w.phase[f];
      phase_finish[p] = std::max(phase_finish[p], r.finish_s[f]);
      if (--phase_left[p] == 0) open_phases_after(p);
    }
  };
  const auto start_flow = [&](FlowId f) {
    if (!sim.start(f)) release_dependents(f);
  };

  if (o.progress) o.progress->phase("simulating: flows started and finished", 2 * n);
  std::vector<FlowId> ended;
  if (phases > 0 && phase_left[0] == 0) open_phases_after(0);  // an empty first phase opens the next
  for (;;) {
    const double next = std::min({ready.empty() ? FlowSimulator::kNever : ready.top().time, sim.next_end(),
                                  next_initial < initial.size() ? initial[next_initial].time : FlowSimulator::kNever});
    if (next == FlowSimulator::kNever) break;
    const double horizon = sim.advance_to(next);
    ended.clear();
    sim.end_due(horizon, ended);
    for (FlowId f : ended) release_dependents(f);
    std::uint64_t events = ended.size();
    while (next_initial < initial.size() && initial[next_initial].time <= horizon) {
      start_flow(initial[next_initial++].flow);
      ++events;
    }
    while (!ready.empty() && ready.top().time <= horizon) {
      const FlowId f = ready.top().flow;
      ready.pop();
      start_flow(f);
      ++events;
    }
    r.events += events;
    if (o.progress) o.progress->counter()->fetch_add(events, std::memory_order_relaxed);
    sim.resolve();
  }
  r.simulate_seconds = clock.seconds();
  sim.close();
  return r;
}

}  // namespace interflow
