// The monotone radix heap against a binary heap: the same keys come out in the same order under
// random monotone use (pushes never below the last key popped), across clear() and reuse.
#include "core/radix_heap.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
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

namespace {

// A lazily keyed queue as progressive filling uses one: every value has a current key that only
// grows, and may die. The heap holds lower bounds; pop_reviewed's refills re-key and drop entries
// through review(), and the caller re-pushes what it pops stale and skips what it pops dead. Each
// accepted pop must carry the smallest current key among the live values, and every live value must
// be accepted exactly once. Keys are raised by tiny steps (within a bucket), by large ones (out of
// it, into a higher bucket: the case where a refill must not take the raised keys' minimum), and
// some to the same value as others (ties); some re-keyed entries are pushed an ulp below the key
// just popped.
template <class Heap>
void check_reviewed_use(std::uint64_t seed) {
  Rng rng(seed);
  Heap heap;
  for (int round = 0; round < 40; ++round) {
    heap.clear();
    const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng.below(600));
    std::vector<double> current(n);
    std::vector<char> alive(n, 1), accepted(n, 0);
    for (double& k : current) k = rng.below(5) == 0 ? 1.0 : 1 + 10 * rng.uniform();
    if (rng.below(2) == 0) heap.raise_floor(*std::min_element(current.begin(), current.end()));
    for (std::uint32_t v = 0; v < n; ++v) heap.push(current[v], v);
    const auto review = [&](std::uint32_t v, double key) {
      REQUIRE(key <= current[v]);  // a key is never above the value's current one
      return alive[v] ? current[v] : -1.0;
    };
    double key, last = 0;
    std::uint32_t v;
    std::uint32_t wrong = 0;
    while (heap.pop_reviewed(key, v, review)) {
      if (!alive[v]) continue;
      if (current[v] > key) {
        // Re-keyed; sometimes, as a solver's rounding can, an ulp below the key just popped.
        heap.push(rng.below(4) == 0 ? std::nextafter(key, 0.0) : current[v], v);
        continue;
      }
      wrong += key < last;  // accepted keys are monotone
      last = key;
      double smallest = 1e300;
      for (std::uint32_t u = 0; u < n; ++u)
        if (alive[u]) smallest = std::min(smallest, current[u]);
      wrong += key != smallest;
      alive[v] = 0;
      accepted[v] = 1;
      // The step's effect on others: some die, some keys grow.
      for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = static_cast<std::uint32_t>(rng.below(n));
        if (!alive[u]) continue;
        const std::uint64_t kind = rng.below(4);
        if (kind == 0)
          alive[u] = 0;
        else if (kind == 1)
          current[u] *= 1 + 1e-9 * rng.uniform();
        else if (kind == 2)
          current[u] += 100 * rng.uniform();
        else
          current[u] = std::max(current[u], key);  // a tie with the key just accepted
      }
    }
    CHECK(wrong == 0);
    CHECK(heap.empty());
    for (std::uint32_t u = 0; u < n; ++u) REQUIRE((alive[u] == 0 || accepted[u] == 1));
  }
}

}  // namespace

TEST_CASE("radix heap: reviewed pops give the smallest current key under lazy re-keying in both storages") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    check_reviewed_use<RadixHeap<std::uint32_t>>(seed);
    check_reviewed_use<RadixHeap<std::uint32_t, VectorStack>>(seed);
  }
}

TEST_CASE("stacks: keep_if keeps the chosen elements changed and in order across chunk edges") {
  ChunkedStack<std::uint64_t> chunked;
  VectorStack<std::uint64_t> vector;
  const std::size_t n = 3 * ChunkedStack<std::uint64_t>::kChunk + 5;
  for (std::uint64_t i = 0; i < n; ++i) {
    chunked.push(i);
    vector.push(i);
  }
  const auto odd_doubled = [](std::uint64_t& x) {
    if (x % 2 == 0) return false;
    x *= 2;
    return true;
  };
  chunked.keep_if(odd_doubled);
  vector.keep_if(odd_doubled);
  CHECK(chunked.size() == n / 2);
  CHECK(vector.size() == n / 2);
  CHECK(chunked.capacity() <= chunked.size() + 2 * ChunkedStack<std::uint64_t>::kChunk);
  std::uint64_t expected = 1, wrong = 0;
  chunked.for_each([&](std::uint64_t x) {
    wrong += x != 2 * expected;
    expected += 2;
  });
  expected = 1;
  vector.for_each([&](std::uint64_t x) {
    wrong += x != 2 * expected;
    expected += 2;
  });
  CHECK(wrong == 0);
}

namespace {

// Progressive filling can recompute a share an ulp below the key just popped. 0.25 and the double
// below it differ in 53 bits: bucketed by those bits the entry would wait behind every key up to 0.5.
template <class Heap>
void check_ulp_below_last() {
  Heap heap;
  heap.push(0.25, 0);
  heap.push(0.3, 1);
  heap.push(0.4, 2);
  double key;
  std::uint32_t value;
  heap.pop(key, value);
  CHECK(value == 0);
  heap.push(std::nextafter(0.25, 0.0), 3);
  heap.pop(key, value);
  CHECK(value == 3);
  CHECK(key == 0.25);
  heap.pop(key, value);
  CHECK(value == 1);
  heap.pop(key, value);
  CHECK(value == 2);
}

}  // namespace

TEST_CASE("radix heap: a key pushed an ulp below the last key popped comes out next as that key") {
  check_ulp_below_last<RadixHeap<std::uint32_t>>();
  check_ulp_below_last<RadixHeap<std::uint32_t, VectorStack>>();
}
