#pragma once
// Trace readers and writers (manual/traces.md): GOAL schedules (LogGOPSim), VEF traces (UCLM's VEF
// framework) and INRFlow's plain trace format, all read into operation graphs (core/op_graph.hpp)
// that the application driver (engine/drivers/driver.hpp) replays with the trace's causality. The
// readers stream the file (one line in memory), check counts against headers and name the file and
// line of anything malformed.
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/op_graph.hpp"
#include "workloads/collectives.hpp"

namespace interflow::workloads {

// ---- GOAL --------------------------------------------------------------------------------------
//   num_ranks <n>
//   rank <r> {
//     <label>: send <bytes>[b] to <rank> [tag <t>] [cpu <c>] [nic <n>]
//     <label>: recv <bytes>[b] from <rank> [tag <t>] [cpu <c>] [nic <n>]
//     <label>: calc <time> [cpu <c>]
//     <label> requires <label>      (after its completion)
//     <label> irequires <label>     (after its start)
//   }
// Every reader refuses more ranks than `max_ranks` (the endpoints free for the trace) before it
// allocates anything per rank, so a header that lies costs nothing.
inline constexpr std::uint32_t kMaxTraceRanks = 1u << 24;

struct GoalOptions {
  double calc_unit_s = 1e-9;  // what one unit of a calc's time is, in seconds
  std::uint32_t max_ranks = kMaxTraceRanks;
};
OpGraph read_goal(const std::string& path, const GoalOptions& options);
// Writes every operation with a label l<k> (k its index within the rank) and every dependency.
void write_goal(const OpGraph& g, std::ostream& out, const GoalOptions& options);

// ---- VEF ---------------------------------------------------------------------------------------
//   VEF <nranks> <num_msgs> <num_comms> <num_global_colls> <num_local_colls> <flag>
//   C<k> <rank> <rank> ...                                          (C0 = every rank)
//   <id> <src> <dst> <bytes> <dep_type> <time_ns> <dep_id>           (ids 0, 1, 2, ...)
//   G<cid> <comm> <op> <rank> <send_bytes> <recv_bytes> <dep_type> <time_ns> <dep_id>
// Collective ids are introduced in order (G0's first line before G1's), as VEF writers number them.
struct VefCodes {
  // Dependency types: independent, after a receive, after a send, after a collective.
  std::array<std::uint32_t, 4> dependency{0, 1, 2, 3};
  // Collective operation code -> operation (the default order; see manual/traces.md).
  std::vector<CollectiveOp> operations{CollectiveOp::Bcast,   CollectiveOp::Reduce,  CollectiveOp::Allreduce,
                                       CollectiveOp::Gather,  CollectiveOp::Scatter, CollectiveOp::Allgather,
                                       CollectiveOp::Barrier, CollectiveOp::Alltoall};
};
struct VefOptions {
  VefCodes codes;
  double time_unit_s = 1e-9;  // the unit of time_ns
  // The algorithm each collective expands with (Default: the library's default for the operation).
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Default;
  std::uint32_t max_ranks = kMaxTraceRanks;
};
OpGraph read_vef(const std::string& path, const VefOptions& options);

// Writes g as a VEF trace. VEF gives every message one dependency, so each send depends on the
// operation that was the last to finish among its dependencies in a run of g (op_done_s: per
// operation of g, when it completed; op_ready_s: when it was ready), with the computation between as
// its time. A rank whose end comes after its last message gets a 0-byte message to itself carrying
// that last stretch. Collectives are written as the messages they expanded into.
void write_vef(const OpGraph& g, const std::vector<double>& op_ready_s, const std::vector<double>& op_done_s,
               std::ostream& out, const VefOptions& options);

// ---- INRFlow's plain trace -------------------------------------------------------------------
//   s <sender> <receiver> <tag> <bytes>      (FSIN order; `swapped`: s <receiver> <sender> ...)
//   r <sender> <receiver> <tag> <bytes>      (the receive happens at <receiver>)
//   c <rank> <time>
// A send does not block its rank (INRFlow injects it and goes on); a receive waits for its message;
// c computes. A rank ends when its events are done and its messages have left.
struct TrcOptions {
  bool swapped = false;
  double compute_unit_s = 1e-9;  // what one unit of a c line's time is, in seconds
  std::uint32_t ranks = 0;       // 0: the largest rank named + 1
  std::uint32_t max_ranks = kMaxTraceRanks;
};
OpGraph read_trc(const std::string& path, const TrcOptions& options);

}  // namespace interflow::workloads
