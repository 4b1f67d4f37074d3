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
template <class Heap>
double pop_both(Heap& heap, Reference& reference) {
  double key;
  std::uint32_t value;
  heap.pop(key, value);
  REQUIRE(key == reference.top());
  reference.pop();
  return key;
}

// Random monotone use of one heap: pushes at or above the last key popped (equal ones, close ones in
// the low bits and far ones in the high bits) mixed with pops, over 50 rounds separated by clear().
template <class Heap>
void check_monotone_use() {
  Heap heap;
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

}  // namespace

TEST_CASE("radix heap: pops the keys a binary heap pops under monotone use in both storages") {
  check_monotone_use<RadixHeap<std::uint32_t>>();
  check_monotone_use<RadixHeap<std::uint32_t, VectorStack>>();
}

TEST_CASE("radix heap: a bucket of many chunks is redistributed in key order") {
  // The first pop redistributes the whole heap at once, freeing each chunk as it is read; the order
  // must be the binary heap's all the same.
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

TEST_CASE("radix heap: the buckets hold at most two chunks more than their entries") {
  // Millions of entries of a few key values over a raised floor, as the static solver fills its
  // heap, then pops with pushes of larger keys between them (its refreshes): the storage follows
  // the entries (a vector per bucket held up to twice as many), and the order is the binary heap's.
  RadixHeap<std::uint32_t> heap;
  Rng rng(23);
  std::vector<double> keys(300000);
  for (double& k : keys) k = rng.below(3) == 0 ? 12.5 : 100.0 / static_cast<double>(1 + rng.below(9));
  heap.raise_floor(*std::min_element(keys.begin(), keys.end()));
  Reference reference;
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    heap.push(keys[i], i);
    reference.push(keys[i]);
  }
  const std::size_t slack = 65 * 2 * ChunkedStack<int>::kChunk;
  std::size_t worst = 0;
  std::uint64_t popped = 0;
  while (!reference.empty()) {
    const double key = pop_both(heap, reference);
    if (++popped % 7 == 0) {
      const double more = key * (1 + rng.uniform());
      heap.push(more, 0);
      reference.push(more);
    }
    worst = std::max(worst, heap.capacity() - std::min(heap.capacity(), heap.size() + slack));
  }
  CHECK(worst == 0);
  CHECK(heap.empty());
  CHECK(heap.capacity() <= slack);
}

TEST_CASE("chunked stack: push and pop across chunk edges keep the elements and free spare chunks") {
  // A vector stack keeps its storage when emptied; a chunked one frees it.
  VectorStack<int> kept;
  for (int i = 0; i < 100; ++i) kept.push(i);
  kept.clear();
  CHECK(kept.capacity() >= 100);
  ChunkedStack<std::uint64_t> stack;
  const std::size_t n = 3 * ChunkedStack<std::uint64_t>::kChunk + 17;
  for (std::uint64_t i = 0; i < n; ++i) stack.push(i * 3);
  CHECK(stack.size() == n);
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += stack[i] != i * 3;
  CHECK(wrong == 0);
  for (std::uint64_t i = n; i-- > 0;) {
    wrong += stack.back() != i * 3;
    stack.pop();
    wrong += stack.capacity() > stack.size() + 2 * ChunkedStack<std::uint64_t>::kChunk;
  }
  CHECK(wrong == 0);
  CHECK(stack.empty());
  for (std::uint64_t i = 0; i < n; ++i) stack.push(i);
  std::uint64_t sum = 0;
  stack.for_each([&](std::uint64_t x) { sum += x; });
  CHECK(sum == n * (n - 1) / 2);
  stack.clear();
  CHECK(stack.capacity() == 0);
  for (std::uint64_t i = 0; i < n; ++i) stack.push(i + 1);
  std::uint64_t next = 1;
  stack.drain([&](std::uint64_t x) { wrong += x != next++; });
  CHECK(wrong == 0);
  CHECK(next == n + 1);
  CHECK(stack.empty());
  CHECK(stack.capacity() == 0);
}
