// MaxMinSolver on hand-made problems with textbook answers (Bertsekas & Gallager, Data Networks,
// §6.5.2), and on random problems checked against the defining property of max-min fairness and
// against a plain quadratic progressive-filling reference.
#include "engine/maxmin/maxmin.hpp"

#include <doctest/doctest.h>
#include <tbb/task_arena.h>

#include "tests/support/approx.hpp"
#include "tests/support/maxmin_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/random.hpp"

using namespace interflow;
using namespace interflow::maxmin;

namespace {

// A max-min problem built by hand: link capacities and one link list per variable.
struct Problem {
  std::vector<float> capacity;
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  std::vector<double> weight;

  std::uint32_t add_var(std::initializer_list<LinkId> path, double w = 1.0) { return add_var(std::vector(path), w); }
  std::uint32_t add_var(const std::vector<LinkId>& path, double w = 1.0) {
    links.insert(links.end(), path.begin(), path.end());
    offsets.push_back(links.size());
    weight.push_back(w);
    return static_cast<std::uint32_t>(weight.size() - 1);
  }
  std::vector<LinkId> path(std::uint32_t v) const {
    return {links.begin() + static_cast<std::ptrdiff_t>(offsets[v]),
            links.begin() + static_cast<std::ptrdiff_t>(offsets[v + 1])};
  }
  MaxMinInput input() const { return {capacity, offsets, links, weight}; }
};

MaxMinSolver solve(const Problem& p) {
  MaxMinSolver solver;
  solver.run(p.input());
  return solver;
}

// Progressive filling in its plainest form: repeatedly find the link with the smallest fair share
// among links that still carry unfrozen variables and freeze those variables. O(links x vars) per step.
std::vector<double> reference_rates(const Problem& p) {
  const std::size_t nv = p.weight.size(), nl = p.capacity.size();
  std::vector<double> rate(nv, std::numeric_limits<double>::infinity());
  std::vector<bool> frozen(nv, false);
  for (std::size_t v = 0; v < nv; ++v) frozen[v] = p.offsets[v] == p.offsets[v + 1];
  for (;;) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_link = nl;
    for (std::size_t l = 0; l < nl; ++l) {
      double used = 0, weights = 0;
      for (std::size_t v = 0; v < nv; ++v)
        for (LinkId x : p.path(static_cast<std::uint32_t>(v)))
          if (x == l) {
            if (frozen[v])
              used += rate[v];
            else
              weights += p.weight[v];
          }
      if (weights == 0) continue;
      const double share = std::max(0.0, static_cast<double>(p.capacity[l]) - used) / weights;
      if (share < best) best = share, best_link = l;
    }
    if (best_link == nl) break;
    for (std::size_t v = 0; v < nv; ++v) {
      if (frozen[v]) continue;
      const auto path = p.path(static_cast<std::uint32_t>(v));
      if (std::find(path.begin(), path.end(), static_cast<LinkId>(best_link)) == path.end()) continue;
      rate[v] = p.weight[v] * best;
      frozen[v] = true;
    }
  }
  return rate;
}

// A random problem: `vars` variables over `links` links with capacities in [1, 100), each
// variable crossing 1..max_len distinct links; weights 1 or random in [0.5, 4) when `weighted`.
Problem random_problem(std::uint64_t seed, std::uint32_t vars, std::uint32_t links, std::uint32_t max_len,
                       bool weighted) {
  Rng rng(derive_seed(seed, 99));
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Problem p;
  for (std::uint32_t l = 0; l < links; ++l) p.capacity.push_back(static_cast<float>(1 + 99 * uniform()));
  for (std::uint32_t v = 0; v < vars; ++v) {
    const auto len = static_cast<std::uint32_t>(1 + rng.below(max_len));
    std::vector<LinkId> path;
    while (path.size() < len) {
      const auto l = static_cast<LinkId>(rng.below(links));
      if (std::find(path.begin(), path.end(), l) == path.end()) path.push_back(l);
    }
    p.add_var(path, weighted ? 0.5 + 3.5 * uniform() : 1.0);
  }
  return p;
}

