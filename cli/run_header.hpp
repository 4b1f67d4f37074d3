#pragma once
// The head and the foot every subcommand's results share, written by one function each
// (manual/output-files.md "The run header"):
//   summary.json  {"interflow_version", "engine", "seed", "threads", "config": {every run-defining
//                  option, typed, and each plugin spec with its effective parameters}, ...,
//                  "time_s": {...}, "peak_rss_bytes"}
//   text summary  "interflow 0.1.0 <engine>, seed S, T threads", each plugin with its parameters, the
//                 other options; at the end the timings and the peak memory.
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "core/params.hpp"

namespace interflow::cli {

struct RunHeader {
  std::string engine;  // "static", "dynamic", "schedule", "topo": summary.json's "engine"
  std::string title;   // the text summary's name for it: "static engine", "scheduler", ...
  std::uint64_t seed = 1;
  unsigned threads = 1;
  Json config = Json::object();                           // OptionTable::echo(), then the plugins
  std::vector<std::pair<std::string, std::string>> specs;  // plugin key -> spec text, for the text head
};

using Timings = std::vector<std::pair<std::string, double>>;  // name -> seconds, in order

// Adds plugin `key`'s spec text and effective parameters ("<key>": text, "<key>_params": {...}).
void add_plugin(RunHeader& h, const std::string& key, const Spec& spec, const ParamSet& params);

// The head of summary.json; the caller adds its results, then foot_json.
Json head_json(const RunHeader& h);
void foot_json(Json& j, const Timings& timings);

void print_head(std::ostream& out, const RunHeader& h);
void print_foot(std::ostream& out, const Timings& timings);

}  // namespace interflow::cli
