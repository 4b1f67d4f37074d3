// FastDivider (core/fast_divide.hpp) against the hardware division, on every divisor up to 4096 and
// divisors near powers of two up to 2^32 - 1, with numerators at the edges and drawn at random.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/fast_divide.hpp"
#include "core/random.hpp"

using namespace interflow;

TEST_CASE("fast divide: quotient and remainder equal the hardware division's") {
  std::vector<std::uint32_t> divisors;
  for (std::uint32_t d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (int b = 12; b < 32; ++b)
    for (std::int64_t delta : {-1, 0, 1, 3})
      divisors.push_back(static_cast<std::uint32_t>((std::int64_t{1} << b) + delta));
  divisors.push_back(0xffffffffu);
  Rng rng(12345);
  std::uint64_t wrong = 0, checked = 0;
  for (std::uint32_t d : divisors) {
    const FastDivider div(d);
    std::vector<std::uint32_t> numerators = {0, 1, d - 1, d, 0xffffffffu, 0xfffffffeu, 0x80000000u};
    if (d < 0x80000000u) numerators.push_back(2 * d - 1), numerators.push_back(2 * d);
    for (int i = 0; i < 64; ++i) numerators.push_back(static_cast<std::uint32_t>(rng.below(std::uint64_t{1} << 32)));
    for (std::uint32_t n : numerators) {
      ++checked;
      if (div.quotient(n) != n / d || div.remainder(n) != n % d) {
        ++wrong;
        INFO("n " << n << " d " << d);
        CHECK(div.quotient(n) == n / d);
        CHECK(div.remainder(n) == n % d);
      }
    }
  }
  CHECK(checked > 300000);
  CHECK(wrong == 0);
  CHECK_THROWS(FastDivider(0));
}
