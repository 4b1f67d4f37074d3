#pragma once
// One scheduler experiment: the job stream (scheduler/job_sources.hpp), and in network-aware mode the
// network and the jobs' applications on the flow-level transport; then the schedule. Used by
// `interflow schedule` and the tests.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/packet_setup.hpp"
#include "cli/setup.hpp"
#include "scheduler/job_sources.hpp"
#include "scheduler/schedule.hpp"
#include "storage/placement.hpp"
#include "storage/storage_system.hpp"

namespace interflow::cli {

struct ScheduleConfig {
  std::string swf, policy = "easy", size_from = "allocated", overrun = "kill", missing = "drop";
  std::string estimate = "log", allocation = "consecutive", passes = "instant";
  std::uint32_t procs_per_node = 1, nodes = 0, series_bins = 200;
  double estimate_scale = 1, bsld_tau = 10;
  // A synthetic stream instead of a log.
  std::uint32_t jobs = 0;
  double mean_gap = 60, mean_runtime = 600, estimate_factor = 1;
  std::vector<std::uint32_t> job_sizes{1};
  // Network-aware mode.
  bool network_aware = false;
  bool progress = true;  // the progress line (--no-progress)
  NetworkOptions network = [] {
    NetworkOptions n;
    n.topology = "fattree:k=4,n=3";
    return n;
  }();
  std::vector<std::string> job_apps;
  double time_scale = 1;         // log submit times are multiplied by this in network-aware mode
  std::string inrflow_workload;  // network-aware: jobs from INRFlow's workload file
  double inrflow_time_unit = 1e-9;
  std::string mapping = "consecutive", job_app_by = "executable";
  // The transport of the jobs' messages: flow, packet (with the packet engine's options) or hybrid
  // (with those and the zoom's).
  std::string transport = "flow";
  PacketOptions packet;
  ZoomOptions zoom;
  // How service classes share links (network-aware flow transport): App (class 0) and I/O (class 1).
  std::string class_policy = "np";
  std::vector<double> class_shares, class_caps;
  std::vector<std::uint32_t> class_priorities;
  // Storage (manual/storage.md): on when a data placement policy is given.
  std::string data_placement;
  storage::StorageConfig storage;
  std::string san, san_routing;  // the SAN topology and its routing (empty: its default)
  double san_gbps = 10, san_latency_ns = 100;
  std::vector<std::uint32_t> gateway_nodes;
};

struct ScheduleRun {
  ScheduleConfig config;
  scheduler::JobStream stream;
  std::uint32_t nodes = 0;  // machine size used
  std::unique_ptr<NetworkSetup> setup;  // network-aware only
  std::unique_ptr<PacketSetup> packet;  // network-aware with --transport packet (hybrid: the switch model)
  std::unique_ptr<hybrid::ZoomSelection> zoom;  // network-aware with --transport hybrid
  // With --data-placement: the SAN (if any), the storage system, its routing and the data placer.
  std::unique_ptr<NetworkSetup> san;
  std::unique_ptr<storage::StorageSystem> storage;
  std::unique_ptr<Routing> storage_routing;
  std::unique_ptr<storage::StoragePlacer> placer;
  Spec placement_spec;
  ParamSet placement_params;
  // Network-aware, flow or hybrid transport: the class policy over the classes the jobs use, set once
  // the applications are built (every transport made after that reads it).
  std::shared_ptr<maxmin::ClassPolicy> class_policy = std::make_shared<maxmin::ClassPolicy>();
  // Network-aware: every job's application as placed, and the per-link totals of the last simulation.
  std::vector<Application> applications;
  std::vector<double> link_bytes, link_busy_s;
  std::vector<std::vector<double>> phase_ends;  // per job with phases: when each ended (NetworkRunner)
  std::vector<storage::JobIo> job_io;  // with storage, per job: the bytes it moved (zeros if it never ran)
  Spec zoom_spec;
  ParamSet zoom_params;
  scheduler::ScheduleResult result;
  Spec selection_spec, allocation_spec, mapping_spec;
  ParamSet selection_params, allocation_params, mapping_params;
  // Network-aware: each job alone on its nodes, the mean slowdown from sharing, the simulations run.
  std::vector<double> isolated;
  double mean_network_slowdown = 0;
  std::uint64_t simulations = 0;
  double read_seconds = 0, simulate_seconds = 0;
};

// Throws InputError for a stream without any job that can run (every one dropped by the log
// conventions) or a machine of unknown size. Jobs larger than the machine are refused, not run
// (result.refused says why; none may have run at all).
ScheduleRun run_schedule(const Plugins& plugins, const ScheduleConfig& config);

}  // namespace interflow::cli
