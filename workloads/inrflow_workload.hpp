#pragma once
// INRFlow's workload file (manual/traces.md "INRFlow's workload file"): one application per line,
//   <arrival> <kernel>[_<p1>_<p2>...] <ntasks> <allocation>
// translated into interflow application specs (workloads/application.hpp), so INRFlow experiments
// run unchanged. Errors name the file and line.
#include <string>
#include <vector>

#include "workloads/application.hpp"

namespace interflow::workloads {

// `time_unit_s`: seconds per unit of the arrival times.
std::vector<std::string> read_inrflow_workload(const std::string& path, const AppRegistry& apps, double time_unit_s);

}  // namespace interflow::workloads
