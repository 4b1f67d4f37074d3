// Closed-form checks of the static traffic patterns (INRFlow paper §3.3.1).
#include <doctest/doctest.h>

#include "tests/support/test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <set>

#include "core/error.hpp"
#include "workloads/bisection.hpp"
#include "workloads/pattern.hpp"

using namespace interflow;
using namespace interflow::workloads;

namespace {

const PatternRegistry& patterns() { return test::plugins().patterns; }

struct Generated {
  FlowSet flows;
  PatternReport report;
};

Generated run(const std::string& spec, std::uint32_t n, std::uint64_t seed = 1, std::vector<std::uint32_t> grid = {},
              std::uint64_t max_flows = 200'000'000) {
  PatternContext ctx;
  ctx.endpoints = n;
  ctx.seed = seed;
  ctx.grid = std::move(grid);
  ctx.max_flows = max_flows;
  Generated g;
  g.report = patterns().create(Spec::parse(spec, "test"))->generate(ctx, g.flows);
  return g;
}

std::uint32_t floor_log2(std::uint32_t n) { return static_cast<std::uint32_t>(std::bit_width(n) - 1); }

// Destination of each source; the flows must have at most one per source.
std::vector<EndpointId> destination_map(const FlowSet& flows, std::uint32_t n) {
  std::vector<EndpointId> dst(n, kNone);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    REQUIRE(dst[flows.src[f]] == kNone);
    dst[flows.src[f]] = flows.dst[f];
  }
  return dst;
}

// Every source sends exactly one flow and every destination receives exactly one.
void check_permutation(const FlowSet& flows, std::uint32_t n) {
  REQUIRE(flows.size() == n);
  std::vector<int> sent(n, 0), received(n, 0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    ++sent[flows.src[f]];
    ++received[flows.dst[f]];
  }
  CHECK(static_cast<std::uint64_t>(std::count(sent.begin(), sent.end(), 1)) == n);
  CHECK(static_cast<std::uint64_t>(std::count(received.begin(), received.end(), 1)) == n);
}

std::uint64_t circular_distance(EndpointId a, EndpointId b, std::uint32_t n) {
  const std::uint64_t d = a > b ? a - b : b - a;
  return std::min<std::uint64_t>(d, n - d);
}

const std::vector<std::string> kAllPatterns = {"uniform",
                                               "hotspot",
                                               "hotregion",
                                               "local",
                                               "shuffle",
                                               "bitreverse",
                                               "transpose",
                                               "complement",
                                               "shift",
                                               "randperm",
                                               "bisection",
                                               "bisection:mode=pairs",
                                               "bisection:halves=split",
                                               "alltoone",
                                               "alltoall",
                                               "manyalltoall:group=3",
                                               "neighbor",
                                               "tornado"};

}  // namespace

TEST_CASE("patterns: every built-in pattern is registered with described parameters") {
  for (const auto& name : {"hotspot", "hotregion", "local", "shuffle", "bitreverse", "transpose", "complement", "shift",
                           "randperm", "bisection", "alltoone", "alltoall", "manyalltoall", "neighbor", "tornado"}) {
    const auto* entry = patterns().find_or_null(name);
    REQUIRE_MESSAGE(entry != nullptr, name);
    CHECK(!entry->summary.empty());
    CHECK(!entry->details.empty());
    for (const auto& p : entry->params) CHECK_MESSAGE(!p.description.empty(), name << "." << p.name);
  }
}

TEST_CASE("patterns: no pattern ever emits a self flow or an endpoint out of range") {
  for (std::uint32_t n : {2u, 3u, 5u, 8u, 12u, 17u, 64u, 100u}) {
    for (const auto& spec : kAllPatterns) {
      if (spec == "tornado" && n < 3) continue;  // ring of 2: offset 0, rejected (tested below)
      CAPTURE(spec);
      CAPTURE(n);
      const auto g = run(spec, n, 7);
      for (std::size_t f = 0; f < g.flows.size(); ++f) {
        REQUIRE(g.flows.src[f] != g.flows.dst[f]);
        REQUIRE(g.flows.src[f] < n);
        REQUIRE(g.flows.dst[f] < n);
      }
    }
  }
}

