// Dimension-order routing's run-based path (routing/dor.cpp, push_runs), taken on a regular torus
// with no failure, against its hop-by-hop loop, taken on a copy of the same network (the run-based
// path applies only to the topology's own network): the same links in the same order for every
// ordered pair, on tori with odd and even radices, endpoints on links or not, and both tie rules.
#include <doctest/doctest.h>

#include <string>

#include "tests/support/test_support.hpp"

using namespace interflow;

TEST_CASE("dor: the run-based path equals the hop-by-hop path for every pair") {
  for (const std::string topology : {"torus:dims=5x4x3", "torus:dims=8x6", "torus:dims=6x3,c=2", "torus:dims=7x4x4x3"}) {
    for (const std::string routing : {"dor", "dor:tie=balanced"}) {
      INFO(topology << " " << routing);
      const auto torus = test::build_topology(topology);
      const auto dor = test::build_routing(routing, *torus);
      const Network& net = torus->network();
      const Network copy = net;
      const FlowSet flows = test::all_pairs(net.num_endpoints());
      const PathTable fast = test::route(*dor, net, flows);
      const PathTable slow = test::route(*dor, copy, flows);
      REQUIRE(fast.num_vars() == slow.num_vars());
      CHECK(fast.num_vars() == flows.size());
      bool same = true;
      for (std::uint32_t v = 0; v < fast.num_vars(); ++v) {
        const auto a = fast.links(v), b = slow.links(v);
        same = same && std::equal(a.begin(), a.end(), b.begin(), b.end());
      }
      CHECK(same);
    }
  }
}
