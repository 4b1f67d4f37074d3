// The rules that hand a run over variables to bottleneck groups and back (engine/flow/group_switch.hpp).
#include "engine/flow/group_switch.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using interflow::flow::GroupSwitch;

TEST_CASE("group switch: the members of large levels are counted exactly over a bounded sample") {
  std::vector<double> none;
  CHECK(GroupSwitch::in_large_levels(none, 1) == 0);
  // Levels 3 (three members), 1 (two), 2 and 0.5 (one each).
  std::vector<double> levels{3.0, 1.0, 3.0, 2.0, 1.0, 3.0, 0.5};
  CHECK(GroupSwitch::in_large_levels(levels, 3) == 3);
  CHECK(GroupSwitch::in_large_levels(levels, 2) == 5);
  CHECK(GroupSwitch::in_large_levels(levels, 1) == 7);
  CHECK(GroupSwitch::in_large_levels(levels, 4) == 0);
  // Equal up to rounding (a level read back as rate / weight) is one level; 1e-9 apart are two.
  std::vector<double> near{1.0, 1.0 + 1e-15, 1.0 - 1e-15, 1.0, 1.0 + 1e-9, 3e-300, 3e-300 * (1 + 1e-15)};
  CHECK(GroupSwitch::in_large_levels(near, 4) == 4);
  CHECK(GroupSwitch::in_large_levels(near, 2) == 6);
  std::vector<double> thirds{(0.1 / 3) / (1.0 / 3), 0.1, (0.1 / 6) * 6, 0.7 / 7};
  CHECK(GroupSwitch::in_large_levels(thirds, 4) == 4);
  // The largest level last, and alone at the end: its run is closed too.
  std::vector<double> last{1.0, 2.0, 2.0, 2.0};
  CHECK(GroupSwitch::in_large_levels(last, 3) == 3);
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

TEST_CASE("group switch: towards groups a window favours them when most of its changes sat in large levels") {
  GroupSwitch::Settings settings;
  settings.window = 8;
  settings.min_changed = 100;  // B ≥ 8 × 100 / 2 = 400
  GroupSwitch rule(settings);
  CHECK(rule.towards() == GroupSwitch::Towards::groups);
  CHECK(!rule.wants_levels(99));
  CHECK(rule.wants_levels(100));
  // A hot spot: one batch in three re-levels hundreds of flows at one level and moves a few
  // elsewhere; the others change little. B = 3 × 300 = 900, R = 3 × 60 + 5 × 3 = 195: 900 ≥ 3 × 195,
  // 3 batches of 8 with a large level (at least one), 900 ≥ 400: decided at the window's end, not
  // before.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(i % 3 == 0 ? 300 : 0, i % 3 == 0 ? 60 : 3));
  CHECK(rule.observe(0, 3));
  // Too many changes elsewhere: B = 900 < 3 × R = 3 × 301.
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(i % 3 == 0 ? 300 : 0, i % 3 == 0 ? 100 : 1));
  CHECK(!rule.observe(0, 1));
  // At the ratio: B = 400 and R = 133 (400 ≥ 399) favours groups; R = 134 (400 < 402) does not.
  for (const std::uint64_t rest : {133u, 134u}) {
    for (int i = 0; i < 4; ++i) CHECK(!rule.observe(100, 0));
    CHECK(!rule.observe(0, rest));
    CHECK(!rule.observe(0, 0));
    CHECK(!rule.observe(0, 0));
    CHECK(rule.observe(0, 0) == (rest == 133));
  }
  // Too few in large levels: B = 399 < 400.
  CHECK(!rule.observe(399, 0));
  for (int i = 0; i < 7; ++i) CHECK(!rule.observe(0, 0));
}

TEST_CASE("group switch: the way back needs a window of spread changes and not a lull") {
  GroupSwitch::Settings settings;
  settings.window = 4;  // back when B ≤ R and R ≥ 128
  GroupSwitch back(settings, GroupSwitch::Towards::variables);
  const auto window = [&](std::uint64_t clustered, std::uint64_t rest) {
    bool decided = false;
    for (int i = 0; i < 4; ++i) decided = back.observe(i == 0 ? clustered : 0, i == 0 ? rest : 0);
    return decided;
  };
  CHECK(!window(5000, 300));  // an incast still running: over groups
  CHECK(!window(129, 128));   // B just above R
  CHECK(window(128, 128));    // B = R, R at the floor: back
  CHECK(!window(0, 127));     // a lull: over groups still
  CHECK(!window(0, 0));
  CHECK(window(0, 128));
}

TEST_CASE("group switch: towards groups one burst does not make a window alone") {
  GroupSwitch::Settings settings;
  settings.window = 16;
  settings.min_changed = 10;
  GroupSwitch rule(settings);
  // A background's first batch, every flow at one level, then quiet: 1 batch of 16 with a large level
  // (an eighth is 2).
  CHECK(!rule.observe(1000000, 0));
  for (int i = 0; i < 15; ++i) CHECK(!rule.observe(0, 1));
  // Two such batches of 16: decided.
  CHECK(!rule.observe(1000000, 0));
  CHECK(!rule.observe(1000000, 0));
  for (int i = 0; i < 13; ++i) CHECK(!rule.observe(0, 1));
  CHECK(rule.observe(0, 1));
  // Windows are consecutive, not sliding: one at the end of a window and one at the start of the
  // next make neither.
  for (int i = 0; i < 15; ++i) CHECK(!rule.observe(0, 0));
  CHECK(!rule.observe(1000000, 0));
  CHECK(!rule.observe(1000000, 0));
  for (int i = 0; i < 15; ++i) CHECK(!rule.observe(0, 0));
}

TEST_CASE("group switch: Settings::always decides at every window's end in both directions") {
  const GroupSwitch::Settings always = GroupSwitch::Settings::always(3);
  GroupSwitch there(always), back(always, GroupSwitch::Towards::variables);
  for (GroupSwitch* rule : {&there, &back})
    for (int round = 0; round < 2; ++round) {
      CHECK(!rule->observe(0, 0));
      CHECK(!rule->observe(0, 5));
      CHECK(rule->observe(0, 0));
    }
  // Nothing is large: a sample's levels all count in R.
  std::vector<double> one_level(100, 1.0);
  CHECK(GroupSwitch::in_large_levels(one_level, always.per_level) == 0);
  GroupSwitch::Settings none = GroupSwitch::Settings::always(0);
  CHECK_THROWS(GroupSwitch(none));
}

TEST_CASE("group switch: between the two ratios a window favours neither solver") {
  GroupSwitch::Settings settings;
  settings.window = 8;
  CHECK(GroupSwitch(GroupSwitch::Settings{}).towards() == GroupSwitch::Towards::groups);
  GroupSwitch there(settings), back(settings, GroupSwitch::Towards::variables);
  CHECK(!back.wants_levels(1000));  // (over groups the counts are exact: nothing to sample)
  // B = 2R (2400 and 1200), for as long as it lasts: neither switches.
  for (GroupSwitch* r : {&there, &back})
    for (int i = 0; i < 8 * 50; ++i) CHECK(!r->observe(i % 8 < 4 ? 600 : 0, 150));
}