TEST_CASE("patterns: flow counts match the closed forms") {
  for (std::uint32_t n : {2u, 3u, 7u, 8u, 10u, 16u, 33u, 100u, 1000u}) {
    CAPTURE(n);
    const std::uint64_t h = n / 2;
    CHECK(run("hotspot", n).flows.size() == n);
    CHECK(run("hotspot:flows_per_endpoint=3", n).flows.size() == 3 * n);
    CHECK(run("hotregion", n).flows.size() == n);
    CHECK(run("local:flows_per_endpoint=2", n).flows.size() == 2 * n);
    CHECK(run("shift", n).flows.size() == n);
    CHECK(run("randperm", n).flows.size() == n);
    CHECK(run("alltoone", n).flows.size() == n - 1);
    CHECK(run("alltoone", n).report.idle_endpoints == 1);
    CHECK(run("alltoall", n).flows.size() == std::uint64_t{n} * (n - 1));
    CHECK(run("bisection", n).flows.size() == 2 * h * h);
    CHECK(run("bisection:mode=pairs", n).flows.size() == 2 * h);
    CHECK(run("bisection", n).report.idle_endpoints == n % 2);
    CHECK(run("neighbor", n).flows.size() == (n >= 3 ? 2 * n : n));  // 1-D ring of n
    if (n >= 3) CHECK(run("tornado", n).flows.size() == n);
  }
}

TEST_CASE("patterns: bit permutations use the first 2^b endpoints and drop exactly their fixed points") {
  for (std::uint32_t n : {2u, 3u, 8u, 12u, 16u, 31u, 32u, 100u, 1024u}) {
    CAPTURE(n);
    const std::uint32_t b = floor_log2(n);
    const std::uint64_t m = std::uint64_t{1} << b;
    // Fixed points: a rotation by r of b-bit words fixes 2^gcd(b, r) words (gcd(b, 0) = b);
    // bit reversal fixes the 2^ceil(b/2) palindromes; complement fixes none.
    const std::uint64_t shuffle_fixed = std::uint64_t{1} << std::gcd(b, 1 % b);
    const std::uint64_t transpose_fixed = std::uint64_t{1} << std::gcd(b, b / 2);
    const std::uint64_t reverse_fixed = std::uint64_t{1} << ((b + 1) / 2);
    const std::pair<const char*, std::uint64_t> cases[] = {
        {"shuffle", shuffle_fixed}, {"transpose", transpose_fixed}, {"bitreverse", reverse_fixed}, {"complement", 0}};
    for (const auto& [name, fixed] : cases) {
      CAPTURE(name);
      const auto g = run(name, n);
      CHECK(g.report.idle_endpoints == n - m);
      CHECK(g.report.self_pairs_dropped == fixed);
      CHECK(g.flows.size() == m - fixed);
      // Each participating destination is reached at most once and lies in the first 2^b ids.
      std::vector<int> received(n, 0);
      for (std::size_t f = 0; f < g.flows.size(); ++f) {
        REQUIRE(g.flows.src[f] < m);
        REQUIRE(g.flows.dst[f] < m);
        ++received[g.flows.dst[f]];
      }
      CHECK(*std::max_element(received.begin(), received.end()) <= 1);
    }
  }
}

TEST_CASE("patterns: bit permutations on known small cases") {
  SUBCASE("N = 8") {
    const auto reverse = destination_map(run("bitreverse", 8).flows, 8);
    CHECK(reverse[1] == 4);
    CHECK(reverse[3] == 6);
    CHECK(reverse[0] == kNone);  // palindrome: dropped
    CHECK(reverse[5] == kNone);
    const auto shuffle = destination_map(run("shuffle", 8).flows, 8);
    CHECK(shuffle[5] == 3);
    CHECK(shuffle[4] == 1);
    CHECK(shuffle[1] == 2);
    const auto complement = destination_map(run("complement", 8).flows, 8);
    CHECK(complement[2] == 5);
    CHECK(complement[0] == 7);
    // b = 3 is odd: transpose rotates left by 1, the same as the shuffle.
    const auto transpose = destination_map(run("transpose", 8).flows, 8);
    CHECK(transpose[5] == 3);
  }
  SUBCASE("N = 16 transpose swaps the 2-bit halves") {
    const auto transpose = destination_map(run("transpose", 16).flows, 16);
    CHECK(transpose[3] == 12);
    CHECK(transpose[1] == 4);
    CHECK(transpose[6] == 9);
    CHECK(transpose[5] == kNone);  // 0101 -> 0101
  }
  SUBCASE("N = 12 behaves as N = 8 with endpoints 8..11 idle") {
    const auto g = run("complement", 12);
    CHECK(g.report.idle_endpoints == 4);
    CHECK(destination_map(g.flows, 12)[2] == 5);
    CHECK(destination_map(g.flows, 12)[9] == kNone);
  }
}

