#pragma once
// The flow-level transport (core/transport.hpp): every message is a flow routed once into one or more
// weighted paths; bandwidth is shared by weighted max-min fairness under a class policy
// (engine/maxmin/classed_maxmin.hpp), re-shared once per batch of events at the same instant and only
// where something changed (engine/maxmin/incremental_maxmin.hpp). A flow's transfer ends when its
// 8 x bytes bits are sent at its changing rate; it is delivered one path latency later (the longest of
// its paths, plus router_delay_s per switch on it) (Navaridas et al. 2019, §3.1; manual/dynamic.md
// "The model"). With nic_fifo, a NIC sends its messages one at a time per class in the order they
// start (the packet engine's NIC order): a message that starts while its NIC is busy waits in a FIFO
// and its transfer begins when the one before it ends; its start time stays the time it started, so
// the wait counts in its completion.
//
// It keeps per-flow times, per-link bytes and busy time, and the time series in a TransportResult.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "core/free_lists.hpp"
#include "core/indexed_heap.hpp"
#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/routing.hpp"
#include "core/stats.hpp"
#include "core/system.hpp"
#include "core/transport.hpp"
#include "engine/flow/group_clocks.hpp"
#include "engine/flow/group_switch.hpp"
#include "engine/flow/mixed_clocks.hpp"
#include "engine/maxmin/classed_maxmin.hpp"
#include "engine/maxmin/grouped_maxmin.hpp"

namespace interflow::flow {

struct FlowTransportOptions {
  std::uint64_t seed = 1;                     // routing's random streams derive from it
  std::uint64_t max_path_bytes = 8ULL << 30;  // refuse routings whose paths would need more memory
  std::uint32_t series_bins = 200;            // time series resolution over the makespan
  maxmin::ClassPolicy policy;                 // how service classes share links (default NP)
  bool verify = false;                        // re-solve from scratch after every batch and compare (tests)
  bool incremental = true;                    // false: every batch re-solves all active flows (for comparison)
  // A NIC sends its messages one at a time per class, in the order they start (--nic-fifo), as the
  // packet engine's NICs do: a message waits, from its start, until the NIC's message before it in its
  // class has been sent; false: every message in transfer at once, sharing the NIC max-min.
  bool nic_fifo = false;
  // Seconds a message's path latency gains at every switch it passes (--router-delay-ns): a router's
  // pipeline at zero load, as the packet engine's switch models have one; 0: links only.
  double router_delay_s = 0;
  // Transfer ends within this relative distance of a batch's time are ended in that batch
  // (--batch-tolerance; manual/dynamic.md "Batching"): fewer batches, each transfer ending at most
  // this much (relative) early. 0: only ends at the same instant up to rounding (kSameInstant).
  double batch_tolerance = 0;
  // The incremental solver (--rate-solver): over single variables or over bottleneck groups
  // (engine/maxmin/grouped_maxmin.hpp), the same rates up to rounding; or automatic: over variables,
  // handed to groups when group_switch decides and back to variables when back_switch does (held or
  // streamed, without coupling and with incremental; manual/dynamic.md "Switching to groups").
  maxmin::SolverKind solver = maxmin::SolverKind::variables;
  GroupSwitch::Settings group_switch, back_switch;
  bool profile = false;  // time every batch's steps (TransportResult::profile; --profile)
  // Route each message when it starts and keep the state of the messages in transfer only, in slots
  // used again once their transfer ends: memory follows the flows in flight, not the flows of the run
  // (open-loop runs; manual/dynamic.md "Open-loop runs, streamed"). Taken only with a per-flow routing
  // (each flow's paths independent of the others'), without nic_fifo and zoom_links; otherwise every
  // message is routed at open() (held). Streamed, the paths are not kept (TransportResult::path_vars),
  // max_path_bytes bounds those of the flows in transfer, and the routing's time is the simulation's.
  bool stream = false;
  Progress* progress = nullptr;
  // Hybrid runs (engine/hybrid/hybrid_transport.hpp): called once the messages are routed, it returns
  // per link 0 for an ordinary constraint, 1 for a zoomed region's boundary (still a constraint), 2 for
  // a link inside a zoomed region (the packet level's: left out of the constraints), or nothing (no
  // coupling). A flow with a path touching a 1 or 2 link is *coupled*: it crosses a private cap link
  // (set_cap) and has no delivery of its own (the hybrid transport reports it).
  std::function<std::vector<std::uint8_t>(const PathTable&)> zoom_links;
};

class FlowTransport final : public Transport {
 public:
  FlowTransport(const Network& net, const Routing& routing, const FlowTransportOptions& options);
  FlowTransport(const Network&&, const Routing&, const FlowTransportOptions&) = delete;
  ~FlowTransport() override;

