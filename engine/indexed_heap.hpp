#pragma once
// A min-heap of ids 0..n-1, each present at most once with a key that can be changed in place: the
// dynamic engine's pending transfer ends, one per active flow. Unlike a heap with lazy deletion, a
// rate change re-keys the flow's entry instead of leaving a stale one behind, so the heap never holds
// more entries than active flows. Ties are broken by id, so the order is reproducible.
#include <cstdint>
#include <vector>

namespace interflow {

class IndexedMinHeap {
 public:
  explicit IndexedMinHeap(std::size_t ids = 0) : position_(ids, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool contains(std::uint32_t id) const { return position_[id] != kAbsent; }
  std::uint32_t top() const { return heap_.front().id; }
  double top_key() const { return heap_.front().key; }

  // Inserts id with this key, or moves it to this key if present.
  void set(std::uint32_t id, double key) {
    std::uint32_t i = position_[id];
    if (i == kAbsent) {
      i = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({key, id});
      position_[id] = i;
      sift_up(i);
      return;
    }
    const double old = heap_[i].key;
    heap_[i].key = key;
    if (key < old)
      sift_up(i);
    else
      sift_down(i);
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
  struct Entry {
    double key;
    std::uint32_t id;
  };
  static bool before(const Entry& a, const Entry& b) { return a.key != b.key ? a.key < b.key : a.id < b.id; }

  void place(std::uint32_t i, const Entry& e) {
    heap_[i] = e;
    position_[e.id] = i;
  }
  void sift_up(std::uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
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
      std::uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> position_;
};

}  // namespace interflow