TEST_CASE("patterns: shift sends to (i + s) mod N") {
  SUBCASE("s = 3 on 10 endpoints") {
    const auto g = run("shift:s=3", 10);
    check_permutation(g.flows, 10);
    for (std::size_t f = 0; f < g.flows.size(); ++f) CHECK(g.flows.dst[f] == (g.flows.src[f] + 3) % 10);
  }
  SUBCASE("negative s goes backwards") {
    const auto g = run("shift:s=-1", 10);
    const auto dst = destination_map(g.flows, 10);
    CHECK(dst[0] == 9);
    CHECK(dst[5] == 4);
  }
  SUBCASE("s larger than N wraps") {
    const auto dst = destination_map(run("shift:s=23", 10).flows, 10);
    CHECK(dst[8] == 1);
  }
}

TEST_CASE("patterns: permutation patterns are permutations without fixed points") {
  for (std::uint32_t n : {2u, 3u, 9u, 64u, 1000u, 4097u}) {
    CAPTURE(n);
    for (std::uint64_t seed : {1u, 2u, 3u, 99u}) {
      check_permutation(run("randperm", n, seed).flows, n);
      check_permutation(run("shift:s=5", n).flows, n);
    }
    if (n >= 3) check_permutation(run("tornado", n).flows, n);
    if (n % 2 == 0) check_permutation(run("bisection:mode=pairs", n, 5).flows, n);
  }
  const auto g = run("complement", 64);
  check_permutation(g.flows, 64);
}

TEST_CASE("patterns: all-to-all and all-to-one") {
  SUBCASE("alltoall reaches every ordered pair once") {
    const std::uint32_t n = 13;
    const auto g = run("alltoall", n);
    std::set<std::pair<EndpointId, EndpointId>> pairs;
    for (std::size_t f = 0; f < g.flows.size(); ++f) pairs.emplace(g.flows.src[f], g.flows.dst[f]);
    CHECK(pairs.size() == n * (n - 1));
  }
  SUBCASE("alltoone with a given root") {
    const auto g = run("alltoone:root=4", 10);
    for (std::size_t f = 0; f < g.flows.size(); ++f) CHECK(g.flows.dst[f] == 4);
    std::set<EndpointId> sources(g.flows.src.begin(), g.flows.src.end());
    CHECK(sources.size() == 9);
    CHECK(sources.count(4) == 0);
  }
  SUBCASE("alltoone draws its root from the seed") {
    std::set<EndpointId> roots;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) roots.insert(run("alltoone", 1000, seed).flows.dst[0]);
    CHECK(roots.size() > 10);
  }
}

TEST_CASE("patterns: manyalltoall forms random cliques of the group size") {
  for (auto [n, s] :
       {std::pair{10u, 4u}, std::pair{12u, 4u}, std::pair{100u, 7u}, std::pair{9u, 4u}, std::pair{5u, 8u}}) {
    CAPTURE(n);
    CAPTURE(s);
    const auto g = run("manyalltoall:group=" + std::to_string(s), n, 3);
    // Group of each endpoint by union-find over the flows; every group must be a complete digraph.
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](std::uint32_t x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (std::size_t f = 0; f < g.flows.size(); ++f) parent[find(g.flows.src[f])] = find(g.flows.dst[f]);
    std::vector<std::uint64_t> size(n, 0);
    for (std::uint32_t e = 0; e < n; ++e) ++size[find(e)];
    std::multiset<std::uint64_t> sizes;
    std::uint64_t expected_flows = 0;
    for (std::uint32_t e = 0; e < n; ++e)
      if (size[e] > 0) {
        sizes.insert(size[e]);
        expected_flows += size[e] * (size[e] - 1);
      }
    CHECK(g.flows.size() == expected_flows);
    const std::uint32_t group = std::min(s, n);
    CHECK(sizes.count(group) == n / group);
    const std::uint32_t rest = n % group;
    CHECK(sizes.size() == n / group + (rest > 0 ? 1 : 0));
    if (rest > 0) CHECK(sizes.count(rest) >= 1);
    CHECK(g.report.idle_endpoints == (rest == 1 ? 1u : 0u));
    std::set<std::pair<EndpointId, EndpointId>> pairs;
    for (std::size_t f = 0; f < g.flows.size(); ++f) pairs.emplace(g.flows.src[f], g.flows.dst[f]);
    CHECK(pairs.size() == g.flows.size());  // no duplicate flows, so each group is exactly a clique
  }
  // Seeded membership: a different seed gives different groups.
  CHECK(run("manyalltoall:group=4", 40, 1).flows.dst != run("manyalltoall:group=4", 40, 2).flows.dst);
}

