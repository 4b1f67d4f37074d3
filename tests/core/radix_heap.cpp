// The monotone radix heap against a binary heap: the same keys come out in the same order under
// random monotone use (pushes never below the last key popped), across clear() and reuse.
#include "core/radix_heap.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "core/random.hpp"

using namespace interflow;

namespace {

using Reference = std::priority_queue<double, std::vector<double>, std::greater<>>;

// Pops one entry from each and requires the same key; returns it.
double pop_both(RadixHeap<std::uint32_t>& heap, Reference& reference) {
  double key;
  std::uint32_t value;
  heap.pop(key, value);
  REQUIRE(key == reference.top());
  reference.pop();
  return key;
}

}  // namespace

TEST_CASE("radix heap: pops the keys a binary heap pops under monotone use") {
  for (const bool keep : {false, true}) {
    RadixHeap<std::uint32_t> heap(keep);
    Rng rng(7);
    for (int round = 0; round < 50; ++round) {
      heap.clear();
      Reference reference;
      double last = 0;
      std::uint32_t id = 0;
      for (int step = 0; step < 400; ++step) {
        if (!reference.empty() && rng.below(3) == 0) {
          last = pop_both(heap, reference);
          continue;
        }
        // Keys at or above the last popped: equal ones, close ones (low bits) and far ones (high bits).
        const std::uint64_t kind = rng.below(4);
        const double key = kind == 0   ? last
                           : kind == 1 ? last * (1 + 1e-12 * rng.uniform())
                                       : last + 1e3 * rng.uniform();
        heap.push(key, id++);
        reference.push(key);
      }
      CHECK(heap.size() == reference.size());
      while (!reference.empty()) pop_both(heap, reference);
      CHECK(heap.empty());
    }
  }
}

TEST_CASE("radix heap: a bucket of more than 65536 entries is redistributed in key order") {
  // The first pop redistributes the whole heap at once (counted out and reserved first above 2^16
  // entries); the order must be the binary heap's all the same.
  RadixHeap<std::uint32_t> heap;
  Reference reference;
  Rng rng(11);
  for (std::uint32_t i = 0; i < 200000; ++i) {
    const double key = rng.below(4) == 0 ? 1.0 : 1e3 * rng.uniform() + 1e-3;
    heap.push(key, i);
    reference.push(key);
  }
  std::uint64_t popped = 0;
  while (!reference.empty()) {
    const double key = pop_both(heap, reference);
    if (++popped % 50000 == 0 && popped <= 150000) {  // pushes at or above the last key, between large refills
      for (int k = 0; k < 100000; ++k) {
        const double more = key + 10 * rng.uniform();
        heap.push(more, 0);
        reference.push(more);
      }
    }
  }
  CHECK(heap.empty());
}

TEST_CASE("radix heap: a raised floor keeps the key order and values travel with their keys") {
  // Keys of one magnitude pushed after raise_floor(smallest) go straight to their buckets; the pops
  // must still come in key order, each with the value pushed with its key.
  for (const bool raise : {false, true}) {
    RadixHeap<std::uint32_t> heap;
    Rng rng(19);
    std::vector<double> keys(100000);
    double smallest = 1e300;
    for (double& k : keys) {
      k = 50 + 50 * rng.uniform();
      smallest = std::min(smallest, k);
    }
    if (raise) heap.raise_floor(smallest);
    heap.raise_floor(smallest / 2);  // after the first: changes nothing; alone: a floor below every key
    Reference reference;
    for (std::uint32_t i = 0; i < keys.size(); ++i) {
      heap.push(keys[i], i);
      reference.push(keys[i]);
    }
    double last = 0;
    while (!heap.empty()) {
      double key;
      std::uint32_t value;
      heap.pop(key, value);
      REQUIRE(key == reference.top());
      reference.pop();
      CHECK(keys[value] == key);
      CHECK(key >= last);
      last = key;
    }
    CHECK(reference.empty());
  }
}
