// The DTable configuration kernel (engine/packet/dtable_config.hpp): Table 4 of Cano-Cano et al.
// 2024 (§5.3, N = 64, GMTU = 32 credits, w = 3, k = 0.5) cell by cell against the formulas of its
// §4.4, the k and w search, layouts that keep every distance, the table through the `dtable`
// scheduler giving every SL its share, and refused inputs.
#include "engine/packet/dtable_config.hpp"

#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>

#include "tests/support/test_support.hpp"

using namespace interflow;
using namespace interflow::packet;

namespace {

// Table 4's inputs. MTUs in 64-byte credits: 192 B = 3, 128 B = 2, 2048 B = 32, 1024 B = 16.
DTableSpec table4() {
  DTableSpec s;
  s.entries = 64;
  s.gmtu = 32;
  s.k = 0.5;
  s.w = 3;
  s.sls = {{"NC", 2, 0.094, 3},  {"VO", 4, 0.164, 2},   {"VI", 8, 0.3, 32},   {"CL", 16, 0.35, 32},
           {"EE", 32, 0.04, 16}, {"BE", 64, 0.036, 16}, {"BK", 64, 0.016, 16}};
  return s;
}

// Every SL's entries are at most its distance apart, around the table; no position is used twice.
void check_layout(const DTableSpec& s, const DTableConfig& c) {
  std::vector<int> owner(s.entries, -1);
  for (std::size_t i = 0; i < s.sls.size(); ++i) {
    const auto& pos = c.sls[i].positions;
    REQUIRE(pos.size() == s.entries / s.sls[i].distance);
    for (std::size_t j = 0; j < pos.size(); ++j) {
      REQUIRE(pos[j] < s.entries);
      CHECK(owner[pos[j]] == -1);
      owner[pos[j]] = static_cast<int>(i);
      const std::uint32_t gap = j + 1 < pos.size() ? pos[j + 1] - pos[j] : s.entries - pos[j] + pos[0];
      CHECK(gap <= s.sls[i].distance);
    }
  }
  std::uint32_t last = 0;
  for (std::size_t e = 0; e < c.table.size(); ++e) {
    if (e > 0) CHECK(c.table[e].position > last);
    last = c.table[e].position;
    CHECK(owner[last] == static_cast<int>(c.table[e].sl));
  }
}

// The SL's entry weights in table order: each E.W. value, summing to T.W.
void check_weights(const DTableConfig& c) {
  for (std::size_t i = 0; i < c.sls.size(); ++i) {
    std::uint64_t sum = 0, heavy = 0;
    for (const DTableEntry& e : c.table)
      if (e.sl == i) {
        CHECK((e.weight == c.sls[i].weight_low || e.weight == c.sls[i].weight_high));
        sum += e.weight;
        heavy += c.sls[i].weight_high != c.sls[i].weight_low && e.weight == c.sls[i].weight_high;
      }
    CHECK(sum == c.sls[i].total_weight);
    CHECK(heavy == c.sls[i].heavy_entries);
  }
}

// Every SL backlogged with packets of its MTU: the credits each sends over many table rounds.
std::vector<double> backlogged_shares(const DTableSpec& s, const DTableConfig& c) {
  std::string table;
  for (const DTableEntry& e : c.table)
    table += (table.empty() ? "" : ";") + std::to_string(e.sl) + ":" + std::to_string(e.weight);
  const auto lanes = static_cast<std::uint32_t>(s.sls.size());
  auto scheduler = test::plugins().output_schedulers.create(Spec::parse("dtable:table=" + table, "--scheduler"),
                                                            SchedulerContext{lanes});
  const std::vector<std::uint8_t> all(lanes, 1);
  std::vector<std::uint32_t> size;
  for (const DTableSlSpec& sl : s.sls) size.push_back(sl.mtu);
  std::vector<double> credits(lanes, 0);
  double total = 0;
  while (total < 500.0 * double(c.total_weight)) {
    const std::uint32_t sl = scheduler->next({all, all, size});
    REQUIRE(sl < lanes);
    credits[sl] += size[sl];
    total += size[sl];
  }
  for (double& x : credits) x /= total;
  return credits;
}

}  // namespace

