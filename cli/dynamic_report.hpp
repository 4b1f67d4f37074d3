#pragma once
// Results of a dynamic run: summary.json, links.csv, series.csv, flows.csv (optional), with --app also
// apps.csv, tasks.csv and blocked.csv, and the text summary; keys and columns are documented in manual/dynamic.md.
#include <ostream>
#include <string>

#include "cli/dynamic_run.hpp"

namespace interflow::cli {

void write_dynamic_summary_json(const DynamicRun& run, std::ostream& out);
void print_dynamic_summary_text(const DynamicRun& run, std::ostream& out);
void write_dynamic_results_dir(const DynamicRun& run, const std::string& dir, bool flows_csv);
// Application mode: the tasks that wait forever and what each waits for (the first 20).
void print_deadlock_report(const DynamicRun& run, std::ostream& out);

}  // namespace interflow::cli
