#pragma once
// What the contract suites share: the plugin registries as the CLI fills them, the example instances of
// every topology (its registration's `example`, plus the fixture files of file-based families), and
// the flows routed on them. The contract suites loop over the registries, so a new plugin is checked
// without a test of its own; a topology without an example fails tests/contract/topologies.cpp.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/flows.hpp"
#include "core/random.hpp"
#include "tests/support/test_support.hpp"
#include "workloads/application.hpp"
#include "workloads/pattern.hpp"

namespace interflow::contract {

// Every registry, as the CLI fills them.
inline const cli::Plugins& registries() { return test::plugins(); }

// Examples name files relative to the source tree ("graph:file=tests/fixtures/small.ifg", as one
// types them from a checkout); the tests run in the build tree, so they get the absolute path.
inline std::string in_source_tree(std::string spec) {
  const std::string relative = "=tests/fixtures/";
  const std::string absolute = "=" + std::string(INTERFLOW_SOURCE_DIR) + "/tests/fixtures/";
  for (std::size_t at = spec.find(relative); at != std::string::npos; at = spec.find(relative, at + absolute.size()))
    spec.replace(at, relative.size(), absolute);
  return spec;
}

// Instances beyond the one example of a family: every graph fixture, each format, parallel cables, and
// the igraph endpoint rules; the families with trunks (topologies/trunks.hpp) with trunks, so that every
// routing is checked spread over them too.
inline const std::map<std::string, std::vector<std::string>>& more_topology_instances() {
  static const std::map<std::string, std::vector<std::string>> more{
      {"torus", {"torus:dims=4x4,trunks=2", "torus:dims=3x2,c=2,trunks=3"}},
      {"mesh", {"mesh:dims=4x3,c=1,trunks=2"}},
      {"fattree", {"fattree:k=4,n=2,trunks=2"}},
      {"thintree", {"thintree:k=4,kp=2,n=3,trunks=2"}},
      {"dragonfly", {"dragonfly:a=4,p=2,h=2,g=5,trunks=2"}},
      {"graph",
       {"graph:file=tests/fixtures/small.graphml", "graph:file=tests/fixtures/small.gml",
        "graph:file=tests/fixtures/small.net", "graph:file=tests/fixtures/small.edges",
        "graph:file=tests/fixtures/small.edges,endpoints=leaves",
        "graph:file=tests/fixtures/small.edges,endpoints=per_switch,c=2", "graph:file=tests/fixtures/dumbbell.ifg",
        "graph:file=tests/fixtures/parking_lot.ifg", "graph:file=tests/fixtures/parking_lot_1_2.ifg",
        "graph:file=tests/fixtures/star.ifg"}}};
  return more;
}

// The specs of a topology family to check: its example first, then any further instances.
inline std::vector<std::string> topology_instance_specs(const topo::TopologyRegistry::Entry& entry) {
  std::vector<std::string> specs;
  if (!entry.example.empty()) specs.push_back(entry.example);
  if (const auto more = more_topology_instances().find(entry.name); more != more_topology_instances().end())
    specs.insert(specs.end(), more->second.begin(), more->second.end());
  return specs;
}

inline std::unique_ptr<Topology> build_instance(const std::string& spec) {
  return registries().topologies.create(Spec::parse(in_source_tree(spec), "--topology"), LinkDefaults{});
}

struct TopologyInstance {
  std::string spec;
  std::unique_ptr<Topology> topology;
};

// Every instance of every family, built once per test process (families without an example are the
// topology contract's failure, not this list's).
inline const std::vector<TopologyInstance>& topology_instances() {
  static const std::vector<TopologyInstance> instances = [] {
    std::vector<TopologyInstance> out;
    for (const auto& entry : registries().topologies.entries())
      for (const std::string& spec : topology_instance_specs(entry)) out.push_back({spec, build_instance(spec)});
    return out;
  }();
  return instances;
}

// The routing `name` with its default parameters built for `topology`, or null when the routing refuses
// that topology (an InputError at creation is how a routing says it does not support a family).
inline std::unique_ptr<Routing> routing_or_null(const std::string& name, const Topology& topology) {
  try {
    return routing::create_routing(registries().routings, Spec::parse(name, "--routing"), topology);
  } catch (const InputError&) {
    return nullptr;
  }
}

// A random permutation of the endpoints (each sends to and receives from one other), `pairs` random
// pairs (some may be self flows) and a few self flows, drawn from `seed`.
inline FlowSet contract_flows(std::uint32_t endpoints, std::uint32_t pairs, std::uint64_t seed) {
  Rng rng(seed);
  FlowSet flows;
  std::vector<EndpointId> order(endpoints);
  for (EndpointId e = 0; e < endpoints; ++e) order[e] = e;
  for (std::uint32_t i = endpoints; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  for (std::uint32_t i = 0; endpoints >= 2 && i < endpoints; ++i) flows.add(order[i], order[(i + 1) % endpoints]);
  for (std::uint32_t i = 0; i < pairs; ++i)
    flows.add(static_cast<EndpointId>(rng.below(endpoints)), static_cast<EndpointId>(rng.below(endpoints)));
  for (std::uint32_t i = 0; i < 4; ++i) {
    const auto e = static_cast<EndpointId>(rng.below(endpoints));
    flows.add(e, e);
  }
  return flows;
}

}  // namespace interflow::contract
