#pragma once
// A set of ids 0..n-1 that numbers its members densely: rank(i) is how many members are below i, so
// the members are 0..count()-1 in id order. Used where per-id state is wanted only for the ids in
// use (the max-min solver keeps link state only for the links some path crosses: on a fat tree
// under a random pattern a third of the links carry no flow).
//
// Layout: one block per 64 ids holding the 64 membership bits and the number of members in all
// earlier blocks, side by side, so rank(i) reads one 16-byte block (one cache line) and counts the
// bits below i in it: O(1), with no per-id array. 2 bits per id in all; one block more than
// the ids need, so rank(size()) reads a block like any other.
//
// Use: set() every member, then finish() once, then rank() and contains(); set() after finish() is
// not allowed.
#include <bit>
#include <cstdint>
#include <vector>

namespace interflow {

class RankBitmap {
 public:
  explicit RankBitmap(std::size_t n = 0) : n_(n), blocks_((n >> 6) + 1, Block{0, 0}) {}

  std::size_t size() const { return n_; }
  void set(std::size_t i) { blocks_[i >> 6].bits |= std::uint64_t{1} << (i & 63); }
  bool contains(std::size_t i) const { return (blocks_[i >> 6].bits >> (i & 63)) & 1; }

  // Fixes the numbering; returns count().
  std::uint64_t finish() {
    std::uint64_t below = 0;
    for (Block& b : blocks_) {
      b.below = below;
      below += static_cast<std::uint64_t>(std::popcount(b.bits));
    }
    count_ = below;
    return count_;
  }
  std::uint64_t count() const { return count_; }
  // The members below i (i itself need not be a member); rank(size()) == count().
  std::uint64_t rank(std::size_t i) const {
    const Block& b = blocks_[i >> 6];
    const std::uint64_t below_in_block = b.bits & ((std::uint64_t{1} << (i & 63)) - 1);
    return b.below + bit_count(below_in_block);
  }

 private:
  // std::popcount compiles to a library call unless the build targets a CPU with a popcount
  // instruction; this branch-free count is a dozen instructions inline (rank() runs once per path
  // entry when the max-min solver renumbers a table).
  static std::uint64_t bit_count(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
  }
  struct Block {
    std::uint64_t bits;
    std::uint64_t below;
  };
  std::size_t n_;
  std::vector<Block> blocks_;
  std::uint64_t count_ = 0;
};

}  // namespace interflow
