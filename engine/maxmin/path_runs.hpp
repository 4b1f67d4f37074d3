#pragma once
// Path variables stored as runs of link ids that step by a constant: a compact, read-only copy of
// a PathTable's links for the static solver, so that the table (4 bytes per link of every path) can
// be freed before the solver allocates its own arrays.
//
// Why runs: a link's id is its position in the network's CSR arrays (core/network.hpp), and
// arithmetic routings walk ids with constant strides. A dimension-order path on a torus crosses the
// same port of consecutive routers, whose ids differ by the (constant) router degree, so each
// dimension is one or two runs: a 1M-endpoint 128x128x64 torus path of 80 links takes about 20
// bytes instead of 320. Paths without such structure (a fat tree's up and down links) cost about
// what they cost before, one varint per link.
//
// Format, per variable: a sequence of tokens, each one or two LEB128 varints. The first is
// (zigzag(d) << 1) | r, where d is the step from the previous link (from 0 for the first link of
// the path); if r = 1 a second varint holds c - 2, and the token stands for c >= 2 links
// prev + d, prev + 2d, ..., prev + c*d, else for the single link prev + d. Decoding therefore
// yields exactly the encoded sequence, in order (tests/engine/path_runs.cpp checks it on every
// topology and routing), so a solver reading it does the same arithmetic in the same order as one
// reading the table, and its results are bit-identical.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/fill_later.hpp"
#include "core/types.hpp"

namespace interflow::maxmin {

class PathRuns {
 public:
  // Encodes the variables of (var_offsets, links): var_offsets has one entry per variable plus one.
  // Encoding is parallel over fixed chunks of variables; the bytes do not depend on the threads.
  static PathRuns encode(std::span<const std::uint64_t> var_offsets, std::span<const LinkId> links);
  // The same, unless the encoding would take more than max_bytes (memory_bytes()): then nothing is
  // written and the result is empty. One parallel pass measures it first.
  static std::optional<PathRuns> encode_within(std::span<const std::uint64_t> var_offsets,
                                               std::span<const LinkId> links, std::uint64_t max_bytes);

  std::uint32_t num_vars() const { return static_cast<std::uint32_t>(first_byte_.size()) - 1; }
  bool empty(std::uint32_t v) const { return first_byte_[v] == first_byte_[v + 1]; }
  std::uint32_t length(std::uint32_t v) const { return length_[v]; }  // links of variable v
  std::size_t memory_bytes() const {
    return first_byte_.capacity() * sizeof(std::uint64_t) + bytes_.capacity() +
           length_.capacity() * sizeof(std::uint32_t);
  }

  // Calls f(link) for every link of variable v, in path order.
  template <class F>
  void for_each(std::uint32_t v, F&& f) const {
    for_each_token(v, [&](std::uint64_t link, std::uint64_t step, std::uint64_t count) {
      for (; count > 0; --count) f(static_cast<LinkId>(link += step));
    });
  }

  // Calls f(link) for the links of variable v within [lo, hi), in path order. A run wholly outside
  // the range is stepped over without visiting its links (the solver's workers each own a range).
  template <class F>
  void for_each_in(std::uint32_t v, LinkId lo, LinkId hi, F&& f) const {
    for_each_token(v, [&](std::uint64_t link, std::uint64_t step, std::uint64_t count) {
      const auto first = static_cast<LinkId>(link + step), last = static_cast<LinkId>(link + step * count);
      if ((first < lo && last < lo) || (first >= hi && last >= hi)) return;  // a run is monotone
      for (; count > 0; --count)
        if (const auto l = static_cast<LinkId>(link += step); l >= lo && l < hi) f(l);
    });
  }

  // Bytes the encoding of one path takes (the memory estimate uses it on a sample).
  static std::uint64_t encoded_bytes(std::span<const LinkId> path);

 private:
  // Calls run(previous link, step, count) for each token of variable v: the links previous + step,
  // previous + 2 step, ..., previous + count step (modulo 2^64, so negative steps wrap back).
  template <class Run>
  void for_each_token(std::uint32_t v, Run&& run) const {
    const std::uint8_t* p = bytes_.data() + first_byte_[v];
    const std::uint8_t* const end = bytes_.data() + first_byte_[v + 1];
    std::uint64_t link = 0;
    while (p < end) {
      const std::uint64_t token = read_varint(p);
      const std::uint64_t step = unzigzag(token >> 1);
      const std::uint64_t count = (token & 1) ? read_varint(p) + 2 : 1;
      run(link, step, count);
      link += step * count;
    }
  }

  static std::uint64_t read_varint(const std::uint8_t*& p) {
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const std::uint8_t byte = *p++;
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
  }
  static std::uint64_t unzigzag(std::uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

  std::vector<std::uint64_t> first_byte_{0};  // per variable, size V+1
  FillLaterVector<std::uint8_t> bytes_;  // resize() leaves it unwritten: encode() fills every byte
  std::vector<std::uint32_t> length_;     // links per variable
};

}  // namespace interflow::maxmin
