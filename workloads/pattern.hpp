#pragma once
// Static traffic patterns: each generates a set of (source, destination) endpoint pairs.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/flows.hpp"
#include "core/registry.hpp"

namespace interflow::workloads {

struct PatternContext {
  std::uint32_t endpoints = 0;
  // Endpoint grid from the topology (dimension 0 fastest), empty if it has none; grid patterns
  // (nearest neighbour, tornado) fall back on it when not given dims of their own.
  std::vector<std::uint32_t> grid;
  std::uint64_t seed = 1;                 // the run seed; patterns derive Stream::Pattern from it
  std::uint64_t max_flows = 200'000'000;  // refuse to generate more (memory guard)
};

// What a pattern reports beside its flows.
struct PatternReport {
  std::uint64_t self_pairs_dropped = 0;  // pairs whose destination was the source
  std::uint64_t idle_endpoints = 0;      // endpoints that send nothing by construction
  std::string note;                      // e.g. "bit permutations use the first 2^b endpoints"
};

class Pattern {
 public:
  virtual ~Pattern() = default;
  virtual PatternReport generate(const PatternContext& ctx, FlowSet& out) const = 0;
  // The same flows as a stream generated on demand, for patterns of N^2 flows that need not be held
  // (the static engine's streamed solve); nullptr when the pattern has none. Fills `report` as
  // generate() would. ctx.max_flows does not apply: a stream holds no flow.
  virtual std::unique_ptr<FlowStream> stream(const PatternContext& ctx, PatternReport& report) const {
    (void)ctx;
    (void)report;
    return nullptr;
  }
};

using PatternRegistry = Registry<Pattern>;

// Registers every built-in pattern. Adding a pattern: one file plus one line in register_builtin.cpp.
void register_builtin(PatternRegistry& registry);

void register_uniform(PatternRegistry& registry);
void register_hot_patterns(PatternRegistry& registry);      // hotspot, hotregion
void register_local(PatternRegistry& registry);             // local
void register_bit_permutations(PatternRegistry& registry);  // shuffle, bitreverse, transpose, complement
void register_shift(PatternRegistry& registry);             // shift
void register_randperm(PatternRegistry& registry);          // randperm
void register_bisection(PatternRegistry& registry);         // bisection
void register_all_to_all(PatternRegistry& registry);        // alltoone, alltoall, manyalltoall
void register_grid_patterns(PatternRegistry& registry);     // neighbor, tornado

// Throws an InputError when `flows` exceeds ctx.max_flows, naming the pattern.
void check_flow_budget(const PatternContext& ctx, std::uint64_t flows, const std::string& pattern);

}  // namespace interflow::workloads
