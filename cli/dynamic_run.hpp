#pragma once
// One dynamic experiment: build the network, make the workload (a flow-list file, or a pattern with
// sizes and arrival times), simulate. Used by `interflow dynamic` and the tests.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/setup.hpp"
#include "core/flow_workload.hpp"
#include "engine/drivers/driver.hpp"
#include "workloads/pattern.hpp"

namespace interflow::cli {

inline NetworkOptions default_network() {
  NetworkOptions n;
  n.topology = "fattree:k=4,n=3";
  return n;
}

struct DynamicConfig {
  NetworkOptions network = default_network();
  std::string flow_file;  // CSV flow list; when empty, `pattern` is used
  std::string pattern = "uniform";
  double bytes = 1e6;            // per flow of the pattern
  std::string arrival = "zero";  // zero: every flow at time 0; poisson: a Poisson process at `load`
  double load = 0.1;             // fraction of the endpoints' total injection capacity (poisson)
  std::uint64_t phase_size = 0;  // > 0: pattern flows in phases of this many, each after the previous
  unsigned threads = 0;
  std::uint64_t max_flows = 200'000'000;
  double max_path_memory_gib = 8;
  std::uint32_t series_bins = 200;
  bool full_resolve = false;         // re-solve every active flow at every batch (to measure the incremental gain)
  std::vector<std::string> apps;     // application specs (workloads/application.hpp); when given, tasks run programs
  std::string inrflow_workload;      // INRFlow workload file: more applications (workloads/inrflow_workload.hpp)
  double inrflow_time_unit = 1e-9;   // seconds per unit of its arrival times
  double cpu_scale = 1.0;            // multiplies every compute() of the applications
  std::uint32_t max_in_flight = 0;   // per task (INRFlow's injmode); 0 = no limit
  std::string policy = "np";         // class policy: np, fp, ba, qos (engine/class_policy.hpp)
  std::vector<double> class_shares;  // ba
  std::vector<double> class_caps;    // qos
  std::vector<std::uint32_t> class_priorities;  // fp, qos
  bool progress = false;
  // Trace generation (one application): write it as a GOAL schedule and/or a VEF trace, the VEF
  // dependencies taken from this run (workloads/traces.hpp).
  std::string write_goal, write_vef;
};

struct DynamicRun {
  DynamicConfig config;
  NetworkSetup setup;
  std::string workload_text;  // what the workload was, for the reports
  FlowWorkload workload;   // the flows (in application mode: one per message)
  TransportResult result;
  // Application mode only.
  std::vector<Application> apps;
  drivers::RunResult tasks;  // its `messages` and `flows` are moved into workload and result
  double build_seconds = 0, workload_seconds = 0, total_seconds = 0;
  unsigned threads_used = 0;
};

DynamicRun run_dynamic(const Plugins& plugins, const DynamicConfig& config);

// Gives the flows of `w` Poisson arrival times, in a random order drawn from the seed, with
// `flows_per_second` arrivals per second on average.
void assign_poisson_arrivals(FlowWorkload& w, double flows_per_second, std::uint64_t seed);

}  // namespace interflow::cli
