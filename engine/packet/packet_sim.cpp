#include "engine/packet/packet_sim.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/error.hpp"

namespace interflow::packet {

namespace {

constexpr std::int64_t kUnlimited = std::int64_t{1} << 60;  // credits of ejection channels (a NIC has room)
constexpr std::uint32_t kCredit = 0, kDelivery = 1;

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

}  // namespace

PacketSim::PacketSim(const Fabric& fabric, const PathTable& paths, const ChannelRoutes& routes, const VcScheme& scheme,
                     const RouterConfig& router, const NicConfig& nic, std::uint64_t seed)
    : fabric_(fabric), paths_(paths), routes_(routes), scheme_(scheme), router_(router), nic_(nic),
      rng_(derive_seed(seed, Stream::Packet)), vcs_(router.vcs) {
  const std::uint32_t n = fabric.num_nics();
  if (paths.num_flows() != static_cast<std::uint64_t>(n) * n)
    throw std::logic_error("PacketSim: the path table must hold one flow per ordered endpoint pair");
  if (vcs_ == 0 || vcs_ < scheme.classes)
    throw InputError("the " + scheme.name() + " virtual-channel scheme needs at least " +
                     std::to_string(scheme.classes) + " virtual channels; --vcs is " + std::to_string(vcs_));
  if (nic_.service_levels == 0) throw InputError("at least one service level is needed");
  if (nic_.mtu_bytes.empty()) nic_.mtu_bytes.assign(nic_.service_levels, fabric.flit_bytes());
  if (nic_.mtu_bytes.size() != nic_.service_levels)
    throw InputError("one MTU per service level is needed: " + std::to_string(nic_.service_levels) + " service levels, " +
                     std::to_string(nic_.mtu_bytes.size()) + " MTUs");
  for (std::uint32_t sl = 0; sl < nic_.service_levels; ++sl) {
    const std::uint32_t flits = ceil_div(std::max<std::uint32_t>(1, nic_.mtu_bytes[sl]), fabric.flit_bytes());
    if (flits > router_.buffer_flits)
      throw InputError("service level " + std::to_string(sl) + ": packets of " + std::to_string(flits) +
                       " flits do not fit a virtual channel of " + std::to_string(router_.buffer_flits) +
                       " flits; virtual cut-through needs a whole packet to fit (raise --buffer-flits or lower the MTU)");
  }
  if (routes.num_routes() != paths.num_vars())
    throw std::logic_error("PacketSim: the channel routes are not those of the path table");
  const std::uint64_t slots = static_cast<std::uint64_t>(fabric.num_channels()) * vcs_;
  queues_.assign(slots, Queue{});
  credits_.assign(slots, router_.buffer_flits);
  for (ChannelId c = 0; c < fabric.num_channels(); ++c)
    if (fabric.is_nic(fabric.dst(c)))
      for (std::uint32_t v = 0; v < vcs_; ++v) credits_[c * vcs_ + v] = kUnlimited;
  channel_free_.assign(fabric.num_channels(), 0);
  input_free_.assign(fabric.num_channels(), 0);
  vc_rr_.assign(fabric.num_channels(), 0);
  out_rr_.assign(fabric.num_channels(), 0);
  grant_of_.assign(fabric.num_channels(), 0);
  grant_cycle_.assign(fabric.num_channels(), ~Cycle{0});
  queued_at_.assign(fabric.num_elements(), 0);
  injection_.assign(static_cast<std::size_t>(n) * nic_.service_levels, Queue{});
  injection_bytes_.assign(injection_.size(), 0);
  app_queue_.resize(injection_.size());
  sl_rr_.assign(n, 0);
  is_active_.assign(fabric.num_elements(), 0);
  stats_.sl.assign(nic_.service_levels, SlStats{});
  stats_.channel_flits.assign(fabric.num_channels(), 0);
  stats_.channel_peak.assign(fabric.num_channels(), 0);
  stats_.window_end = ~Cycle{0};
}

void PacketSim::set_window(Cycle start, Cycle end) {
  stats_.window_start = start;
  stats_.window_end = end;
}

std::uint32_t PacketSim::new_packet() {
  if (!free_packets_.empty()) {
    const std::uint32_t p = free_packets_.back();
    free_packets_.pop_back();
    return p;
  }
  packets_.push_back({});
  return static_cast<std::uint32_t>(packets_.size() - 1);
}

void PacketSim::push(Queue& q, std::uint32_t p) {
  packets_[p].next = kNone;
  if (q.tail == kNone)
    q.head = p;
  else
    packets_[q.tail].next = p;
  q.tail = p;
  q.flits += packets_[p].flits;
}

std::uint32_t PacketSim::pop(Queue& q) {
  const std::uint32_t p = q.head;
  q.head = packets_[p].next;
  if (q.head == kNone) q.tail = kNone;
  q.flits -= packets_[p].flits;
  return p;
}

void PacketSim::schedule(Cycle time, std::uint32_t kind, std::uint32_t a, std::uint32_t b) {
  events_.push_back({time, kind, a, b});
  std::push_heap(events_.begin(), events_.end(), std::greater<>());
}

void PacketSim::activate(ElementId e) {
  if (is_active_[e]) return;
  is_active_[e] = 1;
  active_.push_back(e);
}

void PacketSim::send(const Message& m, Cycle when) {
  const std::uint32_t n = fabric_.num_nics();
  if (m.src >= n || m.dst >= n || m.src == m.dst || m.sl >= nic_.service_levels || m.bytes == 0)
    throw std::logic_error("PacketSim::send: a message needs distinct endpoints, a known service level and bytes");
  if (!paths_.routed(m.src * n + m.dst))
    throw InputError("no route from endpoint " + std::to_string(m.src) + " to " + std::to_string(m.dst));
  when = std::max(when, now_);
  std::uint32_t index;
  if (!free_messages_.empty()) {
    index = free_messages_.back();
    free_messages_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(messages_.size());
    messages_.push_back({});
  }
  MessageState& s = messages_[index];
  s.m = m;
  s.generated = when;
  s.injected = ~Cycle{0};
  s.packets_left = 0;
  s.flits = ceil_div(static_cast<std::uint32_t>(std::min<std::uint64_t>(m.bytes, 0xffffffffu)), fabric_.flit_bytes());
  s.id = next_message_id_++;
  s.measured = when >= stats_.window_start && when < stats_.window_end;
  s.segmented = false;
  ++messages_live_;
  ++total_sent_;
  if (s.measured) {
    stats_.sl[m.sl].generated_messages++;
    stats_.sl[m.sl].generated_flits += s.flits;
  }
  pending_sends_.push({when, index});
}

// A message leaves the application queue: it is cut into packets on one route variable of its flow
// (chosen by weight) and queued for injection.
void PacketSim::generate_packets(std::uint32_t index) {
  MessageState& s = messages_[index];
  const std::uint32_t n = fabric_.num_nics();
  const FlowId f = s.m.src * n + s.m.dst;
  std::uint32_t var = paths_.first_var(f);
  if (paths_.end_var(f) - var > 1) {
    double x = rng_.uniform(), total = 0;
    for (std::uint32_t v = var; v < paths_.end_var(f); ++v) total += paths_.split(v);
    x *= total;
    for (; var + 1 < paths_.end_var(f); ++var) {
      x -= paths_.split(var);
      if (x < 0) break;
    }
  }
  const std::uint64_t mtu = nic_.mtu_bytes[s.m.sl];
  Queue& q = injection_[s.m.src * nic_.service_levels + s.m.sl];
  for (std::uint64_t left = s.m.bytes; left > 0;) {
    const std::uint64_t bytes = std::min(left, mtu);
    left -= bytes;
    const std::uint32_t p = new_packet();
    Packet& pk = packets_[p];
    pk.message = index;
    pk.hop = routes_.begin(var);
    pk.flits = ceil_div(static_cast<std::uint32_t>(bytes), fabric_.flit_bytes());
    pk.vc = 0;
    pk.vc_state = VcState{};
    pk.ready = std::max(now_, s.generated) + router_.nic_delay;
    pk.tail = pk.ready;
    push(q, p);
    ++s.packets_left;
    ++packets_in_network_;
    injection_bytes_[s.m.src * nic_.service_levels + s.m.sl] += std::uint64_t{pk.flits} * fabric_.flit_bytes();
  }
  s.segmented = true;
}

// Moves messages from the application queues into the injection queues while they fit (a message
// larger than the whole queue goes when the queue is empty).
void PacketSim::refill_nic(EndpointId e) {
  for (std::uint32_t sl = 0; sl < nic_.service_levels; ++sl) {
    const std::size_t k = e * nic_.service_levels + sl;
    auto& waiting = app_queue_[k];
    while (!waiting.empty()) {
      const std::uint64_t bytes = messages_[waiting.front()].m.bytes;
      if (injection_bytes_[k] > 0 && injection_bytes_[k] + bytes > nic_.injection_queue_bytes) break;
      generate_packets(waiting.front());
      waiting.pop_front();
      --app_queued_;
    }
  }
  activate(fabric_.nic(e));
}

bool PacketSim::nic_idle(EndpointId e) const {
  for (std::uint32_t sl = 0; sl < nic_.service_levels; ++sl) {
    const std::size_t k = e * nic_.service_levels + sl;
    if (injection_[k].head != kNone || !app_queue_[k].empty()) return false;
  }
  return true;
}

std::uint32_t PacketSim::pick_vc(std::uint32_t p, ChannelId out) const {
  if (fabric_.is_nic(fabric_.dst(out))) return 0;
  VcState state = packets_[p].vc_state;
  const std::uint32_t cls = enter(scheme_, state, out, fabric_.link(out) != kNone);
  const std::uint32_t per_class = vcs_ / scheme_.classes, first = cls * per_class;
  std::uint32_t best = kNone;
  std::int64_t best_credits = packets_[p].flits - 1;
  for (std::uint32_t v = first; v < first + per_class; ++v)
    if (credits_[out * vcs_ + v] > best_credits) {
      best = v;
      best_credits = credits_[out * vcs_ + v];
    }
  return best;
}

// A packet goes onto channel `out` at cycle `start`; its tail follows no earlier than it arrived
// where it is. Returns the cycle its tail leaves.
Cycle PacketSim::transmit(std::uint32_t p, ChannelId out, std::uint32_t out_vc, Cycle start, Cycle tail_here) {
  Packet& pk = packets_[p];
  const std::uint32_t serial = ceil_div(pk.flits, fabric_.flits_per_cycle(out));
  const Cycle tail_leaves = std::max(start + serial - 1, tail_here);
  channel_free_[out] = tail_leaves + 1;
  last_progress_ = now_;
  std::int64_t& credits = credits_[out * vcs_ + out_vc];
  credits -= pk.flits;
  if (credits < 0) throw std::logic_error("packet engine: a packet left without room downstream");
  enter(scheme_, pk.vc_state, out, fabric_.link(out) != kNone);
  pk.vc = out_vc;
  pk.hop++;
  stats_.flit_hops += pk.flits;
  if (start >= stats_.window_start && start < stats_.window_end) stats_.channel_flits[out] += pk.flits;
  const Cycle head_arrives = start + fabric_.latency(out);
  pk.tail = tail_leaves + fabric_.latency(out);
  const ElementId next = fabric_.dst(out);
  if (fabric_.is_nic(next)) {
    schedule(pk.tail, kDelivery, p, 0);
    return tail_leaves;
  }
  pk.ready = head_arrives + router_.pipeline();
  Queue& q = queues_[out * vcs_ + out_vc];
  push(q, p);
  if (q.flits > router_.buffer_flits) throw std::logic_error("packet engine: a virtual channel holds more than its size");
  stats_.channel_peak[out] = std::max(stats_.channel_peak[out], q.flits);
  ++queued_at_[next];
  activate(next);
  return tail_leaves;
}

// A router's granted packet leaves input channel `in`: the input port is busy while its flits
// leave, and their credits go back upstream once the tail has left.
void PacketSim::forward(ChannelId in, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc,
                        Cycle t) {
  Queue& q = queues_[in * vcs_ + vc];
  if (q.head != p) throw std::logic_error("packet engine: a packet left from the middle of its queue");
  pop(q);
  --queued_at_[fabric_.dst(in)];
  const std::uint32_t flits = packets_[p].flits;
  const Cycle tail_leaves = transmit(p, out, out_vc, t + router_.xbar_delay, packets_[p].tail);
  // The crossbar is pipelined: the input port may be granted again as soon as its last flit enters
  // the crossbar, xbar_delay cycles before it leaves on the output channel.
  input_free_[in] = tail_leaves + 1 - router_.xbar_delay;
  schedule(tail_leaves + 1 + router_.credit_delay + fabric_.latency(in), kCredit, in * vcs_ + vc, flits);
}

// One cycle of a NIC: round robin over its service levels, the first ready packet that fits.
void PacketSim::step_nic(EndpointId e) {
  const ChannelId c = fabric_.injection(e);
  if (channel_free_[c] > now_) return;
  const std::uint32_t sls = nic_.service_levels;
  for (std::uint32_t k = 0; k < sls; ++k) {
    const std::uint32_t sl = (sl_rr_[e] + k) % sls;
    Queue& q = injection_[e * sls + sl];
    const std::uint32_t p = q.head;
    if (p == kNone || packets_[p].ready > now_) continue;
    const std::uint32_t vc = pick_vc(p, c);
    if (vc == kNone) {
      ++stats_.credit_stalls;
      continue;
    }
    pop(q);
    MessageState& m = messages_[packets_[p].message];
    injection_bytes_[e * sls + sl] -= std::uint64_t{packets_[p].flits} * fabric_.flit_bytes();
    if (m.injected == ~Cycle{0}) m.injected = now_;
    transmit(p, c, vc, now_, now_);
    sl_rr_[e] = sl + 1;
    refill_nic(e);
    return;
  }
}

// One cycle of a router: separable input-first allocation, then the grants go.
void PacketSim::step_router(ElementId r) {
  requests_.clear();
  const auto inputs = fabric_.inputs(r);
  for (std::uint32_t i = 0; i < inputs.size(); ++i) {
    const ChannelId in = inputs[i];
    if (input_free_[in] > now_) continue;
    for (std::uint32_t k = 0; k < vcs_; ++k) {
      const std::uint32_t v = (vc_rr_[in] + k) % vcs_;
      const std::uint32_t p = queues_[in * vcs_ + v].head;
      if (p == kNone || packets_[p].ready > now_) continue;
      const ChannelId out = routes_.at(packets_[p].hop);
      if (channel_free_[out] > now_ + router_.xbar_delay) continue;
      const std::uint32_t out_vc = pick_vc(p, out);
      if (out_vc == kNone) {
        ++stats_.credit_stalls;
        continue;
      }
      requests_.push_back({in, v, p, out, out_vc, i});
      break;
    }
  }
  const auto degree = static_cast<std::uint32_t>(inputs.size());
  const auto order = [&](const Request& q) { return (q.position + degree - out_rr_[q.out] % degree) % degree; };
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    const Request& q = requests_[i];
    if (grant_cycle_[q.out] != now_ || order(q) < order(requests_[grant_of_[q.out]])) {
      grant_cycle_[q.out] = now_;
      grant_of_[q.out] = i;
    }
  }
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    const Request& q = requests_[i];
    if (grant_of_[q.out] != i) continue;
    forward(q.in, q.vc, q.packet, q.out, q.out_vc, now_);
    vc_rr_[q.in] = q.vc + 1;
    out_rr_[q.out] = q.position + 1;
  }
}

