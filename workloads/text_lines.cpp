#include "workloads/text_lines.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/io.hpp"

namespace interflow::workloads {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string unit_text(double unit_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", unit_s);
  return text;
}

}  // namespace

TextLines::TextLines(const std::string& path, const std::string& what) : path_(path), in_(open_input(path, what)) {}

bool TextLines::next() {
  while (std::getline(in_, line_)) {
    ++number_;
    std::string_view text = line_;
    const std::size_t hash = text.find('#'), slashes = text.find("//");
    text = text.substr(0, std::min(hash, slashes));
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    if (text.empty()) continue;
    rest_ = text;
    return true;
  }
  if (in_.bad()) fail("read error");
  return false;
}

std::string_view TextLines::token() {
  while (!rest_.empty() && is_space(rest_.front())) rest_.remove_prefix(1);
  std::size_t end = 0;
  while (end < rest_.size() && !is_space(rest_[end])) ++end;
  const std::string_view t = rest_.substr(0, end);
  rest_.remove_prefix(end);
  return t;
}

bool TextLines::at_end() {
  while (!rest_.empty() && is_space(rest_.front())) rest_.remove_prefix(1);
  return rest_.empty();
}

std::string_view TextLines::expect(const char* expected) {
  const std::string_view t = token();
  if (t.empty()) fail(std::string("expected ") + expected + " but the line ends");
  return t;
}

void TextLines::expect_end(const char* after) {
  if (!at_end()) fail(std::string("unexpected '") + std::string(token()) + "' after " + after);
}

std::uint64_t TextLines::whole(std::string_view t, const char* what) const {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(std::string(what) + " '" + std::string(t) + "' is too large (at most 18446744073709551615)");
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    fail(std::string(what) + " '" + std::string(t) + "' is not a whole number >= 0");
  return v;
}

double TextLines::real(std::string_view t, const char* what) const {
  // from_chars reads "nan" and "inf" as numbers and reports "1e999" as out of range: all refused.
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v) || !(v >= 0))
    fail(std::string(what) + " '" + std::string(t) + "' is not a finite number >= 0");
  return v + 0.0;  // -0 becomes 0
}

double TextLines::bytes(std::string_view t, const char* what) const {
  const double v = real(t, what);
  if (v > kMaxFileBytes) fail(std::string(what) + " '" + std::string(t) + "' is beyond 1e18 bytes");
  return v;
}

double TextLines::time(std::string_view t, double unit_s, const char* what) const {
  const double v = real(t, what);
  if (!(v * unit_s <= kMaxFileSeconds))
    fail(std::string(what) + " '" + std::string(t) + "' is beyond 1e12 s (in units of " + unit_text(unit_s) + " s)");
  return v;
}

void TextLines::fail(const std::string& message) const {
  throw InputError(path_ + ":" + std::to_string(number_) + ": " + message);
}

}  // namespace interflow::workloads
