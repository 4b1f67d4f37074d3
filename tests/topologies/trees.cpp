#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"
#include "topologies/registry.hpp"
#include "topologies/tree.hpp"

using namespace interflow;

namespace {

struct TreeShape {
  std::uint64_t k, kp, n;
};

std::uint64_t power(std::uint64_t base, std::uint64_t exp) {
  std::uint64_t r = 1;
  while (exp--) r *= base;
  return r;
}

// Closed forms: switches sum_l k^(n-1-l) k'^l = (k^n - k'^n) / (k - k'), or n k^(n-1) when k' = k.
std::uint64_t expected_switches(const TreeShape& s) {
  if (s.k == s.kp) return s.n * power(s.k, s.n - 1);
  return (power(s.k, s.n) - power(s.kp, s.n)) / (s.k - s.kp);
}

// Every switch below the top has k' up cables; the top level has k'^(n-1) switches.
std::uint64_t expected_cables(const TreeShape& s) {
  return power(s.k, s.n) + s.kp * (expected_switches(s) - power(s.kp, s.n - 1));
}

std::string spec_of(const TreeShape& s) {
  if (s.k == s.kp) return "fattree:k=" + std::to_string(s.k) + ",n=" + std::to_string(s.n);
  return "thintree:k=" + std::to_string(s.k) + ",kp=" + std::to_string(s.kp) + ",n=" + std::to_string(s.n);
}

// Label digits of a switch, decoded from its index independently of TreeTopology's arithmetic.
std::vector<std::uint64_t> decode(const TreeShape& s, std::uint64_t level, std::uint64_t index) {
  std::vector<std::uint64_t> digits(s.n - 1);
  for (std::uint64_t pos = 0; pos + 1 < s.n; ++pos) {
    const std::uint64_t radix = pos < level ? s.kp : s.k;
    digits[pos] = index % radix;
    index /= radix;
  }
  return digits;
}

std::uint64_t encode(const TreeShape& s, std::uint64_t level, const std::vector<std::uint64_t>& digits) {
  std::uint64_t index = 0;
  for (std::uint64_t pos = s.n - 1; pos-- > 0;) index = index * (pos < level ? s.kp : s.k) + digits[pos];
  return index;
}

const std::vector<TreeShape> kShapes = {{2, 2, 1}, {5, 5, 1}, {2, 2, 4}, {3, 3, 3}, {4, 4, 3}, {8, 8, 2},
                                        {4, 2, 3}, {4, 1, 3}, {3, 2, 3}, {6, 4, 2}, {4, 3, 1}, {5, 2, 4}};

}  // namespace

TEST_CASE("tree topology: endpoint switch cable and link counts match the closed forms") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const Network& net = topology->network();
    const std::uint64_t endpoints = power(s.k, s.n);
    CHECK(net.num_endpoints() == endpoints);
    CHECK(net.num_switches() == expected_switches(s));
    CHECK(net.num_vertices() == endpoints + expected_switches(s));
    CHECK(net.num_cables() == expected_cables(s));
    CHECK(net.num_links() == 2 * expected_cables(s));
    if (s.k == s.kp) {
      CHECK(net.num_switches() == s.n * power(s.k, s.n - 1));
      CHECK(net.num_cables() == s.n * power(s.k, s.n));  // k^n endpoint cables + (n-1) k^n between levels
    }

    std::uint32_t min_radix = ~0u, max_radix = 0;
    for (VertexId v = 0; v < net.num_vertices(); ++v) {
      if (net.kind(v) != VertexKind::Switch) continue;
      min_radix = std::min(min_radix, net.degree(v));
      max_radix = std::max(max_radix, net.degree(v));
    }
    CHECK(min_radix == s.k);                            // top level: k down ports only
    CHECK(max_radix == (s.n == 1 ? s.k : s.k + s.kp));  // 2k on a fattree
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      REQUIRE(net.endpoint_vertex(e) == e);
      REQUIRE(net.kind(e) == VertexKind::Endpoint);
      REQUIRE(net.degree(e) == 1);
    }
    CHECK(topology->endpoint_grid() == std::vector<std::uint32_t>(s.n, static_cast<std::uint32_t>(s.k)));
    CHECK(topology->default_routing() == "dmodk");
  }
}

