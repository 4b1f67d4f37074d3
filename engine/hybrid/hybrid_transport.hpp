#pragma once
// The hybrid transport (manual/hybrid.md): a flow-level run of the whole network in which the zoomed
// routers are simulated at packet level, with a switch model and its output schedulers.
//
// Two levels, coupled at the regions' boundaries:
//   - The flow level is a FlowTransport over the whole network (engine/flow/flow_transport.hpp) whose
//     paths leave out the links inside the regions (the packet level owns them); the boundary cables
//     and every other link stay max-min constraints. A message whose route touches a region is
//     *coupled*: it has a rate cap of its own, and its delivery is the packet level's.
//   - The packet level is one PacketSim over the ZoomNetwork (zoom_fabric.hpp): every region, with a
//     boundary endpoint per way in or out. A coupled message's path variable crosses the regions as
//     segments.
//
// Fluid to packets (exact, no lag). Between two batches of the flow level every rate is constant, so
// the time at which a variable's k-th MTU of bits has left its source is known in closed form. Each
// packet is handed to the boundary endpoint of its first segment when its last bit arrives there
// (that time plus the latency of the links before the segment), and packets wait in the boundary
// NIC's queue for the region's credits. When the message's transfer ends, each variable's remaining
// bits form its last packet. A packet leaving a segment's egress is handed to the next segment of
// its route at its arrival plus the latency of the flow-level links between the two; after its last
// segment it is delivered at its arrival plus the latency of the rest of the route. A message is
// delivered when all its packets are (and, for a variable that touches no region, at its transfer end
// plus that path's latency). Bytes are never lost or duplicated across the levels: each variable's
// packets add up to the bits it carried, and the packet engine's conservation check holds.
//
// Messages inside a region. A message whose only route lies in one region from its source endpoint
// to its destination (every router of its path zoomed) never becomes fluid: it is handed whole to its
// source's boundary endpoint at its start, as the packet transport hands it to its NIC, and its
// transfer end and delivery are the packet level's. With every router zoomed the run is then the
// packet transport's, but for the order of ports in the zoom network.
//
// Messages from a zoomed router's endpoint. A message (of one path) whose route starts in a region
// and leaves it is not fluid at its source either: all its packets go to its NIC at its start, as
// the packet transport hands a message to its NIC, so the endpoint's NIC sends its messages one after
// another at line rate as in a packet run. Its packets are chained to later regions as above. Its
// flow-level part (the links after the region) follows them: while some of its packets are in the
// zoom it is capped, every epoch, at the rate they came out over the epoch, and uncapped once they are
// all out. It is delivered when both levels are done: its last packet's arrival plus the latency after
// its last segment, or its flow-level transfer end plus its route's latency, whichever is later.
// With the flow level's nic_fifo, such a message is not queued at the flow level (its packet NIC
// orders it); every other message waits for its flow-level NIC in order.
//
// Back-pressure (lagged by one or two epochs). The flow level cannot stall bit by bit, so the boundary queue
// absorbs what a region does not take at once. Every epoch of T seconds, for each coupled message
// in transfer, its backlog in the zoom is the bytes that have reached a region's boundary queue and
// not yet left its egress (bytes still on their way to a region do not count), above what a zero-load
// pipeline holds at its rate plus two MTUs per segment:
//   - no backlog: the regions keep pace with it, and a cap it had is lifted;
//   - a backlog that grew (by more than the tolerance x the bytes offered) in two epochs in a row, or
//     in one while capped: it is capped at the rate the regions delivered it (bytes out of its last
//     segment / T) less the tolerance, so that the backlog drains;
//   - otherwise its cap stands. A one-off excess (a rate change reaches a region one upstream latency
//     late, so for that time old and new rates overlap) grows the backlog once and caps nothing.
// The backlog counts queues inside the regions as well as at their boundary, so a region with
// unbounded buffers (which never pushes back to its boundary) caps its flows as one with small buffers
// does. The flow level re-shares the bandwidth with the caps at the epoch's end.
//
// Back-pressure from beyond a region (held exits, with options.held_exits; otherwise an exit takes
// packets at its cable's rate). An exit to an outside router stands for that router's input buffer
// (PacketSim::hold_ejection): packets take its credits and leave it in order per VC. A message from a zoomed router's endpoint is paced there at
// its flow-level rate of the batch (its pacer is its message id), so congestion beyond the region
// holds its packets, those behind them in the VC, and through the exit's credits the region's
// buffers. Pacing and caps must not hold each other: such a message whose head waited for its pacer
// more than half an epoch stays uncapped (the links beyond are its bottleneck); one its region holds
// back is capped at the rate its packets came out and is not paced while capped; its cap is lifted
// once the flow level gives it less than the cap.
//
// When it is exact. With no zoomed router every message is uncoupled and the run is the flow run
// event for event. With zoomed routers, the packet level sees the flow level's arrival process
// exactly; the approximations are the one-epoch lag of the caps, the fluid (smooth) arrivals at a
// boundary cable where an upstream packet network would deliver bursts, and the flow level beyond a
// region, which holds a region's exits back at max-min rates rather than packet by packet (and not at
// all without held exits).
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <span>
#include <vector>

