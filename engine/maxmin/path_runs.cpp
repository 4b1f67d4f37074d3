#include "engine/maxmin/path_runs.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

namespace interflow::maxmin {

namespace {

constexpr std::uint32_t kChunk = 1 << 14;  // variables per parallel task

std::uint64_t zigzag(std::int64_t d) {
  return (static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63);
}

// Calls token(step, count) for each run of `path`, greedily from its start: the step from the
// previous link, and how many links repeat it.
template <class Token>
void for_each_run(std::span<const LinkId> path, Token&& token) {
  std::int64_t prev = 0;
  for (std::size_t i = 0; i < path.size();) {
    const std::int64_t step = static_cast<std::int64_t>(path[i]) - prev;
    std::size_t count = 1;
    while (i + count < path.size() &&
           static_cast<std::int64_t>(path[i + count]) - static_cast<std::int64_t>(path[i + count - 1]) == step)
      ++count;
    token(step, count);
    i += count;
    prev = static_cast<std::int64_t>(path[i - 1]);
  }
}

std::uint64_t varint_bytes(std::uint64_t value) {
  std::uint64_t n = 1;
  for (; value >= 0x80; value >>= 7) ++n;
  return n;
}

std::uint8_t* write_varint(std::uint8_t* out, std::uint64_t value) {
  for (; value >= 0x80; value >>= 7) *out++ = static_cast<std::uint8_t>(value | 0x80);
  *out++ = static_cast<std::uint8_t>(value);
  return out;
}

std::uint64_t token_head(std::int64_t step, std::size_t count) { return zigzag(step) << 1 | (count > 1 ? 1 : 0); }

}  // namespace

std::uint64_t PathRuns::encoded_bytes(std::span<const LinkId> path) {
  std::uint64_t bytes = 0;
  for_each_run(path, [&](std::int64_t step, std::size_t count) {
    bytes += varint_bytes(token_head(step, count)) + (count > 1 ? varint_bytes(count - 2) : 0);
  });
  return bytes;
}

PathRuns PathRuns::encode(std::span<const std::uint64_t> var_offsets, std::span<const LinkId> links) {
  return *encode_within(var_offsets, links, ~std::uint64_t{0});
}

std::optional<PathRuns> PathRuns::encode_within(std::span<const std::uint64_t> var_offsets,
                                                std::span<const LinkId> links, std::uint64_t max_bytes) {
  if (var_offsets.empty()) throw std::invalid_argument("PathRuns: var_offsets needs one entry per variable plus one");
  const std::size_t num_vars = var_offsets.size() - 1;
  const auto path = [&](std::size_t v) {
    return links.subspan(var_offsets[v], var_offsets[v + 1] - var_offsets[v]);
  };
  const std::size_t chunks = (num_vars + kChunk - 1) / kChunk;
  const auto for_each_var = [&](auto&& body) {
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
      for (std::size_t v = c * kChunk; v < std::min(num_vars, (c + 1) * kChunk); ++v) body(v);
    });
  };
  PathRuns runs;
  runs.first_byte_.assign(num_vars + 1, 0);
  for_each_var([&](std::size_t v) { runs.first_byte_[v + 1] = encoded_bytes(path(v)); });
  for (std::size_t v = 0; v < num_vars; ++v) runs.first_byte_[v + 1] += runs.first_byte_[v];
  const std::uint64_t total = runs.first_byte_[num_vars] + (num_vars + 1) * sizeof(std::uint64_t) +
                              num_vars * sizeof(std::uint32_t);
  if (total > max_bytes) return std::nullopt;
  runs.length_.resize(num_vars);
  runs.bytes_.resize(runs.first_byte_[num_vars]);
  for_each_var([&](std::size_t v) {
    runs.length_[v] = static_cast<std::uint32_t>(path(v).size());
    std::uint8_t* out = runs.bytes_.data() + runs.first_byte_[v];
    for_each_run(path(v), [&](std::int64_t step, std::size_t count) {
      out = write_varint(out, token_head(step, count));
      if (count > 1) out = write_varint(out, count - 2);
    });
  });
  return runs;
}

}  // namespace interflow::maxmin
