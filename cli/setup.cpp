#include "cli/setup.hpp"

#include <tbb/info.h>

#include <cmath>
#include <string>

#include "cli/run_header.hpp"
#include "routing/trunk_routing.hpp"

namespace interflow::cli {

void add_network_options(OptionTable& t, NetworkOptions& n, bool failures, const std::string& role) {
  t.text("-t,--topology", n.topology, role + "topology spec NAME[:key=value,...] (see `interflow list topology`)");
  t.text("-r,--routing", n.routing, role + "routing spec NAME[:key=value,...]; default: the topology's own");
  t.whole("-s,--seed", n.seed, "seed of every random choice of the run");
  t.real("--endpoint-gbps", n.links.endpoint_gbps,
         role + "capacity of endpoint (injection) links, Gbit/s; also the injection rate of direct networks' "
                "endpoints",
         0, 1e9, true);
  t.real("--switch-gbps", n.links.switch_gbps, role + "capacity of switch-to-switch links, Gbit/s", 0, 1e9, true);
  t.real("--endpoint-latency-ns", n.links.endpoint_latency_ns, role + "latency of endpoint links, ns", 0, 1e15);
  t.real("--switch-latency-ns", n.links.switch_latency_ns, role + "latency of switch-to-switch links, ns", 0, 1e15);
  if (!failures) return;
  t.text("--failures", n.failures,
         "cables to fail, chosen by the seed: a percentage (5%), a fraction (0.05) or a count (120)");
  t.text("--failure-scope", n.failure_scope, "which cables may fail: network (switch-to-switch) or all")
      ->check(CLI::IsMember({"network", "all"}));
}

namespace {

void check_link_options(const LinkDefaults& links) {
  const auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  const auto non_negative = [](double v) { return v >= 0 && std::isfinite(v); };
  if (!positive(links.endpoint_gbps) || !positive(links.switch_gbps))
    throw InputError("link capacities must be finite and positive: --endpoint-gbps " +
                     std::to_string(links.endpoint_gbps) + ", --switch-gbps " + std::to_string(links.switch_gbps));
  if (!non_negative(links.endpoint_latency_ns) || !non_negative(links.switch_latency_ns))
    throw InputError("link latencies must be finite and not negative");
}

}  // namespace

NetworkSetup build_network(const Plugins& plugins, const NetworkOptions& options) {
  check_link_options(options.links);
  NetworkSetup s;
  s.topology_spec = Spec::parse(options.topology, "--topology");
  s.topology_params = plugins.topologies.validate(s.topology_spec);
  const FailureSpec failure_spec = FailureSpec::parse(options.failures, options.failure_scope);
  s.topology = plugins.topologies.create(s.topology_spec, options.links);
  s.routing_spec = Spec::parse(options.routing.empty() ? s.topology->default_routing() : options.routing, "--routing");
  s.routing_params = plugins.routings.validate(s.routing_spec);
  s.routing = routing::create_routing(plugins.routings, s.routing_spec, *s.topology);
  if (failure_spec.any()) s.failures = apply_failures(s.topology->network(), failure_spec, options.seed);
  return s;
}

void add_network(RunHeader& h, const NetworkSetup& s) {
  add_plugin(h, "topology", s.topology_spec, s.topology_params);
  add_plugin(h, "routing", s.routing_spec, s.routing_params);
}

unsigned thread_count(unsigned requested) {
  return requested > 0 ? requested : static_cast<unsigned>(tbb::info::default_concurrency());
}

}  // namespace interflow::cli
