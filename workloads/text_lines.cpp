#include "workloads/text_lines.hpp"

#include <charconv>
#include <cmath>

#include "core/error.hpp"

namespace interflow::workloads {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

TextLines::TextLines(const std::string& path, const std::string& what) : path_(path), in_(path) {
  if (!in_) throw InputError(path + ": cannot read the " + what);
}

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
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    fail(std::string(what) + " '" + std::string(t) + "' is not a whole number >= 0");
  return v;
}

double TextLines::real(std::string_view t, const char* what) const {
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v) || v < 0)
    fail(std::string(what) + " '" + std::string(t) + "' is not a finite number >= 0");
  return v;
}

void TextLines::fail(const std::string& message) const {
  throw InputError(path_ + ":" + std::to_string(number_) + ": " + message);
}

}  // namespace interflow::workloads