TEST_CASE("patterns: bisection flows always cross the halves") {
  for (std::uint32_t n : {2u, 7u, 10u, 64u, 101u}) {
    for (const char* halves : {"random", "split"}) {
      for (const char* mode : {"all", "pairs"}) {
        CAPTURE(n);
        CAPTURE(halves);
        CAPTURE(mode);
        const std::uint64_t seed = 11;
        const auto g = run(std::string("bisection:halves=") + halves + ",mode=" + mode, n, seed);
        const auto half = bisection_halves(
            n, std::string(halves) == "random" ? BisectionHalves::Random : BisectionHalves::Split, seed);
        const std::uint64_t h = n / 2;
        CHECK(static_cast<std::uint64_t>(std::count(half.begin(), half.end(), 0)) == h);
        CHECK(static_cast<std::uint64_t>(std::count(half.begin(), half.end(), 1)) == h);
        CHECK(static_cast<std::uint64_t>(std::count(half.begin(), half.end(), kIdleHalf)) == n % 2);
        for (std::size_t f = 0; f < g.flows.size(); ++f) {
          REQUIRE(half[g.flows.src[f]] != kIdleHalf);
          REQUIRE(half[g.flows.dst[f]] != kIdleHalf);
          REQUIRE(half[g.flows.src[f]] != half[g.flows.dst[f]]);
        }
        if (std::string(mode) == "all") {
          CHECK(g.flows.size() == h * h * 2);
          std::set<std::pair<EndpointId, EndpointId>> pairs;
          for (std::size_t f = 0; f < g.flows.size(); ++f) pairs.emplace(g.flows.src[f], g.flows.dst[f]);
          CHECK(pairs.size() == h * h * 2);
        } else {
          CHECK(g.flows.size() == 2 * h);
          // A matching used in both directions: dst(dst(i)) == i.
          const auto dst = destination_map(g.flows, n);
          for (std::uint32_t e = 0; e < n; ++e)
            if (dst[e] != kNone) CHECK(dst[dst[e]] == e);
        }
        if (std::string(halves) == "split")
          for (std::uint32_t e = 0; e < 2 * h; ++e) CHECK(half[e] == (e < h ? 0 : 1));
      }
    }
  }
}

TEST_CASE("patterns: hotspot sends the given fraction of flows to the hot endpoints") {
  const std::uint32_t n = 100000;
  SUBCASE("one hot spot drawn by the seed") {
    const auto g = run("hotspot", n, 5);
    std::vector<std::uint32_t> received(n, 0);
    for (auto d : g.flows.dst) ++received[d];
    const auto hot = static_cast<EndpointId>(std::max_element(received.begin(), received.end()) - received.begin());
    CHECK(g.report.note.find(std::to_string(hot)) != std::string::npos);
    // The n-1 cold sources each hit it with probability 0.25; the hot source never does.
    const double expected = 0.25 * (n - 1);
    const double sigma = std::sqrt((n - 1) * 0.25 * 0.75);
    CHECK(std::abs(received[hot] - expected) < 5 * sigma);
    // Cold endpoints share the rest uniformly: about 0.75 each.
    CHECK(std::abs(static_cast<double>(n - received[hot]) / (n - 1) - 0.75) < 0.01);
  }
  SUBCASE("a given node and a given fraction") {
    const auto g = run("hotspot:node=123,fraction=0.6", n, 5);
    const auto hits = std::count(g.flows.dst.begin(), g.flows.dst.end(), 123u);
    const double expected = 0.6 * (n - 1);
    CHECK(std::abs(static_cast<double>(hits) - expected) < 5 * std::sqrt((n - 1) * 0.6 * 0.4));
  }
  SUBCASE("several hot spots") {
    const auto g = run("hotspot:hotspots=8,fraction=0.5", n, 9);
    std::vector<std::uint32_t> received(n, 0);
    for (auto d : g.flows.dst) ++received[d];
    std::vector<std::uint32_t> sorted = received;
    std::sort(sorted.rbegin(), sorted.rend());
    const std::uint64_t hot_hits = std::accumulate(sorted.begin(), sorted.begin() + 8, std::uint64_t{0});
    const double expected = 0.5 * n;  // hot sources also send half their flows to the other hot spots
    CHECK(std::abs(static_cast<double>(hot_hits) - expected) < 5 * std::sqrt(n * 0.25));
    CHECK(sorted[8] < 20);  // a cold endpoint receives about 0.5 flows
  }
  SUBCASE("fraction 1 with one hot spot: everyone else sends only to it") {
    const auto g = run("hotspot:fraction=1,node=0", 50);
    for (std::size_t f = 0; f < g.flows.size(); ++f) CHECK((g.flows.src[f] == 0) != (g.flows.dst[f] == 0));
  }
}

