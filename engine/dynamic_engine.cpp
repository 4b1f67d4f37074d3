#include "engine/dynamic_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <string>

#include "engine/error.hpp"
#include "engine/incremental_maxmin.hpp"
#include "engine/maxmin.hpp"
#include "engine/system.hpp"

namespace interflow {

namespace {

enum class Phase : std::uint8_t { Waiting, Active, Done };

struct Timed {
  double time;
  FlowId flow;
  std::uint32_t version;
  bool operator>(const Timed& o) const { return time != o.time ? time > o.time : flow > o.flow; }
};
using MinHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<>>;

void validate(const Network& net, const DynamicWorkload& w) {
  const std::size_t n = w.size();
  if (w.flows.dst.size() != n || w.bytes.size() != n || w.start_s.size() != n)
    throw InputError("dynamic workload: src, dst, bytes and start lists differ in length");
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
  RouteContext ctx;
  ctx.seed = o.seed;
  ctx.max_path_bytes = o.max_path_bytes;
  ctx.progress = o.progress ? o.progress->counter() : nullptr;
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
  const PathTable& paths = r.paths;
  clock.reset();

  const std::uint32_t vars = paths.num_vars();
  std::vector<double> weight(vars);
  std::vector<FlowId> var_flow(vars);
  r.latency_s.assign(n, 0.0f);
  for (FlowId f = 0; f < n; ++f)
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      weight[v] = w.flows.weight_of(f) * paths.split(v);
      var_flow[v] = f;
      double ns = 0;
      for (LinkId l : paths.links(v)) ns += net_.latency_ns(l);
      r.latency_s[f] = std::max(r.latency_s[f], static_cast<float>(ns * 1e-9));
    }
  std::vector<float> capacity(net_.capacities().begin(), net_.capacities().end());
  for (LinkId l = 0; l < capacity.size(); ++l)
    if (!net_.up(l)) capacity[l] = 0;
  IncrementalMaxMin solver(capacity, paths.var_offsets(), paths.all_links(), weight);

  // State.
  std::vector<Phase> phase(n, Phase::Waiting);
  std::vector<double> remaining_bits(n, 0), flow_rate(n, 0), flow_last(n, 0), ready_time(n, 0);
  std::vector<std::uint32_t> version(n, 0), flow_mark(n, 0);
  std::vector<double> var_rate(vars, 0), var_last(vars, 0), var_bits(vars, 0);
  std::vector<std::uint32_t> link_active(net_.num_links(), 0);
  std::vector<double> busy_since(net_.num_links(), 0);
  r.state.assign(n, FlowState::Blocked);
  r.start_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  r.transfer_end_s = r.start_s;
  r.finish_s = r.start_s;
  r.link_bytes.assign(net_.num_links(), 0);
  r.link_busy_s.assign(net_.num_links(), 0);

  // Flows free of dependencies start in the order of a sorted list (a million-entry heap would cost a
  // cache miss per level on every pop); flows released by others go through the `ready` heap.
  std::vector<Timed> initial;
  for (FlowId f = 0; f < n; ++f)
    if (deps_left[f] == 0) initial.push_back({w.start_s[f], f, 0});
  std::sort(initial.begin(), initial.end(), [](const Timed& a, const Timed& b) { return b > a; });
  std::size_t next_initial = 0;
  MinHeap ready, completion;

  struct Segment {
    double time, gbps;
    std::uint32_t active;
  };
  std::vector<Segment> segments;
  segments.reserve(2 * n + 1);  // at most one per batch
  double total_gbps = 0;
  std::uint32_t active_flows = 0;
  double now = 0;
  std::uint32_t stamp = 0;

  const auto release = [&](FlowId g, double when) {
    ready_time[g] = std::max(ready_time[g], when);
    if (--deps_left[g] == 0) ready.push({std::max(w.start_s[g], ready_time[g]), g, 0});
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
  const auto settle_var = [&](std::uint32_t v) {  // bits carried by v up to now
    var_bits[v] += var_rate[v] * 1e9 * (now - var_last[v]);
    var_last[v] = now;
  };
  const auto finish_transfer = [&](FlowId f) {
    phase[f] = Phase::Done;
    r.state[f] = FlowState::Delivered;
    r.transfer_end_s[f] = now;
    r.finish_s[f] = now + r.latency_s[f];
    total_gbps -= flow_rate[f];
    --active_flows;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      settle_var(v);
      var_rate[v] = 0;
      solver.deactivate(v);
      for (LinkId l : paths.links(v))
        if (--link_active[l] == 0) r.link_busy_s[l] += now - busy_since[l];
    }
    release_dependents(f);
  };
  const auto start_flow = [&](FlowId f) {
    r.start_s[f] = now;
    const bool self = w.flows.src[f] == w.flows.dst[f];
    if (self || !paths.routed(f) || w.bytes[f] == 0) {
      phase[f] = Phase::Done;
      r.state[f] = self ? FlowState::Self : !paths.routed(f) ? FlowState::Unroutable : FlowState::Delivered;
      r.transfer_end_s[f] = now;
      r.finish_s[f] = now + (r.state[f] == FlowState::Delivered ? r.latency_s[f] : 0.0);
      release_dependents(f);
      return;
    }
    phase[f] = Phase::Active;
    ++active_flows;
    remaining_bits[f] = w.bytes[f] * 8;
    flow_last[f] = now;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      var_last[v] = now;
      solver.activate(v);
      for (LinkId l : paths.links(v))
        if (link_active[l]++ == 0) busy_since[l] = now;
    }
  };

