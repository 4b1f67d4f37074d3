#pragma once
// Seeded randomness. One run seed; every independent consumer (a flow, a pattern, the failure
// model) derives its own stream with derive_seed(seed, stream, index), so results do not depend
// on the order in which threads run.
#include <cstdint>
#include <limits>

namespace interflow {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a strong 64-bit mixing function.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream, std::uint64_t index = 0) {
  return mix64(mix64(seed ^ mix64(stream)) + index);
}

// Named streams, so that adding a consumer never shifts another one's numbers.
enum class Stream : std::uint64_t {
  Pattern = 1,
  Failures = 2,
  Routing = 3,
  Topology = 4,
  Application = 5,
  Placement = 6,
  Jobs = 7,
  Packet = 8
};

constexpr std::uint64_t derive_seed(std::uint64_t seed, Stream stream, std::uint64_t index = 0) {
  return derive_seed(seed, static_cast<std::uint64_t>(stream), index);
}

// xoshiro256** (Blackman & Vigna 2018): fast, small state, good statistical quality.
class Rng {
 public:
  using result_type = std::uint64_t;
  explicit Rng(std::uint64_t seed) {
    std::uint64_t s = seed;
    for (auto& word : state_) {
      s = mix64(s);
      word = s;
    }
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  // Uniform integer in [0, bound) without modulo bias (Lemire 2019).
  std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const std::uint64_t r = (*this)();
      __extension__ using u128 = unsigned __int128;
      const u128 m = static_cast<u128>(r) * bound;
      if (static_cast<std::uint64_t>(m) >= threshold) return static_cast<std::uint64_t>(m >> 64);
    }
  }
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

}  // namespace interflow
