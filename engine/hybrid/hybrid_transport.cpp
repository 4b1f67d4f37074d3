#include "engine/hybrid/hybrid_transport.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "engine/packet/packet_transport.hpp"
#include "engine/packet/virtual_channels.hpp"

namespace interflow::hybrid {

namespace {

constexpr packet::Cycle kForever = ~packet::Cycle{0};

flow::FlowTransportOptions with_hook(flow::FlowTransportOptions o, HybridTransport* t,
                                     std::vector<std::uint8_t> (HybridTransport::*hook)(const PathTable&)) {
  o.zoom_links = [t, hook](const PathTable& paths) { return (t->*hook)(paths); };
  return o;
}

double latency_s(const Network& net, std::span<const LinkId> links) {
  double ns = 0;
  for (LinkId l : links) ns += net.latency_ns(l);
  return ns * 1e-9;
}

}  // namespace

HybridTransport::HybridTransport(const Network& net, const Routing& routing, ZoomChooser choose,
                                 const HybridOptions& options)
    : net_(net),
      routing_(routing),
      options_(options),
      choose_(std::move(choose)),
      flow_(net, routing, with_hook(options.flow, this, &HybridTransport::zoom_links)) {
  if (!(options.tolerance >= 0 && options.tolerance < 1))
    throw InputError("zoom tolerance " + std::to_string(options.tolerance) + ": expected 0 <= tolerance < 1");
  if (!(options.epoch_s >= 0) || !std::isfinite(options.epoch_s))
    throw InputError("zoom epoch " + std::to_string(options.epoch_s) + " s: expected a finite time >= 0");
}

// The zoomed routers for these routes, their regions and zoom network, and the flow level's marks:
// 2 inside a region, 1 on its boundary (nothing when no router is zoomed: the flow run exactly).
std::vector<std::uint8_t> HybridTransport::zoom_links(const PathTable& paths) {
  map_ = find_regions(net_, choose_(*messages_, paths));
  if (map_.regions.empty()) return {};
  zoom_ = std::make_unique<ZoomNetwork>(net_, map_, options_.local);
  fabric_ = std::make_unique<packet::Fabric>(zoom_->network(), options_.clock, options_.local);
  mark_router_cables();
  clock_s_ = fabric_->clock_ns() * 1e-9;
  std::vector<std::uint8_t> marks(net_.num_links(), 0);
  for (const Region& r : map_.regions) {
    for (LinkId l : r.inner) marks[l] = 2;
    for (LinkId l : r.ingress) marks[l] = 1;
    for (LinkId l : r.egress) marks[l] = 1;
  }
  return marks;
}

HybridTransport::~HybridTransport() = default;

void HybridTransport::open(const MessageTable& messages, TransportResult& result) {
  messages_ = &messages;
  r_ = &result;
  flow_.open(messages, result);
  if (!fabric_) return;  // nothing zoomed: the flow transport alone
  nic_ = packet::nic_config_for(messages, options_.mtu_bytes, fabric_->flit_bytes(), options_.injection_queue_bytes);
  msg_.assign(messages.size(), MessageState{});
  plan_segments();
  scheme_ = choose_zoom_scheme();
  sim_ = std::make_unique<packet::PacketSim>(*fabric_, no_pairs_, routes_, scheme_, options_.router, nic_,
                                             options_.flow.seed);
  sim_->set_stall_limit(options_.stall_limit);
  if (options_.held_exits) hold_exits();
  sim_->on_injected = [this](std::uint64_t id, packet::Cycle c) { injected(id, c); };
  sim_->on_generated = [this](std::uint64_t id) { generated(id); };
  sim_->on_arrival_known = [this](std::uint64_t id, packet::Cycle c) { arrival_known(id, c); };
  const std::uint32_t vars = flow_.paths().num_vars();
  emitted_bits_.assign(vars, 0.0);
  emit_ = IndexedMinHeap(vars);
  active_pos_.assign(messages.size(), kNone);
  epoch_s_ = options_.epoch_s > 0 ? options_.epoch_s : default_epoch();
  stats_.epoch_s = epoch_s_;
}

// `--vc-scheme auto` as the packet transport chooses it: whether the routes over the whole network
// have a channel dependency cycle with one virtual-channel class (a dragonfly's minimal routes across
// groups, a torus's rings). The packet transport checks every endpoint pair's route; so does this up to
// kAllPairsCheck pairs, and beyond, the run's own routes (which may have no cycle where all pairs
// would). If so, the zoom runs the hop classes of the full routes, whatever its own segments would
// allow, so that its packets share buffers as in the packet run. A network the packet engine cannot
// lay out as a whole (link rates that are no whole number of flits per cycle at one clock) keeps the
// segments' own choice.
bool HybridTransport::full_routes_cycle() const {
  std::unique_ptr<packet::Fabric> full;
  try {
    full = std::make_unique<packet::Fabric>(net_, options_.clock, options_.local);
  } catch (const InputError&) {
    return false;
  }
  const std::uint64_t n = net_.num_endpoints();
  const bool all_pairs = n * n <= kAllPairsCheck;
  PathTable every;
  FlowSet pairs;
  if (all_pairs) {
    for (EndpointId a = 0; a < n; ++a)
      for (EndpointId b = 0; b < n; ++b)
        if (a != b) pairs.add(a, b);
    every = routing_.route_all(net_, pairs, RouteContext::of(options_.flow.seed, options_.flow.max_path_bytes, nullptr));
  }
  const PathTable& paths = all_pairs ? every : flow_.paths();
  const FlowSet& ends = all_pairs ? pairs : messages_->ends;
  packet::ChannelRoutes routes;
  std::vector<packet::ChannelId> channels;
  for (FlowId f = 0; f < paths.num_flows(); ++f) {
    if (ends.src[f] == ends.dst[f]) continue;
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      full->route(paths, v, ends.src[f], ends.dst[f], channels);
      routes.add(channels, 0);
    }
  }
  return !packet::dependency_cycle(*full, routes, packet::VcScheme{}).empty();
}

