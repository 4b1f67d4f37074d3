#pragma once
// How much memory a static run will need, known before the run: `interflow static --memory-estimate`
// prints it, and every run compares it with the memory the machine has available, so a run that
// cannot fit is refused at once with the figures instead of being killed (or swapping) later.
// manual/static-engine.md, "Memory".
//
// The flows' paths are the unknown: a sample of at most kSample flows (kSampleTogether for routings
// that search per destination, such as bfs) spread evenly over the flow list is routed (with each flow's own random stream where the routing routes flows one at a time),
// and the mean number of path variables and links per flow scales to the whole list. Everything
// else is counted from the sizes of the arrays the engine allocates (static_engine.cpp,
// maxmin.cpp, routing.cpp, streamed_maxmin.cpp), phase by phase; the peak is what is alive in the
// largest phase. A routing whose path lengths vary a lot from flow to flow makes the sample's mean
// an estimate, not a bound (bench/RESULTS.md compares it with measured peaks).
#include <cstdint>
#include <limits>

#include "core/flows.hpp"
#include "core/network.hpp"
#include "core/routing.hpp"

namespace interflow::flow {

struct MemoryEstimate {
  bool streamed = false;
  bool paths_kept = true;  // the path table lives through the solve (StaticOptions::keep_paths, run_coding_limit)
  std::uint64_t flows = 0;    // in the run
  std::uint64_t sampled = 0;  // flows routed to measure paths
  double vars_per_flow = 0, links_per_flow = 0;
  double run_bytes_per_flow = 0;  // the paths' run-coded copy (path_runs.hpp), per flow
  std::uint64_t used_links = 0;   // links some path is expected to cross (the solver's state is for those)
  // The lowest bit of the sampled paths' splits (maxmin::lowest_bit_exponent; int max: none), and
  // whether the solver's weight sums are expected exact (otherwise it keeps 8 bytes more per link).
  int split_unit_exponent = std::numeric_limits<int>::max();
  bool exact_weight_sums = true;
  // Bytes alive throughout the run.
  std::uint64_t process = 0;   // the program itself: code, libraries, thread stacks
  std::uint64_t network = 0;   // the network's arrays
  std::uint64_t flow_set = 0;  // the flow list (0 when streamed)
  std::uint64_t paths = 0;     // the routed paths (0 when streamed)
  std::uint64_t path_runs = 0;  // their run-coded copy, which replaces them for the solve (0 when they are kept)
  // Bytes of the phases after routing, the largest of which makes the peak (with the paths while they
  // live, or their run-coded copy in the solve when they are not kept).
  std::uint64_t routing = 0;  // routing's per-flow counts, while paths are stored
  std::uint64_t solver = 0;   // the solver's working arrays (held) or the passes' per-link sums, bitmap and buffer (streamed)
  std::uint64_t results = 0;  // per-flow and per-link results after the solve
  std::uint64_t peak() const;
};

constexpr std::uint64_t kSample = 4096;          // flows sampled for a routing that routes flows one at a time
constexpr std::uint64_t kSampleTogether = 64;    // for one that routes them together (a search per destination)

// A run that holds its flows (StaticEngine::run on a FlowSet, with StaticOptions::keep_paths).
MemoryEstimate estimate_held_run(const Network& net, const Routing& routing, const FlowSet& flows,
                                 std::uint64_t seed, bool keep_paths);
// A streamed run (StaticEngine::run on a FlowStream); the sample bounds what the buffer can hold.
MemoryEstimate estimate_streamed_run(const Network& net, const Routing& routing, const FlowStream& flows,
                                     std::uint64_t seed, std::uint64_t buffer_bytes);

}  // namespace interflow::flow
