// The mixed clocks of the flow transport (engine/flow/mixed_clocks.hpp) against per-variable
// accounting at the solver's rates: transfers of one to three path variables, under a policy without
// caps and two with (each variable then also in the leftover solver's groups), started and finished at
// random or when their clocks say they end, with every transfer's rate, bits left and next end, and
// each variable's bits sent (at its end, and so far for those still running).
#include "engine/flow/mixed_clocks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/random.hpp"
#include "engine/maxmin/classed_maxmin.hpp"
#include "tests/support/approx.hpp"
#include "tests/support/run_support.hpp"

using namespace interflow;
using namespace interflow::flow;

namespace {

struct Transfers {
  std::vector<double> capacity, weight;
  std::vector<std::uint64_t> offsets{0};
  std::vector<LinkId> links;
  std::vector<std::uint32_t> var_class;
  std::vector<std::uint32_t> first{0};  // transfer t's variables: [first[t], first[t + 1])
};

Transfers random_transfers(Rng& rng, std::uint32_t num_links, std::uint32_t num_transfers) {
  Transfers x;
  for (std::uint32_t l = 0; l < num_links; ++l) x.capacity.push_back(10.0 * static_cast<double>(1 + rng.below(4)));
  for (std::uint32_t t = 0; t < num_transfers; ++t) {
    const double w = 1.0 + static_cast<double>(rng.below(2));
    const auto cls = static_cast<std::uint32_t>(rng.below(2));
    const auto paths = static_cast<std::uint32_t>(1 + rng.below(3));
    std::vector<double> split;
    for (std::uint32_t p = 0; p < paths; ++p) split.push_back(0.2 + rng.uniform());
    double sum = 0;
    for (double s : split) sum += s;
    for (std::uint32_t p = 0; p < paths; ++p) {
      std::vector<LinkId> path;
      const auto hops = static_cast<std::uint32_t>(1 + rng.below(4));
      while (path.size() < hops) {
        const auto l = static_cast<LinkId>(rng.below(num_links));
        if (std::find(path.begin(), path.end(), l) == path.end()) path.push_back(l);
      }
      x.links.insert(x.links.end(), path.begin(), path.end());
      x.offsets.push_back(x.links.size());
      x.weight.push_back(w * split[p] / sum);
      x.var_class.push_back(cls);
    }
    x.first.push_back(static_cast<std::uint32_t>(x.weight.size()));
  }
  return x;
}

}  // namespace

