#include "core/analysis.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include "tests/support/test_support.hpp"

using namespace interflow;

TEST_CASE("distance analysis: one search by symmetry equals the exact all-pairs result on a torus") {
  for (const std::string spec : {"torus:dims=5x4x3", "torus:dims=6x6,c=2", "torus:dims=7"}) {
    CAPTURE(spec);
    auto topology = test::build_topology(spec);
    REQUIRE(topology->endpoints_symmetric());
    const Network& net = topology->network();
    const DistanceReport exact = DistanceAnalysis().run(net);
    // A work limit of 1 and one sample forbid the exact computation: only symmetry can make it exact.
    const DistanceReport symmetric = DistanceAnalysis(1, 1).run(net, true);
    REQUIRE(exact.exact);
    CHECK_FALSE(exact.by_symmetry);
    CHECK(symmetric.exact);
    CHECK(symmetric.by_symmetry);
    CHECK(symmetric.diameter_links == exact.diameter_links);
    CHECK(symmetric.mean_links == approx(exact.mean_links).epsilon(1e-12));
    CHECK(symmetric.disconnected_pairs == 0);
    CHECK_FALSE(DistanceAnalysis(1, 1).run(net, false).exact);  // without symmetry it samples
  }
  CHECK_FALSE(test::build_topology("mesh:dims=4x4")->endpoints_symmetric());
}

TEST_CASE("distance analysis: the attachment-switch search matches closed forms on a fat tree") {
  // k-ary n-tree, k=4, n=2: 16 endpoints; 3 others on the same leaf at 2 links, 12 at 4 links.
  auto topology = test::build_topology("fattree:k=4,n=2");
  const DistanceReport r = DistanceAnalysis().run(topology->network());
  CHECK(r.exact);
  CHECK(r.diameter_links == 4);
  CHECK(r.mean_links == approx((3 * 2.0 + 12 * 4.0) / 15.0));
}
