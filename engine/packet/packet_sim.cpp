#include "engine/packet/packet_sim.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.hpp"

namespace interflow::packet {

Cycle cycle_at(double s, double clock_s) {
  const double x = s / clock_s;
  const double nearest = std::round(x);
  if (std::abs(x - nearest) <= 1e-9 * std::max(1.0, x)) return static_cast<Cycle>(nearest);
  return static_cast<Cycle>(std::ceil(x));
}


std::uint32_t RouterConfig::qos_lanes() const {
  if (!sl2sc.empty()) return static_cast<std::uint32_t>(sl2sc.size());
  std::uint32_t lanes = 1;
  for (const std::uint32_t l : sl2vl) lanes = std::max(lanes, l + 1);
  return lanes;
}

std::uint32_t RouterConfig::service_channel(std::uint32_t sl, std::uint32_t cls) const {
  if (sl >= sl2sc.size()) return kNone;
  for (std::uint32_t sc = sl2sc[sl]; sc < sc2sl.size() && sc < sc2vl.size(); ++sc)
    if (sc != kReservedSc && sc2sl[sc] == sl && cls-- == 0) return sc;
  return kNone;
}

std::uint32_t RouterConfig::service_channels(std::uint32_t sl) const {
  std::uint32_t n = 0;
  while (service_channel(sl, n) != kNone) ++n;
  return n;
}

std::uint32_t RouterConfig::classes_per_lane() const {
  if (sl2sc.empty()) return vcs / qos_lanes();
  std::uint32_t fewest = kNone;
  for (std::uint32_t sl = 0; sl < sl2sc.size(); ++sl) fewest = std::min(fewest, service_channels(sl));
  return fewest == kNone ? 0 : fewest;
}

PacketSim::PacketSim(const Fabric& fabric, const PathTable& paths, const ChannelRoutes& routes, const VcScheme& scheme,
                     const RouterConfig& router, const NicConfig& nic, std::uint64_t seed)
    : fabric_(fabric), paths_(paths), routes_(routes), scheme_(scheme), router_(router), nic_(nic),
      rng_(derive_seed(seed, Stream::Packet)), vcs_(router.vcs) {
  const std::uint32_t n = fabric.num_nics();
  // An empty path table: every message names its route (Message::route).
  if (paths.num_flows() != 0 && paths.num_flows() != static_cast<std::uint64_t>(n) * n)
    throw std::logic_error("PacketSim: the path table must hold one flow per ordered endpoint pair");
  if (paths.num_flows() != 0 && routes.num_routes() != paths.num_vars())
    throw std::logic_error("PacketSim: the channel routes are not those of the path table");
  check_config();
  const std::uint64_t slots = static_cast<std::uint64_t>(fabric.num_channels()) * vcs_;
  queues_.assign(slots, Queue{});
  credits_ = SharedBuffers(fabric.num_channels(), vcs_, router_.input);
  channel_free_.assign(fabric.num_channels(), 0);
  input_free_.assign(fabric.num_channels(), 0);
  input_held_.assign(fabric.num_channels(), 0);
  grant_of_.assign(fabric.num_channels(), 0);
  grant_cycle_.assign(fabric.num_channels(), ~Cycle{0});
  if (router_.islip_iterations > 0) make_islip_state();
  vc_rr_.assign(fabric.num_channels(), 0);
  out_rr_.assign(fabric.num_channels(), 0);
  queued_at_.assign(fabric.num_elements(), 0);
  if (router_.output_buffered()) make_output_buffers();
  if (router_.hierarchical()) make_central();
  injection_.assign(static_cast<std::size_t>(n) * nic_.service_levels * scheme_.classes, Queue{});
  injection_bytes_.assign(static_cast<std::size_t>(n) * nic_.service_levels, 0);
  app_queue_.resize(injection_bytes_.size());
  sl_rr_.assign(n, 0);
  nic_classes_.assign(n, 1);
  is_active_.assign(fabric.num_elements(), 0);
  stats_.sl.assign(nic_.service_levels, SlStats{});
  stats_.channel_flits.assign(fabric.num_channels(), 0);
  stats_.channel_peak.assign(fabric.num_channels(), 0);
  stats_.output_peak.assign(fabric.num_channels(), 0);
  stats_.channel_credit_stalls.assign(fabric.num_channels(), 0);
  stats_.channel_busy.assign(fabric.num_channels(), 0);
  stats_.window_end = ~Cycle{0};
}

// Every switch and NIC parameter against the others: lanes, classes, buffers and packet sizes.
void PacketSim::check_config() {
  if (nic_.service_levels == 0) throw InputError("at least one service level is needed");
  if (router_.credit_flits == 0) throw InputError("a credit must stand for at least one flit");
  if (!router_.sl2vl.empty() && router_.sl2vl.size() < nic_.service_levels)
    throw InputError("the SL2VL table maps " + std::to_string(router_.sl2vl.size()) + " service levels; the traffic uses " +
                     std::to_string(nic_.service_levels));
  lanes_ = router_.qos_lanes();
  // With service channels, VLs may be shared by SLs: map_lanes checks each SL's SCs and VLs instead.
  if (vcs_ == 0 || (router_.sl2sc.empty() && vcs_ < lanes_ * scheme_.classes))
    throw InputError("the " + scheme_.name() + " virtual-channel scheme needs " + std::to_string(scheme_.classes) +
                     " class(es) per QoS lane and the SL2VL table uses " + std::to_string(lanes_) + " lane(s): at least " +
                     std::to_string(lanes_ * scheme_.classes) + " virtual channels are needed; the switch has " +
                     std::to_string(vcs_));
  per_group_ = std::max<std::uint32_t>(1, vcs_ / (lanes_ * scheme_.classes));
  map_lanes();
  router_.input.check(vcs_, "the switch's input buffer");
  if (router_.output_buffered()) router_.output.check(vcs_, "the switch's output buffer");
  if (nic_.mtu_bytes.empty()) nic_.mtu_bytes.assign(nic_.service_levels, fabric_.flit_bytes());
  if (nic_.mtu_bytes.size() != nic_.service_levels)
    throw InputError("one MTU per service level is needed: " + std::to_string(nic_.service_levels) + " service levels, " +
                     std::to_string(nic_.mtu_bytes.size()) + " MTUs");
  for (std::uint32_t sl = 0; sl < nic_.service_levels; ++sl) {
    const std::uint32_t packet = ceil_div(std::max<std::uint32_t>(1, nic_.mtu_bytes[sl]), fabric_.flit_bytes());
    const std::uint32_t flits = router_.credit_space(packet);
    // A VC must reserve a whole packet: an empty VC then always takes one, whatever the other VCs
    // hold in the shared pool, which the deadlock-freedom argument needs (virtual_channels.hpp).
    std::uint32_t reserved =
        router_.output_buffered() ? std::min(router_.input.lane_min, router_.output.lane_min) : router_.input.lane_min;
    if (router_.hierarchical()) reserved = std::min(reserved, router_.central.buffer.lane_min);
    if (flits > reserved)
      throw InputError("service level " + std::to_string(sl) + ": packets of " + std::to_string(flits) +
                       " flits" + (flits > packet ? " in whole credits" : "") + " do not fit the " +
                       std::to_string(reserved) + " flits a virtual channel reserves; "
                       "virtual cut-through needs a whole packet to fit (raise the switch's buffer or lower the MTU)");
  }
}

// The VCs of every (lane, deadlock class) group, as CSR, and of every lane. With an SL2VL table
// (vct, ib) the VCs are split evenly: group (lane, class) holds vcs / (lanes x classes) consecutive
// VCs. With service channels (opa) a lane is an SL: its n SCs (ascending from its SL2SC entry) are
// dealt to the C classes in blocks of n / C (any remainder unused), and a group holds those SCs'
// VLs; a packet takes, among them, the one with the most room (Cano-Cano et al. 2024 §3.2: SCs of one
// SL distribute its traffic). A VL may serve several SLs but only one class, so the classes'
// ordering, which the deadlock argument rests on, holds.
void PacketSim::map_lanes() {
  LaneVcs lanes(lanes_);
  map_groups(lanes);
  lane_offset_.assign(1, 0);
  lane_list_.clear();
  for (const auto& vcs : lanes) {
    lane_list_.insert(lane_list_.end(), vcs.begin(), vcs.end());
    lane_offset_.push_back(static_cast<std::uint32_t>(lane_list_.size()));
  }
}

void PacketSim::map_groups(LaneVcs& lanes) {
  const std::uint32_t classes = scheme_.classes;
  const std::uint32_t groups = lanes_ * classes;
  group_offset_.assign(groups + 1, 0);
  group_vcs_.clear();
  if (router_.sl2sc.empty()) {
    for (std::uint32_t g = 0; g < groups; ++g) {
      for (std::uint32_t v = g * per_group_; v < (g + 1) * per_group_; ++v) {
        group_vcs_.push_back(v);
        lanes[g / classes].push_back(v);
      }
      group_offset_[g + 1] = static_cast<std::uint32_t>(group_vcs_.size());
    }
    return;
  }
  std::vector<std::uint32_t> class_of_vl(vcs_, kNone);
  for (std::uint32_t sl = 0; sl < lanes_; ++sl) {
    const std::uint32_t scs = router_.service_channels(sl);
    if (scs < classes)
      throw InputError("the " + scheme_.name() + " virtual-channel scheme needs " + std::to_string(classes) +
                       " service channels (SCs) per SL and SL " + std::to_string(sl) + " has " + std::to_string(scs) +
                       " (its SCs: SC2SL entries equal to " + std::to_string(sl) + " from its SL2SC entry on, SC " +
                       std::to_string(RouterConfig::kReservedSc) + " excepted)");
    const std::uint32_t block = scs / classes;
    for (std::uint32_t c = 0; c < classes; ++c) {
      for (std::uint32_t k = c * block; k < (c + 1) * block; ++k)
        add_service_channel(sl, c, router_.service_channel(sl, k), class_of_vl, lanes);
      group_offset_[sl * classes + c + 1] = static_cast<std::uint32_t>(group_vcs_.size());
    }
  }
}

void PacketSim::add_service_channel(std::uint32_t sl, std::uint32_t cls, std::uint32_t sc,
                                    std::vector<std::uint32_t>& class_of_vl, LaneVcs& lanes) {
  const std::uint32_t vl = router_.sc2vl[sc];
  if (vl >= vcs_)
    throw InputError("SC2VL maps SC " + std::to_string(sc) + " to VL " + std::to_string(vl) + "; the switch has " +
                     std::to_string(vcs_) + " VLs");
  if (class_of_vl[vl] != kNone && class_of_vl[vl] != cls)
    throw InputError("VL " + std::to_string(vl) + " serves deadlock classes " + std::to_string(class_of_vl[vl]) + " and " +
                     std::to_string(cls) + " (through SC " + std::to_string(sc) +
                     "); each VL may serve one class only, or the classes no longer break the dependency cycles");
  class_of_vl[vl] = cls;
  const auto first = group_vcs_.begin() + group_offset_[sl * scheme_.classes + cls];
  if (std::find(first, group_vcs_.end(), vl) == group_vcs_.end()) group_vcs_.push_back(vl);
  auto& list = lanes[sl];
  if (std::find(list.begin(), list.end(), vl) == list.end()) list.push_back(vl);
}

void PacketSim::make_islip_state() {
  if (router_.output_buffered()) throw InputError("iSLIP is an allocator of the input-queued vct switch");
  grant_stamp_.assign(fabric_.num_channels(), 0);
  matched_.assign(fabric_.num_channels(), ~Cycle{0});
  accept_rr_.assign(fabric_.num_channels(), 0);
}

void PacketSim::make_output_buffers() {
  const std::uint64_t slots = static_cast<std::uint64_t>(fabric_.num_channels()) * vcs_;
  out_queues_.assign(slots, Queue{});
  out_space_ = SharedBuffers(fabric_.num_channels(), vcs_, router_.output);
  if (router_.xbar_speedup == 0) throw InputError("the crossbar speedup must be at least 1");
  xbar_free_.assign(static_cast<std::size_t>(fabric_.num_channels()) * router_.xbar_speedup, 0);
  out_waiting_.assign(fabric_.num_channels(), 0);
  lane_rr_.assign(fabric_.num_channels(), 0);
  schedulers_.resize(fabric_.num_channels());
  if (!router_.scheduler) throw std::logic_error("PacketSim: an output-buffered switch needs an output scheduler");
  for (ChannelId c = 0; c < fabric_.num_channels(); ++c)
    if (!fabric_.is_nic(fabric_.src(c)))
      schedulers_[c] = router_.scheduler({lanes_, fabric_.clock_ns(), fabric_.flits_per_cycle(c) * fabric_.flit_bytes()});
  offer_queued_.assign(lanes_, 0);
  offer_ready_.assign(lanes_, 0);
  offer_size_.assign(lanes_, 0);
  offer_vc_.assign(lanes_, kNone);
}

void PacketSim::record_injection(Cycle bucket) {
  if (bucket == 0) throw std::logic_error("PacketSim::record_injection: a bucket of 0 cycles");
  stats_.injection_bucket = bucket;
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
  q.flits += packets_[p].space;
}

std::uint32_t PacketSim::pop(Queue& q) {
  const std::uint32_t p = q.head;
  q.head = packets_[p].next;
  if (q.head == kNone) q.tail = kNone;
  q.flits -= packets_[p].space;
  return p;
}

void PacketSim::schedule(Cycle time, std::uint32_t kind, std::uint32_t a, std::uint32_t b) {
  events_.push(now_, {time, kind, a, b});
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
  if (m.route == kNone && paths_.num_flows() == 0)
    throw std::logic_error("PacketSim::send: without a path table, a message names its route");
  if (m.route != kNone ? m.route >= routes_.num_routes() : !paths_.routed(m.src * n + m.dst))
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
  s.packets_left = s.packets_to_inject = s.packets_to_eject = 0;
  s.arrival = 0;
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
  std::uint32_t var = s.m.route != kNone ? s.m.route : paths_.first_var(f);
  if (s.m.route == kNone && paths_.end_var(f) - var > 1) {
    double x = rng_.uniform(), total = 0;
    for (std::uint32_t v = var; v < paths_.end_var(f); ++v) total += paths_.split(v);
    x *= total;
    for (; var + 1 < paths_.end_var(f); ++var) {
      x -= paths_.split(var);
      if (x < 0) break;
    }
  }
  const std::uint64_t mtu = nic_.mtu_bytes[s.m.sl];
  // Its deadlock class on the injection channel: 0 for a NIC's own messages; a hybrid segment's
  // packets from a cable of an outside router start at the hops made before it (ChannelRoutes).
  VcState start;
  start.hops = routes_.first_hops(var);
  VcState on_injection = start;
  const ChannelId inject = routes_.at(routes_.begin(var));
  const std::uint32_t cls = enter(scheme_, on_injection, inject, fabric_.between_routers(inject));
  Queue& q = injection_queue(s.m.src, s.m.sl, cls);
  nic_classes_[s.m.src] = std::max(nic_classes_[s.m.src], cls + 1);
  for (std::uint64_t left = s.m.bytes; left > 0;) {
    const std::uint64_t bytes = std::min(left, mtu);
    left -= bytes;
    const std::uint32_t p = new_packet();
    Packet& pk = packets_[p];
    pk.message = index;
    pk.hop = routes_.begin(var);
    pk.flits = ceil_div(static_cast<std::uint32_t>(bytes), fabric_.flit_bytes());
    pk.space = router_.credit_space(pk.flits);
    pk.vc = 0;
    pk.lane = !router_.sl2sc.empty() ? s.m.sl : router_.sl2vl.empty() ? 0 : router_.sl2vl[s.m.sl];
    pk.vc_state = start;
    pk.ready = std::max(now_, s.generated) + router_.nic_delay;
    pk.tail = pk.ready;
    push(q, p);
    ++s.packets_left;
    ++s.packets_to_inject;
    ++s.packets_to_eject;
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
    if (!app_queue_[k].empty()) return false;
    for (std::uint32_t cls = 0; cls < nic_classes_[e]; ++cls)
      if (injection_queue(e, sl, cls).head != kNone) return false;
  }
  return true;
}

// The packet's VC group on channel `out`: its QoS lane (by its SL) and its deadlock class there.
std::uint32_t PacketSim::lane_group(std::uint32_t p, ChannelId out) const {
  VcState state = packets_[p].vc_state;
  const std::uint32_t cls = enter(scheme_, state, out, fabric_.between_routers(out));
  return packets_[p].lane * scheme_.classes + cls;
}

// A NIC has room for whatever arrives; elsewhere the VC's buffer must hold the whole packet.
bool PacketSim::downstream_fits(ChannelId out, std::uint32_t vc, std::uint32_t flits) const {
  return absorbs(out) || credits_.fits(out, vc, flits);
}

// The VC of the packet's group on `out` with the most room that fits it in `space` at `port` (kNone:
// `out` itself; a hierarchical switch's central buffer is counted per MPort), or kNone.
std::uint32_t PacketSim::pick_vc(std::uint32_t p, ChannelId out, const SharedBuffers& space, std::size_t port) const {
  const std::uint32_t group = lane_group(p, out);
  const std::uint32_t* first = group_vcs_.data() + group_offset_[group];
  const std::uint32_t* last = group_vcs_.data() + group_offset_[group + 1];
  if (&space == &credits_ && absorbs(out)) return *first;
  if (port == kNone) port = out;
  std::uint32_t best = kNone, best_room = packets_[p].space - 1;
  for (; first != last; ++first)
    if (const std::uint32_t v = *first; space.room(port, v) > best_room) {
      best = v;
      best_room = space.room(port, v);
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
  stats_.channel_busy[out] += tail_leaves + 1 - start;
  last_progress_ = now_;
  const ElementId next = fabric_.dst(out);
  const bool absorbed = absorbs(out);
  if (!absorbed) credits_.take(out, out_vc, pk.space);  // throws if it does not fit
  enter(scheme_, pk.vc_state, out, fabric_.between_routers(out));
  pk.vc = out_vc;
  pk.hop++;
  stats_.flit_hops += pk.flits;
  if (start >= stats_.window_start && start < stats_.window_end) stats_.channel_flits[out] += pk.flits;
  const Cycle head_arrives = start + fabric_.latency(out);
  pk.tail = tail_leaves + fabric_.latency(out);
  if (absorbed) {
    schedule(pk.tail, kDelivery, p, 0);
    MessageState& m = messages_[pk.message];
    m.arrival = std::max(m.arrival, pk.tail);
    if (--m.packets_to_eject == 0 && on_arrival_known) on_arrival_known(m.id, m.arrival);
    return tail_leaves;
  }
  if (fabric_.is_nic(next)) {
    pk.ready = pk.tail;  // a held ejection: it may leave once its tail is in
  } else {
    pk.ready = head_arrives + router_.pipeline();
    pk.out = routes_.at(pk.hop);  // looked up once per hop, not at every allocation attempt
  }
  Queue& q = queues_[out * vcs_ + out_vc];
  const bool first = q.head == kNone;
  push(q, p);
  input_held_[out] += pk.space;
  stats_.channel_peak[out] = std::max(stats_.channel_peak[out], input_held_[out]);
  ++queued_at_[next];
  if (!fabric_.is_nic(next)) {
    activate(next);
  } else if (first) {  // a held ejection's new head
    wake_for_head(out, out_vc, pk.ready);
  }
  return tail_leaves;
}

// A packet's tail has left input VC (in, vc) at `tail_left`: its credits go back upstream.
void PacketSim::free_input(ChannelId in, std::uint32_t vc, std::uint32_t flits, Cycle tail_left) {
  schedule(tail_left + 1 + router_.credit_delay + fabric_.latency(in), kCredit, in * vcs_ + vc, flits);
}

// vct: a router's granted packet leaves input channel `in` through the crossbar onto `out`: the
// input port is busy while its flits leave, and their credits go back upstream once the tail has.
void PacketSim::forward(ChannelId in, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc,
                        Cycle t) {
  Queue& q = queues_[in * vcs_ + vc];
  if (q.head != p) throw std::logic_error("packet engine: a packet left from the middle of its queue");
  pop(q);
  --queued_at_[fabric_.dst(in)];
  const std::uint32_t space = packets_[p].space;
  input_held_[in] -= space;
  const Cycle tail_leaves = transmit(p, out, out_vc, t + router_.xbar_delay, packets_[p].tail);
  // The crossbar is pipelined: the input port may be granted again as soon as its last flit enters
  // the crossbar, xbar_delay cycles before it leaves on the output channel.
  input_free_[in] = tail_leaves + 1 - router_.xbar_delay;
  free_input(in, vc, space, tail_leaves);
}

// ib (X stage): a granted packet crosses from input VC (in, vc) into VC out_vc of output buffer
// `out`, at the output channel's rate; its head is there xbar_delay cycles after the grant and may
// be scheduled from then (cut-through), its tail once it has left the input buffer.
void PacketSim::cross(ChannelId in, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc) {
  Queue& q = queues_[in * vcs_ + vc];
  if (q.head != p) throw std::logic_error("packet engine: a packet left from the middle of its queue");
  pop(q);
  Packet& pk = packets_[p];
  input_held_[in] -= pk.space;
  const Cycle tail_in = std::max(now_ + ceil_div(pk.flits, fabric_.flits_per_cycle(out)) - 1, pk.tail);
  input_free_[in] = tail_in + 1;
  Cycle* port = &xbar_free_[static_cast<std::size_t>(out) * router_.xbar_speedup];
  while (*port > now_) ++port;  // a free write port: the grant counted them
  *port = tail_in + 1;
  free_input(in, vc, pk.space, tail_in);
  out_space_.take(out, out_vc, pk.space);  // throws if it does not fit
  pk.vc = out_vc;
  pk.ready = now_ + router_.xbar_delay + router_.output_delay;
  pk.tail = tail_in + router_.xbar_delay;
  Queue& oq = out_queues_[out * vcs_ + out_vc];
  push(oq, p);
  ++out_waiting_[out];
  stats_.output_peak[out] = std::max(stats_.output_peak[out], out_space_.total(out));
  last_progress_ = now_;
}

// ib (OB stage): the output port's scheduler picks a QoS lane among those whose head packet is
// OB-ready and fits downstream; within the lane, its VCs take turns. The output buffer's space is
// freed when the tail has left.
void PacketSim::send_from_output(ChannelId out) {
  if (out_waiting_[out] == 0 || channel_free_[out] > now_) return;
  if (offer_lanes(out) == 0) return;
  const std::uint32_t lane = schedulers_[out]->next({offer_queued_, offer_ready_, offer_size_, now_});
  if (lane == kNone || lane >= lanes_ || !offer_ready_[lane])
    throw std::logic_error("packet engine: an output scheduler chose a lane that cannot send");
  const std::uint32_t vc = offer_vc_[lane];
  const std::uint32_t p = pop(out_queues_[out * vcs_ + vc]);
  --out_waiting_[out];
  --queued_at_[fabric_.src(out)];
  lane_rr_[out] = vc + 1;
  const std::uint32_t space = packets_[p].space;
  const Cycle tail_leaves = transmit(p, out, vc, now_, packets_[p].tail);
  schedule(tail_leaves + 1, kOutputFree, out * vcs_ + vc, space);
}

// Fills the lane offer of output `out`; returns the number of lanes that can send.
std::uint32_t PacketSim::offer_lanes(ChannelId out) {
  std::uint32_t ready = 0;
  const std::uint32_t unit = schedulers_[out]->unit_bytes();
  for (std::uint32_t lane = 0; lane < lanes_; ++lane) {
    offer_queued_[lane] = offer_ready_[lane] = 0;
    offer_vc_[lane] = kNone;
    const std::uint32_t* vcs = lane_list_.data() + lane_offset_[lane];
    const std::uint32_t group = lane_offset_[lane + 1] - lane_offset_[lane];
    for (std::uint32_t k = 0; k < group; ++k) {
      const std::uint32_t vc = vcs[(lane_rr_[out] + k) % group];
      const std::uint32_t p = out_queues_[out * vcs_ + vc].head;
      if (p == kNone || packets_[p].lane != lane) continue;  // a VL shared by SLs: its head is another SL's
      offer_queued_[lane] = 1;
      if (packets_[p].ready > now_) continue;
      if (!downstream_fits(out, vc, packets_[p].space)) {
        ++stats_.credit_stalls;
        ++stats_.channel_credit_stalls[out];
        continue;
      }
      const std::uint64_t flits = packets_[p].flits;
      offer_ready_[lane] = 1;
      offer_vc_[lane] = vc;
      offer_size_[lane] = static_cast<std::uint32_t>(unit ? (flits * fabric_.flit_bytes() + unit - 1) / unit : flits);
      ++ready;
      break;
    }
  }
  return ready;
}

void PacketSim::count_injection(std::uint32_t flits) {
  const std::uint64_t bucket = now_ / stats_.injection_bucket;
  auto& counts = stats_.injected_flits;
  if (counts.empty() || counts.back().first != bucket) counts.emplace_back(bucket, 0);
  counts.back().second += flits;
}

// One cycle of a NIC: round robin over its service levels, the first ready packet that fits; within
// a service level, a queue per deadlock class in class order (only class 0 holds packets but at a
// hybrid zoom's boundary, where one cable carries packets of several classes, as a router's output
// with its VCs would).
void PacketSim::step_nic(EndpointId e) {
  const ChannelId c = fabric_.injection(e);
  if (channel_free_[c] > now_) return;
  const std::uint32_t sls = nic_.service_levels;
  const std::uint32_t classes = nic_classes_[e];  // 1 but at a hybrid zoom's boundary
  for (std::uint32_t k = 0; k < sls * classes; ++k) {
    const std::uint32_t sl = classes == 1 ? (sl_rr_[e] + k) % sls : (sl_rr_[e] + k / classes) % sls;
    const std::uint32_t cls = classes == 1 ? 0 : k % classes;
    Queue& q = injection_queue(e, sl, cls);
    const std::uint32_t p = q.head;
    if (p == kNone || packets_[p].ready > now_) continue;
    const std::uint32_t vc = pick_vc(p, c, credits_);
    if (vc == kNone) {
      ++stats_.credit_stalls;
      ++stats_.channel_credit_stalls[c];
      continue;
    }
    pop(q);
    MessageState& m = messages_[packets_[p].message];
    injection_bytes_[e * sls + sl] -= std::uint64_t{packets_[p].flits} * fabric_.flit_bytes();
    if (m.injected == ~Cycle{0}) m.injected = now_;
    const std::uint32_t flits = packets_[p].flits;
    const Cycle tail_left = transmit(p, c, vc, now_, now_) + 1;
    if (stats_.injection_bucket > 0) count_injection(flits);
    if (--m.packets_to_inject == 0 && on_injected) on_injected(m.id, tail_left);
    sl_rr_[e] = sl + 1;
    refill_nic(e);
    return;
  }
}

void PacketSim::hold_ejection(EndpointId e) {
  if (e >= fabric_.num_nics()) throw std::logic_error("PacketSim::hold_ejection: no such NIC");
  if (total_sent_ > 0) throw std::logic_error("PacketSim::hold_ejection: after the first send");
  held_.resize(fabric_.num_nics(), 0);
  held_[e] = 1;
  head_since_.resize(static_cast<std::size_t>(fabric_.num_channels()) * vcs_, 0);
  wake_at_.resize(head_since_.size(), 0);
}

// A held ejection's step: per VC, its head packet leaves when its tail is in (by the next cycle) and
// its pacer allows; it is delivered when it leaves, and its credits go back upstream. The NIC is not
// stepped while it waits: each head wakes it (a kWake event) at the cycle it can leave.
void PacketSim::release_held(EndpointId e) {
  const ChannelId c = fabric_.ejection(e);
  for (std::uint32_t v = 0; v < vcs_; ++v) {
    Queue& q = queues_[c * vcs_ + v];
    const std::uint32_t p = q.head;
    if (p == kNone) continue;
    const Cycle wake = held_wake(p);
    if (wake > now_) {  // woken early (its pacer moved on since): once more, if not already asked for
      if (wake_at_[c * vcs_ + v] != wake) {
        wake_at_[c * vcs_ + v] = wake;
        schedule(wake, kWake, fabric_.nic(e), 0);
      }
      continue;
    }
    const Cycle leaves = std::max(now_ + 1, packets_[p].ready);
    MessageState& m = messages_[packets_[p].message];
    if (m.m.pacer != kNone) {
      Pacer& pace = pacers_[m.m.pacer];
      pace.held += leaves - std::max(packets_[p].ready, head_since_[c * vcs_ + v]);  // cycles it waited at the head
      const bool paced = pace.rate > 0 && std::isfinite(pace.rate);
      pace.next = paced ? std::max(pace.next, static_cast<double>(leaves)) + packets_[p].flits / pace.rate : 0.0;
    }
    pop(q);
    --queued_at_[fabric_.nic(e)];
    input_held_[c] -= packets_[p].space;
    free_input(c, v, packets_[p].space, leaves - 1);
    last_progress_ = now_;
    schedule(leaves, kDelivery, p, 0);
    m.arrival = std::max(m.arrival, leaves);
    if (--m.packets_to_eject == 0 && on_arrival_known) on_arrival_known(m.id, m.arrival);
    if (q.head != kNone) wake_for_head(c, v, leaves);  // the next one's turn
  }
}

// A held ejection's VC (c, v) has a new head packet, at its head since `since`: its NIC is woken in the
// cycle it can leave.
void PacketSim::wake_for_head(ChannelId c, std::uint32_t v, Cycle since) {
  const std::size_t k = std::size_t{c} * vcs_ + v;
  head_since_[k] = since;
  wake_at_[k] = std::max(now_ + 1, held_wake(queues_[k].head));
  schedule(wake_at_[k], kWake, fabric_.dst(c), 0);
}

// The cycle in which a held ejection's head packet can leave (it leaves at the next): its tail is in
// by then, and its pacer's gap since the previous packet is over.
Cycle PacketSim::held_wake(std::uint32_t p) const {
  Cycle wake = packets_[p].ready > 0 ? packets_[p].ready - 1 : 0;
  const std::uint32_t pacer = messages_[packets_[p].message].m.pacer;
  if (pacer != kNone && pacers_[pacer].next > 0)
    wake = std::max(wake, static_cast<Cycle>(std::ceil(pacers_[pacer].next)) - 1);
  return wake;
}

// One cycle of a router: an output-buffered switch first sends from its output buffers (OB); then
// the separable input-first allocation (VA-SA) and the crossing of the granted packets (X).
void PacketSim::step_router(ElementId r) {
  if (router_.output_buffered())
    for (const ChannelId out : fabric_.outputs(r)) send_from_output(out);
  if (router_.hierarchical()) step_central(r);
  collect_requests(r);
  grant_requests(r);
}

// Input arbiters: each free input port offers, round robin over its VCs, the first head packet that
// is ready and whose target (the output channel and the VC downstream for vct; the crossbar output
// and the output buffer's VC for ib) can take it.
void PacketSim::collect_requests(ElementId r) {
  requests_.clear();
  const bool buffered = router_.output_buffered();
  const auto inputs = fabric_.inputs(r);
  for (std::uint32_t i = 0; i < inputs.size(); ++i) {
    const ChannelId in = inputs[i];
    if (input_free_[in] > now_ || input_held_[in] == 0) continue;
    std::uint32_t v = vc_rr_[in] < vcs_ ? vc_rr_[in] : 0;  // round robin from the VC after the last granted
    for (std::uint32_t k = 0; k < vcs_; ++k, v = v + 1 == vcs_ ? 0 : v + 1) {
      const std::uint32_t p = queues_[in * vcs_ + v].head;
      if (p == kNone || packets_[p].ready > now_) continue;
      const ChannelId out = packets_[p].out;
      if (router_.hierarchical() && crosses_central(in, out)) {  // into its MPort's central buffer
        const std::uint32_t mport = in_mport_[in];
        if (free_central_link(mport) == kNone) continue;
        const std::uint32_t central_vc = pick_vc(p, out, central_space_, mport);
        if (central_vc == kNone) {
          ++stats_.credit_stalls;
          continue;
        }
        requests_.push_back({in, v, p, out, central_vc, i, mport});
        break;
      }
      if (buffered ? free_xbar_ports(out) == 0 : channel_free_[out] > now_ + router_.xbar_delay) continue;
      const std::uint32_t out_vc = pick_vc(p, out, buffered ? out_space_ : credits_);
      if (out_vc == kNone) {
        if (!buffered) ++stats_.channel_credit_stalls[out];
        ++stats_.credit_stalls;
        continue;
      }
      if (router_.islip_iterations > 0 && has_request(in, out)) continue;  // one request per input and output
      requests_.push_back({in, v, p, out, out_vc, i});
      if (router_.islip_iterations == 0) break;  // separable: one request per input
    }
  }
}

bool PacketSim::has_request(ChannelId in, ChannelId out) const {
  for (auto q = requests_.rbegin(); q != requests_.rend() && q->in == in; ++q)
    if (q->out == out) return true;
  return false;
}

// iSLIP (McKeown 1999): every input requests every output it has a ready head packet for; each
// output grants the requesting input next after its grant pointer; each input accepts the granting
// output next after its accept pointer. Unmatched inputs and outputs try again for `iterations`
// rounds; pointers move (one past the match) only on a first-round acceptance, which is what
// desynchronises them.
void PacketSim::grant_islip(ElementId r) {
  const auto degree = static_cast<std::uint32_t>(fabric_.inputs(r).size());
  const auto out_degree = static_cast<std::uint32_t>(fabric_.outputs(r).size());
  const auto order = [&](const Request& q) { return (q.position + degree - out_rr_[q.out] % degree) % degree; };
  const auto accept_order = [&](const Request& q) {
    return (fabric_.output_position(q.out) + out_degree - accept_rr_[q.in] % out_degree) % out_degree;
  };
  for (std::uint32_t round = 0; round < router_.islip_iterations; ++round) {
    const Cycle stamp = ++alloc_stamp_;
    for (std::uint32_t i = 0; i < requests_.size(); ++i) {  // grant
      const Request& q = requests_[i];
      if (matched_[q.in] == now_ || grant_cycle_[q.out] == now_) continue;
      if (grant_stamp_[q.out] != stamp || order(q) < order(requests_[grant_of_[q.out]])) {
        grant_stamp_[q.out] = stamp;
        grant_of_[q.out] = i;
      }
    }
    bool any = false;
    for (std::uint32_t i = 0; i < requests_.size(); ++i) {  // accept: requests of one input are adjacent
      const Request& q = requests_[i];
      if (matched_[q.in] == now_ || grant_stamp_[q.out] != stamp || grant_of_[q.out] != i) continue;
      std::uint32_t best = i;
      for (std::uint32_t j = i + 1; j < requests_.size() && requests_[j].in == q.in; ++j)
        if (grant_stamp_[requests_[j].out] == stamp && grant_of_[requests_[j].out] == j &&
            accept_order(requests_[j]) < accept_order(requests_[best]))
          best = j;
      const Request chosen = requests_[best];
      matched_[chosen.in] = now_;
      grant_cycle_[chosen.out] = now_;
      const std::uint32_t keep_rr = out_rr_[chosen.out];
      grant(chosen);
      if (round == 0)
        accept_rr_[chosen.in] = fabric_.output_position(chosen.out) + 1;
      else
        out_rr_[chosen.out] = keep_rr;
      any = true;
    }
    if (!any) break;
  }
}

std::uint32_t PacketSim::free_xbar_ports(ChannelId out) const {
  const std::size_t first = static_cast<std::size_t>(out) * router_.xbar_speedup;
  std::uint32_t free = 0;
  for (std::size_t k = first; k < first + router_.xbar_speedup; ++k) free += xbar_free_[k] <= now_;
  return free;
}

// Output arbiters: each output grants, round robin over the input ports, one request (or, for an
// output-buffered switch with a crossbar speedup, as many as its write ports are free); the granted
// packets cross.
void PacketSim::grant_requests(ElementId r) {
  const auto degree = static_cast<std::uint32_t>(fabric_.inputs(r).size());
  const auto order = [&](const Request& q) { return (q.position + degree - out_rr_[q.out] % degree) % degree; };
  if (router_.output_buffered() && router_.xbar_speedup > 1) return grant_several(order);
  if (router_.islip_iterations > 0) return grant_islip(r);
  if (router_.hierarchical()) grant_central_requests();
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    const Request& q = requests_[i];
    if (q.mport != kNone) continue;
    if (grant_cycle_[q.out] != now_ || order(q) < order(requests_[grant_of_[q.out]])) {
      grant_cycle_[q.out] = now_;
      grant_of_[q.out] = i;
    }
  }
  for (std::uint32_t i = 0; i < requests_.size(); ++i) {
    const Request& q = requests_[i];
    if (q.mport == kNone && grant_of_[q.out] == i) grant(q);
  }
}

template <class Order>
void PacketSim::grant_several(const Order& order) {
  std::sort(requests_.begin(), requests_.end(), [&](const Request& a, const Request& b) {
    return a.out != b.out ? a.out < b.out : order(a) < order(b);
  });
  std::uint32_t left = 0;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    Request q = requests_[i];
    const bool first = i == 0 || q.out != requests_[i - 1].out;
    if (first) left = free_xbar_ports(q.out);
    if (left == 0) continue;
    if (!first) {
      q.out_vc = pick_vc(q.packet, q.out, out_space_);  // an earlier grant this cycle took space
      if (q.out_vc == kNone) continue;
    }
    --left;
    grant(q);
  }
}

