#include "engine/packet/packet_transport.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"
#include "core/stats.hpp"

namespace interflow::packet {

namespace {

constexpr Cycle kInjectionBucket = 64;  // cycles per count of injected flits (the time series)

}  // namespace

PacketTransport::PacketTransport(const PacketNetwork& network, const PacketTransportOptions& options)
    : network_(network), options_(options), clock_s_(network.fabric->clock_ns() * 1e-9) {
  if (!network.net || !network.fabric || !network.pairs || !network.routes || !network.scheme)
    throw std::logic_error("PacketTransport: an incomplete network");
}

PacketTransport::~PacketTransport() = default;

// One SL per service class the messages use, with its MTU.
NicConfig nic_config_for(const MessageTable& messages, const std::vector<std::uint32_t>& mtu,
                         std::uint32_t flit_bytes, std::uint64_t injection_queue_bytes) {
  NicConfig nic;
  for (const std::uint32_t k : messages.service_class) nic.service_levels = std::max(nic.service_levels, k + 1);
  if (nic.service_levels > 16)
    throw InputError("the packet transport carries service classes 0 to 15 as SLs; the workload uses class " +
                     std::to_string(nic.service_levels - 1));
  if (mtu.size() <= 1) nic.mtu_bytes.assign(nic.service_levels, mtu.empty() ? 0 : mtu[0]);
  if (mtu.size() > 1) {
    if (mtu.size() < nic.service_levels)
      throw InputError("--mtu-bytes gives " + std::to_string(mtu.size()) + " MTUs; the workload uses " +
                       std::to_string(nic.service_levels) + " service classes (one MTU, or one per class)");
    nic.mtu_bytes.assign(mtu.begin(), mtu.begin() + nic.service_levels);
  }
  for (std::uint32_t& m : nic.mtu_bytes)
    if (m == 0) m = flit_bytes;
  nic.injection_queue_bytes = injection_queue_bytes;
  return nic;
}

void PacketTransport::open(const MessageTable& messages, TransportResult& result) {
  messages_ = &messages;
  r_ = &result;
  const std::size_t n = messages.size();
  const std::uint32_t nics = network_.fabric->num_nics();
  std::vector<FlowId> pair(n);
  for (std::size_t m = 0; m < n; ++m) pair[m] = messages.ends.src[m] * nics + messages.ends.dst[m];
  r_->paths = PathTableBuilder::permuted(*network_.pairs, pair);
  r_->state.assign(n, FlowState::Blocked);
  r_->start_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  r_->transfer_end_s = r_->start_s;
  r_->finish_s = r_->start_s;
  r_->link_bytes.assign(network_.net->num_links(), 0);
  r_->link_busy_s.assign(network_.net->num_links(), 0);
  route_latencies();
  sim_ = std::make_unique<PacketSim>(*network_.fabric, *network_.pairs, *network_.routes, *network_.scheme,
                                     network_.router,
                                     nic_config_for(messages, options_.mtu_bytes, network_.fabric->flit_bytes(),
                                                    options_.injection_queue_bytes),
                                     options_.seed);
  sim_->set_stall_limit(options_.stall_limit);
  sim_->record_injection(kInjectionBucket);
  sim_->on_injected = [this](std::uint64_t id, Cycle c) { injected(id, c); };
  sim_->on_arrival_known = [this](std::uint64_t id, Cycle c) { arrival_known(id, c); };
  active_steps_.assign(1, {0.0, 0});
  clock_.reset();
}

// Per message, the latency of its pair's longest route (channel latencies, no router delays).
void PacketTransport::route_latencies() {
  const MessageTable& messages = *messages_;
  const std::uint32_t nics = network_.fabric->num_nics();
  r_->latency_s.assign(messages.size(), 0.0f);
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const FlowId f = messages.ends.src[m] * nics + messages.ends.dst[m];
    double cycles = 0;
    for (std::uint32_t v = network_.pairs->first_var(f); v < network_.pairs->end_var(f); ++v) {
      double sum = 0;
      for (const ChannelId c : network_.routes->route(v)) sum += network_.fabric->latency(c);
      cycles = std::max(cycles, sum);
    }
    r_->latency_s[m] = static_cast<float>(seconds(1) * cycles);
  }
}

Cycle PacketTransport::cycle_at(double s) const { return packet::cycle_at(s, clock_s_); }

bool PacketTransport::start(MessageId m) {
  TransportResult& r = *r_;
  r.start_s[m] = now_;
  const EndpointId src = messages_->ends.src[m], dst = messages_->ends.dst[m];
  const bool self = src == dst, routed = r.paths.routed(m);
  if (self || !routed || messages_->bytes[m] <= 0) {
    r.state[m] = self ? FlowState::Self : !routed ? FlowState::Unroutable : FlowState::Delivered;
    r.transfer_end_s[m] = r.finish_s[m] = now_;
    if (messages_->delivery_awaited(m)) deliveries_.push({now_, m});
    return false;
  }
  const auto bytes = static_cast<std::uint64_t>(std::ceil(messages_->bytes[m]));
  sim_->send({src, dst, bytes, messages_->class_of(m)}, cycle_at(now_));
  message_of_.push_back(m);
  ++under_transfer_;
  active_steps_.push_back({now_, under_transfer_});
  return true;
}

