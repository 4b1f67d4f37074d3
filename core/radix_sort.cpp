#include "core/radix_sort.hpp"

#include <array>
#include <bit>
#include <utility>

namespace interflow {

std::vector<std::uint32_t> order_by_key(std::span<const double> keys) {
  constexpr unsigned kBits = 11, kPasses = (64 + kBits - 1) / kBits;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  const std::size_t n = keys.size();
  std::vector<std::uint64_t> key(n), key_out(n);
  std::vector<std::uint32_t> index(n), index_out(n);
  // Every pass's histogram in one sweep over the keys.
  std::vector<std::array<std::uint32_t, kBuckets>> count(kPasses);
  for (auto& c : count) c.fill(0);
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = std::bit_cast<std::uint64_t>(keys[i] + 0.0);  // -0.0 + 0.0 is +0.0
    index[i] = static_cast<std::uint32_t>(i);
    for (unsigned p = 0; p < kPasses; ++p) ++count[p][(key[i] >> (p * kBits)) & (kBuckets - 1)];
  }
  for (unsigned p = 0; p < kPasses; ++p) {
    std::array<std::uint32_t, kBuckets>& c = count[p];
    const unsigned shift = p * kBits;
    if (n == 0 || c[(key[0] >> shift) & (kBuckets - 1)] == n) continue;  // one digit for all: order kept
    std::uint32_t sum = 0;
    for (std::uint32_t& bucket : c) sum += std::exchange(bucket, sum);  // bucket starts
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t at = c[(key[i] >> shift) & (kBuckets - 1)]++;
      key_out[at] = key[i];
      index_out[at] = index[i];
    }
    key.swap(key_out);
    index.swap(index_out);
  }
  return index;
}

}  // namespace interflow