// The zoom's virtual-channel scheme: the one asked for; with auto, the full routes' hop classes where
// they need classes (full_routes_cycle) and the switches have enough VCs for them, else the first of
// single and hops that keeps the segments free of deadlock.
packet::VcScheme HybridTransport::choose_zoom_scheme() const {
  const std::uint32_t vcs = options_.router.classes_per_lane();
  if (options_.vc_scheme == "auto" && packet::longest_route(*fabric_, routes_) <= vcs && full_routes_cycle())
    return packet::choose_scheme("hops", *fabric_, zoom_->network(), routes_, {}, vcs, "the zoomed routers");
  return packet::choose_scheme(options_.vc_scheme, *fabric_, zoom_->network(), routes_, {}, vcs, "the zoomed routers");
}

// A boundary endpoint that stands for a cable from or to an outside router: its channels count as
// router-to-router channels for the hop classes, as the cable does in the full network, so that with
// the segments' first hops (plan_segments) every packet is in the class it would have there.
void HybridTransport::mark_router_cables() {
  for (EndpointId b = 0; b < zoom_->network().num_endpoints(); ++b) {
    if (!router_cable(b)) continue;
    fabric_->stands_for_router_link(fabric_->injection(b));
    fabric_->stands_for_router_link(fabric_->ejection(b));
  }
}

// Whether boundary endpoint b stands for a cable from and to an outside router (not for an endpoint).
bool HybridTransport::router_cable(EndpointId b) const {
  const LinkId in = zoom_->ingress_of(b);
  return in != kNone && net_.kind(net_.source(in)) == VertexKind::Switch;
}

// Exits to outside routers stand for the next router's input buffer (its credits, its order per VC),
// and each message from a zoomed router's endpoint has a pacer there (its message id).
void HybridTransport::hold_exits() {
  for (EndpointId b = 0; b < zoom_->network().num_endpoints(); ++b) {
    if (!router_cable(b)) continue;
    sim_->hold_ejection(b);
    ++stats_.held_exits;
  }
  sim_->make_pacers(static_cast<std::uint32_t>(messages_->size()));
}

