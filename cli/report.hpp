#pragma once
// Results of a static run: summary.json (stable keys, documented in manual/output-files.md),
// links.csv, flows.csv, and the human-readable summary.
#include <ostream>

#include "cli/run_header.hpp"
#include "cli/static_run.hpp"

namespace interflow::cli {

// The run header plus the static results.
Json static_summary(const StaticRun& run, const RunHeader& header);
void write_links_csv(const StaticRun& run, std::ostream& out);
void write_flows_csv(const StaticRun& run, std::ostream& out);
void print_static_summary(const StaticRun& run, const RunHeader& header, std::ostream& out);
// `--memory-estimate`: the run header and the estimate only.
Json memory_estimate_summary(const StaticRun& run, const RunHeader& header);
void print_memory_estimate(const StaticRun& run, const RunHeader& header, std::ostream& out);

}  // namespace interflow::cli