TEST_CASE("mixed clocks: rates and bits left and next ends and the bits of each path equal per-variable accounting") {
  const maxmin::ClassPolicy policies[] = {test::class_policy("np", {}, {}, 2),
                                          test::class_policy("ba", {0.6, 0.4}, {}, 2),
                                          test::class_policy("qos", {0.3, 1.0}, {0, 1}, 2)};
  std::uint64_t remixes_seen = 0, ends_on_time = 0;
  for (const maxmin::ClassPolicy& policy : policies)
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      CAPTURE(policy.name);
      CAPTURE(seed);
      Rng rng(seed);
      const Transfers x = random_transfers(rng, 10, 24);
      maxmin::ClassedMaxMin solver(policy, x.capacity, x.offsets, x.links, x.weight, x.var_class,
                                   maxmin::SolverKind::groups);
      MixedClocks mixed(solver, x.weight);
      const auto vars = static_cast<std::uint32_t>(x.weight.size());
      for (std::uint32_t v = 0; v < vars; ++v) mixed.follow(v);
      const std::size_t transfers = x.first.size() - 1;
      std::vector<double> total(transfers, 0.0);  // bits, drawn at each start: some end on time
      std::vector<double> sent(vars, 0.0);
      std::vector<std::uint8_t> active(transfers, 0);
      std::vector<std::size_t> starting;
      const auto carried_by = [&](std::size_t t) {
        double carried = 0;
        for (std::uint32_t v = x.first[t]; v < x.first[t + 1]; ++v) carried += sent[v];
        return carried;
      };
      // Transfer t ends now: its bits left and each path's bits against the reference.
      const auto end = [&](std::size_t t, double now) {
        const double carried = carried_by(t);
        CHECK(mixed.finish(static_cast<std::uint32_t>(t), now, total[t]) ==
              approx(total[t] - carried).epsilon(1e-12).scale(total[t]));
        for (std::uint32_t v = x.first[t]; v < x.first[t + 1]; ++v) {
          CHECK(mixed.bits(v) == approx(sent[v]).epsilon(1e-9).scale(1e-6 * carried + 100));
          solver.deactivate(v);
          sent[v] = 0;
        }
        active[t] = 0;
      };
      double now = 0;
      for (int step = 0; step < 200; ++step) {
        // The next end, if it comes before the next random event, is taken when the clocks say.
        double dt = 1e-6 * rng.uniform();
        const bool due = mixed.clocks().next_time() <= now + dt;
        if (due) dt = std::max(0.0, mixed.clocks().next_time() - now);
        for (std::uint32_t v = 0; v < vars; ++v) sent[v] += solver.rate(v) * 1e9 * dt;
        now += dt;
        if (due) {
          const std::uint32_t t = mixed.clocks().next_var();
          REQUIRE(active[t]);
          CHECK(carried_by(t) == approx(total[t]).epsilon(1e-9));
          end(t, now);
          ++ends_on_time;
        } else {
          const auto t = static_cast<std::size_t>(rng.below(transfers));
          if (active[t]) {
            end(t, now);
          } else {
            for (std::uint32_t v = x.first[t]; v < x.first[t + 1]; ++v) solver.activate(v);
            active[t] = 1;
            total[t] = 2e4 + 1e6 * rng.uniform();
            starting.push_back(t);
          }
        }
        solver.update();
        for (std::size_t k = 0; k < solver.grouped_levels(); ++k) remixes_seen += solver.grouped(k)->moved().size();
        mixed.update(now);
        for (const std::size_t s : starting)
          mixed.start(static_cast<std::uint32_t>(s), x.first[s], x.first[s + 1], total[s], now);
        starting.clear();
        double next_end = std::numeric_limits<double>::infinity();
        for (std::size_t u = 0; u < transfers; ++u) {
          if (!active[u]) continue;
          double rate = 0;
          for (std::uint32_t v = x.first[u]; v < x.first[u + 1]; ++v) rate += solver.rate(v);
          const double left = total[u] - carried_by(u);
          REQUIRE(mixed.rate(static_cast<std::uint32_t>(u)) == approx(rate).epsilon(1e-12).scale(1e-9));
          REQUIRE(mixed.bits_left(static_cast<std::uint32_t>(u), now) == approx(left).epsilon(1e-12).scale(total[u]));
          if (rate > 0) next_end = std::min(next_end, now + left / (rate * 1e9));
        }
        if (std::isinf(next_end))
          REQUIRE(std::isinf(mixed.clocks().next_time()));
        else
          REQUIRE(mixed.clocks().next_time() == approx(next_end).epsilon(1e-9));
      }
      // The transfers still running: each path's bits so far (as at the end of a run), then ended.
      for (std::size_t u = 0; u < transfers; ++u)
        if (active[u]) {
          const auto t = static_cast<std::uint32_t>(u);
          mixed.settle(t, now, total[u]);
          for (std::uint32_t v = x.first[u]; v < x.first[u + 1]; ++v)
            CHECK(mixed.bits(v) == approx(sent[v]).epsilon(1e-9).scale(1e-6 * carried_by(u) + 100));
          end(u, now);
        }
      CHECK(mixed.mixes() == 0);
    }
  CHECK(ends_on_time > 100);  // transfers did end when their clocks said
  CHECK(remixes_seen > 100);  // variables did move between groups
}