// Every coupled variable's crossings as segments of the zoom network, with the flow-level latency
// before each and after the last; a coupled message's paths that touch no region are flow-level parts.
void HybridTransport::plan_segments() {
  const PathTable& paths = flow_.paths();
  seg_offset_.assign(1, 0);
  segs_.clear();
  tail_s_.assign(paths.num_vars(), 0.0);
  var_message_.resize(paths.num_vars());
  flow_part_s_.assign(paths.num_flows(), -1.0);
  whole_.assign(paths.num_flows(), 0);
  sourced_.assign(paths.num_flows(), 0);
  std::vector<packet::ChannelId> channels;
  for (FlowId f = 0; f < paths.num_flows(); ++f) {
    const bool coupled = flow_.coupled(f);
    for (std::uint32_t v = paths.first_var(f); v < paths.end_var(f); ++v) {
      var_message_[v] = f;
      const std::span<const LinkId> links = paths.links(v);
      const std::vector<Crossing> cross = coupled ? crossings(net_, map_, links) : std::vector<Crossing>{};
      if (coupled && cross.empty()) flow_part_s_[f] = std::max(flow_part_s_[f], flow_latency_s(links, 0, links.size()));
      std::uint32_t done = 0;  // route links accounted for
      double transit = 0;      // cycles through its segments at zero load
      for (const Crossing& c : cross) {
        zoom_->segment(*fabric_, links, c, messages_->ends.src[f], messages_->ends.dst[f], channels);
        const EndpointId entry = fabric_->src(channels.front()) - fabric_->num_routers();
        const EndpointId exit = fabric_->dst(channels.back()) - fabric_->num_routers();
        if (entry == exit)
          throw InputError("zoom: the route of message " + std::to_string(f) +
                           " leaves a region by the cable it came in by; the hybrid transport cannot carry it");
        std::uint32_t hops = 0;  // router-to-router links before the segment's first, in the full network
        for (std::uint32_t i = 0; i < c.first; ++i)
          hops += net_.kind(net_.source(links[i])) == VertexKind::Switch && net_.kind(net_.target(links[i])) == VertexKind::Switch;
        segs_.push_back({routes_.add(channels, hops), entry, exit, flow_latency_s(links, done, c.first)});
        done = c.last + 1;
        transit += zero_load_cycles(channels, mtu_of(f));
      }
      msg_[f].transit_s = std::max(msg_[f].transit_s, transit * clock_s_);
      if (!cross.empty()) tail_s_[v] = flow_latency_s(links, done, links.size());
      // One route that starts in a region: inside it end to end, a whole message; else from a zoomed
      // router's endpoint out of its region.
      const bool from_region = options_.whole_messages && paths.end_var(f) - paths.first_var(f) == 1 &&
                               !cross.empty() && cross[0].first == 0;
      whole_[f] = from_region && cross.size() == 1 && cross[0].last + 1 == links.size() &&
                  messages_->bytes[f] <= 4294967295.0;
      sourced_[f] = from_region && !whole_[f];
      if (sourced_[f]) flow_.packet_nic(f);  // its NIC is the packet level's
      msg_[f].segments += static_cast<std::uint32_t>(cross.size());
      seg_offset_.push_back(static_cast<std::uint32_t>(segs_.size()));
    }
  }
  stats_.segments = segs_.size();
}

// The flow level's latency over route links [a, b): theirs, and the router delay of every switch
// outside the zoom among the vertices they join (vertex i is link i's source; the last, the route's
// destination). A switch next to a region counts in the span beside it, so that with the segments'
// routers (the packet level's pipelines) every router of the route is counted once.
double HybridTransport::flow_latency_s(std::span<const LinkId> links, std::size_t a, std::size_t b) const {
  double s = latency_s(net_, links.subspan(a, b - a));
  if (options_.flow.router_delay_s == 0) return s;
  std::uint32_t outside = 0;
  for (std::size_t i = a; i <= b; ++i) {
    const VertexId v = i < links.size() ? net_.source(links[i]) : net_.target(links.back());
    outside += net_.kind(v) == VertexKind::Switch && map_.region_of[v] == kNone;
  }
  return s + outside * options_.flow.router_delay_s;
}

