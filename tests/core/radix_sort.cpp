// order_by_key (core/radix_sort.hpp) against std::stable_sort of (key, index) by key.
#include "core/radix_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace interflow;

namespace {

std::vector<std::uint32_t> reference(const std::vector<double>& keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

}  // namespace

TEST_CASE("radix order: the same as a stable sort on random times with ties and zeros and extremes") {
  std::mt19937_64 rng(11);
  std::exponential_distribution<double> gap(1e3);
  std::uniform_int_distribution<int> small(0, 7);
  for (const std::size_t n : {0, 1, 2, 3, 100, 5000, 70000}) {
    INFO(n << " keys");
    std::vector<double> poisson(n), tied(n), spread(n), zeros(n, 0.0);
    double t = 0;
    for (std::size_t i = 0; i < n; ++i) {
      t += gap(rng);
      poisson[i] = t;
      tied[i] = small(rng) * 0.25;  // few values: many ties, kept in index order
      const int pick = small(rng);  // zeros, -0.0, the smallest subnormal, huge and ordinary values
      spread[i] = pick == 0 ? 0.0 : pick == 1 ? -0.0 : pick == 2 ? 4.9e-324 : pick == 3 ? 1.7e308 : gap(rng) * pick;
    }
    std::shuffle(poisson.begin(), poisson.end(), rng);
    for (const std::vector<double>* keys : {&poisson, &tied, &spread, &zeros}) CHECK(order_by_key(*keys) == reference(*keys));
  }
}

TEST_CASE("radix order: already sorted and reversed keys") {
  std::vector<double> up(1000), down(1000);
  for (std::size_t i = 0; i < up.size(); ++i) {
    up[i] = static_cast<double>(i) * 1e-6;
    down[i] = static_cast<double>(up.size() - i);
  }
  CHECK(order_by_key(up) == reference(up));
  CHECK(order_by_key(down) == reference(down));
  std::vector<std::uint32_t> reversed(down.size());
  std::iota(reversed.rbegin(), reversed.rend(), 0u);
  CHECK(order_by_key(down) == reversed);
}