void PacketSim::grant(const Request& q) {
  if (router_.output_buffered())
    cross(q.in, q.vc, q.packet, q.out, q.out_vc);
  else
    forward(q.in, q.vc, q.packet, q.out, q.out_vc, now_);
  vc_rr_[q.in] = q.vc + 1;
  out_rr_[q.out] = q.position + 1;
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
  events_.take_due(now_, [this](const Event& e) {
    if (e.kind == kCredit)
      credits_.give(e.a / vcs_, e.a % vcs_, e.b);  // throws if more come back than were taken
    else if (e.kind == kOutputFree)
      out_space_.give(e.a / vcs_, e.a % vcs_, e.b);
    else if (e.kind == kCentralFree)
      central_space_.give(e.a / vcs_, e.a % vcs_, e.b);
    else if (e.kind == kWake)
      activate(e.a);
    else
      deliver(e.a, e.time);
  });
  while (!pending_sends_.empty() && pending_sends_.top().first <= now_) {
    const std::uint32_t index = pending_sends_.top().second;
    pending_sends_.pop();
    const EndpointId src = messages_[index].m.src;
    app_queue_[src * nic_.service_levels + messages_[index].m.sl].push_back(index);
    if (on_generated) on_generated(messages_[index].id);
    ++app_queued_;
    stats_.app_queue_peak = std::max(stats_.app_queue_peak, app_queued_);
    refill_nic(src);
  }
}