// A packet of `bytes` alone on these channels: the NIC's delay and its flits, each channel's latency,
// and each router's pipeline and crossbar (engine/packet/packet_sim.hpp's model).
double HybridTransport::zero_load_cycles(std::span<const packet::ChannelId> channels, std::uint32_t bytes) const {
  const packet::RouterConfig& r = options_.router;
  double cycles = r.nic_delay + packet::ceil_div(bytes, fabric_->flit_bytes());
  for (packet::ChannelId c : channels) cycles += fabric_->latency(c);
  return cycles + static_cast<double>(channels.size() - 1) * (r.pipeline() + r.xbar_delay);
}

// 20 boundary latencies (so that a cap reacts within a few round trips), at least 10 MTU times on
// the slowest boundary cable.
double HybridTransport::default_epoch() const {
  const Network& z = zoom_->network();
  double latency = 0, slowest = kNever;
  for (LinkId l = 0; l < z.num_links(); ++l)
    if (z.kind(z.source(l)) == VertexKind::Endpoint) {
      latency = std::max(latency, static_cast<double>(z.latency_ns(l)) * 1e-9);
      slowest = std::min(slowest, z.capacity_gbps(l));
    }
  const std::uint32_t mtu = *std::max_element(nic_.mtu_bytes.begin(), nic_.mtu_bytes.end());
  const double mtu_s = slowest > 0 && std::isfinite(slowest) ? 8.0 * mtu / (slowest * 1e9) : 0.0;
  return std::max({20 * latency, 10 * mtu_s, 1e-9});
}

bool HybridTransport::start(MessageId m) {
  if (sim_ && whole_[m] && messages_->bytes[m] > 0 && messages_->ends.src[m] != messages_->ends.dst[m])
    return start_whole(m);
  const bool moving = flow_.start(m);
  if (!moving || !sim_ || !flow_.coupled(m)) return moving;
  MessageState& s = msg_[m];
  const std::uint32_t segments = s.segments;
  const double transit = s.transit_s;
  s = MessageState{};
  s.segments = segments;
  s.transit_s = transit;
  s.bytes = static_cast<std::uint64_t>(std::ceil(messages_->bytes[m]));
  ++stats_.coupled_messages;
  active_pos_[m] = static_cast<std::uint32_t>(active_.size());
  active_.push_back(m);
  if (epoch_end_ == kNever) {
    epoch_start_ = now();
    epoch_end_ = now() + epoch_s_;
  }
  const PathTable& paths = flow_.paths();
  for (std::uint32_t v = paths.first_var(m); v < paths.end_var(m); ++v) emitted_bits_[v] = 0;
  if (sourced_[m]) {  // from a hosted endpoint: every packet to its NIC now, as the packet transport does
    ++stats_.sourced_messages;
    emit_all(paths.first_var(m), s.bytes);
  }
  return true;  // its packets are timed once the batch has its rates (end_batch)
}

// A message inside one region: handed whole to its source's boundary endpoint now (no fluid, no cap).
bool HybridTransport::start_whole(MessageId m) {
  const std::uint32_t v = flow_.paths().first_var(m);
  const Segment& g = segs_[seg_offset_[v]];
  const auto bytes = static_cast<std::uint32_t>(std::ceil(messages_->bytes[m]));
  r_->start_s[m] = now();
  pkts_.push_back({v, kWhole, bytes});
  sim_->send({g.entry, g.exit, bytes, messages_->class_of(m), g.route}, packet::cycle_at(now(), clock_s_));
  for (LinkId l : flow_.paths().links(v)) r_->link_bytes[l] += bytes;
  ++whole_in_transfer_;
  ++stats_.whole_messages;
  return true;
}

// When variable v's next full packet has left its source, at its rate of this batch.
void HybridTransport::rekey(std::uint32_t v) {
  const double rate = flow_.var_rate(v);
  if (seg_offset_[v + 1] == seg_offset_[v] || !(rate > 0) || sourced_[message_of(v)]) {
    emit_.erase(v);
    return;
  }
  const double next = emitted_bits_[v] + 8.0 * mtu_of(message_of(v));
  emit_.set(v, now() + std::max(0.0, (next - flow_.var_bits_at(v, now())) / (rate * 1e9)));
}

