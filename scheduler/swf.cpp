#include "scheduler/swf.hpp"

#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "core/error.hpp"
#include "core/io.hpp"

namespace interflow::scheduler {

namespace {

// gzip or plain text, one line at a time (zlib reads uncompressed files transparently).
class GzLines {
 public:
  explicit GzLines(const std::string& path) : path_(path) {
    // gzopen opens a directory and fails only at the first read, and keeps no reason: checked first.
    check_readable(path, "SWF log");
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (!file_) throw InputError("SWF log '" + path + "': cannot read: " + std::strerror(errno != 0 ? errno : ENOMEM));
    gzbuffer(file_, 1 << 18);
  }
  ~GzLines() { gzclose(file_); }
  GzLines(const GzLines&) = delete;
  GzLines& operator=(const GzLines&) = delete;

  // The next line without its end of line; false at the end.
  bool next(std::string& line) {
    line.clear();
    char buf[4096];
    for (;;) {
      if (!gzgets(file_, buf, sizeof buf)) {
        int code = 0;
        const char* message = gzerror(file_, &code);
        if (code != Z_OK && code != Z_STREAM_END)
          throw InputError(path_ + ":" + std::to_string(number_ + 1) + ": cannot decompress: " + message);
        if (line.empty()) return false;
        break;
      }
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    ++number_;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return true;
  }
  std::uint64_t number() const { return number_; }

 private:
  std::string path_;
  gzFile file_ = nullptr;
  std::uint64_t number_ = 0;
};

bool space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Fields are read as doubles: from 2^53 on a whole number may have been rounded (9007199254740993
// reads as 9007199254740992), so an id or count there is refused; no time in seconds comes near it
// (285 million years).
constexpr double kFieldLimit = 9007199254740992.0;  // 2^53, the first value refused
constexpr double kMaxProcessors = 4294967295.0;     // a job's size is held in 32 bits

bool whole_field(int k) { return k == 0 || k == 4 || k == 7 || (k >= 10 && k <= 16); }
bool processor_field(int k) { return k == 4 || k == 7; }

// Why field k's value v is out of range, or "" when it is valid: -1 (unknown) or a number in
// 0..2^53-1, whole where the format counts or numbers something, a processor count in 32 bits.
std::string field_problem(int k, double v) {
  if (v == -1) return "";
  if (v < 0) return "is negative; SWF writes -1 for unknown";
  if (v >= kFieldLimit) return "is 2^53 = 9007199254740992 or more";
  if (whole_field(k) && v != std::floor(v)) return "is not a whole number";
  if (processor_field(k) && v > kMaxProcessors) return "is beyond 4294967295 processors";
  return "";
}

// The value of "<key>: <n>" in a header line ("; MaxProcs: 128" -> 128), -1 when the line does not give
// the key (or gives -1 or 0 for unknown); fails naming the line for a value that is not a whole number
// 1..2^32-1.
std::int64_t header_value(std::string_view line, std::string_view key, const std::string& where) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return -1;
  std::string_view rest = line.substr(at + key.size());
  while (!rest.empty() && space(rest.front())) rest.remove_prefix(1);
  if (rest.empty() || rest.front() != ':') return -1;  // prose that mentions the key, or a longer key
  rest.remove_prefix(1);
  while (!rest.empty() && space(rest.front())) rest.remove_prefix(1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  const bool ends = end == rest.data() + rest.size() || space(*end);
  if (ec != std::errc() || !ends || v < -1 || v > 4294967295LL) {
    std::size_t length = 0;
    while (length < rest.size() && !space(rest[length])) ++length;
    throw InputError(where + std::string(key) + " '" + std::string(rest.substr(0, length)) +
                     "' is not a whole number in 1..4294967295 (or -1 for unknown)");
  }
  return v;
}

}  // namespace

SwfLog read_swf(const std::string& path) {
  GzLines in(path);
  SwfLog log;
  std::string line;
  double fields[18];
  const char* names[18] = {"job number",
                           "submit time",
                           "wait time",
                           "run time",
                           "allocated processors",
                           "average CPU time",
                           "used memory",
                           "requested processors",
                           "requested time",
                           "requested memory",
                           "status",
                           "user id",
                           "group id",
                           "executable number",
                           "queue number",
                           "partition number",
                           "preceding job number",
                           "think time"};
  while (in.next(line)) {
    std::string_view text = line;
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    if (text.empty()) continue;
    const std::string where = path + ":" + std::to_string(in.number()) + ": ";
    if (text.front() == ';') {
      if (const std::int64_t v = header_value(text, "MaxProcs", where); v > 0) log.max_procs = v;
      if (const std::int64_t v = header_value(text, "MaxNodes", where); v > 0) log.max_nodes = v;
      continue;
    }
    int count = 0;
    while (!text.empty()) {
      std::size_t end = 0;
      while (end < text.size() && !space(text[end])) ++end;
      if (count == 18) throw InputError(where + "more than the 18 fields of an SWF job line");
      const std::string_view token = text.substr(0, end);
      double v = 0;
      const auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      const auto fail = [&](const std::string& problem) {
        throw InputError(where + "field " + std::to_string(count + 1) + " (" + names[count] + ") '" +
                         std::string(token) + "' " + problem);
      };
      // from_chars reads "nan" and "inf" as numbers and reports "1e999" as out of range: all refused.
      if (ec != std::errc() || stop != token.data() + token.size() || !std::isfinite(v)) fail("is not a finite number");
      if (const std::string problem = field_problem(count, v); !problem.empty()) fail(problem);
      fields[count++] = v;
      text.remove_prefix(end);
      while (!text.empty() && space(text.front())) text.remove_prefix(1);
    }
    if (count != 18)
      throw InputError(where + "expected the 18 fields of an SWF job line, found " + std::to_string(count));
    SwfRecord r;
    const auto whole = [&](int k) { return static_cast<std::int64_t>(fields[k]); };  // checked whole above
    r.job = whole(0);
    r.submit = fields[1];
    r.wait = fields[2];
    r.run = fields[3];
    r.allocated = whole(4);
    r.cpu = fields[5];
    r.memory = fields[6];
    r.requested = whole(7);
    r.requested_time = fields[8];
    r.requested_memory = fields[9];
    r.status = whole(10);
    r.user = whole(11);
    r.group = whole(12);
    r.executable = whole(13);
    r.queue = whole(14);
    r.partition = whole(15);
    r.preceding = whole(16);
    r.think = fields[17];
    r.line = in.number();
    log.records.push_back(r);
    ++log.lines;
  }
  return log;
}

}  // namespace interflow::scheduler