TEST_CASE("patterns: hotregion concentrates flows in the first ids") {
  const std::uint32_t n = 100000;
  const double fraction = 0.25;
  const std::uint32_t region = 12500;  // round(0.125 * n)
  const auto g = run("hotregion", n, 3);
  CHECK(g.report.note.find("0..12499") != std::string::npos);
  double expected = 0, variance = 0;
  std::uint64_t hits = 0;
  for (std::size_t f = 0; f < g.flows.size(); ++f) {
    const bool inside = g.flows.src[f] < region;
    const double p = fraction + (1 - fraction) * (inside ? region - 1.0 : region) / (n - 1);
    expected += p;
    variance += p * (1 - p);
    hits += g.flows.dst[f] < region;
  }
  CHECK(std::abs(static_cast<double>(hits) - expected) < 5 * std::sqrt(variance));
}

TEST_CASE("patterns: local distances follow the geometric law") {
  const std::uint32_t n = 100000;
  auto mean_distance = [&](const std::string& spec) {
    const auto g = run(spec, n, 4);
    double sum = 0;
    for (std::size_t f = 0; f < g.flows.size(); ++f)
      sum += static_cast<double>(circular_distance(g.flows.src[f], g.flows.dst[f], n));
    return sum / static_cast<double>(g.flows.size());
  };
  // Geometric law on 1, 2, ...: mean 1/(1-q), variance q/(1-q)^2 (truncation at n/2 is negligible).
  const double m5 = mean_distance("local:decay=0.5");
  const double m9 = mean_distance("local:decay=0.9");
  CHECK(std::abs(m5 - 2.0) < 5 * std::sqrt(2.0 / n));
  CHECK(std::abs(m9 - 10.0) < 5 * std::sqrt(90.0 / n));
  CHECK(m5 < m9);
  SUBCASE("both directions are used") {
    const auto g = run("local:decay=0.1", 1000);
    std::uint64_t forward = 0;
    for (std::size_t f = 0; f < g.flows.size(); ++f) forward += g.flows.dst[f] == (g.flows.src[f] + 1) % 1000;
    CHECK(forward > 350);  // about 0.9 * 1000 / 2 at distance one going forward
    CHECK(forward < 550);
  }
  SUBCASE("two endpoints: distance one only") {
    const auto dst = destination_map(run("local", 2).flows, 2);
    CHECK(dst[0] == 1);
    CHECK(dst[1] == 0);
  }
}

TEST_CASE("patterns: neighbor sends to the grid neighbours") {
  SUBCASE("4x4x4 gives 6 distinct neighbours each") {
    const auto g = run("neighbor:dims=4x4x4", 64);
    CHECK(g.flows.size() == 64 * 6);
    std::vector<std::set<EndpointId>> peers(64);
    for (std::size_t f = 0; f < g.flows.size(); ++f) peers[g.flows.src[f]].insert(g.flows.dst[f]);
    for (std::uint32_t e = 0; e < 64; ++e) {
      CHECK(peers[e].size() == 6);
      // Endpoint 0 = (0,0,0): neighbours (1,0,0) (3,0,0) (0,1,0) (0,3,0) (0,0,1) (0,0,3).
      if (e == 0) CHECK(peers[0] == std::set<EndpointId>{1, 3, 4, 12, 16, 48});
    }
  }
  SUBCASE("dimension of size 2 gives one neighbour, size 1 none") {
    const auto g = run("neighbor:dims=2x1x5", 10);
    CHECK(g.flows.size() == 10 * 3);
  }
  SUBCASE("the topology's grid is used when dims is unset") {
    CHECK(run("neighbor", 64, 1, {4, 4, 4}).flows.size() == 64 * 6);
    CHECK(run("neighbor", 64, 1, {8, 8}).flows.size() == 64 * 4);
  }
  SUBCASE("ring fallback") {
    const auto flows = run("neighbor", 5).flows;  // source 0 first: +1 then -1
    CHECK(flows.dst[0] == 1);
    CHECK(flows.dst[1] == 4);
  }
}

