#pragma once
// What the static and dynamic commands share: checking the link options, building the topology,
// choosing the routing (the topology's own when none is given) and failing cables.
#include <memory>
#include <string>

#include "cli/plugins.hpp"
#include "core/failures.hpp"

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

// Throws InputError for bad link options.
void check_link_options(const LinkDefaults& links);
// Parses and validates the specs (errors name the option), builds the topology and the routing, and
// fails cables as asked, drawing them from the seed.
NetworkSetup build_network(const Plugins& plugins, const NetworkOptions& options);

}  // namespace interflow::cli
