#include "engine/packet/open_loop.hpp"

#include <cmath>
#include <queue>

#include "core/error.hpp"
#include "core/stats.hpp"

namespace interflow::packet {

namespace {

// The message generators of every NIC, in cycle order.
class Generators {
 public:
  Generators(const Fabric& fabric, const TrafficConfig& t, std::uint64_t seed)
      : t_(t), n_(fabric.num_nics()), rng_(derive_seed(seed, Stream::Packet, 1)) {
    const double flits = std::ceil(static_cast<double>(t.message_bytes) / fabric.flit_bytes());
    p_ = t.load / flits;
    if (!(p_ > 0) || p_ > 1)
      throw InputError("--load " + std::to_string(t.load) + " flits/cycle/NIC with messages of " +
                       std::to_string(static_cast<std::uint64_t>(flits)) + " flits: at most one message per cycle "
                       "(load <= message flits) and more than 0");
    if (!t.destination.empty() && t.destination.size() != n_) throw std::logic_error("one destination per endpoint");
    for (EndpointId e = 0; e < n_; ++e)
      if (t.destination.empty() || t.destination[e] != kNone) next_.push({gap(), e});
  }

  // Hands every message generated before `until` to the simulator.
  void emit(PacketSim& sim, Cycle until) {
    while (!next_.empty() && next_.top().first < until) {
      const auto [t, e] = next_.top();
      next_.pop();
      sim.send({e, destination(e), t_.message_bytes, t_.sl}, t);
      next_.push({t + gap(), e});
    }
  }

 private:
  Cycle gap() {
    if (t_.constant) return static_cast<Cycle>(std::max(1.0, std::round(1.0 / p_)));
    if (p_ >= 1) return 1;
    // Geometric: cycles until the next success of a Bernoulli trial with probability p.
    const double u = 1.0 - rng_.uniform();
    return 1 + static_cast<Cycle>(std::floor(std::log(u) / std::log1p(-p_)));
  }

  EndpointId destination(EndpointId s) {
    if (!t_.destination.empty()) return t_.destination[s];
    EndpointId d = static_cast<EndpointId>(rng_.below(n_ - 1));
    return d >= s ? d + 1 : d;
  }

  const TrafficConfig& t_;
  std::uint32_t n_;
  Rng rng_;
  double p_ = 0;
  std::priority_queue<std::pair<Cycle, EndpointId>, std::vector<std::pair<Cycle, EndpointId>>, std::greater<>> next_;
};

}  // namespace

OpenLoopResult run_open_loop(PacketSim& sim, const Fabric& fabric, const TrafficConfig& traffic, const RunConfig& run,
                             std::uint64_t seed, Progress* progress) {
  if (fabric.num_nics() < 2) throw InputError("the packet engine needs at least two endpoints");
  if (run.measure == 0) throw InputError("--measure must be at least 1 cycle");
  Generators gen(fabric, traffic, seed);
  const Cycle end = run.warmup + run.measure;
  sim.set_window(run.warmup, end);
  constexpr Cycle chunk = 256;
  if (progress) progress->phase("simulating cycles", end);
  for (Cycle t = 0; t < end; t += chunk) {
    gen.emit(sim, std::min(end, t + chunk));
    sim.run_until(std::min(end, t + chunk));
    if (progress) progress->counter()->store(sim.now(), std::memory_order_relaxed);
    if (sim.stats().stalled) break;
  }
  if (progress) progress->phase("draining");
  // Drain: the measured messages (and whatever is in front of them) until delivered or the limit.
  const auto measured_left = [&] {
    std::uint64_t left = 0;
    for (const SlStats& s : sim.stats().sl) left += s.generated_messages - s.delivered_messages;
    return left;
  };
  while (measured_left() > 0 && sim.now() < end + run.drain_limit && !sim.stats().stalled)
    sim.run_until(std::min(end + run.drain_limit, sim.now() + chunk));
  OpenLoopResult r;
  const SlStats& sl = sim.stats().sl[traffic.sl];
  const double nics = fabric.num_nics(), window = static_cast<double>(run.measure);
  r.offered = static_cast<double>(sl.generated_flits) / window / nics;
  r.accepted = static_cast<double>(sl.window_delivered_flits) / window / nics;
  // Beyond saturation: the measured messages did not all arrive in time, or the network accepted
  // clearly less than was offered (the queues at the NICs grow without bound).
  r.saturated = measured_left() > 0 || r.accepted < 0.95 * r.offered;
  r.mean_latency = sl.mean_latency();
  r.mean_network_latency = sl.mean_network_latency();
  if (sl.delivered_messages > 1) {
    const double n = static_cast<double>(sl.delivered_messages);
    const double var = std::max(0.0, (sl.latency_sq_sum - n * r.mean_latency * r.mean_latency) / (n - 1));
    r.latency_ci95 = student_t_quantile(0.975, n - 1) * std::sqrt(var / n);
  }
  return r;
}

}  // namespace interflow::packet