void PacketSim::deliver(std::uint32_t p, Cycle t) {
  MessageState& m = messages_[packets_[p].message];
  SlStats& sl = stats_.sl[m.m.sl];
  const std::uint32_t flits = packets_[p].flits;
  if (t >= stats_.window_start && t < stats_.window_end) sl.window_delivered_flits += flits;
  if (m.measured) {
    sl.delivered_packets++;
    sl.delivered_flits += flits;
  }
  free_packets_.push_back(p);
  --packets_in_network_;
  if (--m.packets_left > 0 || !m.segmented) return;
  if (m.measured) {
    const double latency = static_cast<double>(t - m.generated);
    sl.delivered_messages++;
    sl.latency_sum += latency;
    sl.latency_sq_sum += latency * latency;
    sl.latency_max = std::max(sl.latency_max, t - m.generated);
    sl.network_latency_sum += static_cast<double>(t - m.injected);
  }
  ++total_delivered_;
  --messages_live_;
  if (on_delivery) on_delivery(m.id, t);
  free_messages_.push_back(packets_[p].message);
}

void PacketSim::process_events() {
  while (!events_.empty() && events_.front().time <= now_) {
    std::pop_heap(events_.begin(), events_.end(), std::greater<>());
    const Event e = events_.back();
    events_.pop_back();
    if (e.kind == kCredit) {
      credits_[e.a] += e.b;
      if (credits_[e.a] > router_.buffer_flits) throw std::logic_error("packet engine: more credits than buffer");
    } else {
      deliver(e.a, e.time);
    }
  }
  while (!pending_sends_.empty() && pending_sends_.top().first <= now_) {
    const std::uint32_t index = pending_sends_.top().second;
    pending_sends_.pop();
    const EndpointId src = messages_[index].m.src;
    app_queue_[src * nic_.service_levels + messages_[index].m.sl].push_back(index);
    ++app_queued_;
    stats_.app_queue_peak = std::max(stats_.app_queue_peak, app_queued_);
    refill_nic(src);
  }
}

