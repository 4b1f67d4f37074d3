#include "topologies/xgft.hpp"

#include <doctest/doctest.h>
#include <igraph.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/error.hpp"
#include "tests/support/test_support.hpp"

using namespace interflow;

namespace {

struct XgftShape {
  std::vector<std::uint64_t> m, w, c;  // levels 1..h
};

std::string join(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

std::string spec_of(const XgftShape& s, const std::string& family = "xgft") {
  return family + ":h=" + std::to_string(s.m.size()) + ",m=" + join(s.m) + ",w=" + join(s.w) +
         (s.c.empty() ? "" : ",c=" + join(s.c));
}

std::uint64_t cables_per_pair(const XgftShape& s, std::size_t level) { return s.c.empty() ? 1 : s.c[level - 1]; }

// Öhring et al.: level l has prod_{i>l} m_i * prod_{i<=l} w_i nodes.
std::uint64_t level_size(const XgftShape& s, std::size_t level) {
  std::uint64_t n = 1;
  for (std::size_t i = 1; i <= s.m.size(); ++i) n *= i > level ? s.m[i - 1] : s.w[i - 1];
  return n;
}

// Label digits (positions 1..h) of node `index` at `level`, decoded independently of XgftTopology.
std::vector<std::uint64_t> decode(const XgftShape& s, std::size_t level, std::uint64_t index) {
  std::vector<std::uint64_t> digits(s.m.size() + 1, 0);
  for (std::size_t i = 1; i <= s.m.size(); ++i) {
    const std::uint64_t radix = i <= level ? s.w[i - 1] : s.m[i - 1];
    digits[i] = index % radix;
    index /= radix;
  }
  return digits;
}

std::uint64_t encode(const XgftShape& s, std::size_t level, const std::vector<std::uint64_t>& digits) {
  std::uint64_t index = 0;
  for (std::size_t i = s.m.size(); i >= 1; --i) index = index * (i <= level ? s.w[i - 1] : s.m[i - 1]) + digits[i];
  return index;
}

const std::vector<XgftShape> kShapes = {{{4, 4, 4}, {1, 4, 4}, {}},
                                        {{3, 3}, {1, 3}, {}},
                                        {{2, 3, 4}, {1, 2, 3}, {}},
                                        {{4, 2}, {1, 2}, {1, 2}},
                                        {{3, 4}, {2, 2}, {}},
                                        {{2, 2, 3}, {3, 1, 2}, {2, 1, 3}},
                                        {{6}, {1}, {}},
                                        {{4, 4}, {1, 2}, {1, 3}},
                                        {{2, 2, 2, 2}, {1, 2, 2, 2}, {}}};

}  // namespace

TEST_CASE("xgft topology: node cable and radix counts match the closed forms of Ohring et al") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& tree = dynamic_cast<const topo::XgftTopology&>(*topology);
    const Network& net = tree.network();
    const std::size_t h = s.m.size();
    std::uint64_t endpoints = 1, switches = 0, cables = 0;
    for (std::size_t l = 1; l <= h; ++l) endpoints *= s.m[l - 1];
    for (std::size_t l = 1; l <= h; ++l) switches += level_size(s, l);
    for (std::size_t l = 0; l < h; ++l) cables += level_size(s, l) * s.w[l] * cables_per_pair(s, l + 1);
    CHECK(level_size(s, 0) == endpoints);
    CHECK(net.num_endpoints() == endpoints);
    CHECK(net.num_switches() == switches);
    CHECK(net.num_cables() == cables);
    CHECK(topology->default_routing() == "xgftdmodk");
    std::uint64_t min_radix = ~0ULL, max_radix = 0;
    for (std::size_t l = 0; l <= h; ++l) {
      REQUIRE(tree.level_size(static_cast<std::uint32_t>(l)) == level_size(s, l));
      const std::uint64_t down = l == 0 ? 0 : s.m[l - 1] * cables_per_pair(s, l);
      const std::uint64_t up = l == h ? 0 : s.w[l] * cables_per_pair(s, l + 1);
      for (std::uint32_t i = 0; i < level_size(s, l); ++i)
        REQUIRE(net.degree(tree.vertex(static_cast<std::uint32_t>(l), i)) == down + up);
      if (l > 0) {
        min_radix = std::min(min_radix, down + up);
        max_radix = std::max(max_radix, down + up);
      }
    }
    std::uint64_t expected_min = ~0ULL, expected_max = 0;
    for (std::size_t l = 1; l <= h; ++l) {
      const std::uint64_t radix = s.m[l - 1] * cables_per_pair(s, l) + (l < h ? s.w[l] * cables_per_pair(s, l + 1) : 0);
      expected_min = std::min(expected_min, radix);
      expected_max = std::max(expected_max, radix);
    }
    CHECK(min_radix == expected_min);
    CHECK(max_radix == expected_max);
  }
}

