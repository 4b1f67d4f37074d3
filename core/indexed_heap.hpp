#pragma once
// A min-heap of ids 0..n-1, each present at most once with a key that can be changed in place: the
// dynamic engine's pending transfer ends, one per active flow. Unlike a heap with lazy deletion, a
// rate change re-keys the flow's entry instead of leaving a stale one behind, so the heap never holds
// more entries than active flows. Ties are broken by id, so the order is reproducible.
// A key that rises (a flow slowed down: the common change in a filling network) is only recorded; the
// entry keeps its old, smaller key, a valid lower bound, and sinks to its place when it reaches the
// top. A key that falls moves up at once. Four children per node: half the levels of a binary heap,
// and a node's children share a cache line.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace interflow {

class IndexedMinHeap {
 public:
  explicit IndexedMinHeap(std::size_t ids = 0) : position_(ids, kAbsent), key_(ids, 0.0) {}

  // Makes room for ids below `ids` (never shrinks).
  void grow(std::size_t ids) {
    if (ids <= position_.size()) return;
    position_.resize(ids, kAbsent);
    key_.resize(ids, 0.0);
  }
  std::size_t ids() const { return position_.size(); }

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool contains(std::uint32_t id) const { return position_[id] != kAbsent; }
  // The id with the smallest key (ties: the smallest id), and its key.
  std::uint32_t top() {
    settle_top();
    return heap_.front().id;
  }
  double top_key() {
    settle_top();
    return heap_.front().key;
  }

  // Inserts id with this key, or moves it to this key if present.
  void set(std::uint32_t id, double key) {
    key_[id] = key;
    std::uint32_t i = position_[id];
    if (i == kAbsent) {
      i = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({key, id});
      position_[id] = i;
      sift_up(i);
      return;
    }
    if (key < heap_[i].key) {
      heap_[i].key = key;
      sift_up(i);
    }
  }

  void erase(std::uint32_t id) {
    const std::uint32_t i = position_[id];
    if (i == kAbsent) return;
    position_[id] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    position_[last.id] = i;
    sift_up(i);
    sift_down(position_[last.id]);
  }

  void pop() { erase(top()); }

 private:
  static constexpr std::uint32_t kAbsent = ~0u;
  static constexpr std::uint32_t kArity = 4;
  struct Entry {
    double key;
    std::uint32_t id;
  };
  static bool before(const Entry& a, const Entry& b) { return a.key != b.key ? a.key < b.key : a.id < b.id; }

  // Until the entry on top carries its id's key, gives it that key and lets it sink.
  void settle_top() {
    while (heap_.front().key != key_[heap_.front().id]) {
      heap_.front().key = key_[heap_.front().id];
      sift_down(0);
    }
  }

  void place(std::uint32_t i, const Entry& e) {
    heap_[i] = e;
    position_[e.id] = i;
  }
  void sift_up(std::uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / kArity;
      if (!before(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void sift_down(std::uint32_t i) {
    const Entry e = heap_[i];
    const auto n = static_cast<std::uint32_t>(heap_.size());
    for (;;) {
      const std::uint32_t first = kArity * i + 1;
      if (first >= n) break;
      std::uint32_t child = first;
      for (std::uint32_t c = first + 1; c < std::min(first + kArity, n); ++c)
        if (before(heap_[c], heap_[child])) child = c;
      if (!before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;  // entry keys are at most their ids' keys
  std::vector<std::uint32_t> position_;
  std::vector<double> key_;  // per id: its key
};

}  // namespace interflow
