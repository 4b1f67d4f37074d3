#pragma once
// Operation graphs: what each rank of a traced application does, as a graph of operations with
// dependencies (the model of GOAL schedules and VEF traces; manual/traces.md).
//
//   send(dst, bytes, tag)  starts its transfer when ready; complete when its last bit has left
//   recv(src, bytes, tag)  posted when ready; complete when posted and its message delivered
//   calc(seconds)          when ready (and, if it uses the CPU, when the rank's CPU is free: such
//                          calcs of a rank run one at a time, in the order they become ready)
//
// An operation is ready when every operation it depends on has completed (a completion dependency,
// GOAL's `requires`) or started (a start dependency, GOAL's `irequires`); one without dependencies is
// ready when its application arrives. A receive matches one send: named explicitly (VEF message ids)
// or, for the others, the k-th receive at rank d from rank s with a tag and size matches the k-th such
// send of s to d, in operation order (MPI's non-overtaking rule).
//
// A sequential task program (core/program.hpp) converts to a graph with the same timing
// (append_program), so synthetic applications and traces run side by side.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "core/program.hpp"

namespace interflow {

enum class GraphOp : std::uint8_t { Send, Recv, Calc };

inline constexpr std::uint32_t kNoOp = std::numeric_limits<std::uint32_t>::max();

// Calc flags.
inline constexpr std::uint8_t kCalcScaled = 1;   // the run's CPU factor multiplies the duration
inline constexpr std::uint8_t kCalcUsesCpu = 2;  // occupies the rank's CPU
// Send flag: the send completes when its message is delivered, not when its last bit has left (a
// flow of a flow workload, whose dependents wait for its delivery).
inline constexpr std::uint8_t kSendUntilDelivered = 4;

// A dependency: an operation and whether its start (rather than its completion) is awaited.
struct Dependency {
  std::uint32_t op = 0;
  bool on_start = false;
};

struct OpGraph {
  std::uint32_t ranks = 0;
  // Per operation, grouped by rank in the order they were added (rank_offsets, CSR). Or, for graphs
  // whose operations are best kept in another order (flow workloads: by start time), not grouped:
  // `rank` gives each operation's rank and rank_offsets is empty (every rank's operations are then
  // still in their order within the rank).
  std::vector<std::uint32_t> rank_offsets{0};
  std::vector<std::uint32_t> rank;
  std::vector<GraphOp> kind;
  std::vector<std::uint32_t> peer;   // send/recv: the other rank
  std::vector<std::uint32_t> tag;    // send/recv
  std::vector<double> value;         // send/recv: bytes; calc: seconds
  std::vector<std::uint8_t> flags;   // calc: kCalc... flags; send: kSendUntilDelivered
  std::vector<std::uint8_t> klass;   // send: service class, or kAppClass for the application's class
  std::vector<std::uint32_t> match;  // send: its receive; recv: its send (kNoOp: none)
  // Dependencies per operation (CSR): entry = op << 1 | on_start.
  std::vector<std::uint64_t> dep_offsets{0};
  std::vector<std::uint32_t> deps;
  // Optional (empty, or one entry per operation): the earliest start of each operation, in seconds
  // after its application's arrival (flow workloads' start times).
  std::vector<double> not_before;
  // Optional (empty, or one entry per operation): for each send, the key that numbers its message
  // among the sends (with its start time, for memory locality) and seeds its routing.
  std::vector<std::uint32_t> message_key;

  std::uint32_t size() const { return static_cast<std::uint32_t>(kind.size()); }
  bool grouped() const { return rank.empty(); }
  bool built() const { return grouped() ? rank_offsets.size() == ranks + std::size_t{1} : rank.size() == size(); }
  std::uint32_t rank_of(std::uint32_t op) const;  // rank[op], or a binary search over rank_offsets
  std::span<const std::uint32_t> deps_of(std::uint32_t op) const {
    return {deps.data() + dep_offsets[op], deps.data() + dep_offsets[op + 1]};
  }
  static Dependency decode(std::uint32_t entry) { return {entry >> 1, (entry & 1) != 0}; }
};

// Builds an OpGraph rank by rank: operations of a rank are added in order (a rank's operations may be
// added in several stretches, as long as ranks are visited in any order; build() groups them).
class OpGraphBuilder {
 public:
  explicit OpGraphBuilder(std::uint32_t ranks) : ranks_(ranks) {}

