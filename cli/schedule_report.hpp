#pragma once
// Results of a scheduler run: summary.json, jobs.csv, utilisation.csv and the text summary (columns
// in manual/scheduler.md).
#include <ostream>

#include "cli/results.hpp"
#include "cli/run_header.hpp"
#include "cli/schedule_run.hpp"

namespace interflow::cli {

Json schedule_summary(const ScheduleRun& run, const RunHeader& header);
void print_schedule_summary(const ScheduleRun& run, const RunHeader& header, std::ostream& out);
// jobs.csv and utilisation.csv (ResultsDir::finish writes config.toml and summary.json).
void write_schedule_files(const ScheduleRun& run, const ResultsDir& dir);

}  // namespace interflow::cli
