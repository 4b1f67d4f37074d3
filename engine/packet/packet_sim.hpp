#pragma once
// The packet-level engine: virtual cut-through (VCT) switching with credit-based flow control per
// virtual channel, cycle by cycle (manual/packet.md "The model").
//
// Model. Messages are cut into packets at their NIC by the MTU of their service level (SL); packets
// are cut into flits of `flit_bytes`. A packet moves as a unit of `flits` flits:
//   - it may leave an element on channel c only when c is free and the receiving virtual channel
//     has room for the whole packet (virtual cut-through: a packet never waits half-way); the
//     credits are taken when it leaves, so a buffer never holds more than its size;
//   - its head reaches the far end latency(c) cycles after it left; c is busy for
//     ceil(flits / flits_per_cycle(c)) cycles, and never sends the tail before the tail itself has
//     arrived (cut-through: the head may leave before the tail came in);
//   - at a router the head becomes a candidate for allocation `pipeline` cycles after it arrived
//     (routing, VC allocation and switch allocation stages), and a granted packet enters its output
//     channel `xbar_delay` cycles later;
//   - the space of a packet in an input buffer is freed when its tail has left; the credits travel
//     back over the reverse direction and reach the sender `credit_delay + latency(c)` cycles later;
//   - a packet is delivered when its tail reaches the destination NIC (which always has room), and a
//     message when its last packet is; except at a held ejection (hold_ejection: the hybrid zoom's
//     exits), which has a router's input buffer and releases packets in order per VC, paced per flow.
// Every packet follows its message's route (source routing from a path table: a multipath flow picks
// one sub-path per message by weight, seeded). Its virtual channel on each hop is chosen by the VC
// scheme (virtual_channels.hpp) among the VCs of its class, the one with the most credits.
//
// Buffers. A channel's input buffer (at its far end) is shared by its VCs as a BufferShape says
// (shared_buffer.hpp): each VC reserves a minimum and may hold a maximum; the vct switch splits it
// statically. The near end counts the space it has taken (on sending) until the credits come back.
// Space is counted in flits but taken and given back in whole credits of `credit_flits` flits: a
// packet of f flits occupies ceil(f / credit_flits) credits.
//
// Allocation at a router is separable, input first: each input port picks, round robin over its
// VCs, one head packet that is ready and whose target can take it; each output channel then grants
// one of its requests, round robin over the input ports (iSLIP instead, when configured). An input
// port sends one packet at a time. A NIC picks, round robin over its SLs, one packet that fits.
//
// Output-buffered switches (ib) have, per output channel, an output buffer shared by its VCs: a
// granted packet crosses into it (X stage; with a crossbar speedup s, up to s packets at once), and
// the port's output scheduler picks, among the QoS lanes whose head packet is there and fits
// downstream, the lane that sends next (OB stage); its space is freed when the tail has left.
//
// A packet's VC on each channel is in the group of its QoS lane (its SL through the SL2VL table) and
// its deadlock class: the VCs are split into lanes x classes groups.
//
// Time advances cycle by cycle while anything can move; when nothing can (no ready packet, no
// message being generated), it jumps to the next event (a credit return, a delivery, a
// generation): the cost follows the work, not the simulated time.
//
// Conservation is checked by check_invariants(): messages and packets generated = delivered + in the
// network + queued at NICs; no virtual channel holds more flits than its size; no credit count is
// negative or above the buffer size; no packet left without room downstream. Tests call it after
// every run; the CLI calls it at the end of every run (a violation is an internal error).
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <stdexcept>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/paths.hpp"
#include "core/random.hpp"
#include "engine/packet/event_wheel.hpp"
#include "engine/packet/fabric.hpp"
#include "engine/packet/output_scheduler.hpp"
#include "engine/packet/shared_buffer.hpp"
#include "engine/packet/virtual_channels.hpp"

namespace interflow::packet {

// A switch as the engine runs it; the switch registry (switch_model.hpp: vct, ib) builds it from
// the user's parameters.
inline std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }
// The first cycle of `clock_s` seconds at or after `s` seconds (a cycle's own time maps back to it
// despite rounding).
Cycle cycle_at(double s, double clock_s);