TEST_CASE("patterns: tornado moves ceil(k/2)-1 along each dimension") {
  SUBCASE("ring of 8 sends to +3") {
    const auto dst = destination_map(run("tornado", 8).flows, 8);
    for (std::uint32_t e = 0; e < 8; ++e) CHECK(dst[e] == (e + 3) % 8);
  }
  SUBCASE("5x4 grid: +2 in dimension 0, +1 in dimension 1") {
    const auto dst = destination_map(run("tornado:dims=5x4", 20).flows, 20);
    CHECK(dst[0] == 2 + 5 * 1);
    CHECK(dst[4 + 5 * 3] == 1 + 5 * 0);
  }
  SUBCASE("size-2 dimensions stay unchanged") {
    const auto dst = destination_map(run("tornado:dims=2x7", 14).flows, 14);
    CHECK(dst[1] == 1 + 2 * 3);
  }
}

TEST_CASE("patterns: same seed gives the same flows and another seed different ones") {
  for (const char* spec : {"hotspot", "hotregion", "local", "randperm", "bisection", "bisection:mode=pairs",
                           "manyalltoall:group=5", "alltoone", "uniform"}) {
    CAPTURE(spec);
    const auto a = run(spec, 500, 42);
    const auto b = run(spec, 500, 42);
    const auto c = run(spec, 500, 43);
    CHECK(a.flows.src == b.flows.src);
    CHECK(a.flows.dst == b.flows.dst);
    CHECK((a.flows.src != c.flows.src || a.flows.dst != c.flows.dst));
  }
}

TEST_CASE("patterns: flow budget refusals") {
  SUBCASE("alltoall at a million endpoints is refused before generating") {
    try {
      run("alltoall", 1'000'000);
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("alltoall") != std::string::npos);
      CHECK(std::string(e.what()).find("999999000000") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(run("bisection", 1'000'000), InputError);
  CHECK_THROWS_AS(run("manyalltoall:group=1000", 1'000'000, 1, {}, 100'000'000), InputError);
  CHECK_THROWS_AS(run("shift", 100, 1, {}, 99), InputError);
  CHECK(run("shift", 100, 1, {}, 100).flows.size() == 100);
}

TEST_CASE("patterns: one flow per endpoint patterns at a million endpoints") {
  const std::uint32_t n = 1u << 20;
  for (const char* spec : {"hotspot", "randperm", "bisection:mode=pairs", "tornado"}) {
    CAPTURE(spec);
    CHECK(run(spec, n).flows.size() == n);
  }
  CHECK(run("bitreverse", n).flows.size() == n - 1024);  // 2^10 palindromes on 20 bits
}

TEST_CASE("patterns: bad parameters are input errors") {
  CHECK_THROWS_AS(run("shift:s=0", 10), InputError);
  CHECK_THROWS_AS(run("shift:s=10", 10), InputError);
  CHECK_THROWS_AS(run("shift:s=-20", 10), InputError);
  CHECK_THROWS_AS(run("neighbor:dims=4x4", 20), InputError);
  CHECK_THROWS_AS(run("tornado:dims=3x3", 10), InputError);
  CHECK_THROWS_AS(run("neighbor", 20, 1, {4, 4}), InputError);
  CHECK_THROWS_AS(run("tornado:dims=2x2x1", 4), InputError);
  CHECK_THROWS_AS(run("tornado", 2), InputError);
  CHECK_THROWS_AS(run("hotspot:fraction=1.5", 10), InputError);
  CHECK_THROWS_AS(run("hotregion:fraction=-0.1", 10), InputError);
  CHECK_THROWS_AS(run("hotregion:region=0", 10), InputError);
  CHECK_THROWS_AS(run("hotspot:hotspots=10", 10), InputError);
  CHECK_THROWS_AS(run("hotspot:node=10", 10), InputError);
  CHECK_THROWS_AS(run("hotspot:node=1,hotspots=2", 10), InputError);
  CHECK_THROWS_AS(run("local:decay=1", 10), InputError);
  CHECK_THROWS_AS(run("local:decay=0", 10), InputError);
  CHECK_THROWS_AS(run("alltoone:root=10", 10), InputError);
  CHECK_THROWS_AS(run("manyalltoall:group=1", 10), InputError);
  CHECK_THROWS_AS(run("bisection:mode=half", 10), InputError);
  CHECK_THROWS_AS(run("randperm", 1), InputError);
  CHECK_THROWS_AS(run("complement", 1), InputError);
}
