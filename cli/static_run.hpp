#pragma once
// One static experiment from configuration to results: build the topology, apply failures,
// generate the pattern, route and solve. Used by `interflow static` and by the end-to-end tests.
#include <cstdint>
#include <memory>
#include <string>

#include "cli/plugins.hpp"
#include "cli/setup.hpp"
#include "engine/flow/memory_estimate.hpp"
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
  // Streamed solve (engine/flow/streamed_maxmin.hpp): "auto" streams when the pattern can (all-to-all
  // kinds), the routing routes each flow alone and no per-flow result is wanted; "on" requires it;
  // "off" holds every flow.
  std::string stream = "auto";
  double stream_buffer_mib = 64;  // the streamed solve's buffer of unfrozen variables
  bool stream_predict = true;     // its predicted levels (no option: tests turn them off to compare)
  double stream_sample_weight = 4096;  // and the weight per link its sample aims at (no option either)
  bool per_flow_results = false;  // flows.csv wanted: every flow must be held
  bool keep_paths = false;  // keep StaticResult::paths after the solve (implied by per_flow_results)
  bool memory_estimate_only = false;  // estimate the memory the run needs, and stop there
  bool memory_check = true;           // refuse a run whose estimate exceeds the memory available
  std::uint64_t memory_available_bytes = 0;  // 0: the machine's (MemAvailable); tests set their own
  bool progress = false;
};

struct StaticRun {
  StaticConfig config;
  NetworkSetup setup;
  Spec pattern_spec;
  ParamSet pattern_params;
  FlowSet flows;
  workloads::PatternReport pattern_report;
  bool streamed = false;        // flows generated on each pass, never held (`flows` is empty)
  bool pattern_streams = false; // the pattern has a stream (it may still be held: see stream_reason)
  std::string stream_reason;    // with --stream auto: why the run streamed or not
  flow::MemoryEstimate memory;  // made before routing
  std::uint64_t memory_available_bytes = 0;
  bool solved = false;          // false after config.memory_estimate_only
  flow::StaticResult result;
  double build_seconds = 0;
  double pattern_seconds = 0;
  double total_seconds = 0;
  unsigned threads_used = 0;
};

StaticRun run_static(const Plugins& plugins, const StaticConfig& config);

}  // namespace interflow::cli
