#pragma once
// Results of a dynamic run: summary.json, links.csv, series.csv, flows.csv (optional), with
// applications also apps.csv, tasks.csv and blocked.csv, and the text summary; keys and columns are
// documented in manual/dynamic.md and manual/output-files.md. The metrics come from the drivers'
// library (engine/drivers/metrics.hpp); this only writes them.
#include <ostream>

#include "cli/dynamic_run.hpp"
#include "cli/results.hpp"
#include "cli/run_header.hpp"

namespace interflow::cli {

Json dynamic_summary(const DynamicRun& run, const RunHeader& header);
void print_dynamic_summary(const DynamicRun& run, const RunHeader& header, std::ostream& out);
// Every result file but config.toml and summary.json (ResultsDir::finish writes those).
void write_dynamic_files(const DynamicRun& run, const ResultsDir& dir, bool flows_csv);
// Application mode: the tasks that wait forever and what each waits for (the first 20).
void print_deadlock_report(const DynamicRun& run, std::ostream& out);

}  // namespace interflow::cli
