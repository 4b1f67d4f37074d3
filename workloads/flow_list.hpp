#pragma once
// A flow list for the dynamic engine, read from a CSV file (manual/dynamic.md):
//   src,dst,bytes,start_time[,class][,after]
// one flow per line, numbered from 0 in file order; src and dst are endpoint ids, bytes in 0..1e18,
// start_time in seconds in 0..1e12 (both finite), class a service class 0..254 (default 0), after the
// ids of flows that must be delivered before this one starts, separated by ';' or spaces. '#' starts a
// comment; an optional first line naming the columns (starting with "src") is skipped. Errors name the
// file and line; a missing file or a directory, the operating system's reason.
#include <string>

#include "core/flow_workload.hpp"

namespace interflow::workloads {

// `endpoints` bounds the ids (the network's endpoint count).
FlowWorkload read_flow_list(const std::string& path, std::uint32_t endpoints);

}  // namespace interflow::workloads