#include "core/indexed_heap.hpp"
#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/routing.hpp"
#include "core/transport.hpp"
#include "engine/flow/flow_transport.hpp"
#include "engine/hybrid/zoom_fabric.hpp"
#include "engine/packet/packet_sim.hpp"

namespace interflow::hybrid {

struct HybridOptions {
  flow::FlowTransportOptions flow;         // the flow level (its zoom_links are set by the transport)
  packet::RouterConfig router;             // the zoomed switches' model and output schedulers
  packet::ClockConfig clock;               // the packet level's clock and flit
  LinkDefaults local;                      // a hosted endpoint's local port (the run's endpoint rate, latency)
  std::vector<std::uint32_t> mtu_bytes;    // per SL (as --mtu-bytes)
  std::uint64_t injection_queue_bytes = 229376;
  std::string vc_scheme = "auto";          // the zoom network's virtual-channel scheme
  double epoch_s = 0;                      // T; 0: 20 x the longest boundary latency, at least 10 MTU times
  double tolerance = 0.02;                 // epsilon of the cap rule
  // Messages inside one region end to end go whole to the packet level, and messages from a zoomed
  // router's endpoint go to their NIC at their start (below); false: both as fluid like every other
  // message (the tests of the coupling alone).
  bool whole_messages = true;
  // Exits to outside routers stand for that router's input buffer, and a message from a zoomed
  // router's endpoint leaves its region at its flow-level rate (below, --zoom-held-exits); false: exits
  // take packets at the cable's rate.
  bool held_exits = false;
  packet::Cycle stall_limit = 1000000;
};

// What the packet level did, for the report.
struct HybridStats {
  std::uint64_t coupled_messages = 0, segments = 0, packets = 0, packet_bytes = 0, chained = 0;
  std::uint64_t whole_messages = 0;  // messages whose route lies in one region end to end: packet messages
  std::uint64_t sourced_messages = 0;  // coupled messages from a zoomed router's endpoint: all packets at their start
  std::uint64_t epochs = 0, cap_changes = 0, caps_lifted = 0;
  std::uint64_t held_exits = 0;  // boundary endpoints for cables to outside routers, held (PacketSim::hold_ejection)
  double epoch_s = 0;
};

// Chooses the zoomed routers once the run's messages are routed (zoom_selection.hpp): per vertex of
// the network, 1 for a zoomed router.
using ZoomChooser = std::function<std::vector<std::uint8_t>(const MessageTable&, const PathTable&)>;

// The same routers whatever the messages.
inline ZoomChooser fixed_zoom(std::vector<std::uint8_t> zoomed) {
  return [zoomed = std::move(zoomed)](const MessageTable&, const PathTable&) { return zoomed; };
}

// One zoomed router's packet-level record over the run.
struct ZoomRouterStats {
  VertexId vertex;              // in the full network
  std::uint32_t region;
  std::uint32_t input_peak_flits;   // most flits any of its input buffers held (all VCs)
  std::uint32_t output_peak_flits;  // most flits any of its output buffers held (output-buffered switches)
  std::uint64_t credit_stalls;      // allocations refused for lack of room downstream, over its outputs
  std::uint64_t flits_out;          // flits it sent
};

class HybridTransport final : public Transport {
 public:
  HybridTransport(const Network& net, const Routing& routing, ZoomChooser choose, const HybridOptions& options);
  ~HybridTransport() override;

