#pragma once
// A streaming reader of line-oriented text files for the trace readers: one line in memory at a time,
// comments ('#' or '//' to the end of the line) and blank lines skipped, whitespace-separated tokens,
// and errors that name the file, the line and what was expected.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace interflow::workloads {

// The largest values the readers take from a file (manual/traces.md, manual/dynamic.md). No trace
// comes near an exabyte message or a time of 31,700 years; the bounds keep every product and sum the
// engine forms of them (8 × bytes bits, start + duration) finite, so an absurd value is refused where
// it is read instead of turning into an infinite or NaN result later.
inline constexpr double kMaxFileBytes = 1e18;
inline constexpr double kMaxFileSeconds = 1e12;

class TextLines {
 public:
  // Opens `path` (open_input): InputError "<what> '<path>': cannot read: <reason>" or "is a
  // directory, not a file" if it cannot.
  TextLines(const std::string& path, const std::string& what);

  // Moves to the next line with content; false at the end of the file.
  bool next();
  std::size_t line_number() const { return number_; }
  const std::string& path() const { return path_; }

  // The next token of the current line (empty when none is left) and whether any is left.
  std::string_view token();
  bool at_end();
  // The next token, which must exist: fails naming `expected` otherwise.
  std::string_view expect(const char* expected);
  // Fails unless the line has no token left.
  void expect_end(const char* after);

  // Numbers from tokens; fail naming `what` unless the whole token is one: a whole number
  // 0..2^64-1, a finite real >= 0 (-0 reads as 0).
  std::uint64_t whole(std::string_view token, const char* what) const;
  double real(std::string_view token, const char* what) const;
  // A size in bytes: a real in 0..kMaxFileBytes.
  double bytes(std::string_view token, const char* what) const;
  // A time in units of `unit_s` seconds: a real whose value in seconds is at most kMaxFileSeconds.
  // Returned in its units (the caller scales it).
  double time(std::string_view token, double unit_s, const char* what) const;

  // Throws InputError "path:line: message".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string path_;
  std::ifstream in_;
  std::string line_;
  std::string_view rest_;
  std::size_t number_ = 0;
};

}  // namespace interflow::workloads