// The textbook characterisation of the (weighted) max-min fair allocation: it is feasible, and every
// variable crosses a saturated link on which its normalised rate (rate / weight) is the largest.
// Such an allocation is unique, so this checks that the solver found THE max-min fair one.
void check_max_min_property(const Problem& p, const MaxMinSolver& s) {
  const auto& rate = s.rates();
  const std::size_t nl = p.capacity.size();
  std::vector<double> load(nl, 0.0), top(nl, 0.0);
  for (std::uint32_t v = 0; v < p.weight.size(); ++v) {
    REQUIRE(std::isfinite(rate[v]));
    REQUIRE(rate[v] > 0);
    for (LinkId l : p.path(v)) {
      load[l] += rate[v];
      top[l] = std::max(top[l], rate[v] / p.weight[v]);
    }
  }
  for (std::size_t l = 0; l < nl; ++l) {
    CHECK(load[l] <= static_cast<double>(p.capacity[l]) * (1 + 1e-9));
    CHECK(s.link_load()[l] == approx(load[l]).epsilon(1e-9));
  }
  for (std::uint32_t v = 0; v < p.weight.size(); ++v) {
    bool has_bottleneck = false;
    for (LinkId l : p.path(v)) {
      const bool saturated = load[l] >= static_cast<double>(p.capacity[l]) * (1 - 1e-9);
      const bool largest = rate[v] / p.weight[v] >= top[l] * (1 - 1e-9);
      has_bottleneck = has_bottleneck || (saturated && largest);
    }
    INFO("variable " << v);
    CHECK(has_bottleneck);
    // The solver's own bottleneck must be such a link.
    const LinkId b = s.bottlenecks()[v];
    REQUIRE(b != kNone);
    CHECK(load[b] >= static_cast<double>(p.capacity[b]) * (1 - 1e-9));
    CHECK(rate[v] / p.weight[v] >= top[b] * (1 - 1e-9));
  }
}

}  // namespace

TEST_CASE("maxmin: one link shared by n variables gives each capacity / n") {
  for (std::uint32_t n : {1u, 2u, 3u, 7u, 64u}) {
    Problem p;
    p.capacity = {12.5f};
    for (std::uint32_t i = 0; i < n; ++i) p.add_var({0});
    const MaxMinSolver s = solve(p);
    for (double r : s.rates()) CHECK(r == approx(12.5 / n).epsilon(1e-12));
    CHECK(s.link_paths()[0] == n);
    CHECK(s.link_load()[0] == approx(12.5).epsilon(1e-12));
    CHECK(s.bottleneck_steps() == 1);
  }
}

TEST_CASE("maxmin: weights 1 2 3 on one link share it as C * w / 6") {
  Problem p;
  p.capacity = {60.f};
  for (double w : {1.0, 2.0, 3.0}) p.add_var({0}, w);
  const MaxMinSolver s = solve(p);
  CHECK(s.rates()[0] == approx(10.0));
  CHECK(s.rates()[1] == approx(20.0));
  CHECK(s.rates()[2] == approx(30.0));
  CHECK(s.link_load()[0] == approx(60.0));
}

TEST_CASE("maxmin: dumbbell gives the bottleneck's share to its flows and the rest to the others") {
  // Links: 0 = the 10 Gbit/s bridge, 1 and 2 = 100 Gbit/s access links. Variables 0 and 1 cross the
  // bridge and access link 1; variable 2 only uses access link 1, variable 3 only access link 2.
  Problem p;
  p.capacity = {10.f, 100.f, 100.f};
  p.add_var({1, 0});
  p.add_var({1, 0});
  p.add_var({1});
  p.add_var({2});
  const MaxMinSolver s = solve(p);
  CHECK(s.rates()[0] == approx(5.0));
  CHECK(s.rates()[1] == approx(5.0));
  CHECK(s.rates()[2] == approx(90.0));
  CHECK(s.rates()[3] == approx(100.0));
  CHECK(s.bottlenecks()[0] == 0);
  CHECK(s.bottlenecks()[1] == 0);
  CHECK(s.bottlenecks()[2] == 1);
  CHECK(s.bottlenecks()[3] == 2);
  CHECK(s.link_paths() == std::vector<std::uint32_t>{2, 3, 1});
  CHECK(s.link_load()[0] == approx(10.0));
  CHECK(s.link_load()[1] == approx(100.0));
  CHECK(s.link_load()[2] == approx(100.0));
}