// Cuts every full packet that has left its source by `target` (rates are constant until then).
void HybridTransport::feed(double target) {
  while (!emit_.empty() && emit_.top_key() <= target) {
    const std::uint32_t v = emit_.top();
    const double t = emit_.top_key();
    const std::uint32_t mtu = mtu_of(message_of(v));
    emit(v, mtu, t);
    emit_.set(v, t + 8.0 * mtu / (flow_.var_rate(v) * 1e9));
  }
}

// A packet of variable v whose last bit left its source at `left_source`: into its first segment.
void HybridTransport::emit(std::uint32_t v, std::uint64_t bytes, double left_source) {
  const MessageId m = message_of(v);
  MessageState& s = msg_[m];
  emitted_bits_[v] += 8.0 * static_cast<double>(bytes);
  s.offered += bytes;
  s.emitted_bytes += bytes;
  ++s.packets;
  ++stats_.packets;
  stats_.packet_bytes += bytes;
  hand(v, 0, static_cast<std::uint32_t>(bytes), left_source + segs_[seg_offset_[v]].lead_s);
}

// `bytes` of variable v cut into packets of its MTU, all left their source now.
void HybridTransport::emit_all(std::uint32_t v, std::uint64_t bytes) {
  const std::uint32_t mtu = mtu_of(message_of(v));
  for (std::uint64_t left = bytes; left > 0;) {
    const std::uint64_t packet = std::min<std::uint64_t>(left, mtu);
    emit(v, packet, now());
    left -= packet;
  }
}

void HybridTransport::hand(std::uint32_t v, std::uint32_t segment, std::uint32_t bytes, double at) {
  const Segment& g = segs_[seg_offset_[v] + segment];
  const MessageId m = message_of(v);
  pkts_.push_back({v, segment, bytes});
  const std::uint32_t pacer = options_.held_exits && segment == 0 && sourced_[m] ? static_cast<std::uint32_t>(m) : kNone;
  sim_->send({g.entry, g.exit, bytes, messages_->class_of(m), g.route, pacer}, packet::cycle_at(at, clock_s_));
  msg_[m].handed += bytes;
}

void HybridTransport::take_sent(double horizon, std::vector<MessageId>& sent) {
  const std::size_t before = sent.size();
  flow_.take_sent(horizon, sent);
  if (!sim_) return;
  const std::size_t fluid_end = sent.size();
  while (!sent_.empty() && sent_.top().time <= horizon) {  // whole messages
    sent.push_back(sent_.top().message);
    sent_.pop();
    --whole_in_transfer_;
  }
  for (std::size_t i = before; i < fluid_end; ++i)
    if (flow_.coupled(sent[i])) flush(sent[i]);
  if (active_.empty()) epoch_end_ = kNever;
}

