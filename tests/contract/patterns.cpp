// The pattern contract: every registered traffic pattern, with its example or its defaults, on a
// topology with an endpoint grid and on one without (a pattern may refuse one with an InputError, not
// both), gives the same flows and report twice for a seed, and names only endpoints of the network.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/contract/contract_support.hpp"

using namespace interflow;

namespace {

// A 3-D grid of 64 endpoints, and 40 endpoints without a grid (not a power of two either).
const char* const kGridTopology = "torus:dims=4x4x4";
const char* const kPlainTopology = "dragonfly:a=4,p=2,h=2,g=5";

struct Generated {
  FlowSet flows;
  workloads::PatternReport report;
};

Generated generate(const workloads::Pattern& pattern, const Topology& topology, std::uint64_t seed) {
  workloads::PatternContext ctx;
  ctx.endpoints = topology.network().num_endpoints();
  ctx.grid = topology.endpoint_grid();
  ctx.seed = seed;
  Generated g;
  g.report = pattern.generate(ctx, g.flows);
  return g;
}

void check_flows(const FlowSet& flows, std::uint32_t endpoints) {
  REQUIRE(flows.dst.size() == flows.src.size());
  REQUIRE((flows.weight.empty() || flows.weight.size() == flows.src.size()));
  CHECK(flows.size() > 0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    CAPTURE(f);
    CHECK(flows.src[f] < endpoints);
    CHECK(flows.dst[f] < endpoints);
    CHECK_MESSAGE(flows.src[f] != flows.dst[f], "patterns drop self pairs (and count them in their report)");
    CHECK((std::isfinite(flows.weight_of(f)) && flows.weight_of(f) > 0));
  }
}

// Whether the pattern generated on the topology (false: it refused it with an InputError).
bool check_on(const workloads::Pattern& pattern, const std::string& topology_spec) {
  INFO("topology " << topology_spec);
  const auto topology = contract::build_instance(topology_spec);
  Generated first;
  try {
    first = generate(pattern, *topology, 99);
  } catch (const InputError& e) {
    MESSAGE("refused: " << e.what());
    return false;
  }
  check_flows(first.flows, topology->network().num_endpoints());
  const Generated again = generate(pattern, *topology, 99);
  CHECK(again.flows.src == first.flows.src);
  CHECK(again.flows.dst == first.flows.dst);
  CHECK(again.flows.weight == first.flows.weight);
  CHECK(again.report.self_pairs_dropped == first.report.self_pairs_dropped);
  CHECK(again.report.idle_endpoints == first.report.idle_endpoints);
  CHECK(again.report.note == first.report.note);
  return true;
}

}  // namespace

TEST_CASE("contract: every traffic pattern is deterministic for a seed and names endpoints of the network") {
  for (const auto& entry : contract::registries().patterns.entries()) {
    SUBCASE(("pattern " + entry.name).c_str()) {
      const std::string spec = entry.example.empty() ? entry.name : contract::in_source_tree(entry.example);
      INFO("pattern " << spec);
      std::unique_ptr<workloads::Pattern> pattern;
      try {
        pattern = contract::registries().patterns.create(Spec::parse(spec, "--pattern"));
      } catch (const InputError& e) {
        FAIL("pattern '" << entry.name << "' does not build from " << spec << " (" << e.what()
                         << "); give its registration an example");
      }
      const bool on_grid = check_on(*pattern, kGridTopology);
      const bool on_plain = check_on(*pattern, kPlainTopology);
      CHECK_MESSAGE((on_grid || on_plain), "the pattern refuses both topologies");
    }
  }
}