TEST_CASE("dtable config: Table 4 entries and minimum and maximum shares follow the formulas of 4.4") {
  DTableSpec s = table4();
  s.total_weight = 1073;  // the paper's T.W. column sums to 1073 (below)
  const DTableConfig c = configure_dtable(s);
  CHECK(c.pool == 1024);      // N x GMTU x k
  CHECK(c.max_weight == 96);  // M = GMTU x w
  const std::vector<std::uint32_t> entries{32, 16, 8, 4, 2, 1, 1};
  const std::vector<double> percent{50, 25, 12.5, 6.25, 3.125, 1.5625, 1.5625};  // Table 4: 1.563 (rounded)
  // minφ = n MTU / pool. Table 4 prints 0.094, 0.047, 0.25, 0.125, 0.0313, 0.016, 0.008.
  //  - VO: the paper's 0.047 = 16 x 3 / 1024 is a 3-credit (192-byte, NC's) MTU; its MTU column says
  //    128 bytes = 2 credits, which gives 16 x 2 / 1024 = 0.03125.
  //  - BK: the paper's 0.008 is half of 1 x 16 / 1024 = 0.015625, the value of BE, whose inputs are
  //    the same (distance 64, 1024 bytes); the Total row (0.57) sums the printed cells.
  const std::vector<double> min_share{0.09375, 0.03125, 0.25, 0.125, 0.03125, 0.015625, 0.015625};
  // maxφ = n w / (N k). Table 4 prints 3, 1.5, 0.75, 0.375, 0.188, 0.094, 0.047: BK's 0.047 is again
  // half of BE's 0.09375 with the same inputs (the Total row, 5.95, sums the printed cells; the
  // formula's total is 6).
  const std::vector<double> max_share{3, 1.5, 0.75, 0.375, 0.1875, 0.09375, 0.09375};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    INFO(s.sls[i].name);
    CHECK(c.sls[i].entries == entries[i]);
    CHECK(c.sls[i].entry_fraction * 100 == approx(percent[i]));
    CHECK(c.sls[i].min_share == approx(min_share[i]));
    CHECK(c.sls[i].max_share == approx(max_share[i]));
  }
  // The paper's cells where they agree with the formula, to its printed precision.
  CHECK(std::round(c.sls[0].min_share * 1000) / 1000 == approx(0.094));
  CHECK(std::round(c.sls[4].max_share * 1000) / 1000 == approx(0.188));
}

TEST_CASE("dtable config: with the paper's total weight 1073 every T.W. and E.W. of Table 4 comes out") {
  DTableSpec s = table4();
  s.total_weight = 1073;
  const DTableConfig c = configure_dtable(s);
  // Table 4: T.W. 101, 176, 322, 375, 43, 39, 17 (total 1073); E.W. 4-3, 11, 40-41, 93-94, 21-22, 39, 17.
  const std::vector<std::uint64_t> total{101, 176, 322, 375, 43, 39, 17};
  const std::vector<std::uint32_t> low{3, 11, 40, 93, 21, 39, 17}, high{4, 11, 41, 94, 22, 39, 17};
  const std::vector<std::uint32_t> heavy{5, 0, 2, 3, 1, 0, 0};
  for (std::size_t i = 0; i < total.size(); ++i) {
    INFO(s.sls[i].name);
    CHECK(c.sls[i].total_weight == total[i]);
    CHECK(c.sls[i].weight_low == low[i]);
    CHECK(c.sls[i].weight_high == high[i]);
    CHECK(c.sls[i].heavy_entries == heavy[i]);
    // φ column: the shares asked for, within one credit of the total.
    CHECK(std::abs(c.sls[i].share - s.sls[i].share) < 1.0 / 1073);
  }
  CHECK(c.total_weight == 1073);
  check_weights(c);
  check_layout(s, c);
}

