#pragma once
// The packet engine as a transport (core/transport.hpp): applications, traces, flow lists and the
// scheduler's jobs run on flits, credits and switch models instead of max-min fair flows
// (manual/packet.md "Closed-loop workloads").
//
// Each message started is handed to a PacketSim NIC at the cycle of its start (times in seconds are
// cycles of the fabric's clock; a start between two cycles goes at the next one) on its endpoint
// pair's route (one sub-path per message by weight, as in open-loop runs), on the SL of its service
// class. Its transfer ends when the tail of its last packet has left its NIC, and it is delivered
// when that of its last packet has reached the destination NIC.
//
// Why this is causal. The driver only learns of a transfer end or a delivery through next_event(),
// and may start messages at any time. The simulator reports both times ahead of them
// (PacketSim::on_injected, on_arrival_known), during a cycle strictly before them. So, once it has
// simulated every cycle before cycle c, every event at or before c is known. next_event(bound)
// simulates up to the earliest known event or the driver's own next event, whichever comes first
// (stopping early whenever an earlier event becomes known): every event before that point is then
// known, none has been simulated past, and a message the driver starts there enters at the cycle it
// was started, not later.
//
// Per message it reports start, transfer end and finish; per link the bytes and busy time; the
// time series is the NICs' injection rate (flits injected, counted per 64 cycles and averaged over
// each bin) and the number of messages under transfer.
#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/system.hpp"
#include "core/transport.hpp"
#include "engine/packet/packet_sim.hpp"

namespace interflow::packet {

// The routed network a packet transport runs on; it outlives every transport made on it (a
// scheduler's replay makes one per simulation).
struct PacketNetwork {
  const Network* net = nullptr;
  const Fabric* fabric = nullptr;
  const PathTable* pairs = nullptr;  // one flow per ordered endpoint pair, s * N + d
  const ChannelRoutes* routes = nullptr;
  const VcScheme* scheme = nullptr;
  RouterConfig router;
};

struct PacketTransportOptions {
  std::uint64_t seed = 1;
  // Per SL (service class), the largest packet in bytes; one value applies to every SL; empty: one flit.
  std::vector<std::uint32_t> mtu_bytes;
  std::uint64_t injection_queue_bytes = 229376;
  std::uint32_t series_bins = 200;
  Cycle stall_limit = 1000000;  // cycles without any packet moving that end the run as a deadlock
};

// One SL per service class the messages use (at most 16), each with its MTU (one value for every SL,
// or one per SL; 0 or none: one flit).
NicConfig nic_config_for(const MessageTable& messages, const std::vector<std::uint32_t>& mtu,
                         std::uint32_t flit_bytes, std::uint64_t injection_queue_bytes);

class PacketTransport final : public Transport {
 public:
  PacketTransport(const PacketNetwork& network, const PacketTransportOptions& options);
  ~PacketTransport() override;

  void open(const MessageTable& messages, TransportResult& result) override;
  double now() const override { return now_; }
  bool start(MessageId m) override;
  double next_event(double bound) override;
  double advance_to(double t) override;
  void take_sent(double horizon, std::vector<MessageId>& sent) override;
  double next_delivery() const override { return deliveries_.empty() ? kNever : deliveries_.top().time; }
  MessageId pop_delivery() override;
  void end_batch() override;
  void close() override;
  bool busy() const override { return under_transfer_ > 0; }

  // The simulator of the current run (after open()): its statistics and invariant checks.
  const PacketSim& sim() const { return *sim_; }

 private:
  struct Timed {
    double time;
    MessageId message;
    bool operator>(const Timed& o) const { return time != o.time ? time > o.time : message > o.message; }
  };
  using TimedHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<>>;
  static constexpr Cycle kForever = ~Cycle{0};

  void route_latencies();
  Cycle cycle_at(double seconds) const;
  double seconds(Cycle c) const { return static_cast<double>(c) * clock_s_; }
  double earliest_known() const;
  void simulate_to(Cycle target);
  void injected(std::uint64_t id, Cycle c);
  void arrival_known(std::uint64_t id, Cycle c);
  void count_active(int change);
  void close_links();
  void close_series();

  PacketNetwork network_;
  PacketTransportOptions options_;
  double clock_s_;
  const MessageTable* messages_ = nullptr;
  TransportResult* r_ = nullptr;
  std::unique_ptr<PacketSim> sim_;
  std::vector<MessageId> message_of_;  // the simulator's message ids (send order) -> message
  TimedHeap sent_, deliveries_;
  bool found_ = false;  // an event the driver waits for became known while simulating
  double now_ = 0;
  std::uint32_t under_transfer_ = 0;
  std::vector<std::pair<double, std::uint32_t>> active_steps_;  // (time, messages under transfer from then)
  Stopwatch clock_;
};

}  // namespace interflow::packet