struct RouterConfig {
  std::uint32_t vcs = 4;                           // virtual channels (lanes) per channel
  BufferShape input = BufferShape::split(4, 8);    // each input port's buffer, shared by its lanes
  BufferShape output{0, 0, 0};                     // each output port's buffer; size 0: input-queued (vct)
  std::uint32_t routing_delay = 1;  // cycles: route computation
  std::uint32_t vc_delay = 1;       // cycles: virtual-channel allocation
  std::uint32_t switch_delay = 1;   // cycles: switch allocation
  std::uint32_t xbar_delay = 1;     // cycles: crossbar traversal, from grant to the output channel (or buffer)
  std::uint32_t credit_delay = 1;   // cycles: a freed credit's processing before it travels back
  // Flits per credit (the credit unit): buffer space is counted, taken and given back in whole
  // credits, so a packet occupies its flits rounded up to whole credits.
  std::uint32_t credit_flits = 1;
  std::uint32_t xbar_speedup = 1;   // output-buffered: packets an output buffer may take in at once
  std::uint32_t output_delay = 0;   // output-buffered: cycles from a head's entry into the output buffer to OB-ready
  // Hierarchical (opa): ports grouped in MPorts with a central buffer each (CentralConfig); off when
  // central.mport_ports is 0.
  struct CentralConfig {
    std::uint32_t mport_ports = 0;   // ports per MPort (0: no MPorts, no central crossbar)
    std::uint32_t links = 2;         // links from an MPort's crossbar into its central buffer
    std::uint32_t link_flits = 3;    // flits per cycle on each of those links
    std::uint32_t out_flits = 4;     // flits per cycle from a central buffer into an output buffer
    std::uint32_t alloc_delay = 16;  // cycles from a head's entry into the central buffer to its allocation (AT)
    std::uint32_t xbar_delay = 2;    // cycles through the central crossbar into the output buffer (X)
    BufferShape buffer{0, 0, 0};     // each MPort's central buffer, shared by its VLs
  } central;
  // Service channels (opa): SL2SC, SC2VL and SC2SL tables, the same at every device. When sl2sc is
  // given, a packet of SL s in deadlock class c carries SC sl2sc[s] + c (its SC changes when it is
  // routed onto a channel of another class, never its SL) and takes VL sc2vl[SC]; the output
  // schedulers then choose among SLs, not VLs. Empty: the sl2vl table below.
  std::vector<std::uint32_t> sl2sc, sc2vl, sc2sl;
  std::uint32_t islip_iterations = 0;  // input-queued: 0 separable input-first allocation, else iSLIP rounds
  std::uint32_t nic_delay = 1;      // cycles from a message's generation to its first packet's eligibility
  // Per SL, its QoS lane (the SL2VL table of every output port; empty: every SL on lane 0). The VCs
  // of a channel are split into QoS lanes x deadlock classes groups of vcs / (lanes x classes).
  std::vector<std::uint32_t> sl2vl;
  // Output-buffered switches: each output port's scheduler over the QoS lanes (required for them).
  std::function<std::unique_ptr<OutputScheduler>(const SchedulerContext&)> scheduler;
  std::uint32_t pipeline() const { return routing_delay + vc_delay + switch_delay; }
  // The buffer space a packet of `flits` flits takes: whole credits.
  std::uint32_t credit_space(std::uint32_t flits) const {
    return ceil_div(flits, credit_flits) * credit_flits;
  }
  bool output_buffered() const { return output.size > 0; }
  bool hierarchical() const { return central.mport_ports > 0; }
  // The lanes output schedulers choose among: the SLs with service channels, else the VLs of sl2vl.
  std::uint32_t qos_lanes() const;
  // Deadlock classes each lane can offer: vcs / lanes with sl2vl; with service channels, the fewest
  // SCs any SL has.
  std::uint32_t classes_per_lane() const;
  // Service channels: the SC of SL `sl` in deadlock class `cls` (its cls-th SC from sl2sc[sl] on, in
  // ascending order, among those SC2SL gives back to it; SC 15 is reserved), or kNone.
  std::uint32_t service_channel(std::uint32_t sl, std::uint32_t cls) const;
  std::uint32_t service_channels(std::uint32_t sl) const;  // how many SCs SL `sl` has
  static constexpr std::uint32_t kReservedSc = 15;
};