  void open(const MessageTable& messages, TransportResult& result) override;
  double now() const override { return now_; }
  bool start(MessageId m) override;
  double next_event(double bound) override;  // every event is known: bound unused
  double advance_to(double t) override;
  // Transfer ends this close (relative) to a batch's time are taken in it.
  static constexpr double kSameInstant = 1e-12;
  void take_sent(double horizon, std::vector<MessageId>& sent) override;
  double next_delivery() const override { return deliveries_.empty() ? kNever : deliveries_.top().time; }
  MessageId pop_delivery() override;
  void end_batch() override;
  void close() override;
  bool busy() const override { return active_flows_ > 0; }
  bool streamed() const { return streamed_; }
  std::size_t slots() const { return slot_.size(); }  // streamed: the most flows ever in transfer at once

  // For the hybrid transport (options.zoom_links), after open().
  const PathTable& paths() const { return r_->paths; }
  bool coupled(FlowId f) const { return !cap_link_.empty() && cap_link_[f] != kNone; }
  // With nic_fifo: flow f's NIC is the packet level's (the hybrid's messages from a zoomed router's
  // endpoint), which orders its messages itself: f is never queued here. Before f starts.
  void packet_nic(FlowId f) {
    if (!nic_next_.empty()) nic_next_[f] = kPacketNic;
  }
  // Caps coupled flow f at `gbps` in total over its paths (kNever: uncapped), from the next end_batch().
  void set_cap(FlowId f, double gbps);
  bool capped(FlowId f) const { return capacity_[cap_link_[f]] < uncapped_; }
  double cap(FlowId f) const { return capacity_[cap_link_[f]]; }  // Gbit/s (the largest capacity: uncapped)
  // Path variable v: its rate (Gbit/s) and the bits it has carried up to time t (at its current rate
  // since the last batch).
  double var_rate(std::uint32_t v) const { return var_[v].rate; }
  double var_bits_at(std::uint32_t v, double t) const { return var_[v].bits + var_[v].rate * 1e9 * (t - var_[v].last); }
  std::uint32_t active_flows() const { return active_flows_; }

 private:
  enum class Phase : std::uint8_t { Waiting, Queued, Active, Done };
  struct Segment {  // from a batch to the next: the total rate (its active count in segment_active_)
    double time, gbps;
  };
  struct Delivery {
    double time;
    MessageId message;
    bool operator>(const Delivery& o) const { return time != o.time ? time > o.time : message > o.message; }
  };