TEST_CASE("dtable config: by default the pool is shared out and the shares are met within a credit") {
  const DTableSpec s = table4();
  const DTableConfig c = configure_dtable(s);
  // φ x 1024 = 96.26, 167.94, 307.2, 358.4, 40.96, 36.86, 16.38: floors 1020, the 4 credits left go to
  // the largest fractions (EE .96, VO .94, BE .86, CL .4).
  const std::vector<std::uint64_t> total{96, 168, 307, 359, 41, 37, 16};
  const std::vector<std::uint32_t> low{3, 10, 38, 89, 20, 37, 16}, heavy{0, 8, 3, 3, 1, 0, 0};
  for (std::size_t i = 0; i < total.size(); ++i) {
    INFO(s.sls[i].name);
    CHECK(c.sls[i].total_weight == total[i]);
    CHECK(c.sls[i].weight_low == low[i]);
    CHECK(c.sls[i].heavy_entries == heavy[i]);
    CHECK(c.sls[i].weight_low >= s.sls[i].mtu);  // every entry carries a whole packet: the minimum
    CHECK(c.sls[i].weight_high <= c.max_weight);
    CHECK(std::abs(c.sls[i].share - s.sls[i].share) < 1.0 / 1024);
  }
  CHECK(c.total_weight == 1024);
  check_weights(c);
  check_layout(s, c);
}

TEST_CASE("dtable config: the search of 5.3 finds k 0.5 and then w from the shares and the rounded weights") {
  DTableSpec s = table4();
  s.k.reset();
  s.w.reset();
  DTableConfig c = configure_dtable(s);
  // k: NC needs n MTU / (N GMTU phi) = 96 / (2048 x 0.094) = 0.499 -> 0.5, as the paper.
  CHECK(c.k_searched);
  CHECK(c.k == 0.5);
  // w: CL needs phi N k / n = 0.35 x 64 x 0.5 / 4 = 2.8 (maxφ = φ exactly); its rounded entries of
  // 90 credits need M = 32 w >= 90 -> w = 2.9. The paper chose 3.
  CHECK(c.w_for_shares == approx(2.8));
  CHECK(c.w == approx(2.9));
  CHECK(c.sls[3].weight_high == 90);
  // With the paper's total of 1073, CL's entries of 94 credits need w >= 2.94: w = 3, the paper's.
  s.total_weight = 1073;
  c = configure_dtable(s);
  CHECK(c.k == 0.5);
  CHECK(c.w_for_shares == approx(2.8));
  CHECK(c.w == approx(3));
  // Given k, w is searched from it (the pool, 2048, shared out).
  s.k = 1;
  s.total_weight.reset();
  c = configure_dtable(s);
  CHECK_FALSE(c.k_searched);
  CHECK(c.w_searched);
  CHECK(c.w_for_shares == approx(5.6));  // 0.35 x 64 / 4
  CHECK(c.sls[3].weight_high == 180);             // 717 over 4 entries, above M = 32 x 5.6 = 179.2
  CHECK(c.w == approx(5.7));
}

TEST_CASE("dtable config: through the dtable scheduler every backlogged SL gets its share within 1 percent") {
  for (const std::uint64_t total : {std::uint64_t{0}, std::uint64_t{1073}}) {
    DTableSpec s = table4();
    if (total) s.total_weight = total;
    const DTableConfig c = configure_dtable(s);
    const std::vector<double> got = backlogged_shares(s, c);
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO(s.sls[i].name << " total " << total);
      // The table's share T.W. / sum within 1 %; the share asked for also within the one credit in
      // the total that whole-credit weights may cost (BK: 16 / 1024 = 0.0156 for 0.016).
      CHECK(std::abs(got[i] - c.sls[i].share) <= 0.01 * c.sls[i].share);
      CHECK(std::abs(got[i] - s.sls[i].share) <= 0.01 * s.sls[i].share + 1.0 / double(c.total_weight));
    }
  }
}

