#include "core/text_buffer.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <memory>

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

namespace interflow {

namespace {
constexpr std::size_t kLongestNumber = 32;  // a double's shortest form, or a 64-bit integer, fits
}  // namespace

TextBuffer::TextBuffer(std::ostream& out, std::size_t block)
    : out_(&out), buf_(std::max(block, 4 * kLongestNumber)) {}

TextBuffer::TextBuffer() : buf_(std::size_t{1} << 16) {}

TextBuffer::~TextBuffer() { flush(); }

void TextBuffer::flush() {
  if (!out_) return;
  if (used_ > 0) out_->write(buf_.data(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

void TextBuffer::make_room(std::size_t n) {
  if (out_) {
    flush();
    if (n <= buf_.size()) return;
  }
  buf_.resize(std::max(2 * buf_.size(), used_ + n));
}

TextBuffer& TextBuffer::text(std::string_view s) {
  if (out_ && s.size() > buf_.size()) {
    flush();
    out_->write(s.data(), static_cast<std::streamsize>(s.size()));
    return *this;
  }
  reserve(s.size());
  std::copy(s.begin(), s.end(), buf_.begin() + static_cast<std::ptrdiff_t>(used_));
  used_ += s.size();
  return *this;
}

TextBuffer& TextBuffer::integer(std::uint64_t v) {
  reserve(kLongestNumber);
  used_ = static_cast<std::size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
  return *this;
}

TextBuffer& TextBuffer::number(double v) {
  if (!std::isfinite(v)) return *this;
  reserve(kLongestNumber);
  used_ = static_cast<std::size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
  return *this;
}

void write_rows(std::ostream& out, std::size_t rows,
                const std::function<void(TextBuffer& text, std::size_t first, std::size_t last)>& format,
                std::size_t chunk) {
  chunk = std::max<std::size_t>(chunk, 1);
  if (rows <= chunk) {  // one chunk: straight to the stream
    TextBuffer text(out);
    format(text, 0, rows);
    return;
  }
  // Two chunks a worker keep them busy; at most 8 in memory (a chunk is about 0.5 MB of flows.csv).
  // The chunks in flight are formatted into buffers owned here, one per token: chunk i takes buffer
  // i mod tokens, which is free by then, as chunk i - tokens has left the last (in-order) stage before
  // a token lets chunk i in. What travels through the pipeline is the chunk's number alone, which
  // oneTBB passes by value: when a format throws, oneTBB cancels the pipeline without destroying the
  // items it holds, so owning pointers (or items it had to allocate) left there would leak.
  const auto workers = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  const std::size_t tokens = std::min<std::size_t>(2 * workers, 8);
  std::vector<std::unique_ptr<TextBuffer>> buffers(tokens);
  const std::size_t chunks = (rows + chunk - 1) / chunk;
  std::size_t next = 0;
  std::atomic<bool> failed = false;  // the stream failed: nothing more is formatted
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, std::size_t>(tbb::filter_mode::serial_in_order,
                                          [&](tbb::flow_control& fc) -> std::size_t {
                                            if (next >= chunks || failed.load(std::memory_order_relaxed)) {
                                              fc.stop();
                                              return 0;
                                            }
                                            return next++;
                                          }) &
          tbb::make_filter<std::size_t, std::size_t>(tbb::filter_mode::parallel,
                                                     [&](std::size_t c) {
                                                       auto& text = buffers[c % tokens];
                                                       if (!text) text = std::make_unique<TextBuffer>();
                                                       text->clear();
                                                       format(*text, c * chunk, std::min(rows, (c + 1) * chunk));
                                                       return c;
                                                     }) &
          tbb::make_filter<std::size_t, void>(tbb::filter_mode::serial_in_order, [&](std::size_t c) {
            const std::string_view s = buffers[c % tokens]->view();
            out.write(s.data(), static_cast<std::streamsize>(s.size()));
            if (!out) failed.store(true, std::memory_order_relaxed);
          }));
}

}  // namespace interflow
