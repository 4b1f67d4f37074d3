#include "cli/setup.hpp"

#include <string>

namespace interflow::cli {

void check_link_options(const LinkDefaults& links) {
  if (links.endpoint_gbps <= 0 || links.switch_gbps <= 0)
    throw InputError("link capacities must be positive: --endpoint-gbps " + std::to_string(links.endpoint_gbps) +
                     ", --switch-gbps " + std::to_string(links.switch_gbps));
  if (links.endpoint_latency_ns < 0 || links.switch_latency_ns < 0)
    throw InputError("link latencies must not be negative");
}

NetworkSetup build_network(const Plugins& plugins, const NetworkOptions& options) {
  NetworkSetup s;
  s.topology_spec = Spec::parse(options.topology, "--topology");
  s.topology_params = plugins.topologies.validate(s.topology_spec);
  const FailureSpec failure_spec = FailureSpec::parse(options.failures, options.failure_scope);
  s.topology = plugins.topologies.create(s.topology_spec, options.links);
  s.routing_spec = Spec::parse(options.routing.empty() ? s.topology->default_routing() : options.routing, "--routing");
  s.routing_params = plugins.routings.validate(s.routing_spec);
  s.routing = plugins.routings.create(s.routing_spec, *s.topology);
  if (failure_spec.any()) s.failures = apply_failures(s.topology->network(), failure_spec, options.seed);
  return s;
}

}  // namespace interflow::cli
