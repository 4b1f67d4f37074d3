// Bit permutations (INRFlow paper, §3.3.1 "Permutations"; definitions as in Dally & Towles,
// "Principles and Practices of Interconnection Networks", §3.2): the destination's id is a fixed
// rearrangement of the bits of the source's id.
#include <bit>

#include "core/error.hpp"
#include "workloads/pattern.hpp"

namespace interflow::workloads {

namespace {

enum class BitPermutation { Shuffle, Reverse, Transpose, Complement };

// Rotates the low `bits` bits of x left by `by` (0 < bits, by < bits).
std::uint32_t rotate_left(std::uint32_t x, unsigned bits, unsigned by) {
  const std::uint32_t mask = (bits == 32) ? ~0u : ((1u << bits) - 1u);
  if (by == 0) return x;
  return ((x << by) | (x >> (bits - by))) & mask;
}

std::uint32_t reverse_bits(std::uint32_t x, unsigned bits) {
  std::uint32_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

class BitPermutationPattern : public Pattern {
 public:
  BitPermutationPattern(BitPermutation kind, std::string name) : kind_(kind), name_(std::move(name)) {}

  PatternReport generate(const PatternContext& ctx, FlowSet& out) const override {
    const std::uint32_t n = ctx.endpoints;
    if (n < 2)
      throw InputError("pattern '" + name_ + "' needs at least 2 endpoints, the topology has " + std::to_string(n));
    const auto bits = static_cast<unsigned>(std::bit_width(n) - 1);  // floor(log2 n)
    const std::uint32_t used = std::uint32_t{1} << bits;
    const std::uint32_t mask = used - 1;
    check_flow_budget(ctx, used, name_);
    out.reserve(out.size() + used);
    PatternReport report;
    for (std::uint32_t src = 0; src < used; ++src) {
      std::uint32_t dst = 0;
      switch (kind_) {
        case BitPermutation::Shuffle:
          dst = rotate_left(src, bits, 1 % bits);
          break;
        case BitPermutation::Reverse:
          dst = reverse_bits(src, bits);
          break;
        case BitPermutation::Transpose:
          dst = rotate_left(src, bits, bits / 2);
          break;
        case BitPermutation::Complement:
          dst = ~src & mask;
          break;
      }
      if (dst == src) {
        ++report.self_pairs_dropped;
        continue;
      }
      out.add(src, dst);
    }
    report.idle_endpoints = n - used;
    report.note =
        name_ + " permutes the " + std::to_string(bits) + "-bit ids of the first " + std::to_string(used) +
        " endpoints; endpoints " +
        (used < n ? std::to_string(used) + ".." + std::to_string(n - 1) + " idle" : std::string("none idle")) + "; " +
        std::to_string(report.self_pairs_dropped) + " fixed points (dst == src) dropped, those endpoints send nothing";
    return report;
  }

 private:
  BitPermutation kind_;
  std::string name_;
};

void add_bit_permutation(PatternRegistry& registry, const std::string& name, BitPermutation kind,
                         const std::string& summary, const std::string& rule) {
  registry.add({name,
                summary,
                {},
                [kind, name](const ParamSet&) -> std::unique_ptr<Pattern> {
                  return std::make_unique<BitPermutationPattern>(kind, name);
                },
                rule + " With b = floor(log2 N), only the first 2^b endpoints take part, ids written on b bits "
                       "(bit b-1 most significant); endpoints 2^b..N-1 send nothing and are reported as idle. "
                       "Fixed points (ids the permutation maps to themselves) would be self flows: they are "
                       "dropped and counted in the report. Every participating endpoint receives at most one "
                       "flow. INRFlow paper §3.3.1; Dally & Towles §3.2."});
}

}  // namespace

void register_bit_permutations(PatternRegistry& registry) {
  add_bit_permutation(registry, "shuffle", BitPermutation::Shuffle,
                      "perfect shuffle: destination id = source id rotated left by one bit",
                      "d_i = s_{(i-1) mod b}: the b-bit id rotated left by one (N=8: 5=101 -> 011=3).");
  add_bit_permutation(registry, "bitreverse", BitPermutation::Reverse,
                      "bit reversal: destination id = source id with its bits in reverse order",
                      "d_i = s_{b-1-i} (N=8: 1=001 -> 100=4). Palindromic ids are fixed points.");
  add_bit_permutation(registry, "transpose", BitPermutation::Transpose,
                      "bit transpose: destination id = source id with its upper and lower bit halves swapped",
                      "The b-bit id rotated left by floor(b/2): for even b this swaps the upper and lower "
                      "halves, i.e. transposes a 2^(b/2) x 2^(b/2) matrix of endpoints (N=16: 3=0011 -> "
                      "1100=12); for odd b it is the rotation by floor(b/2), a documented generalisation.");
  add_bit_permutation(registry, "complement", BitPermutation::Complement,
                      "bit complement: destination id = bitwise NOT of the source id",
                      "d_i = NOT s_i (N=8: 2=010 -> 101=5). It has no fixed points.");
}

}  // namespace interflow::workloads