  if (o.progress) o.progress->phase("simulating: flows started and finished", 2 * n);
  Stopwatch solve_clock;
  std::vector<FlowId> touched;
  if (phases > 0 && phase_left[0] == 0) open_phases_after(0);  // an empty first phase opens the next
  for (;;) {
    while (!completion.empty() && completion.top().version != version[completion.top().flow]) completion.pop();
    if (ready.empty() && completion.empty() && next_initial == initial.size()) break;
    constexpr double kNever = std::numeric_limits<double>::infinity();
    const double next =
        std::min({ready.empty() ? kNever : ready.top().time, completion.empty() ? kNever : completion.top().time,
                  next_initial < initial.size() ? initial[next_initial].time : kNever});
    now = std::max(now, next);
    const double horizon = now + 1e-12 * std::max(1.0, now);
    std::uint64_t events = 0;
    while (!completion.empty() && completion.top().time <= horizon) {
      const Timed c = completion.top();
      completion.pop();
      if (c.version != version[c.flow] || phase[c.flow] != Phase::Active) continue;
      finish_transfer(c.flow);
      ++events;
    }
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
    ++r.batches;
    if (o.progress) o.progress->counter()->fetch_add(events, std::memory_order_relaxed);

    // The solver's share of the time: every batch of the first 64, then every 8th counted 8 times (reading
    // the clock around every batch costs a few per cent of a light-load run).
    const bool timed = r.batches <= 64 || r.batches % 8 == 0;
    const double weight_of_batch = r.batches <= 64 ? 1.0 : 8.0;
    if (timed) solve_clock.reset();
    if (o.incremental)
      solver.update();
    else
      solver.solve_all();
    if (timed) r.solve_seconds += weight_of_batch * solve_clock.seconds();
    ++stamp;
    touched.clear();
    for (std::uint32_t v : solver.changed()) {
      settle_var(v);
      var_rate[v] = solver.rate(v);
      const FlowId f = var_flow[v];
      if (flow_mark[f] != stamp) {
        flow_mark[f] = stamp;
        touched.push_back(f);
      }
    }
    for (FlowId f : touched) {
      if (phase[f] != Phase::Active) continue;
      remaining_bits[f] = std::max(0.0, remaining_bits[f] - flow_rate[f] * 1e9 * (now - flow_last[f]));
      flow_last[f] = now;
      double rate = 0;
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) rate += var_rate[v];
      total_gbps += rate - flow_rate[f];
      flow_rate[f] = rate;
      ++version[f];
      if (rate > 0) completion.push({now + (std::isinf(rate) ? 0.0 : remaining_bits[f] / (rate * 1e9)), f, version[f]});
    }
    segments.push_back({now, std::max(0.0, total_gbps), active_flows});

    if (o.verify) {  // compare with a solve from scratch of the active variables
      std::vector<std::uint64_t> offsets{0};
      std::vector<LinkId> links;
      std::vector<double> wts;
      std::vector<std::uint32_t> ids;
      for (std::uint32_t v = 0; v < vars; ++v)
        if (solver.active(v)) {
          for (LinkId l : paths.links(v)) links.push_back(l);
          offsets.push_back(links.size());
          wts.push_back(weight[v]);
          ids.push_back(v);
        }
      MaxMinSolver full;
      full.run({capacity, offsets, links, wts});
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const double a = solver.rate(ids[i]), b = full.rates()[i];
        if (std::isfinite(b))
          r.max_verify_error = std::max(r.max_verify_error, std::abs(a - b) / std::max(1e-9, std::abs(b)));
      }
    }
  }
  r.simulate_seconds = clock.seconds();

  // Flows left active (a rate of 0 forever) or never started are blocked; close the books.
  for (FlowId f = 0; f < n; ++f)
    if (phase[f] == Phase::Active)
      for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) settle_var(v);
  for (FlowId f = 0; f < n; ++f)
    if (std::isfinite(r.finish_s[f])) r.makespan_s = std::max(r.makespan_s, r.finish_s[f]);
  for (std::uint32_t v = 0; v < vars; ++v)
    for (LinkId l : paths.links(v)) r.link_bytes[l] += var_bits[v] / 8;
  for (LinkId l = 0; l < net_.num_links(); ++l)
    if (link_active[l] > 0) r.link_busy_s[l] += now - busy_since[l];
  const IncrementalStats& st = solver.stats();
  r.solved_vars = st.solved_vars;
  r.changed_vars = st.changed_vars;
  r.solver_rounds = st.rounds;

  // Time series: the piecewise-constant rate and active count averaged over equal bins.
  const std::uint32_t bins = std::max<std::uint32_t>(1, o.series_bins);
  r.bin_s = r.makespan_s > 0 ? r.makespan_s / bins : 0;
  r.series_gbps.assign(bins, 0);
  r.series_active.assign(bins, 0);
  if (r.bin_s > 0)
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const double a = segments[i].time, b = i + 1 < segments.size() ? segments[i + 1].time : r.makespan_s;
      for (double t = a; t < b;) {
        const auto bin = std::min<std::size_t>(bins - 1, static_cast<std::size_t>(t / r.bin_s));
        const double end = std::min(b, static_cast<double>(bin + 1) * r.bin_s);
        const double share = (std::max(end, t) - t) / r.bin_s;
        r.series_gbps[bin] += segments[i].gbps * share;
        r.series_active[bin] += segments[i].active * share;
        if (end <= t) break;
        t = end;
      }
    }
  return r;
}

}  // namespace interflow
