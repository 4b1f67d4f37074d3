#pragma once
// Configuring a Deficit Table (DTable) scheduler from per-SL latency and bandwidth requirements: the
// decoupling methodology of Cano-Cano et al. 2024, §4.4 (after Martinez-Morais et al. 2009), with
// its worked example in §5.3 and Table 4 (manual/packet.md "DTable configuration (qos-config)").
//
// The model. A table of N entries, each an (SL, weight) pair, weights in flow-control credits. An SL
// i asks for a maximum distance d_i (the most table positions between two consecutive entries of
// the SL, counted around the table: it bounds the SL's latency), a bandwidth share φ_i and has a
// largest packet of MTU_i credits; GMTU is the largest MTU of the system. Then (§4.4, Table 1):
//   n_i   = N / d_i                          entries of SL i (d_i must divide N)
//   M     = GMTU · w                         the largest weight of an entry
//   pool  = N · GMTU · k                     the weight that stands for the whole link (k ≤ w)
//   minφ_i = n_i · MTU_i / pool              every entry must carry at least one packet
//   maxφ_i = n_i · M / pool = n_i · w / (N · k)
// and φ_i must lie in [minφ_i, maxφ_i]. The search of §5.3 chooses k and w when they are not
// given: k = 0.1, 0.2, ... until every minφ_i ≤ φ_i, then w = k, k + 0.1, ... until every
// maxφ_i ≥ φ_i (both read as "or equal"; computed in closed form as the first step that holds).
//
// The weights. SL i's total weight is its share of T (the pool, or `total_weight` when given):
// the quotas φ_i · T are rounded down and the units left, round(Σ φ_i · T) minus the sum of the
// floors, go one each to the SLs with the largest fractions (ties: input order). T.W._i is split
// over its n_i entries as evenly as integers allow: r_i = T.W._i mod n_i entries carry one credit
// more, spread over the SL's entries (entry j, in table order, is heavy when ⌊(j+1)·r_i/n_i⌋ >
// ⌊j·r_i/n_i⌋). This is the correction of §5.3: entries of one SL may differ by one credit
// ("E.W. 4-3") so that the totals follow the shares. Every entry must weigh at least MTU_i and
// at most ⌊M⌋; when w was searched and a rounded entry exceeds M, w goes on up in steps of 0.1
// until it fits (the paper's rule alone looks at maxφ, not at the integer weights).
//
// The layout. SL i occupies positions p_i, p_i + d_i, ..., p_i + (n_i − 1)·d_i. No other layout
// meets the distance: n_i gaps around a table of N = n_i · d_i positions, each at most d_i, must
// all be exactly d_i. So a layout is a choice of offsets p_i ∈ [0, d_i) whose position sets are
// disjoint; they are chosen in order of increasing distance (ties: input order), each the smallest
// free offset, backtracking when none is (the search is exhaustive up to 10^6 steps). Positions
// left free are not entries: the table lists the occupied positions in order, which only shortens
// gaps.
//
// Why it is right. (1) Distances: every gap of SL i, the wrap-around one included, is exactly d_i
// (N − (n_i − 1)·d_i = d_i). (2) The first-fit order always succeeds when the distances form a
// divisibility chain (each divides the next, as powers of two do) and Σ 1/d_i ≤ 1: before SL i
// is placed, the used positions are whole residue classes modulo the previous distance, hence
// modulo d_i, Σ_{j<i} d_i / d_j of the d_i classes, and Σ_{j≤i} 1/d_j ≤ 1 leaves at least one
// class free for SL i. (3) Weights: each T.W._i is ⌊φ_i·T⌋ or one more and they sum to
// round(Σ φ_i·T), so |T.W._i − φ_i·T| < 1, and with every SL backlogged the DTable gives SL i
// the share T.W._i / Σ T.W. (each table round sends every entry's weight up to a deficit below one
// MTU that the next round keeps), which is φ_i / Σ φ within about one credit in Σ T.W. The tests
// check Table 4's cells against these formulas and run the table through the `dtable` scheduler.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace interflow::packet {

struct DTableSlSpec {
  std::string name;
  std::uint32_t distance = 1;  // the most table positions between consecutive entries of the SL
  double share = 0;            // the desired bandwidth share φ_i, in (0, 1]
  std::uint32_t mtu = 1;       // the SL's largest packet, credits (1 .. GMTU)
};

struct DTableSpec {
  std::uint32_t entries = 64;                 // N
  std::uint32_t gmtu = 32;                    // the general MTU, credits
  std::optional<double> k, w;                 // each searched when not given
  std::optional<std::uint64_t> total_weight;  // T; the pool N·GMTU·k when not given
  std::vector<DTableSlSpec> sls;              // SL numbers are positions in this list
};

// Limits of the inputs (the `dtable` scheduler takes at most 4096 entries of weight up to 2^30).
struct DTableLimits {
  static constexpr std::uint32_t kMaxEntries = 4096;
  static constexpr std::uint32_t kMaxGmtu = 1u << 20;
  static constexpr std::uint32_t kMaxSls = 256;
  static constexpr std::uint32_t kMaxWeight = 1u << 30;
  static constexpr double kMaxKw = 10000;  // k and w
};

struct DTableSlResult {
  std::uint32_t entries = 0;             // n_i
  double entry_fraction = 0;             // n_i / N
  double min_share = 0, max_share = 0;   // minφ_i, maxφ_i
  std::uint64_t total_weight = 0;        // T.W._i
  std::uint32_t weight_low = 0;          // E.W.: the lighter entry weight ...
  std::uint32_t weight_high = 0;         // ... and the heavier (equal when all entries weigh the same)
  std::uint32_t heavy_entries = 0;       // entries carrying weight_high when it differs
  double share = 0;                      // T.W._i / Σ T.W.: the share of a backlogged SL
  std::vector<std::uint32_t> positions;  // table positions, ascending
};

struct DTableEntry {
  std::uint32_t position = 0, sl = 0, weight = 0;
};

struct DTableConfig {
  double k = 0, w = 0;
  bool k_searched = false, w_searched = false;
  double w_for_shares = 0;          // the w of §5.3's rule (every maxφ_i ≥ φ_i), before the rounded weights
  double pool = 0;                  // N·GMTU·k
  double max_weight = 0;            // M = GMTU·w
  double weight_scale = 0;          // T
  std::uint64_t total_weight = 0;   // Σ T.W.
  std::vector<DTableSlResult> sls;  // in input order
  std::vector<DTableEntry> table;   // the occupied positions in table order
};

// The configuration of `spec`; InputError naming the input (the SL and its field, or the table's
// field) when an input is out of range or the requirements cannot be met.
DTableConfig configure_dtable(const DTableSpec& spec);

}  // namespace interflow::packet
