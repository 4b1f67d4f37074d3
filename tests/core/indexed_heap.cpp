// The indexed min-heap of pending transfer ends against an ordered set of (key, id): after random
// inserts, re-keys up and down, erasures and pops, both give the same minimum, with ties by id.
#include "core/indexed_heap.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <utility>

#include "core/random.hpp"

using namespace interflow;

TEST_CASE("indexed heap: agrees with an ordered set under random re-keying") {
  constexpr std::uint32_t kIds = 200;
  IndexedMinHeap heap(kIds);
  std::set<std::pair<double, std::uint32_t>> reference;
  std::map<std::uint32_t, double> key_of;
  Rng rng(11);
  for (int step = 0; step < 20000; ++step) {
    const auto id = static_cast<std::uint32_t>(rng.below(kIds));
    // Few distinct keys, so that ties (broken by id) are common.
    const double key = static_cast<double>(rng.below(50));
    switch (rng.below(4)) {
      case 0:
      case 1:  // insert or re-key
        if (key_of.contains(id)) reference.erase({key_of[id], id});
        reference.insert({key, id});
        key_of[id] = key;
        heap.set(id, key);
        break;
      case 2:  // erase (also of an absent id)
        if (key_of.contains(id)) {
          reference.erase({key_of[id], id});
          key_of.erase(id);
        }
        heap.erase(id);
        break;
      default:  // pop
        if (!reference.empty()) {
          REQUIRE(heap.top() == reference.begin()->second);
          key_of.erase(reference.begin()->second);
          reference.erase(reference.begin());
          heap.pop();
        }
    }
    REQUIRE(heap.size() == reference.size());
    REQUIRE(heap.contains(id) == key_of.contains(id));
    if (!reference.empty()) {
      REQUIRE(heap.top_key() == reference.begin()->first);
      REQUIRE(heap.top() == reference.begin()->second);
    }
  }
  while (!reference.empty()) {  // drains in order
    REQUIRE(heap.top() == reference.begin()->second);
    reference.erase(reference.begin());
    heap.pop();
  }
  CHECK(heap.empty());
}

TEST_CASE("indexed heap: grown while in use keeps its entries and takes the new ids") {
  IndexedMinHeap heap(2);
  heap.set(1, 5.0);
  heap.set(0, 7.0);
  heap.grow(1);  // never shrinks
  CHECK(heap.ids() == 2);
  heap.grow(10);
  CHECK(heap.ids() == 10);
  heap.set(9, 1.0);
  heap.set(4, 6.0);
  CHECK(!heap.contains(3));
  const std::uint32_t order[] = {9, 1, 4, 0};
  for (const std::uint32_t id : order) {
    REQUIRE(heap.top() == id);
    heap.pop();
  }
  CHECK(heap.empty());
}