  void route(const MessageTable& messages);
  // Flow f of the engine: held, message f with the variables of its paths; streamed, a slot carrying
  // message slot_[f].message with variables [first_var, first_var + vars), each with its own links.
  MessageId message_of(FlowId f) const { return streamed_ ? slot_[f].message : f; }
  std::uint32_t first_var(FlowId f) const { return streamed_ ? slot_[f].first_var : r_->paths.first_var(f); }
  std::uint32_t end_var(FlowId f) const {
    return streamed_ ? slot_[f].first_var + slot_[f].vars : r_->paths.end_var(f);
  }
  std::span<const LinkId> links_of(std::uint32_t v) const {  // streamed: while v is active
    return streamed_ ? solver_->links(v) : r_->paths.links(v);
  }
  float path_latency(std::span<const LinkId> links) const;  // seconds
  bool route_one(MessageId m);        // streamed: m's paths into sink_, its latency; false if it has none
  FlowId take_slot(MessageId m);      // streamed: a slot for m, its paths in sink_ activated in the solver
  std::uint32_t take_vars(std::uint32_t count);  // streamed: a range of free variable numbers
  void free_slot(FlowId f);           // streamed: its transfer ended, its numbers free
  void prepare_variables(const MessageTable& messages);
  void couple(const PathTable& paths, const std::vector<std::uint8_t>& zoom);  // the solver's links, capped
  void settle_flow(FlowId f);        // f's remaining bits as of now, at its rate
  void settle_var(std::uint32_t v);  // bits carried by v up to now
  void end_transfer(FlowId f, double due);  // f's transfer, due to end at `due`, ends now
  void activate(FlowId f);           // its transfer starts now
  bool wait_for_nic(FlowId f);       // nic_fifo: queues f behind its NIC's message in transfer (true if it must wait)
  void release_nic(FlowId f);        // nic_fifo: f's transfer ended; the next message of its NIC and class starts
  std::size_t nic_of(FlowId f) const;
  // nic_fifo: whether f takes its turn at a flow-level NIC (not one of the packet level's).
  bool queues_at_nic(FlowId f) const { return options_.nic_fifo && nic_next_[f] != kPacketNic; }
  void update_rates();               // the flows whose variables changed rate: remaining bits, ends
  // Over bottleneck groups without a cap below 1 (grouped_): a flow of one path variable (and no cap
  // link) is followed by its group's clock (clocks_) instead of having its rate, remaining bits and end
  // updated one by one. The other flows over groups, multipath or in capped classes, follow their
  // mix's clock (mixed_, engine/flow/mixed_clocks.hpp).
  bool clocked(FlowId f) const { return !grouped_.empty() && end_var(f) - first_var(f) == 1; }
  bool mixed(FlowId f) const { return mixed_ && !clocked(f); }
  GroupClocks& clock_of(std::uint32_t v) { return clocks_[solver_->level_of(v)]; }
  void follow_groups(FlowId n);   // which flows the clocks follow, set in the solvers
  void follow_flow(FlowId f);     // f's clock or mix marked in the solvers (before f's variables are active)
  // The earliest end over the levels' clocks and the mixes' (kNever: none), and whose clocks.
  double next_clocked_end(std::size_t& which);
  GroupClocks& clocks_at(std::size_t which) { return which < clocks_.size() ? clocks_[which] : mixed_->clocks(); }
  void update_clocks();              // the followed variables that changed group, the groups' levels, starts
  // --rate-solver auto: the batch's changed rates and levels to the rule; on its word, the switch.
  void consider_switch();
  // The batch's changed variables in large levels and the others (GroupSwitch).
  void count_clustered_over_variables(std::uint64_t& clustered, std::uint64_t& rest);
  void count_clustered_over_groups(std::uint64_t& clustered, std::uint64_t& rest);
  // Every active flow's bits settled at its rate, the solver regrouped (an exact solve), every active
  // flow handed to its group's or mix's clock with the bits it has left.
  void switch_to_groups();
  // The reverse: every active flow leaves its clock with the bits it has left (its paths with what they
  // carried), the solver rebuilt over variables (an exact solve), every flow's rate its own again.
  void switch_to_variables();
  void count_rebuild(double solve_s);  // a rebuild's solve in the solver's time
  // f, followed by its group's clock or its mix's, leaves it now (its transfer ends, or the run goes
  // back to variables): each of its paths gets the bits it carried, those from before a switch to groups
  // included; returns the bits f has left.
  double leave_clock(FlowId f);
  // A mixed flow's variables: the bits they carried before the switch (0 for flows started over groups).
  double bits_before(std::uint32_t v) const { return bits_before_.empty() ? 0.0 : bits_before_[v]; }
  double bits_before_flow(FlowId f) const;
  double carried_bits(FlowId f, std::uint32_t v);  // a clocked flow's bits sent up to now
  void rekey_end(FlowId f);          // f's transfer end in the completion heap
  void profile_rates();              // update_rates() timed apart from the heap (--profile)
  void solve();                      // the solver's update (with --profile, the sizes it solved counted)
  void verify();                     // compares the rates with the policy solved from scratch
  void verify_against(std::span<const std::uint64_t> offsets, std::span<const LinkId> links);
  void close_series();

