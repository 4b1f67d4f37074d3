#pragma once
// Max-min fair rates of flows that are never all held at once (all-to-all among thousands of
// endpoints): the flows are generated from a FlowStream and routed again on every pass, and only
// per-link state stays in memory. manual/static-engine.md, "Streamed solve".
//
// Why per-link state is enough. Progressive filling (maxmin.hpp) freezes every path variable v at
// w_v * L, where L is the fair share of the first of v's links to saturate; call the share at which a
// link saturates its level (+inf if it never does). So the whole allocation is one number per link:
// rate_v = w_v * min over the links l of v of level(l).
//
// A pass streams every flow and, with the levels known so far, finds each variable frozen (one of
// its links has a level: it adds w_v * min level to the load of each of its links) or unfrozen (it
// adds w_v to the weight of each of its links). The fair share (c_l - load_l) / weight_l of every
// link is then exactly its share in progressive filling at this point, and the links of smallest
// share saturate next: each gets its share as its level. Links whose shares agree within a relative
// 1e-12 of the smallest all get theirs in the same pass (freezing the variables of a link of share s
// leaves a link of share s unchanged, so with exact arithmetic the order among them is immaterial;
// the tolerance only absorbs summation rounding). Every pass so fixes at least one level.
//
// Predicted levels. A pass that only learns the next level leaves a third pass on a torus, whose
// levels come one after another. So every pass after the first also predicts the next levels: the
// links not yet saturated are cut into up to kMaxGroups groups of equal share (within 1e-9), in
// increasing order of the shares the last pass left them, a link's group being its prediction that
// all its links saturate together, group by group. For each open variable the pass records the
// first group it crosses, g, and sums its weight per group and link; a flow whose variables all
// have the same g and none frozen is closable: its weight and length are tallied per group and it is
// marked pending. After the pass the prediction is checked step by step with those sums: group k is
// accepted when every link of it still carrying open weight has the smallest share of all links
// (within 1e-12) once groups 1..k-1 are frozen; then its links get that smallest share L_k as level,
// and each variable whose first group is k freezes at w * L_k. This is exactly progressive filling,
// with the variables of step k known from the pass instead of from another pass; a wrong prediction
// only stops the checking (the true next links still saturate, as without prediction). A pending
// flow of an accepted group is closed: its tallies and loads are final. When every group is
// accepted, pending flows are closed without being routed again; otherwise the next pass routes them
// once more and closes those whose group was accepted (the previous pass's groups are kept for that).
// On a torus's all-to-all the order of shares after the first pass is the order of the levels, and
// the second pass ends the solve.
//
// The first pass is predicted from a sample: when the flows cannot all fit the buffer and a random
// 1/2^b of them (b >= 2, by a hash of the flow index) would still put about `sample_weight` of path
// weight on the average link, only those are routed, and the links, in increasing order of
// capacity over sampled weight, are cut into groups wherever two consecutive ones differ by more
// than kSampleGap. Links of equal load then fall into one group (sampling spreads them by a few per
// cent around their value); a group that mixes links of different shares is simply not accepted.
// When every group is, one pass ends the solve.
//
// A flow all of whose variables are frozen is closed: its rates and loads never change again (levels
// only grow), so it is added to the per-link loads and the results once, marked in a bitmap, and
// never routed again; a pass routes only the flows still open. Passes end early: when the unfrozen
// variables of a pass fit in `buffer_bytes`, they are kept, and what is left of progressive filling
// — max-min among them over the capacities c_l - load_l — is solved in memory by MaxMinSolver, which
// is exactly the continuation of the same process. A problem that fits the buffer from the start is
// so solved in one pass, by the same solver as the engine that holds every flow (identical rates).
// Rates then differ from that engine only by the order of floating-point sums (per-link loads are
// summed per fixed part of the flows, parts in order).
//
// Per-flow results are kept as counted values (a value and how many flows have it): a streamed
// all-to-all has few distinct rates, and the counts give every summary (median included) exactly.
// Results never depend on the thread count: flows are cut into fixed parts, each summed in flow
// order, and parts are merged in order.
#include <cstdint>
#include <vector>

#include "core/flows.hpp"
#include "core/network.hpp"
#include "core/progress.hpp"
#include "core/routing.hpp"
#include "core/stats.hpp"

