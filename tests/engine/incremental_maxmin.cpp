// The incremental max-min solver against a solve from scratch (engine/maxmin.hpp) after every batch of
// random activations and deactivations, on random small problems with random weights.
#include "engine/incremental_maxmin.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/maxmin.hpp"
#include "engine/random.hpp"

using namespace interflow;

TEST_CASE("incremental max-min: every update equals a solve from scratch on random event sequences") {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    const std::uint32_t num_links = 3 + static_cast<std::uint32_t>(seed % 10);
    const std::uint32_t vars = 5 + static_cast<std::uint32_t>(seed % 30);
    std::vector<float> capacity(num_links);
    for (auto& c : capacity) c = static_cast<float>(1 + rng.below(5));
    std::vector<std::uint64_t> offsets{0};
    std::vector<LinkId> links;
    std::vector<double> weight(vars);
    for (std::uint32_t v = 0; v < vars; ++v) {
      weight[v] = 0.5 + 2 * rng.uniform();
      const std::uint64_t first = links.size();
      for (std::uint64_t k = 1 + rng.below(3); k > 0; --k) {
        const auto l = static_cast<LinkId>(rng.below(num_links));
        bool repeated = false;
        for (std::uint64_t e = first; e < links.size(); ++e) repeated = repeated || links[e] == l;
        if (!repeated) links.push_back(l);
      }
      offsets.push_back(links.size());
    }
    IncrementalMaxMin solver(capacity, offsets, links, weight);
    std::vector<bool> on(vars, false);
    for (int step = 0; step < 30; ++step) {
      for (std::uint64_t c = 1 + rng.below(3); c > 0; --c) {
        const auto v = static_cast<std::uint32_t>(rng.below(vars));
        if (on[v])
          solver.deactivate(v);
        else
          solver.activate(v);
        on[v] = !on[v];
      }
      solver.update();
      std::vector<std::uint64_t> o{0};
      std::vector<LinkId> l;
      std::vector<double> w;
      std::vector<std::uint32_t> ids;
      for (std::uint32_t v = 0; v < vars; ++v)
        if (on[v]) {
          for (std::uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) l.push_back(links[e]);
          o.push_back(l.size());
          w.push_back(weight[v]);
          ids.push_back(v);
        }
      MaxMinSolver full;
      full.run({capacity, o, l, w});
      for (std::size_t i = 0; i < ids.size(); ++i)
        REQUIRE(solver.rate(ids[i]) == doctest::Approx(full.rates()[i]).epsilon(1e-9));
      for (std::uint32_t v = 0; v < vars; ++v)
        if (!on[v]) REQUIRE(solver.rate(v) == 0);
      for (LinkId k = 0; k < num_links; ++k) REQUIRE(solver.load(k) <= capacity[k] * (1 + 1e-9));
    }
  }
}
