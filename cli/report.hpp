#pragma once
// Results of a static run: summary.json (stable keys, documented in manual/output-files.md),
// links.csv, flows.csv, and the human-readable summary.
#include <ostream>
#include <string>

#include "cli/static_run.hpp"

namespace interflow::cli {

void write_summary_json(const StaticRun& run, std::ostream& out);
void write_links_csv(const StaticRun& run, std::ostream& out);
void write_flows_csv(const StaticRun& run, std::ostream& out);
void print_summary_text(const StaticRun& run, std::ostream& out);

// Writes summary.json, links.csv and (optionally) flows.csv into `dir`, creating it.
void write_results_dir(const StaticRun& run, const std::string& dir, bool flows_csv);

}  // namespace interflow::cli
