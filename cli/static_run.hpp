#pragma once
// One static experiment from configuration to results: build the topology, apply failures,
// generate the pattern, route and solve. Used by `interflow static` and by the end-to-end tests.
#include <cstdint>
#include <memory>
#include <string>

#include "cli/plugins.hpp"
#include "core/failures.hpp"
#include "engine/flow/static_engine.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

struct StaticConfig {
  std::string topology = "torus:dims=8x8x8";
  std::string routing;  // empty: the topology's default routing
  std::string pattern = "uniform";
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: all cores
  LinkDefaults links;
  std::string failures = "0";
  std::string failure_scope = "network";
  std::uint64_t max_flows = 200'000'000;
  double max_path_memory_gib = 8;  // refuse routings whose paths would need more
  bool progress = false;
};

struct StaticRun {
  StaticConfig config;
  Spec topology_spec, routing_spec, pattern_spec;
  ParamSet topology_params, routing_params, pattern_params;
  std::unique_ptr<Topology> topology;
  FailureReport failures;
  FlowSet flows;
  workloads::PatternReport pattern_report;
  flow::StaticResult result;
  double build_seconds = 0;
  double pattern_seconds = 0;
  double total_seconds = 0;
  unsigned threads_used = 0;
};

StaticRun run_static(const Plugins& plugins, const StaticConfig& config);

}  // namespace interflow::cli
