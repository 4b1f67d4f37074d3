#pragma once
// The finite field GF(q), q = p^m a prime power, for algebraic topology constructions (slim fly).
// Elements are the integers 0..q-1: the base-p digits of an element are the coefficients of a
// polynomial over GF(p) of degree < m (digit 0 = constant term), reduced modulo the irreducible
// monic polynomial of degree m whose lower coefficients, read as a base-p number, are smallest.
// For m = 1 this is arithmetic modulo p. Multiplication uses logarithm tables to the primitive
// element: the smallest element (as an integer) of multiplicative order q-1.
#include <cstdint>
#include <optional>
#include <vector>

namespace interflow::topo {

struct PrimePower {
  std::uint32_t prime, exponent;
};

// p and m with q = p^m, or nothing when q is not a prime power (q < 2 included).
std::optional<PrimePower> prime_power(std::uint32_t q);

class GaloisField {
 public:
  // q must be a prime power (std::invalid_argument otherwise; callers check with prime_power first).
  explicit GaloisField(std::uint32_t q);

  std::uint32_t size() const { return q_; }
  std::uint32_t characteristic() const { return p_; }
  std::uint32_t degree() const { return m_; }
  std::uint32_t primitive() const { return exp_[1]; }

  std::uint32_t add(std::uint32_t a, std::uint32_t b) const;
  std::uint32_t neg(std::uint32_t a) const;
  std::uint32_t sub(std::uint32_t a, std::uint32_t b) const { return add(a, neg(b)); }
  std::uint32_t mul(std::uint32_t a, std::uint32_t b) const {
    if (a == 0 || b == 0) return 0;
    return exp_[log_[a] + log_[b]];  // exp_ holds two periods, so no reduction is needed
  }
  // a / b for b != 0.
  std::uint32_t div(std::uint32_t a, std::uint32_t b) const {
    if (a == 0) return 0;
    return exp_[log_[a] + (q_ - 1) - log_[b]];
  }
  // primitive()^i for any i >= 0.
  std::uint32_t power(std::uint64_t i) const { return exp_[i % (q_ - 1)]; }

 private:
  std::uint32_t p_, m_, q_;
  std::vector<std::uint32_t> exp_;  // exp_[i] = xi^i for 0 <= i < 2(q-1)
  std::vector<std::uint32_t> log_;  // log_[a] = i with xi^i = a, for a != 0
};

}  // namespace interflow::topo