  void open(const MessageTable& messages, TransportResult& result) override;
  double now() const override { return flow_.now(); }
  bool start(MessageId m) override;
  double next_event(double bound) override;
  double advance_to(double t) override { return flow_.advance_to(t); }
  void take_sent(double horizon, std::vector<MessageId>& sent) override;
  double next_delivery() const override;
  MessageId pop_delivery() override;
  void end_batch() override;
  void close() override;
  bool busy() const override { return flow_.busy() || whole_in_transfer_ > 0; }

  const ZoomNetwork& zoom() const { return *zoom_; }  // after open(), with something zoomed
  const RegionMap& regions() const { return map_; }   // after open()
  const packet::Fabric& fabric() const { return *fabric_; }
  const packet::VcScheme& scheme() const { return scheme_; }
  const packet::PacketSim& sim() const { return *sim_; }  // after open()
  const HybridStats& stats() const { return stats_; }
  std::vector<ZoomRouterStats> router_stats() const;  // after close(), ascending vertex; empty without zoom
  // Per message (after close()): whether it touched a region; the bytes cut into packets for its first
  // segments, and per byte handed to any segment, whether it was injected there and arrived.
  bool coupled(MessageId m) const { return flow_.coupled(m); }
  bool whole(MessageId m) const { return !whole_.empty() && whole_[m] != 0; }  // carried whole (no fluid)
  bool sourced(MessageId m) const { return !sourced_.empty() && sourced_[m] != 0; }  // from a zoomed router's endpoint, out of its region
  std::uint64_t packet_bytes(MessageId m) const { return msg_[m].emitted_bytes; }
  std::uint64_t message_bytes(MessageId m) const { return msg_[m].bytes; }
  std::uint64_t handed_bytes(MessageId m) const { return msg_[m].handed; }
  std::uint64_t injected_bytes(MessageId m) const { return msg_[m].accepted; }
  bool all_arrived(MessageId m) const { return msg_[m].flushed && msg_[m].arrived == msg_[m].packets; }

 private:
  struct Segment {
    std::uint32_t route;              // the zoom network's route variable
    EndpointId entry, exit;           // its boundary endpoints
    double lead_s;                    // latency of the flow-level links before it (since the previous segment)
  };
  struct PacketRecord {  // one packet of the zoom level (its id there is its index)
    std::uint32_t var;
    std::uint32_t segment;  // index among its variable's segments; kWhole: a whole message (below)
    std::uint32_t bytes;
  };
  static constexpr std::uint32_t kWhole = ~std::uint32_t{0};
  // --vc-scheme auto checks every endpoint pair's route up to this many pairs (1,024 endpoints), as the
  // packet transport does, and the run's own routes beyond (full_routes_cycle).
  static constexpr std::uint64_t kAllPairsCheck = 1u << 20;
  struct MessageState {
    std::uint64_t bytes = 0;                      // its size, whole bytes
    std::uint64_t handed = 0, arrived_bytes = 0, accepted = 0;  // bytes handed to the zoom level, come to
                                                                 // its boundary queues, and injected there
    std::uint64_t left = 0;                        // bytes that have left a segment's egress
    std::uint64_t done = 0, done_mark = 0;         // bytes out of their last segment (at the epoch's start)
    std::uint32_t grew = 0;                        // epochs in a row its backlog grew
    std::uint64_t offered = 0, emitted_bytes = 0;  // bytes entering a first segment; all bytes cut so far
    std::uint64_t offered_mark = 0, backlog_mark = 0;  // at the epoch's start
    std::uint32_t packets = 0, arrived = 0;        // its packets on their last segment, and those arrived
    std::uint32_t segments = 0;                    // over its variables
    double transit_s = 0;                          // the longest zero-load time through its segments
    double last_arrival = 0;                       // latest delivery of a packet so far (or flow-level part)
    bool flushed = false;
  };
  struct Timed {
    double time;
    MessageId message;
    bool operator>(const Timed& o) const { return time != o.time ? time > o.time : message > o.message; }
  };

