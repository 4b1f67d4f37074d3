// The grouped max-min solver (engine/maxmin/grouped_maxmin.hpp) against a solve from scratch
// (engine/maxmin/maxmin.hpp) after every batch of random activations, deactivations and capacity
// changes, and against the variable solver (engine/maxmin/incremental_maxmin.hpp) on the same events;
// an incast against its closed form, with the groups it keeps counted.
#include "engine/maxmin/grouped_maxmin.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/random.hpp"
#include "engine/maxmin/incremental_maxmin.hpp"
#include "engine/maxmin/maxmin.hpp"
#include "tests/support/approx.hpp"

using namespace interflow;
using namespace interflow::maxmin;

namespace {

// Variables of one to `most` links each (repeats allowed when `repeats`), random or equal weights,
// capacities 1..5.
struct Problem {
  std::vector<double> capacity;
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  std::vector<double> weight;

  Problem(Rng& rng, std::uint32_t num_links, std::uint32_t vars, bool equal_weights, std::uint64_t most = 3,
          bool repeats = false)
      : capacity(num_links) {
    for (auto& c : capacity) c = static_cast<double>(1 + rng.below(5));
    for (std::uint32_t v = 0; v < vars; ++v) {
      weight.push_back(equal_weights ? 1.0 : 0.5 + 2 * rng.uniform());
      const std::uint64_t first = links.size();
      for (std::uint64_t k = 1 + rng.below(most); k > 0; --k) {
        const auto l = static_cast<LinkId>(rng.below(num_links));
        bool repeated = false;
        for (std::uint64_t e = first; e < links.size(); ++e) repeated = repeated || links[e] == l;
        if (!repeated || repeats) links.push_back(l);
      }
      offsets.push_back(links.size());
    }
  }
};

// Toggles one to three random variables.
void toggle_some(Rng& rng, GroupedMaxMin& solver, std::vector<std::uint8_t>& on) {
  for (std::uint64_t c = 1 + rng.below(3); c > 0; --c) {
    const auto v = static_cast<std::uint32_t>(rng.below(on.size()));
    if (on[v])
      solver.deactivate(v);
    else
      solver.activate(v);
    on[v] = !on[v];
  }
}

std::vector<double> scratch_rates(const Problem& p, const std::vector<double>& capacity,
                                  const std::vector<std::uint8_t>& on, std::vector<std::uint32_t>& ids) {
  std::vector<std::uint64_t> o{0};
  std::vector<LinkId> l;
  std::vector<double> w;
  ids.clear();
  for (std::uint32_t v = 0; v < on.size(); ++v)
    if (on[v]) {
      for (std::uint64_t e = p.offsets[v]; e < p.offsets[v + 1]; ++e) l.push_back(p.links[e]);
      o.push_back(l.size());
      w.push_back(p.weight[v]);
      ids.push_back(v);
    }
  MaxMinInput input;
  input.capacity_exact = capacity;
  input.var_offsets = o;
  input.links = l;
  input.weight = w;
  MaxMinSolver full;
  full.run(input);
  return full.rates();
}

// The solver's rates equal a solve from scratch of the active variables, inactive ones have rate 0,
// and no link carries more than its capacity.
void check(const GroupedMaxMin& solver, const Problem& p, const std::vector<double>& capacity,
           const std::vector<std::uint8_t>& on) {
  std::vector<std::uint32_t> ids;
  const std::vector<double> rates = scratch_rates(p, capacity, on, ids);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    CAPTURE(ids[i]);
    REQUIRE(solver.rate(ids[i]) == approx(rates[i]).epsilon(1e-9).scale(1));
  }
  for (std::uint32_t v = 0; v < on.size(); ++v)
    if (!on[v]) REQUIRE(solver.rate(v) == 0);
  for (LinkId k = 0; k < capacity.size(); ++k) REQUIRE(solver.load(k) <= capacity[k] * (1 + 1e-9) + 1e-12);
}

}  // namespace

