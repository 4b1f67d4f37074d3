#include "topologies/galois_field.hpp"

#include <stdexcept>
#include <string>

namespace interflow::topo {

namespace {

using Poly = std::vector<std::uint64_t>;  // coefficients over GF(p), index = power of x

Poly decode(std::uint64_t value, std::uint32_t p, std::uint32_t length) {
  Poly digits(length, 0);
  for (std::uint32_t i = 0; i < length; ++i, value /= p) digits[i] = value % p;
  return digits;
}

std::uint32_t encode(const Poly& digits, std::uint32_t p, std::uint32_t length) {
  std::uint64_t value = 0;
  for (std::uint32_t i = length; i-- > 0;) value = value * p + digits[i];
  return static_cast<std::uint32_t>(value);
}

// a mod g, g monic of degree deg (g[deg] == 1), in place; a keeps its size.
void reduce(Poly& a, const Poly& g, std::uint32_t deg, std::uint32_t p) {
  for (std::size_t k = a.size(); k-- > deg;) {
    const std::uint64_t c = a[k] % p;
    if (c == 0) continue;
    a[k] = 0;
    for (std::uint32_t i = 0; i < deg; ++i) a[k - deg + i] = (a[k - deg + i] + (p - c) * g[i]) % p;
  }
}

// Whether the monic f of degree m has no monic factor of degree 1..m/2.
bool irreducible(const Poly& f, std::uint32_t m, std::uint32_t p) {
  for (std::uint32_t d = 1; 2 * d <= m; ++d) {
    std::uint64_t count = 1;
    for (std::uint32_t i = 0; i < d; ++i) count *= p;
    for (std::uint64_t low = 0; low < count; ++low) {
      Poly g = decode(low, p, d + 1);
      g[d] = 1;
      Poly r = f;
      reduce(r, g, d, p);
      bool zero = true;
      for (std::uint32_t i = 0; i < d; ++i) zero = zero && r[i] == 0;
      if (zero) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<PrimePower> prime_power(std::uint32_t q) {
  if (q < 2) return std::nullopt;
  std::uint32_t p = q;
  for (std::uint32_t d = 2; static_cast<std::uint64_t>(d) * d <= q; ++d)
    if (q % d == 0) {
      p = d;
      break;
    }
  std::uint32_t m = 0;
  for (std::uint32_t rest = q; rest > 1; rest /= p, ++m)
    if (rest % p != 0) return std::nullopt;
  return PrimePower{p, m};
}

GaloisField::GaloisField(std::uint32_t q) : q_(q) {
  const auto pm = prime_power(q);
  if (!pm) throw std::invalid_argument("GF(" + std::to_string(q) + "): not a prime power");
  p_ = pm->prime;
  m_ = pm->exponent;

  // The irreducible monic modulus with the smallest lower coefficients (x itself when m = 1).
  Poly modulus;
  for (std::uint64_t low = 0;; ++low) {
    modulus = decode(low, p_, m_ + 1);
    modulus[m_] = 1;
    if (irreducible(modulus, m_, p_)) break;
  }
  auto slow_mul = [&](std::uint32_t a, std::uint32_t b) {
    const Poly x = decode(a, p_, m_), y = decode(b, p_, m_);
    Poly product(2 * m_, 0);
    for (std::uint32_t i = 0; i < m_; ++i)
      for (std::uint32_t j = 0; j < m_; ++j) product[i + j] = (product[i + j] + x[i] * y[j]) % p_;
    reduce(product, modulus, m_, p_);
    return encode(product, p_, m_);
  };

  // The smallest element of multiplicative order q-1 (the group is cyclic, so one exists).
  exp_.assign(2 * (q_ - 1), 0);
  log_.assign(q_, 0);
  for (std::uint32_t candidate = 1; candidate < q_; ++candidate) {
    std::uint32_t x = 1, order = 0;
    do {
      exp_[order++] = x;
      x = slow_mul(x, candidate);
    } while (x != 1);
    if (order == q_ - 1) break;
  }
  for (std::uint32_t i = 0; i < q_ - 1; ++i) {
    exp_[i + q_ - 1] = exp_[i];
    log_[exp_[i]] = i;
  }
}

std::uint32_t GaloisField::add(std::uint32_t a, std::uint32_t b) const {
  if (m_ == 1) return (a + b) % p_;
  std::uint32_t sum = 0, place = 1;
  for (std::uint32_t i = 0; i < m_; ++i, a /= p_, b /= p_, place *= p_) sum += ((a % p_ + b % p_) % p_) * place;
  return sum;
}

std::uint32_t GaloisField::neg(std::uint32_t a) const {
  if (m_ == 1) return a == 0 ? 0 : p_ - a;
  std::uint32_t out = 0, place = 1;
  for (std::uint32_t i = 0; i < m_; ++i, a /= p_, place *= p_) out += ((p_ - a % p_) % p_) * place;
  return out;
}

}  // namespace interflow::topo
