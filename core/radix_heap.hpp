#pragma once
// A monotone priority queue keyed by non-negative doubles (radix heap, Ahuja, Mehlhorn, Orlin &
// Tarjan 1990). Valid when no key pushed is smaller than the last key popped — true for max-min
// progressive filling, whose fair-share levels only rise. Entries are bucketed by the highest bit in
// which their key differs from the last popped key, so a pop touches one bucket and each entry moves
// to a lower bucket a few times at most: far fewer cache misses than a binary heap.
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace interflow {

template <class Value>
class RadixHeap {
 public:
  // keep_buckets: keep each bucket's storage when it empties — for a heap that is filled and emptied
  // many times (the incremental solver's), so that it stops allocating once warm.
  explicit RadixHeap(bool keep_buckets = false) : keep_buckets_(keep_buckets) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(double key, Value value) {
    put({to_bits(key), value});
    ++size_;
  }

  // Removes a smallest entry. Among equal keys the order is fixed by the sequence of operations,
  // so runs are reproducible.
  void pop(double& key, Value& value) {
    if (buckets_[0].empty()) refill();
    const Entry e = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    key = from_bits(e.bits);
    value = e.value;
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
    buckets_[b].push_back(e);
    if (b > 0) occupied_ |= std::uint64_t{1} << (b - 1);
  }

  void refill() {
    // The lowest non-empty bucket, from the occupancy mask (scanning 64 buckets per pop dominated
    // small heaps).
    const auto i = static_cast<std::size_t>(std::countr_zero(occupied_)) + 1;
    occupied_ &= ~(std::uint64_t{1} << (i - 1));
    std::uint64_t smallest = std::numeric_limits<std::uint64_t>::max();
    for (const Entry& e : buckets_[i]) smallest = e.bits < smallest ? e.bits : smallest;
    last_ = smallest;
    // Every entry of bucket i lands in a lower bucket relative to the new last key. A large bucket
    // (the whole heap, at the first pop) is counted out first, so that each lower bucket grows once
    // to its exact size instead of doubling: less copying, and no capacity left unused.
    if (buckets_[i].size() >= kCountAbove) {
      std::size_t count[65] = {};
      for (const Entry& e : buckets_[i]) ++count[bucket_of(e.bits)];
      for (std::size_t b = 0; b < i; ++b)
        if (count[b] > 0) buckets_[b].reserve(buckets_[b].size() + count[b]);
    }
    for (const Entry& e : buckets_[i]) put(e);
    // Free the emptied bucket: the entries now live in lower buckets, and keeping every bucket's
    // high-water capacity would hold several copies of the whole heap.
    if (keep_buckets_)
      buckets_[i].clear();
    else
      std::vector<Entry>().swap(buckets_[i]);
  }

  static constexpr std::size_t kCountAbove = 1 << 16;
  std::vector<Entry> buckets_[65];
  std::uint64_t last_ = 0;
  std::uint64_t occupied_ = 0;  // bit b - 1: bucket b (1..64) is not empty
  std::size_t size_ = 0;
  bool keep_buckets_;
};

}  // namespace interflow