TEST_CASE("dtable config: layouts keep every distance for chains and for other feasible distances") {
  DTableSpec s;
  s.entries = 64;
  s.gmtu = 8;
  s.sls = {{"a", 64, 0.1, 1}, {"b", 4, 0.4, 2}, {"c", 2, 0.3, 1}, {"d", 16, 0.1, 8}, {"e", 8, 0.05, 4}};
  DTableConfig c = configure_dtable(s);
  check_layout(s, c);
  check_weights(c);
  // 12 entries, distances 4 and 6 (no chain): offsets must differ modulo gcd = 2, which the search finds.
  s.entries = 12;
  s.sls = {{"x", 6, 0.3, 1}, {"y", 4, 0.3, 1}, {"z", 12, 0.3, 1}};
  c = configure_dtable(s);
  check_layout(s, c);
  CHECK(c.table.size() == 6);  // 2 + 3 + 1 entries; the other positions are left out
  // A table full of one SL.
  s.sls = {{"only", 1, 1, 1}};
  c = configure_dtable(s);
  check_layout(s, c);
  CHECK(c.sls[0].share == 1);
}

TEST_CASE("dtable config: bad inputs are refused naming the input") {
  const auto refused = [](const std::function<void(DTableSpec&)>& change, const std::string& part) {
    DTableSpec s = table4();
    change(s);
    const std::string message = test::error_of([&] { configure_dtable(s); });
    INFO(message);
    CHECK(message.find(part) != std::string::npos);
  };
  refused([](DTableSpec& s) { s.entries = 0; }, "entries 0");
  refused([](DTableSpec& s) { s.gmtu = 0; }, "gmtu 0");
  refused([](DTableSpec& s) { s.sls.clear(); }, "no SL");
  refused([](DTableSpec& s) { s.k = std::nan(""); }, "k nan");
  refused([](DTableSpec& s) { s.w = INFINITY; }, "w inf");
  refused([](DTableSpec& s) { s.w = 0.4; }, "w 0.4 is below k 0.5");
  refused([](DTableSpec& s) { s.total_weight = 0; }, "total_weight 0");
  refused([](DTableSpec& s) { s.sls[1].name.clear(); }, "SL 1: the name is empty");
  refused([](DTableSpec& s) { s.sls[2].distance = 3; }, "SL 2 'VI': distance 3 must divide the table size 64");
  refused([](DTableSpec& s) { s.sls[2].distance = 128; }, "distance 128");
  refused([](DTableSpec& s) { s.sls[0].share = -0.1; }, "SL 0 'NC': share -0.1");
  refused([](DTableSpec& s) { s.sls[0].share = std::nan(""); }, "share nan");
  refused([](DTableSpec& s) { s.sls[3].mtu = 33; }, "SL 3 'CL': mtu 33");
  refused([](DTableSpec& s) { s.sls[3].mtu = 0; }, "mtu 0");
  refused([](DTableSpec& s) { s.sls[5].share = 0.5; }, "the shares sum to");
  refused([](DTableSpec& s) { s.sls[6].distance = 32; }, "need 65 entries");
  refused([](DTableSpec& s) { s.sls[0].share = 0.05; }, "SL 0 'NC': share 0.05 is below its minimum 0.09375");
  refused(
      [](DTableSpec& s) {
        s.sls[2].share = 0.25;
        s.sls[3].share = 0.4;
      },
      "SL 3 'CL': share 0.4 is above its maximum 0.375");
  refused([](DTableSpec& s) { s.total_weight = 1000; }, "SL 0 'NC': its total weight 94 gives entries of 2");
  refused([](DTableSpec& s) { s.w = 2.8; }, "above M = gmtu x w = 89.6; raise w");
  refused(
      [](DTableSpec& s) {
        s.entries = 6;
        s.gmtu = 1;
        s.k.reset();
        s.w.reset();
        s.sls = {{"two", 2, 0.5, 1}, {"three", 3, 0.3, 1}};
      },
      "the distances 2, 3 cannot share a table of 6 entries");
}
