#pragma once
// Numbers and ranges of numbers given back for reuse, so that arrays indexed by them stop growing
// once a run reaches its steady state (the grouped solver's groups and pairs, the flow transport's
// streamed variables, the mixed clocks' mixes and terms).
#include <cstdint>
#include <vector>

namespace interflow {

// A free number of items: one given back earlier (free's last), or a new item at the end of items.
template <class T>
std::uint32_t take_number(std::vector<T>& items, std::vector<std::uint32_t>& free) {
  if (free.empty()) {
    items.emplace_back();
    return static_cast<std::uint32_t>(items.size() - 1);
  }
  const std::uint32_t i = free.back();
  free.pop_back();
  return i;
}

// Ranges of consecutive numbers given back, kept by length: a range is reused only whole, by a
// request of the same length (kNone when there is none; the caller then extends its arrays).
class FreeRanges {
 public:
  static constexpr std::uint32_t kNone = ~0u;
  std::uint32_t take(std::uint32_t count) {
    if (count >= by_count_.size() || by_count_[count].empty()) return kNone;
    const std::uint32_t first = by_count_[count].back();
    by_count_[count].pop_back();
    return first;
  }
  void give(std::uint32_t first, std::uint32_t count) {
    if (count >= by_count_.size()) by_count_.resize(std::size_t{count} + 1);
    by_count_[count].push_back(first);
  }

 private:
  std::vector<std::vector<std::uint32_t>> by_count_;
};

}  // namespace interflow
