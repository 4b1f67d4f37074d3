#pragma once
// Results of a dynamic run: summary.json, links.csv, series.csv, flows.csv (optional), with
// applications also apps.csv, tasks.csv and blocked.csv, and the text summary; keys and columns are
// documented in manual/dynamic.md and manual/output-files.md. The metrics come from the drivers'
// library (engine/drivers/metrics.hpp); this only writes them.
#include <memory>
#include <ostream>
#include <span>
#include <string>

#include "cli/dynamic_run.hpp"
#include "cli/results.hpp"
#include "cli/run_header.hpp"
#include "core/io.hpp"
#include "core/text_buffer.hpp"
#include "engine/drivers/flows.hpp"

namespace interflow::cli {

Json dynamic_summary(const DynamicRun& run, const RunHeader& header);
void print_dynamic_summary(const DynamicRun& run, const RunHeader& header, std::ostream& out);
// Every result file but config.toml and summary.json (ResultsDir::finish writes those); flows.csv only
// if the run did not write it as it went (FlowsCsvStream).
void write_dynamic_files(const DynamicRun& run, const ResultsDir& dir, bool flows_csv);

// flows.csv written as an open-loop run goes (run_dynamic's stream): a row per flow once its results
// are final, in order of start time (ties in flow order), from the run's writer thread. The file is
// created when the simulation starts and committed (renamed into place, every write checked) by
// commit() after the run; a run that fails leaves no flows.csv.
class FlowsCsvStream : public drivers::ResultStream {
 public:
  explicit FlowsCsvStream(std::string dir);  // the --out folder
  ~FlowsCsvStream() override;
  void begin() override;
  void write(const FlowWorkload& workload, const TransportResult& r, std::span<const FlowId> order,
             std::size_t first, std::size_t last) override;
  void commit();  // nothing if the run never began to write

 private:
  std::string dir_;
  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<TextBuffer> text_;
};
// Application mode: the tasks that wait forever and what each waits for (the first 20).
void print_deadlock_report(const DynamicRun& run, std::ostream& out);

}  // namespace interflow::cli
