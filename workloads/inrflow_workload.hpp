#pragma once
// INRFlow's workload file (manual/traces.md "INRFlow's workload file"): one application per line,
//   <arrival> <kernel>[_<p1>_<p2>...] <ntasks> <allocation>
// translated into interflow application specs (workloads/application.hpp), so INRFlow experiments
// run unchanged. Errors name the file and line.
#include <string>
#include <vector>

#include "workloads/application.hpp"

namespace interflow::workloads {

struct InrflowApp {
  double arrival_s = 0;
  std::string kernel;  // the interflow spec without tasks, placement and arrival (e.g. "nbody:iters=2")
  std::uint32_t tasks = 0;
  bool random = false;  // allocation random (else sequential)
  std::uint64_t line = 0;
  // The whole application spec: kernel plus tasks, placement and arrival.
  std::string spec() const;
};

// `time_unit_s`: seconds per unit of the arrival times.
std::vector<InrflowApp> read_inrflow_workload(const std::string& path, const AppRegistry& apps, double time_unit_s);

}  // namespace interflow::workloads
