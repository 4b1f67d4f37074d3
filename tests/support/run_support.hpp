#pragma once
// Runs flow workloads and applications on the flow-level transport, as the CLI composes them: a
// FlowTransport (engine/flow/) under the application driver (engine/drivers/).
#include <string>
#include <vector>

#include "core/application.hpp"
#include "core/flow_workload.hpp"
#include "engine/drivers/driver.hpp"
#include "engine/drivers/flows.hpp"
#include "engine/flow/flow_transport.hpp"
#include "tests/support/test_support.hpp"

namespace interflow::test {

// The options of both layers, as the tests set them.
struct RunOptions {
  drivers::DriverOptions driver;
  flow::FlowTransportOptions flow;
};

inline TransportResult run_flows(const Network& net, const Routing& routing, const FlowWorkload& w,
                                 const flow::FlowTransportOptions& o = {}) {
  flow::FlowTransport transport(net, routing, o);
  return drivers::run_flows(net, transport, w);
}

inline drivers::RunResult run_apps(const Network& net, const Routing& routing, const std::vector<Application>& apps,
                                   const RunOptions& o = {}) {
  flow::FlowTransport transport(net, routing, o.flow);
  return drivers::Driver(net, transport, o.driver).run(apps);
}

// A class policy built through the registry, as the CLI builds it.
inline maxmin::ClassPolicy class_policy(const std::string& name, std::vector<double> values = {},
                                        std::vector<std::uint32_t> priorities = {}, std::uint32_t classes = 1) {
  return maxmin::make_class_policy(plugins().class_policies, name, {std::move(values), std::move(priorities), classes});
}

// Fresh flow transports on one network and routing (what the network-aware scheduler takes).
inline TransportFactory flow_transports(const Network& net, const Routing& routing,
                                        const flow::FlowTransportOptions& o = {}) {
  return [&net, &routing, o] { return std::make_unique<flow::FlowTransport>(net, routing, o); };
}

}  // namespace interflow::test
