#pragma once
// Text built in a buffer and written to a stream in large blocks, for result files of millions of
// rows: no stream operation (sentry, locale, virtual call) per value. Numbers as core/format.hpp
// writes them: the shortest decimal form that reads back as the same double (std::to_chars), nothing
// for a value that is not finite (an empty CSV cell).
#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace interflow {

class TextBuffer {
 public:
  explicit TextBuffer(std::ostream& out, std::size_t block = std::size_t{1} << 20);
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
  void flush();  // hands the buffer to the stream

 private:
  void reserve(std::size_t n) {  // room for n more characters
    if (used_ + n > buf_.size()) flush();
  }
  std::ostream& out_;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

}  // namespace interflow