TEST_CASE("grouped max-min: random event sequences equal a solve from scratch and the variable solver") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    const auto num_links = 3 + static_cast<std::uint32_t>(seed % 9);
    Problem p(rng, num_links, 60, seed % 2 == 0, 1 + seed % 4, seed % 5 == 0);
    GroupedMaxMin grouped(p.capacity, p.offsets, p.links, p.weight);
    IncrementalMaxMin single(p.capacity, p.offsets, p.links, p.weight);
    std::vector<double> capacity = p.capacity;
    std::vector<std::uint8_t> on(p.weight.size(), 0);
    for (int step = 0; step < 150; ++step) {
      for (std::uint64_t c = 1 + rng.below(step < 30 ? 8 : 3); c > 0; --c) {
        const auto v = static_cast<std::uint32_t>(rng.below(on.size()));
        if (on[v]) {
          grouped.deactivate(v);
          single.deactivate(v);
        } else {
          grouped.activate(v);
          single.activate(v);
        }
        on[v] = !on[v];
      }
      if (rng.below(6) == 0) {  // a capacity change, up or down, sometimes to 0
        const auto l = static_cast<LinkId>(rng.below(num_links));
        capacity[l] = rng.below(5) == 0 ? 0.0 : static_cast<double>(1 + rng.below(5));
        grouped.set_capacity(l, capacity[l]);
        single.set_capacity(l, capacity[l]);
      }
      grouped.update();
      single.update();
      check(grouped, p, capacity, on);
      for (std::uint32_t v = 0; v < on.size(); ++v)
        REQUIRE(grouped.rate(v) == approx(single.rate(v)).epsilon(1e-9).scale(1));
      // Every variable whose rate moved is listed, once.
      std::vector<std::uint8_t> listed(on.size(), 0);
      for (const std::uint32_t v : grouped.changed()) {
        REQUIRE(listed[v] == 0);
        listed[v] = 1;
      }
    }
    // A solve from scratch of every active variable gives the same rates.
    std::vector<double> before(on.size());
    for (std::uint32_t v = 0; v < on.size(); ++v) before[v] = grouped.rate(v);
    grouped.solve_all();
    for (std::uint32_t v = 0; v < on.size(); ++v) REQUIRE(grouped.rate(v) == approx(before[v]).epsilon(1e-9).scale(1));
  }
}

TEST_CASE("grouped max-min: the changed list holds exactly the variables whose rate moved") {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    Problem p(rng, 6, 50, seed % 2 == 0);
    GroupedMaxMin solver(p.capacity, p.offsets, p.links, p.weight);
    std::vector<std::uint8_t> on(p.weight.size(), 0);
    std::vector<double> last(p.weight.size(), 0.0);
    for (int step = 0; step < 100; ++step) {
      toggle_some(rng, solver, on);
      solver.update();
      std::vector<std::uint8_t> listed(on.size(), 0);
      for (const std::uint32_t v : solver.changed()) listed[v] = 1;
      for (std::uint32_t v = 0; v < on.size(); ++v) {
        // A departed variable is not listed; an active one is listed when its rate moved.
        if (on[v] && solver.rate(v) != last[v]) REQUIRE(listed[v] == 1);
        if (!on[v]) REQUIRE(listed[v] == 0);
        last[v] = solver.rate(v);
      }
    }
  }
}

TEST_CASE("grouped max-min: an incast ending one flow at a time keeps its closed form in one group") {
  // n flows, each over its own access link (capacity 10) into one shared link of capacity 6: each gets
  // 6 / k while k remain. The flows behind the shared link are one group throughout, so each end moves
  // one level, not k rates; the update reads the group's pairs, not the k paths.
  const std::uint32_t n = 200;
  std::vector<double> capacity(n + 1, 10.0);
  capacity[n] = 6.0;
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  for (std::uint32_t v = 0; v < n; ++v) {
    links.push_back(v);
    links.push_back(n);
    offsets.push_back(links.size());
  }
  const std::vector<double> weight(n, 1.0);
  GroupedMaxMin solver(capacity, offsets, links, weight);
  for (std::uint32_t v = 0; v < n; ++v) solver.activate(v);
  solver.update();
  CHECK(solver.group_count() == 1);
  for (std::uint32_t v = 0; v < n; ++v) REQUIRE(solver.rate(v) == approx(6.0 / n));
  for (std::uint32_t gone = 0; gone + 1 < n; ++gone) {
    solver.deactivate(gone);
    solver.update();
    const std::uint32_t left = n - gone - 1;
    REQUIRE(solver.group_count() == 1);
    REQUIRE(solver.changed().size() == left);
    for (std::uint32_t v = gone + 1; v < n; ++v) REQUIRE(solver.rate(v) == approx(6.0 / left));
    REQUIRE(solver.load(n) == approx(6.0));
  }
  // The last flow is limited by nothing but the shared link.
  CHECK(solver.rate(n - 1) == approx(6.0));
}