TEST_CASE("xgft topology: up ports reach the parent with digit l+1 replaced and down ports the child") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const auto& tree = dynamic_cast<const topo::XgftTopology&>(*topology);
    const Network& net = tree.network();
    const std::size_t h = s.m.size();
    for (std::size_t l = 0; l <= h; ++l) {
      const std::uint64_t c_down = l == 0 ? 0 : cables_per_pair(s, l);
      const std::uint64_t down = l == 0 ? 0 : s.m[l - 1] * c_down;
      for (std::uint64_t i = 0; i < level_size(s, l); ++i) {
        const VertexId v = tree.vertex(static_cast<std::uint32_t>(l), static_cast<std::uint32_t>(i));
        REQUIRE(tree.level_of(v) == l);
        const auto label = decode(s, l, i);
        for (std::uint64_t port = 0; port < down; ++port) {
          auto child = label;
          child[l] = port / c_down;
          const VertexId t = net.target(net.out_begin(v) + static_cast<LinkId>(port));
          REQUIRE(t ==
                  tree.vertex(static_cast<std::uint32_t>(l - 1), static_cast<std::uint32_t>(encode(s, l - 1, child))));
        }
        if (l == h) continue;
        const std::uint64_t c_up = cables_per_pair(s, l + 1);
        for (std::uint64_t q = 0; q < s.w[l] * c_up; ++q) {
          auto parent = label;
          parent[l + 1] = q / c_up;
          const LinkId link = net.out_begin(v) + static_cast<LinkId>(down + q);
          REQUIRE(net.target(link) ==
                  tree.vertex(static_cast<std::uint32_t>(l + 1), static_cast<std::uint32_t>(encode(s, l + 1, parent))));
          // It arrives on the parent's down port (child digit l+1) * c + (q mod c).
          const LinkId back = net.reverse(link);
          REQUIRE(back - net.out_begin(net.target(link)) == label[l + 1] * c_up + q % c_up);
        }
      }
    }
  }
}

TEST_CASE("xgft topology: the diameter is 2h links by DistanceAnalysis and igraph") {
  for (const auto& s : kShapes) {
    CAPTURE(spec_of(s));
    auto topology = test::build_topology(spec_of(s));
    const DistanceReport report = DistanceAnalysis().run(topology->network());
    REQUIRE(report.exact);
    CHECK(report.disconnected_pairs == 0);
    CHECK(report.diameter_links == 2 * s.m.size());
    CHECK(topology->facts().at(0).key == "diameter_links");
    CHECK(topology->facts().at(0).value == 2.0 * static_cast<double>(s.m.size()));
    // igraph sees every vertex as a relay; with single-homed endpoints (w_1 = 1) that changes nothing.
    if (s.w[0] == 1 && (s.c.empty() || s.c[0] == 1))
      CHECK(test::igraph_graph_diameter(topology->network()) == 2.0 * static_cast<double>(s.m.size()));
  }
}

TEST_CASE("xgft topology: XGFT n k..k 1 k..k is exactly the k-ary n-tree and 1 k'..k' the thin tree") {
  const auto same = [](const std::string& a, const std::string& b) {
    auto ta = test::build_topology(a);
    auto tb = test::build_topology(b);
    const Network& na = ta->network();
    const Network& nb = tb->network();
    return na.num_switches() == nb.num_switches() && na.num_endpoints() == nb.num_endpoints() &&
           std::ranges::equal(na.offsets(), nb.offsets()) && std::ranges::equal(na.targets(), nb.targets());
  };
  CHECK(same("xgft:h=3,m=4x4x4,w=1x4x4", "fattree:k=4,n=3"));
  CHECK(same("xgft:h=2,m=3x3,w=1x3", "fattree:k=3,n=2"));
  CHECK(same("xgft:h=4,m=2x2x2x2,w=1x2x2x2", "fattree:k=2,n=4"));
  CHECK(same("xgft:h=3,m=4x4x4,w=1x2x2", "thintree:k=4,kp=2,n=3"));
  CHECK(same("gtree:h=3,m=4x4x4,w=1x4x4", "xgft:h=3,m=4x4x4,w=1x4x4"));
  CHECK(!same("xgft:h=3,m=4x4x4,w=1x4x4", "xgft:h=3,m=4x4x4,w=1x4x4,c=1x2x1"));
  CHECK(DistanceAnalysis().run(test::build_topology("xgft:h=3,m=4x4x4,w=1x4x4")->network()).diameter_links ==
        DistanceAnalysis().run(test::build_topology("fattree:k=4,n=3")->network()).diameter_links);
}

TEST_CASE("xgft topology: bad parameters are input errors naming the constraint") {
  const auto message = test::topology_error;
  CHECK(message("xgft:h=3,m=4x4,w=1x4x4").find("h = 3 entries") != std::string::npos);
  CHECK(message("xgft:h=2,m=4x4,w=1x4x4").find("'w'") != std::string::npos);
  CHECK(message("gtree:h=2,m=4x4,w=1x4,c=2").find("'c'") != std::string::npos);
  CHECK(message("xgft:h=1,m=1,w=1").find("at least 2 endpoints") != std::string::npos);
  CHECK(message("xgft:h=2,m=65536x65536,w=1x1").find("2^31") != std::string::npos);
  CHECK(message("xgft:h=2,m=4x4,w=1x0") != "");
}