  std::vector<std::uint8_t> zoom_links(const PathTable& paths);  // the flow level's hook, once routed
  void plan_segments();
  void mark_router_cables();
  bool router_cable(EndpointId b) const;
  bool full_routes_cycle() const;
  packet::VcScheme choose_zoom_scheme() const;
  void hold_exits();
  void pace_sourced();
  double flits_per_cycle(double gbps) const { return gbps * 1e9 / 8 * clock_s_ / fabric_->flit_bytes(); }
  double default_epoch() const;
  double flow_latency_s(std::span<const LinkId> links, std::size_t a, std::size_t b) const;
  double zero_load_cycles(std::span<const packet::ChannelId> channels, std::uint32_t bytes) const;
  void activate_var(std::uint32_t v);
  void rekey(std::uint32_t v);
  void feed(double target);
  void emit(std::uint32_t v, std::uint64_t bytes, double left_source);
  void emit_all(std::uint32_t v, std::uint64_t bytes);
  void hand(std::uint32_t v, std::uint32_t segment, std::uint32_t bytes, double at);
  void flush(MessageId m);
  void maybe_deliver(MessageId m);
  void deliver(MessageId m, double t);
  void simulate_to(packet::Cycle target);
  void apply_chained();
  void injected(std::uint64_t id, packet::Cycle c);
  bool start_whole(MessageId m);
  void generated(std::uint64_t id);
  void arrival_known(std::uint64_t id, packet::Cycle c);
  void close_epoch();
  void follow_sourced(MessageId m);
  double epoch_event() const;
  double seconds(packet::Cycle c) const { return static_cast<double>(c) * clock_s_; }
  MessageId message_of(std::uint32_t var) const { return var_message_[var]; }
  std::uint32_t mtu_of(MessageId m) const { return nic_.mtu_bytes[messages_->class_of(m)]; }

  const Network& net_;
  const Routing& routing_;
  HybridOptions options_;
  ZoomChooser choose_;
  RegionMap map_;
  std::unique_ptr<ZoomNetwork> zoom_;
  std::unique_ptr<packet::Fabric> fabric_;
  flow::FlowTransport flow_;
  const MessageTable* messages_ = nullptr;
  TransportResult* r_ = nullptr;
  double clock_s_ = 0, epoch_s_ = 0;

  // Segments of every path variable (CSR over the flow level's variables), the latency after its last.
  std::vector<std::uint32_t> seg_offset_;
  std::vector<Segment> segs_;
  std::vector<double> tail_s_;
  std::vector<MessageId> var_message_;  // per path variable, its message
  std::vector<double> flow_part_s_;  // per message: latency of its longest path that touches no region (-1: none)
  std::vector<std::uint8_t> sourced_;  // per message: from a hosted endpoint, out of the region: its packets at its start
  std::vector<std::uint8_t> whole_;    // per message: its only route lies in one region, end to end
  packet::ChannelRoutes routes_;
  PathTable no_pairs_;  // empty: every zoom message names its route
  packet::VcScheme scheme_;
  packet::NicConfig nic_;
  std::unique_ptr<packet::PacketSim> sim_;

  std::vector<MessageState> msg_;
  std::vector<double> emitted_bits_;  // per variable: bits cut into packets so far
  IndexedMinHeap emit_;               // per active segmented variable: when its next full packet has left its source
  std::vector<MessageId> active_;     // coupled messages in transfer
  std::vector<std::uint32_t> active_pos_;
  std::vector<PacketRecord> pkts_;
  std::vector<std::pair<std::uint64_t, packet::Cycle>> chained_;  // packets to hand on (id, arrival cycle)
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> deliveries_, sent_;  // sent_: whole messages
  std::uint32_t whole_in_transfer_ = 0;
  double epoch_start_ = 0, epoch_end_ = Transport::kNever;
  std::uint32_t capped_ = 0;  // messages in transfer with a cap (as of the last epoch, less those ended)
  bool found_ = false;
  HybridStats stats_;
};

}  // namespace interflow::hybrid