namespace interflow::flow {

struct StreamedInput {
  std::uint64_t seed = 1;                // the run seed (flow f's route uses its stream f)
  double direct_endpoint_gbps = 100.0;   // rate of a path with no link (two endpoints of one router)
  std::uint64_t buffer_bytes = 64ULL << 20;  // for the unfrozen variables of a pass
  std::uint64_t max_distinct_values = 1ULL << 20;  // per part, of flow rates and of path lengths
  bool predict = true;                   // predicted levels (off: one level step per pass, for tests)
  double sample_weight = 4096;           // sampled path weight per link aimed at for the first pass's prediction
  Progress* progress = nullptr;
};

struct StreamedResult {
  std::uint64_t flows = 0, flows_self = 0, flows_routed = 0, flows_unroutable = 0, path_variables = 0;
  std::vector<Counted> flow_rate_gbps;  // over routed flows
  std::vector<Counted> path_links;      // over routed flows (split-weighted mean path length)
  std::vector<std::uint32_t> link_paths;  // per link: number of path variables crossing it
  std::vector<double> link_load_gbps;     // per link: sum of the rates crossing it
  std::uint32_t passes = 0;
  std::vector<double> pass_seconds;           // per pass: wall time
  std::vector<std::uint64_t> pass_flows;      // per pass: flows routed (those still open)
  std::uint64_t levels = 0;               // links saturated by the passes
  std::uint64_t predicted_levels = 0;     // of them, saturated by a prediction that checked out
  std::uint64_t sample_flows = 0;         // routed to predict the first pass (0: no sample)
  double sample_seconds = 0;
  std::uint64_t residual_variables = 0;   // solved in memory after the last pass
  std::uint64_t residual_steps = 0, residual_refreshes = 0;
};

class StreamedMaxMin {
 public:
  StreamedMaxMin(const Network& net, const PerFlowRouting& routing, const FlowStream& flows,
                 const StreamedInput& input);
  ~StreamedMaxMin();
  StreamedResult run();

  // Flows are cut into this many parts (fewer when the per-link sums of 16 would pass 512 MiB): fixed
  // by the network alone, so results never depend on the thread count.
  static constexpr std::size_t kMaxParts = 16;
  static std::size_t parts_for(std::size_t num_links);
  static constexpr double kTie = 1e-12;       // relative: shares this close saturate in one pass
  static constexpr std::size_t kMaxGroups = 8;  // predicted groups of links per pass
  static constexpr double kGroupTie = 1e-9;     // relative: shares this close make one predicted group
  static constexpr std::uint8_t kNoGroup = 0xFF;
  static constexpr double kSampleGap = 0.01;    // relative: sampled shares further apart start a new group
  // Predicted groups per pass on this network: kMaxGroups, fewer when their per-link sums (two per
  // part and one merged) would pass 256 MiB, 0 on a network too large for any.
  static std::size_t groups_for(std::size_t num_links);

 private:
  struct Tally;  // counted values of one part
  struct Part;   // one part's per-link sums, tallies and buffered unfrozen variables

  void pass();
  void stream_part(Part& part);
  bool closed(std::uint64_t f) const { return (closed_[f >> 6] >> (f & 63)) & 1; }
  void close(std::uint64_t f) { closed_[f >> 6] |= std::uint64_t{1} << (f & 63); }
  bool pending(std::uint64_t f) const { return (pending_[f >> 6] >> (f & 63)) & 1; }
  void add_flow(Part& part, std::uint64_t f, const PathSink& sink);
  void route_flow(std::uint64_t f, EndpointId src, EndpointId dst, PathSink& sink) const;
  template <bool kGroups>
  bool find_levels(Part& part, const PathSink& sink) const;
  bool settled_by_prediction(const PathSink& sink) const;
  void settle_flow(Part& part, std::uint64_t f, const PathSink& sink, bool closed);
  void settle_closable(Part& part, std::uint64_t f, const PathSink& sink, std::uint32_t group);
  void merge_parts();
  bool buffer_complete() const;
  void solve_buffered();
  double capacity(std::size_t l) const;
  double share(std::size_t l) const;
  void accept_predictions();
  bool group_saturates_next(std::size_t k);
  void commit_group(std::size_t k, double level);
  void saturate_next_links();
  void order_links_by_share();
  void predict_groups();
  void predict_from_sample();
  unsigned sample_bits() const;
  std::vector<double> sampled_weights(unsigned bits);
  void set_groups(const std::vector<std::pair<double, LinkId>>& order, double tie, bool consecutive);
  void collect_tallies();

  const Network& net_;
  const PerFlowRouting& routing_;
  const FlowStream& flows_;
  StreamedInput in_;
  std::vector<Part> parts_;
  bool first_pass_ = true;
  std::vector<std::uint64_t> closed_;   // per flow, a bit: closed (or self, or unroutable)
  std::vector<std::uint64_t> pending_;  // per flow, a bit: closable at the last pass's prediction
  std::vector<double> level_;       // per link: +inf until it saturates
  std::vector<double> load_, weight_;  // per link: frozen rates; weight of open variables not frozen
  std::vector<std::uint8_t> group_;       // per link: predicted group for this pass, kNoGroup for none
  std::vector<std::uint8_t> last_group_;  // the groups of the last pass, to settle its pending flows
  std::size_t groups_ = 0, last_accepted_ = 0;  // groups predicted this pass; accepted of the last
  bool any_pending_ = false;  // the last pass left pending flows for this one to settle
  std::vector<std::vector<LinkId>> group_links_;  // per group of this pass: its links
  std::vector<std::pair<double, LinkId>> share_order_;  // see order_links_by_share()
  std::vector<double> group_weight_;  // [k * links + l]: weight of open variables whose first group is k+1
  std::uint64_t open_flows_ = 0;    // flows of the last pass with an unfrozen variable
  StreamedResult res_;
};

}  // namespace interflow::flow