TEST_CASE("tree topology: every switch has down ports 0..k-1 then up ports k..k+k'-1 to the labelled neighbours") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& tree = dynamic_cast<const topo::TreeTopology&>(*topology);
    const Network& net = tree.network();
    for (EndpointId e = 0; e < net.num_endpoints(); ++e) {
      // Endpoint e on leaf e / k, down port e mod k.
      const VertexId leaf = net.target(net.out_begin(e));
      REQUIRE(tree.level_of(leaf) == 0);
      REQUIRE(tree.index_of(leaf) == e / s.k);
      REQUIRE(tree.leaf_of(e) == leaf);
      REQUIRE(net.target(net.out_begin(leaf) + static_cast<LinkId>(e % s.k)) == e);
    }
    std::uint64_t seen = 0;
    for (std::uint64_t level = 0; level < s.n; ++level) {
      const std::uint64_t size = power(s.k, s.n - 1 - level) * power(s.kp, level);
      REQUIRE(tree.level_size(static_cast<std::uint32_t>(level)) == size);
      for (std::uint64_t index = 0; index < size; ++index, ++seen) {
        const VertexId v = tree.switch_vertex(static_cast<std::uint32_t>(level), static_cast<std::uint32_t>(index));
        REQUIRE(tree.level_of(v) == level);
        REQUIRE(tree.index_of(v) == index);
        const bool top = level + 1 == s.n;
        REQUIRE(net.degree(v) == s.k + (top ? 0 : s.kp));
        const auto label = decode(s, level, index);
        for (std::uint64_t pos = 0; pos + 1 < s.n; ++pos)
          REQUIRE(tree.label_digit(static_cast<std::uint32_t>(level), static_cast<std::uint32_t>(index),
                                   static_cast<std::uint32_t>(pos)) == label[pos]);
        for (std::uint64_t p = 0; p < s.k; ++p) {
          const VertexId t = net.target(net.out_begin(v) + static_cast<LinkId>(p));
          if (level == 0) {
            REQUIRE(t == index * s.k + p);
            continue;
          }
          auto lower = label;
          lower[level - 1] = p;
          REQUIRE(tree.level_of(t) == level - 1);
          REQUIRE(tree.index_of(t) == encode(s, level - 1, lower));
          // The lower switch reaches back up through its up port (label digit level-1 of v).
          REQUIRE(net.target(net.out_begin(t) + static_cast<LinkId>(s.k + label[level - 1])) == v);
        }
        for (std::uint64_t j = 0; !top && j < s.kp; ++j) {
          const VertexId t = net.target(net.out_begin(v) + static_cast<LinkId>(s.k + j));
          auto upper = label;
          upper[level] = j;
          REQUIRE(tree.level_of(t) == level + 1);
          REQUIRE(tree.index_of(t) == encode(s, level + 1, upper));
          REQUIRE(net.target(net.out_begin(t) + static_cast<LinkId>(label[level])) == v);
        }
      }
    }
    CHECK(seen == net.num_switches());
  }
}

TEST_CASE("tree topology: the diameter is 2n links and the mean distance matches the leaf-digit count") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const DistanceReport report = DistanceAnalysis().run(topology->network());
    REQUIRE(report.exact);
    CHECK(report.diameter_links == 2 * s.n);
    CHECK(report.disconnected_pairs == 0);
    // From any endpoint, k-1 others share its leaf (2 links) and k^(L+1) - k^L have their lowest
    // common ancestors at level L >= 1 (2 (L+1) links).
    double sum = 2.0 * static_cast<double>(s.k - 1);
    for (std::uint64_t level = 1; level < s.n; ++level)
      sum += 2.0 * static_cast<double>(level + 1) * static_cast<double>(power(s.k, level + 1) - power(s.k, level));
    CHECK(report.mean_links == approx(sum / static_cast<double>(power(s.k, s.n) - 1)));
    bool found = false;
    for (const auto& fact : topology->facts())
      if (fact.key == "diameter_links") {
        found = true;
        CHECK(fact.value == 2.0 * static_cast<double>(s.n));
      }
    CHECK(found);
  }
}