struct NicConfig {
  std::uint32_t service_levels = 1;
  std::vector<std::uint32_t> mtu_bytes;           // per SL (empty: one flit per packet)
  std::uint64_t injection_queue_bytes = 229376;   // per SL; messages wait in the application queue beyond
};

struct Message {
  EndpointId src = 0, dst = 0;
  std::uint64_t bytes = 0;
  std::uint32_t sl = 0;
  // A variable of the simulator's ChannelRoutes to follow (the hybrid zoom's segments); kNone: one of
  // the pair's path-table variables, chosen by weight.
  std::uint32_t route = kNone;
  // A pacer (PacketSim::make_pacers) that times its packets' release from a held ejection; kNone: none.
  std::uint32_t pacer = kNone;
};

// Per-SL results of the measured messages (those generated in the measurement window).
struct SlStats {
  std::uint64_t generated_messages = 0, generated_flits = 0;
  std::uint64_t delivered_messages = 0, delivered_flits = 0, delivered_packets = 0;
  double latency_sum = 0, latency_sq_sum = 0, network_latency_sum = 0;  // cycles
  Cycle latency_max = 0;
  std::uint64_t window_delivered_flits = 0;  // flits of any message delivered inside the window

  // Means over the delivered measured messages, cycles (0 when none was delivered).
  double mean_latency() const { return delivered_messages ? latency_sum / static_cast<double>(delivered_messages) : 0.0; }
  double mean_network_latency() const {
    return delivered_messages ? network_latency_sum / static_cast<double>(delivered_messages) : 0.0;
  }
};

struct RunStats {
  Cycle cycles = 0;                 // simulated cycles
  Cycle window_start = 0, window_end = 0;
  bool drained = true;              // every measured message was delivered before the drain limit
  bool stalled = false;             // nothing moved for stall_limit cycles with packets in the network: a deadlock
  std::uint64_t flit_hops = 0;      // flits times channels crossed (injection and ejection included)
  std::uint64_t credit_stalls = 0;  // allocation attempts refused for lack of credits
  std::uint64_t app_queue_peak = 0; // most messages waiting in an application queue (all NICs)
  std::vector<SlStats> sl;
  std::vector<std::uint64_t> channel_flits;  // flits sent on each channel inside the window
  std::vector<std::uint32_t> channel_peak;   // most flits held by each channel's input buffer (all lanes)
  std::vector<std::uint32_t> output_peak;    // most flits held by each channel's output buffer (output-buffered)
  std::uint64_t central_crossings = 0;       // hierarchical: packets that went through a central buffer
  std::vector<std::uint32_t> central_peak;   // hierarchical: most flits held by each MPort's central buffer
  std::vector<std::uint64_t> channel_credit_stalls;  // per channel: attempts refused for lack of room downstream
  std::vector<std::uint64_t> channel_busy;   // cycles each channel spent sending (whole run)
  // When record_injection() asked for it: flits injected by all NICs per `injection_bucket` cycles,
  // as (bucket number, flits) for the buckets with any, in order (idle time costs nothing).
  Cycle injection_bucket = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> injected_flits;
};

class PacketSim {
 public:
  // `paths` holds one flow per ordered endpoint pair, flow s * N + d (self flows unrouted; or none at
  // all when every message names its route), and
  // `routes` its variables as channels; `scheme` gives each hop's virtual-channel class.
  PacketSim(const Fabric& fabric, const PathTable& paths, const ChannelRoutes& routes, const VcScheme& scheme,
            const RouterConfig& router, const NicConfig& nic, std::uint64_t seed);

