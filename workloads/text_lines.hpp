#pragma once
// A streaming reader of line-oriented text files for the trace readers: one line in memory at a time,
// comments ('#' or '//' to the end of the line) and blank lines skipped, whitespace-separated tokens,
// and errors that name the file, the line and what was expected.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace interflow::workloads {

class TextLines {
 public:
  // Opens `path`; InputError "path: cannot read the <what>" if it cannot.
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

  // Numbers from tokens; fail naming `what` unless the whole token is one.
  std::uint64_t whole(std::string_view token, const char* what) const;
  double real(std::string_view token, const char* what) const;

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