TEST_CASE("tree topology: the reported bisection is the top-level cut between the two halves of the endpoint ids") {
  auto fact_value = [](const Topology& t, const std::string& key) {
    for (const auto& f : t.facts())
      if (f.key == key) return f.value;
    return -1.0;
  };
  SUBCASE("fattree: floor(k^n / 2)") {
    CHECK(fact_value(*test::build_topology("fattree:k=4,n=3"), "bisection_cables") == 32);
    CHECK(fact_value(*test::build_topology("fattree:k=3,n=3"), "bisection_cables") == 13);
    CHECK(fact_value(*test::build_topology("fattree:k=2,n=1"), "bisection_cables") == 1);
  }
  SUBCASE("thintree: counted cut equals (k/2) k'^(n-1)") {
    for (const TreeShape s : {TreeShape{4, 2, 3}, TreeShape{6, 4, 2}, TreeShape{4, 1, 3}, TreeShape{4, 4, 3}}) {
      CAPTURE(spec_of(s));
      auto topology = test::build_topology(spec_of(s));
      const auto& tree = dynamic_cast<const topo::TreeTopology&>(*topology);
      const Network& net = tree.network();
      // Side of a vertex: its subtree's top endpoint digit (label digit n-2 below the top).
      const auto lower_half = [&](VertexId v) {
        if (!tree.is_switch(v)) return v < net.num_endpoints() / 2;
        return decode(s, tree.level_of(v), tree.index_of(v))[s.n - 2] < s.k / 2;
      };
      std::uint64_t crossing = 0;
      for (std::uint32_t i = 0; i < tree.level_size(tree.n() - 1); ++i) {
        const VertexId top = tree.switch_vertex(tree.n() - 1, i);
        for (LinkId l = net.out_begin(top); l < net.out_end(top); ++l) crossing += lower_half(net.target(l));
      }
      // Top switches sit on the upper side; no cable below the top crosses halves.
      for (VertexId v = 0; v < net.num_vertices(); ++v) {
        if (tree.is_switch(v) && tree.level_of(v) == tree.n() - 1) continue;
        for (LinkId l = net.out_begin(v); l < net.out_end(v); ++l) {
          const VertexId t = net.target(l);
          if (tree.is_switch(t) && tree.level_of(t) == tree.n() - 1) continue;
          REQUIRE(lower_half(v) == lower_half(t));
        }
      }
      CHECK(crossing == (s.k / 2) * power(s.kp, s.n - 1));
      CHECK(fact_value(*topology, "bisection_cables") == static_cast<double>(crossing));
    }
  }
  SUBCASE("thintree with odd k reports no bisection") {
    CHECK(fact_value(*test::build_topology("thintree:k=3,kp=2,n=3"), "bisection_cables") == -1.0);
  }
}

TEST_CASE("tree topology: bad parameters and impossible sizes are input errors naming the topology") {
  const auto message = test::topology_error;
  CHECK(message("fattree:k=1,n=3").find("fattree") != std::string::npos);
  CHECK(message("fattree:k=4,n=0").find("fattree") != std::string::npos);
  CHECK(message("thintree:k=4,kp=5,n=3").find("kp") != std::string::npos);
  CHECK(message("thintree:k=4,kp=0,n=3").find("kp") != std::string::npos);
  CHECK_THROWS_AS(topo::TreeTopology("thintree", 4, 5, 3, LinkDefaults{}), InputError);
  CHECK_THROWS_AS(topo::TreeTopology("fattree", 1, 1, 3, LinkDefaults{}), InputError);
  // 65536^2 = 2^32 endpoints.
  const std::string too_many = message("fattree:k=65536,n=2");
  CHECK(too_many.find("fattree k=65536, n=2") != std::string::npos);
  CHECK(too_many.find("2^31") != std::string::npos);
  CHECK(message("fattree:k=2,n=32").find("2^31") != std::string::npos);
  // 2^30 endpoints fit, but 2 * 2 * 2^30 directed links exceed 4e9: refused before building.
  const std::string too_many_links = message("fattree:k=32768,n=2");
  CHECK(too_many_links.find("4294967296 directed links") != std::string::npos);
  // 2^31 endpoints exactly, but the switches push the vertex count past 2^31.
  CHECK(message("thintree:k=2,kp=1,n=31").find("vertices") != std::string::npos);
}

TEST_CASE("tree topology: a 64k-endpoint fat tree has the closed-form counts") {
  auto topology = test::build_topology("fattree:k=16,n=4");
  const Network& net = topology->network();
  CHECK(net.num_endpoints() == 65536);
  CHECK(net.num_switches() == 4 * 4096);
  CHECK(net.num_links() == 2 * 4 * 65536);
}
