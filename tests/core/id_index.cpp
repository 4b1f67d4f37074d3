// The hash index of numbered items (core/id_index.hpp) against a plain set: random inserts, removals
// and look-ups, with hashes that spread the numbers and with hashes that pile them on a few homes (long
// runs that wrap around the table's end, where the removal's shifting matters).
#include "core/id_index.hpp"

#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "core/random.hpp"

using namespace interflow;

TEST_CASE("id index: look-ups after random inserts and removals equal a plain set") {
  for (const std::uint64_t homes : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{61}}) {
    CAPTURE(homes);
    // The item's key is its number times 7; its hash is mixed, or (homes > 0) one of a few values
    // near the top of every table size, so that runs wrap around.
    const auto hash_of = [&](std::uint32_t id) {
      const std::uint64_t key = std::uint64_t{id} * 7;
      return homes == 0 ? mix64(key) : ~std::uint64_t{0} - key % homes;
    };
    Rng rng(homes + 5);
    IdIndex index;
    std::set<std::uint32_t> in;
    const std::uint32_t numbers = 600;
    for (int step = 0; step < 20000; ++step) {
      const auto id = static_cast<std::uint32_t>(rng.below(numbers));
      if (in.count(id) != 0) {
        index.erase(id, hash_of);
        in.erase(id);
      } else if (rng.below(3) != 0) {
        index.insert(id, hash_of);
        in.insert(id);
      }
      REQUIRE(index.size() == in.size());
      const auto probe = static_cast<std::uint32_t>(rng.below(numbers));
      const std::uint32_t found =
          index.find(hash_of(probe), [&](std::uint32_t q) { return std::uint64_t{q} * 7 == std::uint64_t{probe} * 7; });
      REQUIRE(found == (in.count(probe) != 0 ? probe : IdIndex::kNone));
    }
    for (const std::uint32_t id : std::vector<std::uint32_t>(in.begin(), in.end())) index.erase(id, hash_of);
    CHECK(index.size() == 0);
    CHECK(index.find(hash_of(1), [](std::uint32_t) { return true; }) == IdIndex::kNone);
  }
}