  // Hands a message to its NIC at cycle `when` (>= now()).
  void send(const Message& m, Cycle when);
  // Advances to `until` (or until nothing is left to do when `until` is 0, with every message
  // delivered: a drain). Stops early, with stats().stalled, when no packet has moved for
  // `stall_limit` cycles while packets wait: a deadlock, which never passes.
  void run_until(Cycle until);
  void set_stall_limit(Cycle cycles) { stall_limit_ = cycles; }
  Cycle now() const { return now_; }

  // Measurement: messages generated in [start, end) are counted in stats().
  void set_window(Cycle start, Cycle end);
  const RunStats& stats() const { return stats_; }
  std::uint64_t messages_in_system() const { return messages_live_; }
  std::uint64_t packets_in_network() const { return packets_in_network_; }
  // The VCs (VLs) a QoS lane's packets may take, over every deadlock class.
  std::vector<std::uint32_t> lane_vcs(std::uint32_t lane) const {
    if (lane >= lanes_) throw std::out_of_range("PacketSim::lane_vcs: no such lane");
    return {lane_list_.begin() + lane_offset_[lane], lane_list_.begin() + lane_offset_[lane + 1]};
  }

  // Throws std::logic_error naming the first broken invariant.
  void check_invariants() const;

  // Called for every delivered message (closed-loop workloads): its id in send order and the cycle.
  std::function<void(std::uint64_t, Cycle)> on_delivery;
  // Called as soon as a message's times are known, ahead of them (core/transport.hpp needs both):
  // `on_injected` when its last packet goes onto the injection channel, with the cycle its tail has
  // left the NIC (tail cycle + 1); `on_arrival_known` when its last packet still in the network goes
  // onto the ejection channel, with the cycle on_delivery will report. Either is called during a
  // cycle c with a time of at least c + 1 (every channel has a latency of at least one cycle), so
  // after run_until(t) every such time up to t is known.
  std::function<void(std::uint64_t, Cycle)> on_injected, on_arrival_known;
  // Called when a message handed in for a later cycle reaches its NIC's application queue (that cycle
  // has come), with its id (the hybrid transport's boundary backlog counts from there).
  std::function<void(std::uint64_t)> on_generated;
  // Makes the current run_until() return after the cycle it is in (a hook found what its caller waits for).
  void pause() { pause_ = true; }
  // Counts the flits injected per `bucket` cycles into stats().injected_flits (a transport's time series).
  void record_injection(Cycle bucket);

  // Held ejections (the hybrid zoom's exits to outside routers). NIC e stands for the input buffer of
  // a router beyond: packets ejected to it take credits of that buffer (the router input shape), wait
  // there in order per VC, and leave when their tail is in and their message's pacer allows; their
  // credits then go back upstream and they are delivered. A paced head holds the packets behind it
  // in its VC (head-of-line blocking, as in that router's input). Call before the first send.
  void hold_ejection(EndpointId e);
  // Pacers: n flows of packets released from held ejections at a rate each (Message::pacer). A packet
  // of f flits leaves no sooner than f / rate cycles after its pacer's previous one; a rate <= 0 or
  // infinite releases at once.
  void make_pacers(std::uint32_t n) { pacers_.assign(n, Pacer{}); }
  void set_pacer_rate(std::uint32_t k, double flits_per_cycle) { pacers_.at(k).rate = flits_per_cycle; }
  // Cycles a head packet waited for pacer k at a held ejection since the last call.
  std::uint64_t take_pacer_held(std::uint32_t k) { return std::exchange(pacers_.at(k).held, 0); }

 private:
  struct Packet;
  struct Queue {  // a FIFO of packets (intrusive list) and the buffer space they take (flits, whole credits)
    std::uint32_t head = kNone, tail = kNone, flits = 0;
  };
  enum EventKind : std::uint32_t { kCredit, kDelivery, kOutputFree, kCentralFree, kWake };
  struct Event {
    Cycle time;
    std::uint32_t kind;  // EventKind: credit return, delivery, output- or central-buffer space freed, a NIC's wake-up
    std::uint32_t a, b;
  };

