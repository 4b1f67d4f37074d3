// The group clocks of the flow transport (engine/flow/group_clocks.hpp) against per-member
// accounting: every member's bits left and the next end, after random joins, leaves, moves between
// groups and level changes at increasing times.
#include "engine/flow/group_clocks.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/random.hpp"
#include "tests/support/approx.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

// The same members accounted one by one: bits left as of `last`, at the rate weight × level.
struct Reference {
  std::vector<double> bits, weight, last;
  std::vector<std::uint32_t> group;
  std::vector<double> level;

  double left(std::uint32_t v, double now) const {
    return std::max(0.0, bits[v] - weight[v] * level[group[v]] * 1e9 * (now - last[v]));
  }
  void settle(std::uint32_t v, double now) {
    bits[v] = left(v, now);
    last[v] = now;
  }
  double end(std::uint32_t v, double now) const {
    const double rate = weight[v] * level[group[v]] * 1e9;
    return rate > 0 ? now + left(v, now) / rate : std::numeric_limits<double>::infinity();
  }
};

}  // namespace

TEST_CASE("group clocks: bits left and next ends equal per-member accounting") {
  constexpr std::uint32_t kNo = GroupClocks::kNone;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    const std::uint32_t vars = 40, groups = 6;
    GroupClocks clocks;
    Reference ref;
    ref.bits.assign(vars, 0.0);
    ref.weight.assign(vars, 1.0);
    ref.last.assign(vars, 0.0);
    ref.group.assign(vars, kNo);
    ref.level.assign(groups, 0.0);
    for (std::uint32_t g = 0; g < groups; ++g) ref.level[g] = static_cast<double>(rng.below(4)) * 0.5;  // some 0
    double now = 0;
    for (int step = 0; step < 400; ++step) {
      now += 1e-7 * rng.uniform();
      const auto v = static_cast<std::uint32_t>(rng.below(vars));
      const auto g = static_cast<std::uint32_t>(rng.below(groups));
      switch (rng.below(4)) {
        case 0:  // join, or leave
          if (ref.group[v] == kNo) {
            ref.bits[v] = 8e3 * (1 + static_cast<double>(rng.below(1000)));
            ref.weight[v] = 0.5 + rng.uniform();
            ref.last[v] = now;
            ref.group[v] = g;
            clocks.join(v, g, ref.bits[v], ref.weight[v], ref.level[g], now);
          } else {
            REQUIRE(clocks.leave(v, now) == approx(ref.left(v, now)).epsilon(1e-9).scale(1e-3));
            ref.group[v] = kNo;
          }
          break;
        case 1:  // move to another group, at its level
          if (ref.group[v] != kNo && ref.group[v] != g) {
            ref.settle(v, now);
            const double bits = clocks.leave(v, now);
            clocks.join(v, g, bits, ref.weight[v], ref.level[g], now);
            ref.group[v] = g;
          }
          break;
        default: {  // a new level: the members settle at the old one first
          for (std::uint32_t u = 0; u < vars; ++u)
            if (ref.group[u] == g) ref.settle(u, now);
          ref.level[g] = static_cast<double>(rng.below(5)) * 0.25;
          clocks.set_level(g, ref.level[g], now);
        }
      }
      double next = std::numeric_limits<double>::infinity(), rate = 0;
      for (std::uint32_t u = 0; u < vars; ++u)
        if (ref.group[u] != kNo) {
          REQUIRE(clocks.member(u));
          REQUIRE(clocks.group(u) == ref.group[u]);
          REQUIRE(clocks.bits_left(u, now) == approx(ref.left(u, now)).epsilon(1e-9).scale(1e-3));
          next = std::min(next, ref.end(u, now));
          rate += ref.weight[u] * ref.level[ref.group[u]];
        } else {
          REQUIRE(!clocks.member(u));
        }
      if (std::isinf(next)) {
        REQUIRE(std::isinf(clocks.next_time()));
      } else {
        REQUIRE(clocks.next_time() == approx(next).epsilon(1e-12));
        REQUIRE(ref.end(clocks.next_var(), now) == approx(next).epsilon(1e-12));
      }
      REQUIRE(clocks.gbps() == approx(rate).epsilon(1e-9).scale(1e-9));
    }
  }
}

TEST_CASE("group clocks: a clock rebased as it grows keeps every end") {
  // One member per group at 50 Gbit/s per unit weight for 10 s: the clock passes 1 many times and is
  // rebased; the member's bits left follow the closed form throughout.
  GroupClocks clocks;
  clocks.join(0, 0, 8e12, 1.0, 50.0, 0.0);   // 8 Tbit: ends at 160 s
  clocks.join(1, 0, 4e12, 2.0, 50.0, 0.0);   // 4 Tbit at 100 Gbit/s: ends at 40 s
  for (int s = 1; s <= 10; ++s) {
    const double now = s;
    clocks.set_level(0, 50.0, now);  // settles (and rebases) without changing the level
    CHECK(clocks.bits_left(0, now) == approx(8e12 - 50e9 * now).epsilon(1e-12));
    CHECK(clocks.bits_left(1, now) == approx(4e12 - 100e9 * now).epsilon(1e-12));
    CHECK(clocks.next_time() == approx(40.0).epsilon(1e-12));
    CHECK(clocks.next_var() == 1);
  }
  CHECK(clocks.gbps() == approx(150.0));
  CHECK(clocks.leave(1, 40.0) == approx(0.0).scale(1e-3));
  CHECK(clocks.next_time() == approx(160.0).epsilon(1e-12));
}