TEST_CASE("maxmin: parking lot") {
  // A long variable crosses every link of a chain; one short variable per link crosses only it.
  SUBCASE("equal capacities: everybody gets C / 2") {
    Problem p;
    p.capacity = {8.f, 8.f, 8.f, 8.f};
    p.add_var({0, 1, 2, 3});
    for (LinkId l = 0; l < 4; ++l) p.add_var({l});
    const MaxMinSolver s = solve(p);
    for (double r : s.rates()) CHECK(r == approx(4.0));
    for (LinkId l = 0; l < 4; ++l) {
      CHECK(s.link_paths()[l] == 2);
      CHECK(s.link_load()[l] == approx(8.0));
    }
  }
  SUBCASE("capacities 1, 2, 3: the long one is held by the first link, short ones take the rest") {
    Problem p;
    p.capacity = {1.f, 2.f, 3.f};
    const auto longest = p.add_var({0, 1, 2});
    p.add_var({0});
    p.add_var({1});
    p.add_var({2});
    const MaxMinSolver s = solve(p);
    CHECK(s.rates()[longest] == approx(0.5));
    CHECK(s.rates()[1] == approx(0.5));
    CHECK(s.rates()[2] == approx(1.5));
    CHECK(s.rates()[3] == approx(2.5));
    CHECK(s.bottlenecks()[longest] == 0);
    CHECK(s.link_load()[1] == approx(2.0));
    CHECK(s.link_load()[2] == approx(3.0));
  }
  SUBCASE("capacities 3, 2, 1 with two long variables: the last link holds both") {
    Problem p;
    p.capacity = {3.f, 2.f, 1.f};
    p.add_var({0, 1, 2});
    p.add_var({0, 1, 2});
    p.add_var({0});
    p.add_var({1});
    p.add_var({2});
    const MaxMinSolver s = solve(p);
    // Link 2: three variables share 1 -> 1/3 each; then link 1: 2 - 2/3 = 4/3; link 0: 3 - 2/3 = 7/3.
    CHECK(s.rates()[0] == approx(1.0 / 3));
    CHECK(s.rates()[1] == approx(1.0 / 3));
    CHECK(s.rates()[4] == approx(1.0 / 3));
    CHECK(s.rates()[3] == approx(4.0 / 3));
    CHECK(s.rates()[2] == approx(7.0 / 3));
  }
}

TEST_CASE("maxmin: a variable with no link gets +infinity and no bottleneck") {
  Problem p;
  p.capacity = {5.f};
  p.add_var({});
  p.add_var({0});
  const MaxMinSolver s = solve(p);
  CHECK(std::isinf(s.rates()[0]));
  CHECK(s.rates()[0] > 0);
  CHECK(s.bottlenecks()[0] == kNone);
  CHECK(s.rates()[1] == approx(5.0));
  CHECK(s.link_paths()[0] == 1);
}

TEST_CASE("maxmin: weights 2^53 apart give the max-min rates") {
  // 2^53 + 1 + 1 rounds to 2^53 on link 0, so a weight sum kept by subtraction reaches 0 with two
  // variables left on it once the heavy one froze (the rate of the third came out 0, or -98 before
  // that was clamped). Link 2 freezes the heavy one at level 2^-53 (rate 1), link 1 the middle one
  // at 1, and link 0's 98 left go to the third.
  Problem p;
  p.capacity = {100.f, 1.f, 1.f};
  p.add_var({0, 2}, std::ldexp(1.0, 53));
  p.add_var({0, 1});
  p.add_var({0});
  const MaxMinSolver s = solve(p);
  CHECK(s.rates()[0] == approx(1.0));
  CHECK(s.rates()[1] == approx(1.0));
  CHECK(s.rates()[2] == approx(98.0));
  CHECK(s.link_load()[0] == approx(100.0));
}

