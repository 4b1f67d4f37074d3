#pragma once
// A monotone priority queue keyed by non-negative doubles (radix heap, Ahuja, Mehlhorn, Orlin &
// Tarjan 1990). Valid when no key pushed is smaller than the last key popped — true for max-min
// progressive filling, whose fair-share levels only rise. Entries are bucketed by the highest bit in
// which their key differs from the last popped key, so a pop touches one bucket and each entry moves
// to a lower bucket a few times at most: far fewer cache misses than a binary heap.
//
// Each bucket is a stack, in one of two storages. ChunkedStack (the default) keeps its entries in
// chunks of fixed size: a bucket of millions of entries (the static solver's first fill) grows
// without copying what it holds and never holds more than two chunks it does not use; a vector
// doubles, and a 5.5M-entry bucket that received a few more entries held room for 11M, and both
// copies at the moment it grew. VectorStack keeps one vector and its capacity: for a heap filled and
// emptied many times (the incremental solver's), which so stops allocating once warm, and whose
// pushes and pops are then as cheap as a vector's.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace interflow {

// A stack in chunks of kChunk elements. pop() frees the last chunk once two chunks lie unused
// beyond the top (one spare avoids freeing and allocating again at a chunk edge).
template <class T>
class ChunkedStack {
 public:
  static constexpr std::size_t kChunk = 4096;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return chunks_.size() * kChunk; }
  const T& operator[](std::size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push(const T& x) {
    if (size_ == capacity()) chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunk));
    chunks_[size_ / kChunk][size_ % kChunk] = x;
    ++size_;
  }
  void pop() {
    --size_;
    if (chunks_.size() * kChunk >= size_ + 2 * kChunk) chunks_.pop_back();
  }
  void clear() {
    size_ = 0;
    chunks_.clear();
  }
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t c = 0; c * kChunk < size_; ++c) {
      const T* chunk = chunks_[c].get();
      const std::size_t n = std::min(kChunk, size_ - c * kChunk);
      for (std::size_t i = 0; i < n; ++i) f(chunk[i]);
    }
  }
  // Calls f(element) for every element in order and empties the stack, freeing each chunk as soon as
  // it has been read: what f copies elsewhere is never held twice.
  template <class F>
  void drain(F&& f) {
    for (std::size_t c = 0; c * kChunk < size_; ++c) {
      const std::size_t n = std::min(kChunk, size_ - c * kChunk);
      for (std::size_t i = 0; i < n; ++i) f(chunks_[c][i]);
      chunks_[c].reset();
    }
    clear();
  }
  // Keeps the elements for which f(element&) returns true (f may change them), in order.
  template <class F>
  void keep_if(F&& f) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      T& x = chunks_[i / kChunk][i % kChunk];
      if (f(x)) chunks_[kept / kChunk][kept % kChunk] = x, ++kept;
    }
    while (size_ > kept) pop();
  }
  void swap(ChunkedStack& other) noexcept {
    chunks_.swap(other.chunks_);
    std::swap(size_, other.size_);
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

// The same interface on one vector that keeps its capacity when emptied.
template <class T>
class VectorStack {
 public:
  std::size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  std::size_t capacity() const { return v_.capacity(); }
  const T& back() const { return v_.back(); }
  void push(const T& x) { v_.push_back(x); }
  void pop() { v_.pop_back(); }
  void clear() { v_.clear(); }
  template <class F>
  void for_each(F&& f) const {
    for (const T& x : v_) f(x);
  }
  template <class F>
  void drain(F&& f) {
    for (const T& x : v_) f(x);
    v_.clear();
  }
  template <class F>
  void keep_if(F&& f) {
    std::size_t kept = 0;
    for (T& x : v_)
      if (f(x)) v_[kept++] = x;
    v_.resize(kept);
  }
  void swap(VectorStack& other) noexcept { v_.swap(other.v_); }

 private:
  std::vector<T> v_;
};

template <class Value, template <class> class Stack = ChunkedStack>
class RadixHeap {
 public:

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // Entries the buckets can hold without allocating (their storage, for memory accounting).
  std::size_t capacity() const {
    std::size_t c = 0;
    for (const auto& bucket : buckets_) c += bucket.capacity();
    return c;
  }

  // A key below the last one popped is taken as that key. Progressive filling recomputes a share
  // that cannot have fallen, and rounding can put it an ulp below the key just popped; bucketed as
  // it is, such a key would land by its differing bits, far up the buckets when the last key ends
  // in zeros (0.25 and the double below it differ in 53 bits), and leave the heap out of order.
  void push(double key, Value value) {
    put({std::max(to_bits(key), last_), value});
    ++size_;
  }

  // Removes a smallest entry (the heap must not be empty). Among equal keys the order is fixed by
  // the sequence of operations, so runs are reproducible.
  void pop(double& key, Value& value) {
    pop_reviewed(key, value, [](const Value&, double k) { return k; });
  }

  // pop() for a queue whose keys are updated lazily (lower bounds of the values' current keys, as in
  // progressive filling): every entry that a refill is about to move is first given to
  // review(value, key), which returns its current key (at least `key`: keys never fall) or a
  // negative number to drop it. Entries gone stale or dead so are dealt with once, where the refill
  // reads them anyway, instead of being moved down the buckets to the top first. Entries that reach
  // the top without a refill are not reviewed: the caller still checks what it pops. Returns false,
  // popping nothing, when no entry is left.
  template <class Review>
  bool pop_reviewed(double& key, Value& value, Review&& review) {
    if (buckets_[0].empty() && !refill(review)) return false;
    const Entry e = buckets_[0].back();
    buckets_[0].pop();
    --size_;
    key = from_bits(e.bits);
    value = e.value;
    return true;
  }

  // Declares that no key below `key` will ever be pushed, on an empty heap: entries pushed next are
  // bucketed against it instead of against 0. Filling a heap with keys of one magnitude otherwise
  // puts them all in one bucket, which the first pop copies whole into lower buckets (two copies
  // of the heap alive at once); with the smallest key given first they go straight to their buckets.
  void raise_floor(double key) {
    if (size_ == 0 && to_bits(key) > last_) last_ = to_bits(key);
  }

  void clear() {
    buckets_[0].clear();
    for (std::uint64_t m = occupied_; m != 0; m &= m - 1) buckets_[std::countr_zero(m) + 1].clear();
    occupied_ = 0;
    size_ = 0;
    last_ = 0;
  }

 private:
  // Packed to 4-byte alignment: 12 bytes instead of 16 for a 32-bit value. The heap of a 1M-endpoint
  // static solve holds millions of entries; unaligned 8-byte loads cost nothing measurable here.
#pragma pack(push, 4)
  struct Entry {
    std::uint64_t bits;
    Value value;
  };
#pragma pack(pop)

  // Non-negative IEEE doubles order like their bit patterns read as unsigned integers.
  static std::uint64_t to_bits(double key) {
    if (!(key > 0)) return 0;  // also maps -0.0
    std::uint64_t bits;
    std::memcpy(&bits, &key, sizeof bits);
    return bits;
  }
  static double from_bits(std::uint64_t bits) {
    double key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
  }
  std::size_t bucket_of(std::uint64_t bits) const {
    return bits == last_ ? 0 : static_cast<std::size_t>(64 - std::countl_zero(bits ^ last_));
  }

  void put(const Entry& e) {
    const std::size_t b = bucket_of(e.bits);
    buckets_[b].push(e);
    if (b > 0) occupied_ |= std::uint64_t{1} << (b - 1);
  }

  // Refills bucket 0 from the lowest non-empty bucket (found from the occupancy mask: scanning 64
  // buckets per pop dominated small heaps; every bucket below it is empty, bucket 0 included), each
  // entry reviewed first (pop_reviewed). A review can raise an entry's key out of its bucket: it then
  // goes to its bucket for the raised key (a higher one, relative to the same last key; keys pushed
  // are never below the last key, so a raised one never lands lower). The entries left set the new
  // last key, which so agrees with the old one above the bucket's bit and leaves every higher
  // bucket valid, and each lands in a lower bucket relative to it, in its order (a chunked bucket
  // frees each chunk as it is read, so the heap is never held twice); the emptied storage goes back
  // to its bucket. A bucket emptied by its review is passed over. Returns whether any entry is left.
  template <class Review>
  bool refill(Review& review) {
    while (occupied_ != 0) {
      const auto i = static_cast<std::size_t>(std::countr_zero(occupied_)) + 1;
      occupied_ &= ~(std::uint64_t{1} << (i - 1));
      Stack<Entry> moving;
      moving.swap(buckets_[i]);
      std::uint64_t smallest = std::numeric_limits<std::uint64_t>::max();
      moving.keep_if([&](Entry& e) {
        const double now = review(e.value, from_bits(e.bits));
        if (now < 0) {
          --size_;
          return false;
        }
        // Keys never fall. (Compared by value: std::max would bind a reference to the packed field.)
        if (const std::uint64_t raised = to_bits(now); raised > e.bits) e.bits = raised;
        if (bucket_of(e.bits) != i) {
          put(e);  // raised into a higher bucket
          return false;
        }
        smallest = e.bits < smallest ? e.bits : smallest;
        return true;
      });
      if (moving.empty()) {
        moving.swap(buckets_[i]);
        continue;
      }
      last_ = smallest;
      moving.drain([&](const Entry& e) { put(e); });
      moving.swap(buckets_[i]);
      return true;
    }
    return false;
  }

  Stack<Entry> buckets_[65];
  std::uint64_t last_ = 0;
  std::uint64_t occupied_ = 0;  // bit b - 1: bucket b (1..64) is not empty
  std::size_t size_ = 0;
};

}  // namespace interflow