Cycle PacketSim::next_wakeup() const {
  Cycle t = events_.next_time(now_);
  if (!pending_sends_.empty()) t = std::min(t, pending_sends_.top().first);
  return t;
}

void PacketSim::step() {
  process_events();
  const std::size_t count = active_.size();
  for (std::size_t i = 0; i < count; ++i) {
    const ElementId e = active_[i];
    if (fabric_.is_nic(e)) {
      const EndpointId n = e - fabric_.num_routers();
      if (!held_.empty() && held_[n]) release_held(n);
      step_nic(n);
    } else
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
      last_progress_ = std::max(last_progress_, now_);  // nothing was waiting to move: not a stall
    }
    step();
    if (pause_) break;
  }
  pause_ = false;
  stats_.cycles = now_;
}

void PacketSim::check_invariants() const {
  const auto fail = [](const std::string& what) { throw std::logic_error("packet engine invariant: " + what); };
  if (total_sent_ != total_delivered_ + messages_live_) fail("messages sent != delivered + in the system");
  if (packets_.size() != free_packets_.size() + packets_in_network_) fail("packets lost or duplicated");
  const std::size_t slots = static_cast<std::size_t>(fabric_.num_channels()) * vcs_;
  std::vector<std::int64_t> returning(slots, 0), releasing(router_.output_buffered() ? slots : 0, 0);
  std::vector<std::int64_t> central_releasing(router_.hierarchical() ? central_space_.used_size() : 0, 0);
  std::uint64_t to_deliver = 0;
  events_.for_each([&](const Event& e) {
    if (e.kind == kCredit)
      returning[e.a] += e.b;
    else if (e.kind == kOutputFree)
      releasing[e.a] += e.b;
    else if (e.kind == kCentralFree)
      central_releasing[e.a] += e.b;
    else if (e.kind == kDelivery)
      ++to_deliver;
  });
  std::uint64_t queued = 0;
  check_buffers(returning, releasing, queued);
  if (router_.hierarchical()) check_central(central_releasing, queued);
  for (const Queue& q : injection_)
    for (std::uint32_t p = q.head; p != kNone; p = packets_[p].next) ++queued;
  if (queued + to_deliver != packets_in_network_)
    fail("packets in queues (" + std::to_string(queued) + ") + to deliver (" + std::to_string(to_deliver) +
         ") != packets in the network (" + std::to_string(packets_in_network_) + ")");
}