  void check_config();
  void map_lanes();
  using LaneVcs = std::vector<std::vector<std::uint32_t>>;
  void map_groups(LaneVcs& lanes);
  void add_service_channel(std::uint32_t sl, std::uint32_t cls, std::uint32_t sc, std::vector<std::uint32_t>& class_of_vl,
                           LaneVcs& lanes);
  void make_output_buffers();
  std::uint32_t new_packet();
  void push(Queue& q, std::uint32_t p);
  std::uint32_t pop(Queue& q);
  void generate_packets(std::uint32_t message_index);
  void refill_nic(EndpointId e);
  void step_nic(EndpointId e);
  void count_injection(std::uint32_t flits);
  void step_router(ElementId r);
  // The router stages: switch allocation (input first, then output), the crossbar into an output
  // channel (vct) or an output buffer (ib), and an output buffer's scheduler onto its channel.
  void collect_requests(ElementId r);
  void grant_requests(ElementId r);
  struct Request;
  template <class Order>
  void grant_several(const Order& order);
  void grant(const Request& q);
  void grant_islip(ElementId r);
  bool has_request(ChannelId in, ChannelId out) const;
  void make_islip_state();
  std::uint32_t free_xbar_ports(ChannelId out) const;
  void forward(ChannelId in, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc, Cycle t);
  void cross(ChannelId in, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc);
  void send_from_output(ChannelId out);
  std::uint32_t offer_lanes(ChannelId out);
  Cycle transmit(std::uint32_t p, ChannelId out, std::uint32_t out_vc, Cycle start, Cycle tail_here);
  void free_input(ChannelId in, std::uint32_t vc, std::uint32_t flits, Cycle tail_left);
  void schedule(Cycle time, std::uint32_t kind, std::uint32_t a, std::uint32_t b);
  bool nic_idle(EndpointId e) const;
  std::uint32_t lane_group(std::uint32_t p, ChannelId out) const;
  std::uint32_t pick_vc(std::uint32_t p, ChannelId out, const SharedBuffers& room, std::size_t port = kNone) const;
  bool downstream_fits(ChannelId out, std::uint32_t vc, std::uint32_t flits) const;
  // Whether `out` ends at a NIC that takes whatever arrives (not a held ejection).
  bool absorbs(ChannelId out) const {
    const ElementId d = fabric_.dst(out);
    return fabric_.is_nic(d) && (held_.empty() || held_[d - fabric_.num_routers()] == 0);
  }
  void release_held(EndpointId e);
  Cycle held_wake(std::uint32_t p) const;
  void wake_for_head(ChannelId c, std::uint32_t v, Cycle since);
  // Hierarchical switches (opa, packet_central.cpp): an input's packet for a port of another MPort
  // crosses into its MPort's central buffer, is allocated again there and crosses the central
  // crossbar into the output buffer.
  void make_central();
  bool crosses_central(ChannelId in, ChannelId out) const;
  std::uint32_t free_central_link(std::uint32_t mport) const;
  bool slot_free(std::uint64_t slot, std::uint32_t rate) const { return slot < (now_ + 1) * rate; }
  Cycle occupy(std::uint64_t& a, std::uint64_t& b, std::uint32_t rate, std::uint32_t flits, Cycle tail_here);
  void grant_central_requests();
  void to_central(ChannelId in, std::uint32_t vc, std::uint32_t p, std::uint32_t link, std::uint32_t central_vc);
  void step_central(ElementId r);
  bool central_round(ElementId r, bool first_round);
  void from_central(std::uint32_t input, std::uint32_t vc, std::uint32_t p, ChannelId out, std::uint32_t out_vc);
  void check_central(const std::vector<std::int64_t>& releasing, std::uint64_t& queued) const;
  void process_events();
  void deliver(std::uint32_t p, Cycle t);
  void activate(ElementId e);
  Cycle next_wakeup() const;
  void step();
  void check_buffers(const std::vector<std::int64_t>& returning, const std::vector<std::int64_t>& releasing,
                     std::uint64_t& queued) const;

