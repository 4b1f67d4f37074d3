// INRFlow's plain trace format (s, r and c lines, FSIN field order) read into an operation graph.
#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "workloads/text_lines.hpp"
#include "workloads/traces.hpp"

namespace interflow::workloads {

namespace {

// Reads every line, calling add(kind, rank, peer, tag, bytes_or_time) with the event's own rank first.
template <typename Add>
void read_events(const std::string& path, const TrcOptions& options, Add&& add) {
  TextLines in(path, "INRFlow trace");
  while (in.next()) {
    const std::string_view kind = in.token();
    if (kind == "c") {
      const std::uint64_t rank = in.whole(in.expect("a rank"), "rank");
      const double time = in.time(in.expect("a computation time"), options.compute_unit_s, "computation time");
      in.expect_end("the computation time");
      add(in, 'c', rank, std::uint64_t{0}, std::uint64_t{0}, time * options.compute_unit_s);
      continue;
    }
    if (kind != "s" && kind != "r") in.fail("expected an s, r or c line, found '" + std::string(kind) + "'");
    std::uint64_t a = in.whole(in.expect(options.swapped ? "the receiver" : "the sender"), "rank");
    std::uint64_t b = in.whole(in.expect(options.swapped ? "the sender" : "the receiver"), "rank");
    if (options.swapped) std::swap(a, b);  // now a = sender, b = receiver
    const std::uint64_t tag = in.whole(in.expect("a tag"), "tag");
    if (tag >= (1u << 30)) in.fail("tag " + std::to_string(tag) + " is 2^30 or more");
    const double bytes = in.bytes(in.expect("a size in bytes"), "size");
    in.expect_end("the size");
    if (kind == "s")
      add(in, 's', a, b, tag, bytes);
    else
      add(in, 'r', b, a, tag, bytes);
  }
}

}  // namespace

OpGraph read_trc(const std::string& path, const TrcOptions& options) {
  std::uint64_t ranks = options.ranks;
  if (ranks == 0)  // a first pass for the largest rank named
    read_events(path, options, [&](TextLines& in, char, std::uint64_t rank, std::uint64_t peer, std::uint64_t, double) {
      if (std::max(rank, peer) >= options.max_ranks)
        in.fail("rank " + std::to_string(std::max(rank, peer)) + " is beyond the " + std::to_string(options.max_ranks) +
                " ranks that fit (the endpoints free for the trace)");
      ranks = std::max({ranks, rank + 1, peer + 1});
    });
  if (ranks == 0) throw InputError(path + ": the trace has no events");
  if (ranks > options.max_ranks)
    throw InputError(path + ": names rank " + std::to_string(ranks - 1) + " but at most " +
                     std::to_string(options.max_ranks) + " ranks fit (the endpoints free for the trace)");
  ProgramBuilder b(static_cast<std::uint32_t>(ranks));
  read_events(path, options,
              [&](TextLines& in, char kind, std::uint64_t rank, std::uint64_t peer, std::uint64_t tag, double value) {
                if (rank >= ranks || peer >= ranks)
                  in.fail("rank " + std::to_string(std::max(rank, peer)) + " is beyond the trace's " +
                          std::to_string(ranks) + " ranks");
                const auto r = static_cast<std::uint32_t>(rank), p = static_cast<std::uint32_t>(peer);
                if (kind == 'c')
                  b.compute(r, value);
                else if (kind == 's')
                  b.isend(r, p, value, static_cast<std::uint32_t>(tag));
                else
                  b.recv(r, p, value, static_cast<std::uint32_t>(tag));
              });
  return graph_of(b.build(), path);
}

}  // namespace interflow::workloads
