// The rules that hand a run over variables to bottleneck groups and back (engine/flow/group_switch.hpp).
#include "engine/flow/group_switch.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using interflow::flow::GroupSwitch;

TEST_CASE("group switch: distinct levels are counted exactly over a bounded sample") {
  std::vector<double> none;
  CHECK(GroupSwitch::distinct(none) == 0);
  std::vector<double> levels{3.0, 1.0, 3.0, 2.0, 1.0, 3.0, 0.5};
  CHECK(GroupSwitch::distinct(levels) == 4);
  // Equal up to rounding (a level read back as rate / weight) is one level; 1e-9 apart are two.
  std::vector<double> near{1.0, 1.0 + 1e-15, 1.0 - 1e-15, 1.0, 1.0 + 1e-9, 3e-300, 3e-300 * (1 + 1e-15)};
  CHECK(GroupSwitch::distinct(near) == 3);
  std::vector<double> thirds{(0.1 / 3) / (1.0 / 3), 0.1, (0.1 / 6) * 6, 0.7 / 7};
  CHECK(GroupSwitch::distinct(thirds) == 1);
  // Every stride()-th of C changed variables: all of them up to kSample, never more than kSample.
  for (const std::uint64_t c : {1ULL, 4095ULL, 4096ULL, 4097ULL, 8192ULL, 8193ULL, 16777216ULL, 16777217ULL}) {
    CAPTURE(c);
    const std::uint64_t stride = GroupSwitch::stride(c);
    const std::uint64_t sampled = (c + stride - 1) / stride;
    CHECK(sampled <= GroupSwitch::kSample);
    CHECK(sampled >= std::min<std::uint64_t>(c, GroupSwitch::kSample / 2));
    if (c <= GroupSwitch::kSample) CHECK(stride == 1);
  }
}

TEST_CASE("group switch: a window decides at its end when three quarters of its batches moved many rates to few levels") {
  GroupSwitch rule(GroupSwitch::Settings{4, 100, 10});
  CHECK(!rule.wants_levels(99));
  CHECK(rule.wants_levels(100));
  // Three grouped batches of four (exactly at both thresholds, then well above): decided at the 4th.
  CHECK(!rule.observe(100, 100, 10));
  CHECK(!rule.observe(50000, 4096, 1));
  CHECK(!rule.observe(3, 3, 3));
  CHECK(rule.observe(400, 400, 4));
  // Two grouped batches, however large, and two near misses: too few changed (the sample's levels
  // ignored), too many levels in the sample.
  CHECK(!rule.observe(1000000, 4096, 1));
  CHECK(!rule.observe(1000000, 4096, 1));
  CHECK(!rule.observe(99, 99, 1));
  CHECK(!rule.observe(1000, 1000, 101));
  // Each window starts afresh, and windows are consecutive, not sliding: two grouped batches at the
  // end of one and one at the start of the next (three of four in a row) decide nothing.
  CHECK(!rule.observe(1, 0, 0));
  CHECK(!rule.observe(1, 0, 0));
  CHECK(!rule.observe(400, 400, 4));
  CHECK(!rule.observe(400, 400, 4));
  CHECK(!rule.observe(400, 400, 4));
  CHECK(!rule.observe(1, 0, 0));
  CHECK(!rule.observe(1, 0, 0));
  CHECK(!rule.observe(1, 0, 0));
}

TEST_CASE("group switch: levels are not counted once the window cannot decide") {
  GroupSwitch rule(GroupSwitch::Settings{4, 10, 2});
  CHECK(rule.wants_levels(10));
  CHECK(!rule.observe(10, 10, 10));  // not grouped: 3 left, 3 needed
  CHECK(rule.wants_levels(10));
  CHECK(!rule.observe(10, 10, 10));  // 2 left, 3 needed
  CHECK(!rule.wants_levels(10));     // not counted, so not grouped
  CHECK(!rule.observe(10, 10, 1));
  CHECK(!rule.observe(10, 10, 1));
  CHECK(rule.wants_levels(10));  // a new window
  CHECK(!rule.observe(10, 10, 1));
  CHECK(!rule.observe(10, 10, 1));
  CHECK(!rule.observe(0, 0, 0));
  CHECK(rule.wants_levels(10));  // 1 left, 1 needed
  CHECK(rule.observe(10, 10, 1));
}

TEST_CASE("group switch: a window of one batch and thresholds of zero decide at once") {
  GroupSwitch rule(GroupSwitch::Settings{1, 0, 0});  // the tests' forced switch
  CHECK(rule.observe(0, 0, 0));
  CHECK_THROWS(GroupSwitch(GroupSwitch::Settings{0, 1, 1}));
}

TEST_CASE("group switch: the way back decides on a window's sums when its changed groups held few members") {
  using Towards = GroupSwitch::Towards;
  GroupSwitch::Settings settings{8, 100, 10};
  settings.back_per_level = 8;
  settings.back_min_levels = 16;
  GroupSwitch rule(settings, Towards::variables);
  CHECK(rule.towards() == Towards::variables);
  CHECK(GroupSwitch(GroupSwitch::Settings{}).towards() == Towards::groups);
  CHECK(!rule.wants_levels(1000));  // (over groups the counts are exact: nothing to sample)
  // 16 changed groups holding 120 members (7.5 each, under 8): back, at the window's end.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(15, 15, 2));
  CHECK(rule.observe(15, 15, 2));
  // 128 members exactly (8 each): the run stays over groups.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(16, 16, 2));
  CHECK(!rule.observe(16, 16, 2));
  // One incast batch keeps a window of spread changes over groups: its members count in the sum.
  CHECK(!rule.observe(5000, 5000, 1));
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(3, 3, 3));
  // A lull, few changes of any kind (15 groups, under back_min_levels): over groups still.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(2, 2, 2));
  CHECK(!rule.observe(1, 1, 1));
  // Each window starts afresh: the spread changes alone now decide.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(3, 3, 3));
  CHECK(rule.observe(3, 3, 3));
}
