#pragma once
// One static experiment from configuration to results: build the topology, apply failures,
// generate the pattern, route and solve. Used by `interflow static` and by the end-to-end tests.
#include <cstdint>
#include <memory>
#include <string>

#include "cli/plugins.hpp"
#include "cli/setup.hpp"
#include "engine/flow/static_engine.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

struct StaticConfig {
  NetworkOptions network = [] {
    NetworkOptions n;
    n.topology = "torus:dims=8x8x8";
    return n;
  }();
  std::string pattern = "uniform";
  unsigned threads = 0;  // 0: all cores
  std::uint64_t max_flows = 200'000'000;
  double max_path_memory_gib = 8;  // refuse routings whose paths would need more
  bool progress = false;
};

struct StaticRun {
  StaticConfig config;
  NetworkSetup setup;
  Spec pattern_spec;
  ParamSet pattern_params;
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
