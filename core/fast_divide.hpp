#pragma once
// Quotient and remainder of 32-bit unsigned numbers by a divisor fixed in advance, by multiplication
// instead of a hardware division (which costs tens of cycles and dominated routing arithmetic on
// tori). With M = floor((2^64 - 1) / d) + 1, n / d = floor(M n / 2^64) and n mod d =
// floor((M n mod 2^64) d / 2^64), exactly, for every n and d > 1 below 2^32 (Lemire, Kaser and Kurz
// 2019, "Faster remainder by direct computation", Theorem 1 with N = 32, F = 64). d = 1 is a special case (M
// would wrap to 0). Tested against the hardware division (tests/core/fast_divide.cpp).
#include <cstdint>
#include <stdexcept>

namespace interflow {

class FastDivider {
 public:
  FastDivider() = default;
  explicit FastDivider(std::uint32_t d) : d_(d), m_(d > 1 ? ~std::uint64_t{0} / d + 1 : 0) {
    if (d == 0) throw std::invalid_argument("FastDivider: division by zero");
  }
  std::uint32_t divisor() const { return d_; }
  std::uint32_t quotient(std::uint32_t n) const {
    return d_ == 1 ? n : static_cast<std::uint32_t>((static_cast<U128>(m_) * n) >> 64);
  }
  std::uint32_t remainder(std::uint32_t n) const {
    return d_ == 1 ? 0 : static_cast<std::uint32_t>((static_cast<U128>(m_ * n) * d_) >> 64);
  }

 private:
  __extension__ using U128 = unsigned __int128;
  std::uint32_t d_ = 1;
  std::uint64_t m_ = 0;
};

}  // namespace interflow
