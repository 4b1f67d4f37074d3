#pragma once
// What the static, dynamic and schedule commands share: the network options (declared once, so their
// names, ranges and meanings cannot drift between commands), building the topology, choosing the
// routing (the topology's own when none is given) and failing cables.
#include <tbb/global_control.h>

#include <memory>
#include <string>

#include "cli/options.hpp"
#include "cli/plugins.hpp"
#include "cli/run_header.hpp"
#include "core/failures.hpp"
#include "core/progress.hpp"

namespace interflow::cli {

struct NetworkOptions {
  std::string topology;
  std::string routing;  // empty: the topology's default routing
  LinkDefaults links;
  std::string failures = "0";
  std::string failure_scope = "network";
  std::uint64_t seed = 1;
};

struct NetworkSetup {
  Spec topology_spec, routing_spec;
  ParamSet topology_params, routing_params;
  std::unique_ptr<Topology> topology;
  std::unique_ptr<Routing> routing;
  FailureReport failures;
};

// Declares -t, -r, -s, the link capacities and latencies and (with `failures`) --failures and
// --failure-scope. `role` prefixes the meanings ("network-aware: ").
void add_network_options(OptionTable& t, NetworkOptions& n, bool failures = true, const std::string& role = "");
// Checks the link capacities and latencies (the options' checks again, for callers that fill
// NetworkOptions themselves), parses and validates the specs (errors name the option), builds the
// topology and the routing, and fails cables as asked, drawing them from the seed.
NetworkSetup build_network(const Plugins& plugins, const NetworkOptions& options);
// The topology and the routing with their effective parameters in the run header.
void add_network(RunHeader& h, const NetworkSetup& s);
// Worker threads: `requested`, or every core when 0.
unsigned thread_count(unsigned requested);

// What every run holds while it works: the limit on worker threads (results do not depend on it)
// and the progress line on stderr.
struct RunScope {
  RunScope(unsigned requested_threads, bool show_progress)
      : threads(thread_count(requested_threads)),
        limit(tbb::global_control::max_allowed_parallelism, threads),
        progress(show_progress) {}
  unsigned threads;
  tbb::global_control limit;
  Progress progress;
};

}  // namespace interflow::cli
