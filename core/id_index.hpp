#pragma once
// A hash index of numbered items (the items live in the caller's arrays; the index holds their
// numbers): open addressing with linear probing, at most half full, so a probe ends at an empty slot
// within a few steps on average. The caller gives each item's 64-bit hash (a function of its key);
// its home slot is the hash's low bits. A removal shifts back the entries after it that would
// otherwise be cut off from their home (no tombstones: the table never fills with dead slots).
// Correctness of the removal: an entry at j with home h is found by a probe from h that passes every
// slot from h to j; after emptying slot i, the entry at j may stay only if i is not between h and j
// (cyclically), else it moves into i and j becomes the hole, until the run of entries ends.
// Used by the grouped solver's pairs (engine/maxmin/grouped_maxmin.hpp) and the flow transport's
// mixes (engine/flow/mixed_clocks.hpp); tested in tests/core/id_index.cpp.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace interflow {

class IdIndex {
 public:
  static constexpr std::uint32_t kNone = ~0u;

  // The first number in the probe from hash's home for which match(number) holds (kNone: none).
  template <class Match>
  std::uint32_t find(std::uint64_t hash, Match&& match) const {
    if (slot_.empty()) return kNone;
    for (std::size_t i = home(hash);; i = (i + 1) & mask_) {
      const std::uint32_t id = slot_[i];
      if (id == kNone || match(id)) return id;
    }
  }
  // Adds number id (not in the index); hash_of(number) gives any indexed number's hash.
  template <class HashOf>
  void insert(std::uint32_t id, HashOf&& hash_of) {
    if (2 * (used_ + 1) > slot_.size()) {  // grow to twice, re-placing every number
      const std::vector<std::uint32_t> old = std::move(slot_);
      slot_.assign(std::max<std::size_t>(64, 2 * old.size()), kNone);
      mask_ = slot_.size() - 1;
      used_ = 0;
      for (const std::uint32_t q : old)
        if (q != kNone) place(q, hash_of(q));
    }
    place(id, hash_of(id));
  }
  // Removes number id (in the index).
  template <class HashOf>
  void erase(std::uint32_t id, HashOf&& hash_of) {
    std::size_t i = home(hash_of(id));
    while (slot_[i] != id) i = (i + 1) & mask_;
    for (std::size_t j = (i + 1) & mask_; slot_[j] != kNone; j = (j + 1) & mask_) {
      const std::size_t h = home(hash_of(slot_[j]));
      const bool reachable = i <= j ? (h > i && h <= j) : (h > i || h <= j);
      if (reachable) continue;
      slot_[i] = slot_[j];
      i = j;
    }
    slot_[i] = kNone;
    --used_;
  }
  std::size_t size() const { return used_; }

 private:
  std::size_t home(std::uint64_t hash) const { return static_cast<std::size_t>(hash) & mask_; }
  void place(std::uint32_t id, std::uint64_t hash) {
    std::size_t i = home(hash);
    while (slot_[i] != kNone) i = (i + 1) & mask_;
    slot_[i] = id;
    ++used_;
  }

  std::vector<std::uint32_t> slot_;
  std::size_t mask_ = 0, used_ = 0;
};

}  // namespace interflow