  std::uint32_t ranks() const { return ranks_; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(rank_.size()); }
  std::uint32_t rank_of_op(std::uint32_t op) const { return rank_[op]; }
  // Each returns the new operation's id (ids count up from 0 in the order added; build() keeps them
  // if the operations were added rank by rank, and renumbers them otherwise: see build()).
  std::uint32_t send(std::uint32_t rank, std::uint32_t dst, double bytes, std::uint32_t tag,
                     std::uint8_t klass = kAppClass);
  std::uint32_t recv(std::uint32_t rank, std::uint32_t src, double bytes, std::uint32_t tag);
  std::uint32_t calc(std::uint32_t rank, double seconds, std::uint8_t flags);
  void depend(std::uint32_t op, Dependency on);
  // Pairs a send with a receive explicitly (both must be unmatched).
  void pair(std::uint32_t send_op, std::uint32_t recv_op);
  // Tags no other call returned and no user tag uses (user tags stay below 2^30).
  std::uint32_t fresh_tags(std::uint32_t count);

  // Groups the operations by rank (keeping each rank's order), renumbers dependencies and pairs,
  // matches the unpaired receives to sends by channel, and checks the graph: ranks and peers in range,
  // sizes and durations finite and >= 0, dependencies on operations of the same rank, no cycles.
  // `what` names the graph in errors. `renumbered` (optional) receives the new id of every old id.
  OpGraph build(const std::string& what, std::vector<std::uint32_t>* renumbered = nullptr);

 private:
  std::uint32_t add(std::uint32_t rank, GraphOp kind, std::uint32_t peer, std::uint32_t tag, double value,
                    std::uint8_t flags, std::uint8_t klass);

  std::uint32_t ranks_;
  std::uint32_t next_tag_ = 1u << 30;
  std::vector<std::uint32_t> rank_, peer_, tag_, match_;
  std::vector<GraphOp> kind_;
  std::vector<double> value_;
  std::vector<std::uint8_t> flags_, klass_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> deps_;  // (op, encoded dependency)
};

// Appends task t's program to b as rank rank_of[t] with the same timing: each operation depends on the
// task's control point (the operations that must be complete before the program goes on); a wait makes
// the outstanding isends and irecvs the control point (each depends on the one before, so the graph
// stays linear in the program's length); compute becomes a scaled CPU calc and delay an unscaled
// delay. `entry[t]` (optional, kNoOp for none) is an operation task t's first operations depend on.
// Tags of collectives (>= 2^30) are replaced by fresh tags of b. Returns, per task, one operation
// (a zero calc) that completes when task t's program is complete: its end, outstanding operations
// included. `sends_in_order`: every operation also waits for the start of the task's last isend
// before it (a task that cannot start an isend, held back by a limit of messages in flight, does
// nothing else meanwhile); without a limit this changes no time.
std::vector<std::uint32_t> append_program(OpGraphBuilder& b, const Program& p, std::span<const std::uint32_t> rank_of,
                                          std::span<const std::uint32_t> entry, bool sends_in_order = false);

// Who depends on each operation of g (CSR): the entries of operation i are
// entries[offsets[i] .. offsets[i + 1]), each dependent << 1 | on_start, dependents in increasing id.
struct Dependents {
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> entries;
};
Dependents dependents_of(const OpGraph& g);

// The operations in an order where each comes after every operation it depends on (Kahn's
// algorithm); shorter than g.size() when dependencies form a cycle (its operations are missing).
std::vector<std::uint32_t> dependency_order(const OpGraph& g, const Dependents& d);

// The graph of a whole program (rank t = task t).
OpGraph graph_of(const Program& p, const std::string& what, bool sends_in_order = false);

// "send", "recv", "calc".
std::string_view name_of(GraphOp k);

}  // namespace interflow
