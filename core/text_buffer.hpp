#pragma once
// Text built in a buffer and written to a stream in large blocks, for result files of millions of
// rows: no stream operation (sentry, locale, virtual call) per value. Numbers as core/format.hpp
// writes them: the shortest decimal form that reads back as the same double (std::to_chars), nothing
// for a value that is not finite (an empty CSV cell).
#include <cstdint>
#include <functional>
#include <ostream>
#include <string_view>
#include <vector>

namespace interflow {

class TextBuffer {
 public:
  explicit TextBuffer(std::ostream& out, std::size_t block = std::size_t{1} << 20);
  TextBuffer();  // in memory: grows as needed, never written (view(), clear())
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;
  ~TextBuffer();  // writes what is left (the stream's state tells whether it could)

  TextBuffer& text(std::string_view s);
  TextBuffer& put(char c) {
    reserve(1);
    buf_[used_++] = c;
    return *this;
  }
  TextBuffer& integer(std::uint64_t v);
  TextBuffer& number(double v);
  void flush();  // hands the buffer to the stream (in memory: nothing)
  std::string_view view() const { return {buf_.data(), used_}; }
  void clear() { used_ = 0; }

 private:
  void reserve(std::size_t n) {  // room for n more characters
    if (used_ + n > buf_.size()) make_room(n);
  }
  void make_room(std::size_t n);
  std::ostream* out_ = nullptr;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

// Rows 0..rows-1 written to `out` in order, formatted a chunk at a time by oneTBB workers: format(text,
// first, last) appends rows [first, last) to text. The file is the same for any thread count (the
// chunks are written in order); at most a few chunks per worker are in memory at once.
void write_rows(std::ostream& out, std::size_t rows,
                const std::function<void(TextBuffer& text, std::size_t first, std::size_t last)>& format,
                std::size_t chunk = std::size_t{1} << 12);

}  // namespace interflow
