#include "core/text_buffer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace interflow {

namespace {
constexpr std::size_t kLongestNumber = 32;  // a double's shortest form, or a 64-bit integer, fits
}  // namespace

TextBuffer::TextBuffer(std::ostream& out, std::size_t block)
    : out_(out), buf_(std::max(block, 4 * kLongestNumber)) {}

TextBuffer::~TextBuffer() { flush(); }

void TextBuffer::flush() {
  if (used_ > 0) out_.write(buf_.data(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

TextBuffer& TextBuffer::text(std::string_view s) {
  if (s.size() > buf_.size()) {
    flush();
    out_.write(s.data(), static_cast<std::streamsize>(s.size()));
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

}  // namespace interflow