double PacketTransport::earliest_known() const {
  return std::min(sent_.empty() ? kNever : sent_.top().time, next_delivery());
}

// Runs the simulator towards cycle `target` (kForever: until it is empty), stopping after the cycle
// in which an event the driver waits for becomes known.
void PacketTransport::simulate_to(Cycle target) {
  found_ = false;
  sim_->run_until(target == kForever ? 0 : target);
  if (sim_->stats().stalled)
    throw InputError("the packet engine stopped at cycle " + std::to_string(sim_->now()) + ": no packet moved for " +
                     std::to_string(options_.stall_limit) + " cycles with " +
                     std::to_string(sim_->packets_in_network()) + " packets in the network (a deadlock)");
}

double PacketTransport::next_event(double bound) {
  for (;;) {
    const double known = earliest_known();
    Cycle target = known == kNever ? kForever : cycle_at(known);
    if (bound != kNever) target = std::min(target, cycle_at(bound));
    if (sim_->messages_in_system() == 0 || (target != kForever && sim_->now() >= target)) return known;
    simulate_to(target);
    // Stopped without a new event before the target: the simulator is empty (or at the target).
    if (!found_ && (target == kForever || sim_->now() < target)) return earliest_known();
  }
}

double PacketTransport::advance_to(double t) {
  now_ = std::max(now_, t);
  return now_;
}

void PacketTransport::injected(std::uint64_t id, Cycle c) {
  const MessageId m = message_of_[id];
  r_->transfer_end_s[m] = seconds(c);
  sent_.push({seconds(c), m});
  found_ = true;
  sim_->pause();
}

void PacketTransport::arrival_known(std::uint64_t id, Cycle c) {
  const MessageId m = message_of_[id];
  r_->finish_s[m] = seconds(c);
  r_->state[m] = FlowState::Delivered;
  if (!messages_->delivery_awaited(m)) return;
  deliveries_.push({seconds(c), m});
  found_ = true;
  sim_->pause();
}

void PacketTransport::take_sent(double horizon, std::vector<MessageId>& sent) {
  while (!sent_.empty() && sent_.top().time <= horizon) {
    sent.push_back(sent_.top().message);
    sent_.pop();
    --under_transfer_;
    active_steps_.push_back({now_, under_transfer_});
  }
}

MessageId PacketTransport::pop_delivery() {
  const MessageId m = deliveries_.top().message;
  deliveries_.pop();
  return m;
}

void PacketTransport::end_batch() { ++r_->batches; }

void PacketTransport::close() {
  while (sim_->messages_in_system() > 0) simulate_to(kForever);  // deliveries nobody waited for
  sim_->check_invariants();
  TransportResult& r = *r_;
  r.makespan_s = 0;
  for (std::size_t m = 0; m < r.finish_s.size(); ++m)
    if (!std::isnan(r.finish_s[m])) r.makespan_s = std::max(r.makespan_s, r.finish_s[m]);
  r.simulate_seconds = clock_.seconds();
  close_links();
  close_series();
}

// Per network link, the bytes its channel carried and the time it spent sending them.
void PacketTransport::close_links() {
  const Fabric& f = *network_.fabric;
  const RunStats& st = sim_->stats();
  for (ChannelId c = 0; c < f.num_channels(); ++c) {
    const LinkId l = f.link(c);
    if (l == kNone) continue;
    r_->link_bytes[l] += static_cast<double>(st.channel_flits[c]) * f.flit_bytes();
    r_->link_busy_s[l] += seconds(st.channel_busy[c]);
  }
}

// The injection rate (per 64-cycle count, spread evenly over it) and the messages under transfer
// (a step function), averaged over equal bins of the makespan.
void PacketTransport::close_series() {
  TransportResult& r = *r_;
  if (!r.start_series(options_.series_bins)) return;
  const RunStats& st = sim_->stats();
  const double bucket_s = seconds(st.injection_bucket), bits_per_flit = 8.0 * network_.fabric->flit_bytes();
  for (const auto& [bucket, flits] : st.injected_flits) {
    const double a = static_cast<double>(bucket) * bucket_s;
    const double e = std::max(std::min(a + bucket_s, r.makespan_s), std::nextafter(a, kNever));
    add_to_bins(r.series_gbps, r.bin_s, a, e, static_cast<double>(flits) * bits_per_flit / (e - a) * 1e-9);
  }
  for (std::size_t i = 0; i < active_steps_.size(); ++i) {
    const double a = active_steps_[i].first;
    const double e = i + 1 < active_steps_.size() ? active_steps_[i + 1].first : r.makespan_s;
    if (e > a) add_to_bins(r.series_active, r.bin_s, a, std::min(e, r.makespan_s), active_steps_[i].second);
  }
}

}  // namespace interflow::packet