// Per channel and VC: the space the sender counts as taken = flits buffered + credits on their way
// back (input buffers), and = flits queued + flits still leaving (output buffers); no buffer above
// its size or a lane above its maximum.
void PacketSim::check_buffers(const std::vector<std::int64_t>& returning, const std::vector<std::int64_t>& releasing,
                              std::uint64_t& queued) const {
  const auto fail = [](const std::string& what) { throw std::logic_error("packet engine invariant: " + what); };
  const auto check_port = [&](const std::vector<Queue>& queues, const SharedBuffers& space,
                              const std::vector<std::int64_t>& pending, ChannelId c, const char* which) {
    std::uint64_t held = 0;
    for (std::uint32_t v = 0; v < vcs_; ++v) {
      const std::size_t k = c * vcs_ + v;
      const Queue& q = queues[k];
      if (q.flits > space.shape().lane_max) fail(std::string(which) + " VC over its maximum on channel " + std::to_string(c));
      if (space.used(c, v) != q.flits + pending[k])
        fail(std::string(which) + " buffer of channel " + std::to_string(c) + " VC " + std::to_string(v) +
             ": taken space != flits held + flits on their way back");
      held += space.used(c, v);
      for (std::uint32_t p = q.head; p != kNone; p = packets_[p].next) ++queued;
    }
    if (held > space.shape().size) fail(std::string(which) + " buffer of channel " + std::to_string(c) + " over its size");
  };
  for (ChannelId c = 0; c < fabric_.num_channels(); ++c) {
    if (!absorbs(c)) check_port(queues_, credits_, returning, c, "input");
    if (router_.output_buffered() && !fabric_.is_nic(fabric_.src(c))) check_port(out_queues_, out_space_, releasing, c, "output");
  }
}

}  // namespace interflow::packet