  const Network& net_;
  const Routing& routing_;
  FlowTransportOptions options_;
  TransportResult* r_ = nullptr;
  const MessageTable* messages_ = nullptr;
  std::vector<double> capacity_, weight_;
  std::vector<FlowId> var_flow_;
  std::vector<std::uint32_t> var_class_;
  std::unique_ptr<maxmin::ClassedMaxMin> solver_;
  // Per priority level, its solver over groups and the clocks of its groups (empty: no clocks).
  std::vector<maxmin::GroupedMaxMin*> grouped_;
  std::vector<GroupClocks> clocks_;
  std::unique_ptr<MixedClocks> mixed_;  // null: no flow is mixed
  std::vector<FlowId> clock_starts_;    // clocked and mixed flows started since the last batch
  std::optional<GroupSwitch> switch_;   // --rate-solver auto: the rule, towards the other solver
  std::vector<double> level_scratch_;   // the levels of a batch's sample of changed variables (switch_)
  std::vector<double> bits_before_;     // per variable, after a switch with mixes: bits carried before
  // Hybrid coupling: per flow its cap link (kNone: not coupled), and the solver's own link lists (the
  // paths without inner links, with the cap link; empty without coupling: the paths').
  std::vector<LinkId> cap_link_;
  std::vector<std::uint64_t> solver_offsets_;
  std::vector<LinkId> solver_links_;
  double uncapped_ = 0;  // a cap link's capacity when uncapped: the largest link capacity

  // Per flow and per path variable, the fields a rate change updates together (one cache line).
  struct FlowProgress {
    double remaining_bits = 0;  // as of `last`
    double rate = 0;            // Gbit/s, the sum of its variables'
    double last = 0;
    std::uint32_t mark = 0;  // == stamp_: listed in touched_
    Phase phase = Phase::Waiting;
  };
  struct VarProgress {
    double rate = 0, last = 0, bits = 0;  // bits carried up to `last`
  };
  std::vector<FlowProgress> flow_;
  std::vector<VarProgress> var_;
  std::vector<std::uint32_t> link_active_;
  std::vector<double> busy_since_;
  IndexedMinHeap completion_;  // each active flow with a rate: when its transfer ends
  std::priority_queue<Delivery, std::vector<Delivery>, std::greater<>> deliveries_;
  // One per batch, in blocks (a vector's doubling would hold 1.5 times its size while it copies), the
  // active counts apart (a struct of both would be padded to 24 bytes).
  std::deque<Segment> segments_;
  std::deque<std::uint32_t> segment_active_;
  std::vector<FlowId> touched_;
  // nic_fifo: per (endpoint, class), whether a message is in transfer and the FIFO of those waiting
  // (an intrusive list through nic_next_); kPacketNic marks a message whose NIC is the packet level's.
  static constexpr FlowId kPacketNic = kNone - 1;
  std::vector<std::uint8_t> nic_busy_;
  std::vector<FlowId> nic_head_, nic_tail_, nic_next_;
  std::uint32_t nic_classes_ = 1;
  // Streamed: per slot its message and variables; free slots and free variable ranges (by length);
  // the sink a message is routed into. An active variable's links are the solver's.
  struct Slot {
    MessageId message = 0;
    std::uint32_t first_var = 0, vars = 0;
    std::uint32_t links = 0;  // link entries of its paths
  };
  bool streamed_ = false;
  const PerFlowRouting* per_flow_ = nullptr;
  std::vector<Slot> slot_;
  std::vector<FlowId> free_slots_;
  FreeRanges free_vars_;
  std::uint32_t next_var_ = 0;
  std::uint64_t live_links_ = 0, live_vars_ = 0;  // of the flows in transfer (--max-path-memory applies to them)
  PathSink sink_;
  Stopwatch solve_clock_, run_clock_;
  RunningSum total_gbps_;  // of the flows followed one by one (not by clocks)
  double now_ = 0;
  std::uint32_t active_flows_ = 0, stamp_ = 0;
  bool changed_ = false;  // flows started or ended since the last re-sharing
};

}  // namespace interflow::flow