// A coupled message's transfer has ended: each variable's remaining bits become its last packet (the
// last segmented variable takes what rounding left, so the packets add up to the message's bytes).
void HybridTransport::flush(MessageId m) {
  MessageState& s = msg_[m];
  const PathTable& paths = flow_.paths();
  const std::uint64_t total = s.bytes;
  std::uint32_t last = kNone;
  for (std::uint32_t v = paths.first_var(m); v < paths.end_var(m); ++v) {
    emit_.erase(v);
    if (seg_offset_[v + 1] > seg_offset_[v]) last = v;
  }
  const auto carried = [&](std::uint32_t v) {
    return static_cast<std::uint64_t>(std::llround(std::max(0.0, flow_.var_bits_at(v, now())) / 8));
  };
  const auto cut = [&](std::uint32_t v) { return static_cast<std::uint64_t>(emitted_bits_[v] / 8); };
  std::uint64_t others = 0;  // bytes of every variable but the last segmented one
  for (std::uint32_t v = paths.first_var(m); v < paths.end_var(m); ++v)
    if (v != last) others += std::max(carried(v), cut(v));
  for (std::uint32_t v = paths.first_var(m); v < paths.end_var(m); ++v) {
    if (seg_offset_[v + 1] == seg_offset_[v]) continue;
    const std::uint64_t mine = v == last ? (total > others ? total - others : 0) : carried(v);
    emit_all(v, mine > cut(v) ? mine - cut(v) : 0);
  }
  if (flow_part_s_[m] >= 0) s.last_arrival = std::max(s.last_arrival, now() + flow_part_s_[m]);
  if (sourced_[m]) {
    s.last_arrival = std::max(s.last_arrival, now() + static_cast<double>(r_->latency_s[m]));
    if (options_.held_exits) sim_->set_pacer_rate(static_cast<std::uint32_t>(m), 0);  // the links beyond carried it all
  }
  s.flushed = true;
  if (flow_.capped(m)) --capped_;
  const std::uint32_t pos = active_pos_[m];
  active_[pos] = active_.back();
  active_pos_[active_[pos]] = pos;
  active_.pop_back();
  active_pos_[m] = kNone;
  maybe_deliver(m);
}

void HybridTransport::maybe_deliver(MessageId m) {
  const MessageState& s = msg_[m];
  if (s.flushed && s.arrived == s.packets) deliver(m, s.last_arrival);
}

// Message m is delivered at t (known ahead of t: the simulator stops after this cycle for the driver).
void HybridTransport::deliver(MessageId m, double t) {
  r_->finish_s[m] = t;
  r_->state[m] = FlowState::Delivered;
  if (!messages_->delivery_awaited(m)) return;
  deliveries_.push({t, m});
  found_ = true;
  sim_->pause();
}

void HybridTransport::injected(std::uint64_t id, packet::Cycle c) {
  const PacketRecord& p = pkts_[id];
  const MessageId m = message_of(p.var);
  if (p.segment != kWhole) {
    msg_[m].accepted += p.bytes;
    return;
  }
  r_->transfer_end_s[m] = seconds(c);  // a whole message: its tail has left its NIC
  sent_.push({seconds(c), m});
  found_ = true;
  sim_->pause();
}

void HybridTransport::generated(std::uint64_t id) {
  const PacketRecord& p = pkts_[id];
  if (p.segment != kWhole) msg_[message_of(p.var)].arrived_bytes += p.bytes;
}

void HybridTransport::arrival_known(std::uint64_t id, packet::Cycle c) {
  const PacketRecord p = pkts_[id];
  if (p.segment == kWhole) {
    deliver(message_of(p.var), seconds(c));
    return;
  }
  msg_[message_of(p.var)].left += p.bytes;
  if (seg_offset_[p.var] + p.segment + 1 < seg_offset_[p.var + 1]) {  // on to its next segment
    chained_.push_back({id, c});
    sim_->pause();  // handed on once the cycle is over (PacketSim::send cannot be called from a hook)
    return;
  }
  const MessageId m = message_of(p.var);
  MessageState& s = msg_[m];
  ++s.arrived;
  s.done += p.bytes;
  s.last_arrival = std::max(s.last_arrival, seconds(c) + tail_s_[p.var]);
  maybe_deliver(m);
}

void HybridTransport::apply_chained() {
  for (const auto& [id, c] : chained_) {
    const PacketRecord p = pkts_[id];
    hand(p.var, p.segment + 1, p.bytes, seconds(c) + segs_[seg_offset_[p.var] + p.segment + 1].lead_s);
    ++stats_.chained;
  }
  chained_.clear();
}

void HybridTransport::simulate_to(packet::Cycle target) {
  found_ = false;
  sim_->run_until(target == kForever ? 0 : target);
  if (sim_->stats().stalled)
    throw InputError("the zoomed routers' packet engine stopped at cycle " + std::to_string(sim_->now()) +
                     ": no packet moved for " + std::to_string(options_.stall_limit) + " cycles with " +
                     std::to_string(sim_->packets_in_network()) + " packets in the network (a deadlock)");
  apply_chained();
}