TEST_CASE("grouped max-min: groups split where a bottleneck holds some members and merge where one holds all") {
  // Flows 0..9 cross link 0 (capacity 10); flows 0..4 also cross link 1. With link 1 at 10 all ten are
  // limited by link 0 (rate 1, one group). Cut link 1 to 2: flows 0..4 drop to 0.4 (link 1 freezes them
  // apart) and 5..9 take 1.6 (link 0): two groups. Raise link 1 again: one group at rate 1.
  std::vector<double> capacity{10.0, 10.0};
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  for (std::uint32_t v = 0; v < 10; ++v) {
    links.push_back(0);
    if (v < 5) links.push_back(1);
    offsets.push_back(links.size());
  }
  const std::vector<double> weight(10, 1.0);
  GroupedMaxMin solver(capacity, offsets, links, weight);
  for (std::uint32_t v = 0; v < 10; ++v) solver.activate(v);
  solver.update();
  CHECK(solver.group_count() == 1);
  solver.set_capacity(1, 2.0);
  solver.update();
  CHECK(solver.group_count() == 2);
  for (std::uint32_t v = 0; v < 10; ++v) CHECK(solver.rate(v) == approx(v < 5 ? 0.4 : 1.6));
  CHECK(solver.group_of(0) != solver.group_of(9));
  solver.set_capacity(1, 10.0);
  solver.update();
  for (std::uint32_t v = 0; v < 10; ++v) CHECK(solver.rate(v) == approx(1.0));
  CHECK(solver.group_count() == 1);
}

TEST_CASE("grouped max-min: variables given at activation under numbers used again equal a solve from scratch") {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    const auto num_links = 4 + static_cast<std::uint32_t>(seed % 8);
    Problem stream(rng, num_links, 1500, seed % 3 == 0, 3, seed % 4 == 0);
    GroupedMaxMin solver(stream.capacity);
    solver.set_garbage_at_least(seed % 2 == 0 ? 0 : 64);
    const std::uint32_t numbers = 8 + static_cast<std::uint32_t>(seed % 5) * 20;
    constexpr std::uint32_t kFree = ~0u;
    std::vector<std::uint32_t> carried(numbers, kFree);
    std::size_t next = 0;
    while (next < stream.weight.size()) {
      const bool fill = (next / 300) % 2 == 0;
      for (std::uint64_t c = 1 + rng.below(6); c > 0 && next < stream.weight.size(); --c) {
        const auto n = static_cast<std::uint32_t>(rng.below(numbers));
        if (carried[n] != kFree && (!fill || rng.below(3) == 0)) {
          solver.deactivate(n);
          carried[n] = kFree;
        } else if (carried[n] == kFree && (fill || rng.below(3) == 0)) {
          const std::size_t v = next++;
          const std::span<const LinkId> links(stream.links.data() + stream.offsets[v],
                                              stream.offsets[v + 1] - stream.offsets[v]);
          solver.activate(n, links, stream.weight[v]);
          carried[n] = static_cast<std::uint32_t>(v);
        }
      }
      solver.update();
      Problem now = stream;
      now.offsets.assign(1, 0);
      now.links.clear();
      now.weight.clear();
      std::vector<std::uint8_t> on;
      for (std::uint32_t n = 0; n < numbers; ++n) {
        const std::uint32_t v = carried[n];
        if (v != kFree)
          for (std::uint64_t e = stream.offsets[v]; e < stream.offsets[v + 1]; ++e) now.links.push_back(stream.links[e]);
        now.offsets.push_back(now.links.size());
        now.weight.push_back(v == kFree ? 1.0 : stream.weight[v]);
        on.push_back(v != kFree);
      }
      check(solver, now, stream.capacity, on);
    }
  }
}

TEST_CASE("grouped max-min: weights up to 2^60 apart equal a solve from scratch") {
  for (const int spread : {30, 60}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      CAPTURE(spread);
      CAPTURE(seed);
      Rng rng(seed);
      Problem p(rng, 5, 40, false);
      for (double& w : p.weight)
        w = std::ldexp(1.0, static_cast<int>(rng.below(static_cast<std::uint64_t>(spread) + 1)));
      GroupedMaxMin solver(p.capacity, p.offsets, p.links, p.weight);
      std::vector<std::uint8_t> on(p.weight.size(), 0);
      for (int step = 0; step < 300; ++step) {
        toggle_some(rng, solver, on);
        solver.update();
        check(solver, p, p.capacity, on);
      }
    }
  }
}
