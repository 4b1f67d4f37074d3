#pragma once
// One dynamic experiment: build the network, make the workload (a flow list, a pattern with sizes and
// an arrival process, or applications and traces), and run it through the application driver on the
// flow-level transport. Used by `interflow dynamic` and the tests.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/packet_setup.hpp"
#include "cli/setup.hpp"
#include "core/flow_workload.hpp"
#include "engine/drivers/driver.hpp"
#include "engine/drivers/flows.hpp"
#include "engine/hybrid/hybrid_transport.hpp"
#include "engine/maxmin/class_policy.hpp"

namespace interflow::cli {

struct DynamicConfig {
  NetworkOptions network = [] {
    NetworkOptions n;
    n.topology = "fattree:k=4,n=3";
    return n;
  }();
  std::string flow_file;  // CSV flow list; when empty, `pattern` or the applications are used
  std::string pattern = "uniform";
  double bytes = 1e6;            // per flow of the pattern
  std::string arrival = "zero";  // an arrival spec (workloads/arrival.hpp)
  double load = 0;               // > 0: --load, shorthand for poisson:load=L
  std::uint64_t phase_size = 0;  // > 0: pattern flows in phases of this many, each after the previous
  unsigned threads = 0;
  std::uint64_t max_flows = 200'000'000;
  double max_path_memory_gib = 8;
  std::uint32_t series_bins = 200;
  double router_delay_ns = 0;           // flow level: latency per switch a path passes (--router-delay-ns)
  std::string rate_solver = "auto";  // flow level: the incremental solver, variables, groups or auto (--rate-solver)
  double batch_tolerance = 0;           // flow level: transfer ends this close (relative) share a batch (--batch-tolerance)
  bool profile = false;                 // flow level: time every batch's steps (--profile; an output option)
  bool nic_fifo = false;                // flow-level NICs send one message at a time per class (--nic-fifo)
  bool full_resolve = false;            // re-solve every active flow at every batch (to measure the incremental gain)
  std::vector<std::string> apps;        // application specs (workloads/application.hpp)
  std::string inrflow_workload;         // INRFlow workload file: more applications (workloads/inrflow_workload.hpp)
  double inrflow_time_unit = 1e-9;      // seconds per unit of its arrival times
  double cpu_scale = 1.0;               // multiplies every compute() of the applications
  std::uint32_t max_in_flight = 0;      // per task (INRFlow's injmode); 0 = no limit
  std::string policy = "np";            // a class policy (engine/maxmin/class_policy.hpp)
  std::vector<double> class_shares;     // ba
  std::vector<double> class_caps;       // qos
  std::vector<std::uint32_t> class_priorities;  // fp, qos
  bool progress = false;
  // The transport: "flow" (max-min fair flows) or "packet" (the packet engine, manual/packet.md
  // "Closed-loop workloads") with its options.
  std::string transport = "flow";
  PacketOptions packet;
  // The hybrid transport (manual/hybrid.md); the switch model and clock come from `packet`.
  ZoomOptions zoom;
  // Trace generation (one application): write it as a GOAL schedule and/or a VEF trace, the VEF
  // dependencies taken from this run (workloads/traces.hpp).
  std::string write_goal, write_vef;
};

struct DynamicRun {
  DynamicConfig config;
  NetworkSetup setup;
  std::string workload_text;  // what the workload was, for the reports
  Spec pattern_spec, arrival_spec;  // pattern workloads
  ParamSet pattern_params, arrival_params;
  FlowWorkload workload;      // the flows (in application mode: one per message)
  TransportResult result;
  // Application mode only.
  std::vector<Application> apps;
  drivers::RunResult tasks;  // its messages and flows are moved into workload and result
  // Packet transport only: the packet network and the simulator's statistics.
  std::unique_ptr<PacketSetup> packet;
  packet::RunStats packet_stats;
  // Hybrid transport only: the zoom and what its packet level did (`packet` holds the switch model).
  struct Zoom {
    Spec spec;
    ParamSet params;
    std::uint32_t routers = 0, regions = 0, boundary_endpoints = 0;
    double clock_ns = 0;
    std::string vc_scheme;
    hybrid::HybridStats stats;
    std::vector<hybrid::ZoomRouterStats> router_stats;
  };
  std::unique_ptr<Zoom> zoom;
  double build_seconds = 0, workload_seconds = 0, total_seconds = 0;
  unsigned threads_used = 0;
  bool flows_written = false;  // the per-flow results went to run_dynamic's stream during the run
  bool applications() const { return !apps.empty(); }
};

// flows: where an open-loop run (no applications, dependencies or phases, flow transport) hands its
// per-flow results as it goes (DynamicRun::flows_written says whether it did).
DynamicRun run_dynamic(const Plugins& plugins, const DynamicConfig& config, drivers::ResultStream* flows = nullptr);

}  // namespace interflow::cli