TEST_CASE("maxmin: light variables behind many heavy ones get their exact share") {
  // 10^5 heavy variables (weight w) freeze first at link 1 (capacity 1), taking 1 of link 0's 100;
  // three light ones (weight 1.1, not a power of two) then share the 99 left on link 0: 33 each.
  // Kept by subtraction alone, link 0's weight sum (10^5 w + 3.3) loses the light weights in the
  // rounding of the heavy ones: with w = 1.1 x 2^20 the light rates came out up to 10^-5 off.
  for (const double heavy : {1.1, 1.1 * 0x1p20, 1.1 * 0x1p40}) {
    CAPTURE(heavy);
    Problem p;
    p.capacity = {100.f, 1.f};
    for (int i = 0; i < 100000; ++i) p.add_var({0, 1}, heavy);
    for (int i = 0; i < 3; ++i) p.add_var({0}, 1.1);
    const MaxMinSolver s = solve(p);
    for (std::uint32_t v = 100000; v < 100003; ++v) CHECK(s.rates()[v] == approx(33.0).epsilon(1e-12));
    CHECK(s.rates()[0] == approx(1e-5).epsilon(1e-9));  // 1 over a sum of 10^5 weights
  }
}

TEST_CASE("maxmin: unused links report zero paths and zero load and bad input is rejected") {
  Problem p;
  p.capacity = {5.f, 7.f};
  p.add_var({1});
  const MaxMinSolver s = solve(p);
  CHECK(s.link_paths() == std::vector<std::uint32_t>{0, 1});
  CHECK(s.link_load()[0] == 0.0);
  CHECK(s.link_load()[1] == approx(7.0));

  MaxMinSolver solver;
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan("")}) {
    Problem bad_weight = p;
    bad_weight.weight[0] = bad;
    CHECK_THROWS(solver.run(bad_weight.input()));
  }
  std::vector<std::uint64_t> short_offsets{0};
  CHECK_THROWS(solver.run({p.capacity, short_offsets, p.links, p.weight}));
}

TEST_CASE("maxmin: a zero-capacity link freezes its variables at rate 0") {
  Problem p;
  p.capacity = {0.f, 10.f};
  p.add_var({0, 1});
  p.add_var({1});
  const MaxMinSolver s = solve(p);
  CHECK(s.rates()[0] == 0.0);
  CHECK(s.rates()[1] == approx(10.0));
}

TEST_CASE("maxmin: random problems satisfy the max-min fairness characterisation") {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const bool weighted = seed > 5;
    INFO("seed " << seed << (weighted ? " weighted" : " unweighted"));
    const Problem p = random_problem(seed, 200, 50, 6, weighted);
    check_max_min_property(p, solve(p));
  }
}

TEST_CASE("maxmin: random problems match a quadratic progressive-filling reference") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const bool weighted = seed % 2 == 0;
    const auto vars = static_cast<std::uint32_t>(5 + seed % 25);
    const auto links = static_cast<std::uint32_t>(3 + seed % 9);
    const Problem p = random_problem(seed * 7919, vars, links, std::min<std::uint32_t>(links, 4), weighted);
    const MaxMinSolver s = solve(p);
    const std::vector<double> want = reference_rates(p);
    INFO("seed " << seed);
    for (std::size_t v = 0; v < want.size(); ++v) CHECK(s.rates()[v] == approx(want[v]).epsilon(1e-9));
  }
}

TEST_CASE("maxmin: weights up to 2^60 apart match the quadratic reference") {
  // Weights 2^0..2^60: light weights vanish in the rounding of sums with heavy ones, so the solver
  // sums the weights left on a link again (the reference sums them afresh every step).
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Problem p = random_problem(seed * 104729, 20, 6, 4, false);
    Rng rng(derive_seed(seed, 7));
    for (double& w : p.weight) w = std::ldexp(1.0, static_cast<int>(rng.below(61)));
    const MaxMinSolver s = solve(p);
    const std::vector<double> want = reference_rates(p);
    INFO("seed " << seed);
    for (std::size_t v = 0; v < want.size(); ++v) CHECK(s.rates()[v] == approx(want[v]).epsilon(1e-9));
  }
}

