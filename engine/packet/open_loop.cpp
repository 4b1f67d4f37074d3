#include "engine/packet/open_loop.hpp"

#include <cmath>
#include <queue>
#include <tuple>

#include "core/error.hpp"
#include "core/stats.hpp"

namespace interflow::packet {

namespace {

// The generators of every NIC and SL, in cycle order (ties by NIC, then SL: deterministic).
class Streams {
 public:
  Streams(std::vector<std::unique_ptr<SlGenerator>>& gens, std::uint32_t nics, std::uint64_t seed)
      : gens_(gens), rng_(derive_seed(seed, Stream::Packet, 1)) {
    for (std::uint32_t sl = 0; sl < gens.size(); ++sl)
      for (EndpointId e = 0; e < nics; ++e)
        if (gens[sl]->start(e, rng_)) push(gens[sl]->next(e, 0, true, rng_), e, sl);
  }

  // Hands every message generated before `until` to the simulator.
  void emit(PacketSim& sim, Cycle until) {
    while (!next_.empty() && std::get<0>(next_.top()) < until) {
      const auto [t, e, sl, dst, count, size] = next_.top();
      next_.pop();
      const std::uint64_t bytes = size != 0 ? size : gens_[sl]->settings().bytes;
      for (std::uint32_t k = 0; k < count; ++k) sim.send({e, dst, bytes, sl}, t);
      push(gens_[sl]->next(e, t, false, rng_), e, sl);
    }
  }

 private:
  void push(const Emission& m, EndpointId e, std::uint32_t sl) { next_.push({m.time, e, sl, m.dst, m.count, m.bytes}); }

  using Item = std::tuple<Cycle, EndpointId, std::uint32_t, EndpointId, std::uint32_t, std::uint64_t>;
  std::vector<std::unique_ptr<SlGenerator>>& gens_;
  Rng rng_;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> next_;
};

std::uint64_t measured_left(const PacketSim& sim) {
  std::uint64_t left = 0;
  for (const SlStats& s : sim.stats().sl) left += s.generated_messages - s.delivered_messages;
  return left;
}

SlStats sum(const std::vector<SlStats>& sls) {
  SlStats t;
  for (const SlStats& s : sls) {
    t.generated_messages += s.generated_messages;
    t.generated_flits += s.generated_flits;
    t.delivered_messages += s.delivered_messages;
    t.delivered_flits += s.delivered_flits;
    t.delivered_packets += s.delivered_packets;
    t.latency_sum += s.latency_sum;
    t.latency_sq_sum += s.latency_sq_sum;
    t.network_latency_sum += s.network_latency_sum;
    t.latency_max = std::max(t.latency_max, s.latency_max);
    t.window_delivered_flits += s.window_delivered_flits;
  }
  return t;
}

}  // namespace

LoadResult load_result(const SlStats& s, double nics, double window) {
  LoadResult r;
  r.offered = static_cast<double>(s.generated_flits) / window / nics;
  r.accepted = static_cast<double>(s.window_delivered_flits) / window / nics;
  r.saturated = s.delivered_messages < s.generated_messages || r.accepted < 0.95 * r.offered;
  r.mean_latency = s.mean_latency();
  r.mean_network_latency = s.mean_network_latency();
  if (s.delivered_messages > 1) {
    const double n = static_cast<double>(s.delivered_messages);
    const double var = std::max(0.0, (s.latency_sq_sum - n * r.mean_latency * r.mean_latency) / (n - 1));
    r.latency_ci95 = student_t_quantile(0.975, n - 1) * std::sqrt(var / n);
  }
  return r;
}

OpenLoopResult run_open_loop(PacketSim& sim, const Fabric& fabric, std::vector<std::unique_ptr<SlGenerator>>& traffic,
                             const RunConfig& run, std::uint64_t seed, Progress* progress) {
  if (fabric.num_nics() < 2) throw InputError("the packet engine needs at least two endpoints");
  if (run.measure == 0) throw InputError("--measure must be at least 1 cycle");
  if (traffic.size() != sim.stats().sl.size()) throw std::logic_error("one generator per service level");
  Streams streams(traffic, fabric.num_nics(), seed);
  const Cycle end = run.warmup + run.measure;
  sim.set_window(run.warmup, end);
  constexpr Cycle chunk = 256;
  if (progress) progress->phase("simulating cycles", end);
  for (Cycle t = 0; t < end; t += chunk) {
    streams.emit(sim, std::min(end, t + chunk));
    sim.run_until(std::min(end, t + chunk));
    if (progress) progress->counter()->store(sim.now(), std::memory_order_relaxed);
    if (sim.stats().stalled) break;
  }
  if (progress) progress->phase("draining");
  // Drain: the measured messages (and whatever is in front of them) until delivered or the limit.
  while (measured_left(sim) > 0 && sim.now() < end + run.drain_limit && !sim.stats().stalled)
    sim.run_until(std::min(end + run.drain_limit, sim.now() + chunk));
  OpenLoopResult r;
  const double nics = fabric.num_nics(), window = static_cast<double>(run.measure);
  for (const SlStats& s : sim.stats().sl) r.sl.push_back(load_result(s, nics, window));
  r.total = load_result(sum(sim.stats().sl), nics, window);
  return r;
}

}  // namespace interflow::packet
