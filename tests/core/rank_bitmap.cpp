// RankBitmap (core/rank_bitmap.hpp) against a plain count of the members below each id.
#include "core/rank_bitmap.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace interflow;

TEST_CASE("rank bitmap: rank is the number of members below at every id for sizes around block edges") {
  std::mt19937_64 rng(7);
  for (const std::size_t n : {0, 1, 63, 64, 65, 127, 128, 1000}) {
    for (const double density : {0.0, 0.1, 0.5, 1.0}) {
      INFO(n << " ids, density " << density);
      RankBitmap set(n);
      std::vector<bool> member(n);
      std::bernoulli_distribution pick(density);
      for (std::size_t i = 0; i < n; ++i)
        if (pick(rng)) {
          member[i] = true;
          set.set(i);
        }
      std::uint64_t below = 0, wrong = 0;
      const std::uint64_t count = set.finish();
      for (std::size_t i = 0; i < n; ++i) {
        wrong += set.rank(i) != below;
        wrong += set.contains(i) != member[i];
        below += member[i];
      }
      CHECK(wrong == 0);
      CHECK(count == below);
      CHECK(set.count() == below);
      CHECK(set.rank(n) == below);
    }
  }
}