TEST_CASE("maxmin: large problems cut into link ranges are max-min fair and identical for any thread count") {
  // Thousands of links: the queue is cut into ranges (up to 16), and steps freeze enough variables
  // (hundreds of link updates) for the workers to apply them and clean their ranges in parallel.
  // Equal capacities and weights make many shares tie across ranges.
  for (const bool ties : {false, true}) {
    INFO((ties ? "equal capacities, unweighted" : "random capacities, weighted"));
    Problem p = random_problem(ties ? 5 : 6, 60000, 3000, 8, !ties);
    if (ties) std::fill(p.capacity.begin(), p.capacity.end(), 100.0f);
    const auto solve_with = [&](int threads) {
      MaxMinSolver s;
      tbb::task_arena(threads).execute([&] { s.run(p.input()); });
      return s;
    };
    const MaxMinSolver one = solve_with(1);
    check_max_min_property(p, one);
    for (const int threads : {2, 4}) {
      INFO(threads << " threads");
      const MaxMinSolver many = solve_with(threads);
      test::check_identical_solves(many, one);
    }
  }
}

TEST_CASE("maxmin: the solve on the links in use only is bit-identical and restores the link ids") {
  // Far more links than the paths cross, some of them down, with capacities as floats or exact
  // doubles: the solve given renumberable links keeps state for the used links only and must give
  // exactly the results of the solve on all links, with the path ids as they were.
  for (const bool exact : {false, true}) {
    for (const bool ties : {false, true}) {
      INFO((exact ? "exact capacities" : "float capacities") << (ties ? ", ties" : ""));
      Problem p = random_problem(ties ? 21 : 22, 3000, 40000, 6, !ties);
      if (ties) std::fill(p.capacity.begin(), p.capacity.end(), 100.0f);
      std::vector<std::uint8_t> up(p.capacity.size(), 1);
      for (std::size_t l = 0; l < up.size(); l += 97) up[l] = 0;
      std::vector<double> capacity_exact;
      for (const float c : p.capacity) capacity_exact.push_back(static_cast<double>(c) + 1.0 / 3.0);
      MaxMinInput all = p.input();
      all.link_up = up;
      if (exact) all.capacity_exact = capacity_exact;
      MaxMinSolver reference;
      reference.run(all);
      CHECK(reference.solved_links() == p.capacity.size());

      std::vector<LinkId> links = p.links;
      MaxMinInput used = all;
      used.links = links;
      used.renumberable_links = links;
      MaxMinSolver compact;
      compact.run(used);
      CHECK(compact.solved_links() < p.capacity.size() / 2);
      CHECK(compact.solved_links() > 0);
      CHECK(links == p.links);
      test::check_identical_solves(compact, reference);
    }
  }
  // Nearly every link used: no renumbering, the same results.
  const Problem dense = random_problem(23, 3000, 50, 6, true);
  std::vector<LinkId> links = dense.links;
  MaxMinInput in = dense.input();
  in.links = links;
  in.renumberable_links = links;
  MaxMinSolver s;
  s.run(in);
  CHECK(s.solved_links() == dense.capacity.size());
  CHECK(s.rates() == solve(dense).rates());
  // A writable array that is not the links array is refused, and so is a link id beyond the network.
  std::vector<LinkId> other = dense.links;
  in.renumberable_links = other;
  CHECK_THROWS_AS(s.run(in), std::invalid_argument);
  Problem beyond = random_problem(24, 100, 400, 3, false);
  beyond.links.back() = 400;
  std::vector<LinkId> beyond_links = beyond.links;
  MaxMinInput bad = beyond.input();
  bad.links = beyond_links;
  bad.renumberable_links = beyond_links;
  CHECK_THROWS_WITH_AS(s.run(bad), doctest::Contains("link 400 of a network of 400 links"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.run(beyond.input()), doctest::Contains("beyond the network's 400 links"),
                       std::invalid_argument);
}