  const Fabric& fabric_;
  const PathTable& paths_;
  const ChannelRoutes& routes_;
  VcScheme scheme_;
  RouterConfig router_;
  NicConfig nic_;
  Rng rng_;
  std::uint32_t vcs_;
  std::uint32_t lanes_ = 1, per_group_ = 1;  // QoS lanes; VCs per (lane, class) group
  Cycle now_ = 0;

  // Packets (a recycled arena) and their per-hop state.
  struct Packet {
    std::uint32_t message;
    std::uint32_t next;       // next packet in its queue
    std::uint64_t hop;        // position in routes_ of the next channel it takes
    ChannelId out;            // at a router: that channel (routes_.at(hop))
    std::uint32_t flits;
    std::uint32_t space;  // the buffer space it takes: its flits rounded up to whole credits
    std::uint32_t vc;
    std::uint32_t lane;  // its QoS lane (its SL through the SL2VL table)
    VcState vc_state;
    Cycle ready;   // cycle it may be allocated (head arrival + pipeline)
    Cycle tail;    // cycle its tail arrives where it is
  };
  std::vector<Packet> packets_;
  std::vector<std::uint32_t> free_packets_;

  // Messages (a recycled arena).
  struct MessageState {
    Message m;
    Cycle generated, injected;
    std::uint32_t packets_left;
    std::uint32_t packets_to_inject, packets_to_eject;  // not yet on the injection / ejection channel
    Cycle arrival;                                       // latest tail arrival of its packets scheduled so far
    std::uint64_t flits;
    std::uint64_t id;
    bool measured, segmented;
  };
  std::vector<MessageState> messages_;
  std::vector<std::uint32_t> free_messages_;
  std::uint64_t next_message_id_ = 0, messages_live_ = 0, packets_in_network_ = 0;

  // Per channel x VC: the input buffer at its far end, and its space as the near end knows it
  // (taken when a packet leaves, given back when its credits arrive).
  std::vector<Queue> queues_;
  SharedBuffers credits_;
  std::vector<Cycle> channel_free_;  // the cycle a channel can start its next packet
  std::vector<Cycle> input_free_;    // the cycle an input port can start sending its next packet
  std::vector<std::uint32_t> input_held_;  // flits in each channel's input buffer
  std::vector<std::uint32_t> vc_rr_;      // per input channel: round-robin VC pointer
  std::vector<std::uint32_t> out_rr_;     // per output channel: round-robin input pointer
  std::vector<std::uint32_t> queued_at_;  // packets queued at each element (input and output buffers)

  // Output-buffered switches, per channel x VC: the output buffer at its near end and its space;
  // per channel: the crossbar's output free again, the packets waiting, the lane scheduler.
  std::vector<Queue> out_queues_;
  SharedBuffers out_space_;
  std::vector<Cycle> xbar_free_;  // per channel x speedup: each crossbar write port free again
  std::vector<std::uint32_t> out_waiting_;
  std::vector<std::unique_ptr<OutputScheduler>> schedulers_;
  std::vector<std::uint32_t> lane_rr_;  // per channel: round robin among a lane's VCs
  std::vector<std::uint8_t> offer_queued_, offer_ready_;
  std::vector<std::uint32_t> offer_size_, offer_vc_;
  // The VCs of each (lane, deadlock class) group (CSR), and every VC of each lane (map_lanes).
  std::vector<std::uint32_t> group_offset_, group_vcs_;
  std::vector<std::uint32_t> lane_offset_, lane_list_;  // every VC of each lane (CSR), for the OB stage