Cycle PacketSim::next_wakeup() const {
  Cycle t = ~Cycle{0};
  if (!events_.empty()) t = std::min(t, events_.front().time);
  if (!pending_sends_.empty()) t = std::min(t, pending_sends_.top().first);
  return t;
}

void PacketSim::step() {
  process_events();
  const std::size_t count = active_.size();
  for (std::size_t i = 0; i < count; ++i) {
    const ElementId e = active_[i];
    if (fabric_.is_nic(e))
      step_nic(e - fabric_.num_routers());
    else
      step_router(e);
  }
  // Keep the elements that still hold packets, in order.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < active_.size(); ++i) {
    const ElementId e = active_[i];
    const bool busy = fabric_.is_nic(e) ? !nic_idle(e - fabric_.num_routers()) : queued_at_[e] > 0;
    if (busy)
      active_[kept++] = e;
    else
      is_active_[e] = 0;
  }
  active_.resize(kept);
  ++now_;
}

void PacketSim::run_until(Cycle until) {
  const auto more = [&] { return until == 0 ? messages_live_ > 0 : now_ < until; };
  while (more()) {
    if (packets_in_network_ > 0 && now_ > last_progress_ + stall_limit_ && events_.empty()) {
      stats_.stalled = true;  // every packet waits for another: nothing will ever move again
      break;
    }
    if (active_.empty()) {  // nothing can move before the next event: jump to it
      const Cycle next = next_wakeup();
      if (next == ~Cycle{0}) break;
      if (until != 0 && next >= until) {
        now_ = until;
        break;
      }
      now_ = std::max(now_, next);
    }
    step();
  }
  stats_.cycles = now_;
}