double HybridTransport::next_event(double bound) {
  for (;;) {
    const double flow_next = flow_.next_event(bound);
    const double known = std::min({flow_next, deliveries_.empty() ? kNever : deliveries_.top().time,
                                   sent_.empty() ? kNever : sent_.top().time});
    if (!sim_) return known;
    const double epoch = epoch_event();
    const double target = std::min({known, bound, epoch});
    if (target != kNever) feed(target);
    const packet::Cycle goal = target == kNever ? kForever : packet::cycle_at(target, clock_s_);
    if ((sim_->messages_in_system() == 0 && chained_.empty()) || (goal != kForever && sim_->now() >= goal))
      return std::min(known, epoch_event());
    simulate_to(goal);
  }
}

double HybridTransport::next_delivery() const {
  return std::min(flow_.next_delivery(), deliveries_.empty() ? kNever : deliveries_.top().time);
}

MessageId HybridTransport::pop_delivery() {
  const double flow_time = flow_.next_delivery();
  if (deliveries_.empty() || flow_time < deliveries_.top().time) return flow_.pop_delivery();
  const MessageId m = deliveries_.top().message;
  deliveries_.pop();
  return m;
}

// The next epoch's end, when an epoch can change anything: while packets are in the zoom (backlogs
// may grow or drain) or a message in transfer is capped (its cap may be lifted). Otherwise none, so
// that a run whose only coupled messages wait at a rate of 0 forever ends as the flow run would
// instead of stepping through empty epochs; an epoch that ended meanwhile closes now.
double HybridTransport::epoch_event() const {
  if (epoch_end_ == kNever || (sim_->messages_in_system() == 0 && chained_.empty() && capped_ == 0)) return kNever;
  return std::max(epoch_end_, now());
}

void HybridTransport::end_batch() {
  if (sim_ && epoch_end_ != kNever && now() >= epoch_end_) close_epoch();
  flow_.end_batch();
  if (!sim_) return;
  const PathTable& paths = flow_.paths();
  for (const MessageId m : active_)
    for (std::uint32_t v = paths.first_var(m); v < paths.end_var(m); ++v) rekey(v);
  if (options_.held_exits) pace_sourced();
}

// A message from a zoomed router's endpoint leaves its region no faster than the flow level carries
// it beyond (its rate of this batch), so the links after the region push back into it; unless it is
// capped: then its region holds it back, and a pacer at its cap would hold it to that rate forever.
void HybridTransport::pace_sourced() {
  const PathTable& paths = flow_.paths();
  for (const MessageId m : active_)
    if (sourced_[m])
      sim_->set_pacer_rate(static_cast<std::uint32_t>(m),
                           flow_.capped(m) ? 0.0 : flits_per_cycle(flow_.var_rate(paths.first_var(m))));
}

// The cap rule (header): per coupled message in transfer, from its boundary backlog over the epoch.
void HybridTransport::close_epoch() {
  ++stats_.epochs;
  for (const MessageId m : active_) {
    MessageState& s = msg_[m];
    if (sourced_[m]) {
      follow_sourced(m);
      continue;
    }
    const double span = now() - std::max(epoch_start_, r_->start_s[m]);
    const std::uint64_t backlog = s.arrived_bytes > s.left ? s.arrived_bytes - s.left : 0;
    const double offered = static_cast<double>(s.offered - s.offered_mark);
    const double growth = static_cast<double>(backlog) - static_cast<double>(s.backlog_mark);
    const double threshold = 2.0 * mtu_of(m) * s.segments + (span > 0 ? offered / span : 0.0) * s.transit_s;
    const bool capped = flow_.capped(m);
    const bool growing = growth > options_.tolerance * std::max<double>(offered, mtu_of(m));
    s.grew = growing ? s.grew + 1 : 0;
    if (static_cast<double>(backlog) <= threshold) {  // the regions keep pace with it
      if (capped) {
        flow_.set_cap(m, kNever);
        ++stats_.caps_lifted;
      }
    } else if (span > 0 && growing && (capped || s.grew >= 2)) {
      // What the regions delivered of it, a tolerance below so that its backlog drains.
      const double delivered = static_cast<double>(s.done - s.done_mark) * 8 / span * 1e-9;  // Gbit/s
      const double cap = delivered * (1 - options_.tolerance);
      if (!capped || std::abs(cap - flow_.cap(m)) > options_.tolerance * flow_.cap(m)) {
        flow_.set_cap(m, cap);
        ++stats_.cap_changes;
      }
    }
    s.offered_mark = s.offered;
    s.done_mark = s.done;
    s.backlog_mark = backlog;
  }
  capped_ = 0;
  for (const MessageId m : active_) capped_ += flow_.capped(m) ? 1 : 0;
  epoch_start_ = now();
  epoch_end_ = active_.empty() ? kNever : now() + epoch_s_;
}