  // Hierarchical switches: MPorts numbered across routers (a router's first is mport_first_[r]);
  // each MPort has central.links central inputs (links from its crossbar, each with a FIFO per VC)
  // sharing its central buffer.
  std::vector<std::uint32_t> mport_first_;        // per router, then one past the last
  std::vector<std::uint32_t> in_mport_, out_mport_;  // per channel: its MPort at its far / near end
  SharedBuffers central_space_;                   // per MPort x VC
  std::vector<Queue> central_queues_;             // per central input x VC
  // The central links and the central crossbar carry r flits per cycle of any packets, one packet
  // after another: each keeps the first free flit slot (cycle x r + flit), so that three 1-flit
  // packets may cross an x3 link in one cycle and a 16-flit packet takes 16 / 3 cycles.
  std::vector<std::uint64_t> central_link_slot_;  // per central input: the MPort link into it
  std::vector<std::uint64_t> central_send_slot_;  // per central input: its port on the central crossbar
  std::vector<std::uint32_t> central_vc_rr_, central_held_;  // per central input: VC pointer, packets held
  std::vector<std::uint64_t> central_write_slot_;  // per output channel: the central crossbar's write port
  std::vector<std::uint32_t> central_out_rr_;     // per output channel: round robin over central inputs
  std::vector<std::uint32_t> mport_rr_;           // per MPort: round robin over its inputs

  // NICs: per endpoint x SL, the injection queue (packets) and the application queue (messages).
  std::vector<Queue> injection_;  // per deadlock class, per NIC and SL (class-major: class 0 first)
  std::vector<std::uint64_t> injection_bytes_;
  std::vector<std::deque<std::uint32_t>> app_queue_;
  std::vector<std::uint32_t> sl_rr_;
  std::vector<std::uint32_t> nic_classes_;  // per NIC: 1 + the highest deadlock class it has queued
  std::vector<std::uint8_t> held_;          // per NIC: a held ejection (empty: none)
  struct Pacer {
    double rate = 0;        // flits per cycle (<= 0: unpaced)
    double next = 0;        // the cycle from which its next packet may be delivered (the gap set by
                            // the rate at its previous packet's release)
    std::uint64_t held = 0; // cycles its head packets waited at the head of their VC (take_pacer_held)
  };
  std::vector<Pacer> pacers_;
  std::vector<Cycle> head_since_;  // per channel x VC of a held ejection: the cycle its head became head
  std::vector<Cycle> wake_at_;     // and the cycle its NIC was last asked to wake for it
  Queue& injection_queue(EndpointId e, std::uint32_t sl, std::uint32_t cls) {
    return injection_[cls * injection_bytes_.size() + std::size_t{e} * nic_.service_levels + sl];
  }
  const Queue& injection_queue(EndpointId e, std::uint32_t sl, std::uint32_t cls) const {
    return injection_[cls * injection_bytes_.size() + std::size_t{e} * nic_.service_levels + sl];
  }
  std::uint64_t app_queued_ = 0;

  std::vector<ElementId> active_;
  std::vector<std::uint8_t> is_active_;
  EventWheel<Event> events_;
  std::priority_queue<std::pair<Cycle, std::uint32_t>, std::vector<std::pair<Cycle, std::uint32_t>>, std::greater<>>
      pending_sends_;  // messages handed in for a later cycle

  // Allocation scratch, reused by every router step.
  struct Request {
    ChannelId in;
    std::uint32_t vc, packet;
    ChannelId out;
    std::uint32_t out_vc, position;  // position: the input's place among the router's inputs
    std::uint32_t mport = kNone;     // hierarchical: the MPort whose central buffer it asks for (out_vc there)
  };
  std::vector<Request> requests_;
  std::vector<Request> central_requests_;         // scratch of step_central
  std::vector<std::uint32_t> central_order_;      // scratch of grant_central_requests
  std::vector<std::uint32_t> grant_of_;  // per output channel: request index (valid for grant_cycle_)
  std::vector<Cycle> grant_cycle_;
  // iSLIP: per output, the round of its grant; per input, the cycle it was matched and its accept
  // pointer.
  std::vector<Cycle> grant_stamp_, matched_;
  std::vector<std::uint32_t> accept_rr_;
  Cycle alloc_stamp_ = 0;

  RunStats stats_;
  std::uint64_t total_sent_ = 0, total_delivered_ = 0;
  Cycle last_progress_ = 0, stall_limit_ = 1000000;
  bool pause_ = false;
};

}  // namespace interflow::packet