void PacketSim::check_invariants() const {
  const auto fail = [](const std::string& what) { throw std::logic_error("packet engine invariant: " + what); };
  if (total_sent_ != total_delivered_ + messages_live_) fail("messages sent != delivered + in the system");
  if (packets_.size() != free_packets_.size() + packets_in_network_) fail("packets lost or duplicated");
  std::vector<std::int64_t> returning(credits_.size(), 0);
  std::uint64_t to_deliver = 0;
  for (const Event& e : events_) {
    if (e.kind == kCredit)
      returning[e.a] += e.b;
    else
      ++to_deliver;
  }
  std::uint64_t queued = 0;
  for (ChannelId c = 0; c < fabric_.num_channels(); ++c) {
    if (fabric_.is_nic(fabric_.dst(c))) continue;
    for (std::uint32_t v = 0; v < vcs_; ++v) {
      const std::size_t k = c * vcs_ + v;
      const Queue& q = queues_[k];
      if (q.flits > router_.buffer_flits) fail("channel " + std::to_string(c) + " holds more flits than its buffer");
      if (credits_[k] < 0) fail("negative credits on channel " + std::to_string(c));
      // Credits held + flits buffered + credits on their way back = the buffer, always.
      if (credits_[k] + static_cast<std::int64_t>(q.flits) + returning[k] != router_.buffer_flits)
        fail("credits of channel " + std::to_string(c) + " VC " + std::to_string(v) + " do not add up");
      for (std::uint32_t p = q.head; p != kNone; p = packets_[p].next) ++queued;
    }
  }
  for (const Queue& q : injection_)
    for (std::uint32_t p = q.head; p != kNone; p = packets_[p].next) ++queued;
  if (queued + to_deliver != packets_in_network_)
    fail("packets in queues (" + std::to_string(queued) + ") + to deliver (" + std::to_string(to_deliver) +
         ") != packets in the network (" + std::to_string(packets_in_network_) + ")");
}

}  // namespace interflow::packet