// A message from a hosted endpoint: its flow-level part follows its packets out of the regions. While
// some are still inside, it is capped at the rate they came out over the epoch; then uncapped. With
// held exits, an uncapped message is paced at its exit by its flow-level rate: it stays uncapped while
// its head packet waited for its pacer more than half the epoch (the links beyond hold it back, not
// its region), and a capped one (unpaced) is uncapped once its cap no longer binds at the flow level.
void HybridTransport::follow_sourced(MessageId m) {
  MessageState& s = msg_[m];
  const double span = now() - std::max(epoch_start_, r_->start_s[m]);
  const double paced_s = options_.held_exits ? seconds(sim_->take_pacer_held(static_cast<std::uint32_t>(m))) : 0.0;
  const bool capped = flow_.capped(m);
  const auto lift = [&] {
    if (!capped) return;
    flow_.set_cap(m, kNever);
    ++stats_.caps_lifted;
  };
  if (s.done >= s.emitted_bytes) {
    lift();
  } else if (span > 0 && span >= s.transit_s) {
    const double rate = flow_.var_rate(flow_.paths().first_var(m));
    if (options_.held_exits && capped && rate < flow_.cap(m) * (1 - options_.tolerance)) {
      lift();  // the links beyond give it less than its cap: they are its bottleneck
    } else if (!(options_.held_exits && !capped && paced_s > 0.5 * span)) {
      const double delivered = static_cast<double>(s.done - s.done_mark) * 8 / span * 1e-9;  // Gbit/s
      if (!capped || std::abs(delivered - flow_.cap(m)) > options_.tolerance * flow_.cap(m)) {
        flow_.set_cap(m, delivered);
        ++stats_.cap_changes;
      }
    }
  }
  s.done_mark = s.done;
}

void HybridTransport::close() {
  if (sim_) {
    while (sim_->messages_in_system() > 0 || !chained_.empty()) simulate_to(kForever);
    sim_->check_invariants();
    for (MessageId m = 0; m < msg_.size(); ++m)
      if (flow_.coupled(m) && r_->state[m] == FlowState::Delivered && std::isnan(r_->finish_s[m]))
        r_->state[m] = FlowState::Blocked;
  }
  flow_.close();
}

std::vector<ZoomRouterStats> HybridTransport::router_stats() const {
  std::vector<ZoomRouterStats> out;
  if (!sim_) return out;
  const packet::RunStats& st = sim_->stats();
  const Network& z = zoom_->network();
  for (VertexId zv = 0; zv < z.num_vertices(); ++zv) {
    if (z.kind(zv) != VertexKind::Switch) continue;
    const packet::ElementId e = fabric_->router_of_vertex(zv);
    ZoomRouterStats r{zoom_->full_vertex(zv), map_.region_of[zoom_->full_vertex(zv)], 0, 0, 0, 0};
    for (packet::ChannelId c : fabric_->inputs(e)) r.input_peak_flits = std::max(r.input_peak_flits, st.channel_peak[c]);
    for (packet::ChannelId c : fabric_->outputs(e)) {
      if (!st.output_peak.empty()) r.output_peak_flits = std::max(r.output_peak_flits, st.output_peak[c]);
      r.credit_stalls += st.channel_credit_stalls[c];
      r.flits_out += st.channel_flits[c];
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace interflow::hybrid
