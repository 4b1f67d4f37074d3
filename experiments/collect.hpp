#pragma once
// Collects a sweep's results (plan.hpp) into two tables:
//   collected.csv   one row per finished run: id, the swept keys (seed included), then every metric
//                   of its summary.json, flattened ("throughput.restricted_normalised", "flow_rate_gbps.mean");
//   aggregated.csv  one row per configuration (the runs that differ only in their seed): the swept
//                   keys but the seed, "runs", then for every metric its mean, standard deviation and
//                   the half-width of its 95 % confidence interval over the seeds (core/stats.hpp
//                   mean_ci95: Student's t; sd and ci95 are empty for a single run; all three are
//                   empty for a metric that some of the configuration's runs lack).
// Metrics are the numeric leaves of summary.json but the run header (version, engine, seed, threads,
// config); arrays of up to kMaxArray elements are flattened with their index, longer ones (series)
// are left to the run's own files. The resources (is_resource: timings, memory, the simulator's own
// rates) come last and can be left out, so that two ways of running the same sweep give
// byte-identical tables.
#include <array>
#include <set>
#include <string>
#include <vector>

#include "experiments/plan.hpp"

namespace interflow::experiments {

struct CollectSettings {
  bool partial = false;    // write the tables although some runs have not finished
  bool resources = true;   // include time_s.* and peak_rss_bytes
};

struct Collected {
  std::size_t runs = 0, finished = 0;
  std::vector<std::string> missing;  // ids of runs without summary.json
  std::set<std::string> versions;    // interflow versions that wrote the summaries (more than one: mixed)
  std::size_t metrics = 0, configurations = 0;
  std::string runs_csv, aggregated_csv;  // the paths written
  // aggregated.csv in memory: the configuration keys (axes but the seed), the metric names and, per
  // configuration, its key cells, its run count and each metric's (mean, sd, ci95) cells.
  std::vector<std::string> keys, metric_names;
  struct Row {
    std::vector<std::string> keys;
    std::size_t runs = 0;
    std::vector<std::array<std::string, 3>> stats;
  };
  std::vector<Row> rows;
};

// A text table of the configurations: their keys, the number of runs and, per metric asked, its
// mean and, over several seeds, "± ci95". InputError naming the nearest metric for an unknown one.
std::string show_table(const Collected& c, const std::vector<std::string>& metrics);

// InputError when runs are missing (their ids and how to finish them) unless settings.partial.
Collected collect(const Layout& layout, const CollectSettings& settings);

inline constexpr std::size_t kMaxArray = 64;

// The metrics of one summary.json, in document order (name, value).
std::vector<std::pair<std::string, double>> summary_metrics(const Json& summary, bool resources);

// Whether a metric measures the simulator rather than the network (it differs from run to run of the
// same configuration): time_s.*, build_seconds, peak_rss_bytes, simulation.events_per_second,
// simulation.solve_share. These come last in the tables, or not at all with --no-resources.
bool is_resource(const std::string& name);

// A CSV cell: the text quoted when it holds a comma, a quote or a line break.
std::string csv_cell(const std::string& text);

}  // namespace interflow::experiments
