#include "scheduler/swf.hpp"

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <string_view>

#include "core/error.hpp"

namespace interflow::scheduler {

namespace {

// gzip or plain text, one line at a time (zlib reads uncompressed files transparently).
class GzLines {
 public:
  explicit GzLines(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
    if (!file_) throw InputError(path + ": cannot read the SWF log");
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
  gzFile file_;
  std::uint64_t number_ = 0;
};

bool space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// "MaxProcs: 128" in a header line -> 128 (or -1).
std::int64_t header_value(std::string_view line, std::string_view key) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return -1;
  std::string_view rest = line.substr(at + key.size());
  while (!rest.empty() && (space(rest.front()) || rest.front() == ':')) rest.remove_prefix(1);
  std::int64_t v = -1;
  std::from_chars(rest.data(), rest.data() + rest.size(), v);
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
    if (text.front() == ';') {
      if (const std::int64_t v = header_value(text, "MaxProcs"); v > 0) log.max_procs = v;
      if (const std::int64_t v = header_value(text, "MaxNodes"); v > 0) log.max_nodes = v;
      continue;
    }
    const std::string where = path + ":" + std::to_string(in.number()) + ": ";
    int count = 0;
    while (!text.empty()) {
      std::size_t end = 0;
      while (end < text.size() && !space(text[end])) ++end;
      if (count == 18) throw InputError(where + "more than the 18 fields of an SWF job line");
      const std::string_view token = text.substr(0, end);
      double v = 0;
      const auto [stop, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec != std::errc() || stop != token.data() + token.size() || !std::isfinite(v))
        throw InputError(where + "field " + std::to_string(count + 1) + " (" + names[count] + ") '" +
                         std::string(token) + "' is not a number");
      fields[count++] = v;
      text.remove_prefix(end);
      while (!text.empty() && space(text.front())) text.remove_prefix(1);
    }
    if (count != 18)
      throw InputError(where + "expected the 18 fields of an SWF job line, found " + std::to_string(count));
    SwfRecord r;
    const auto whole = [&](int k) {  // integer fields; beyond +-2^62 is no real id or count
      if (std::abs(fields[k]) > 4.6e18)
        throw InputError(where + "field " + std::to_string(k + 1) + " (" + names[k] + ") is out of range");
      return static_cast<std::int64_t>(fields[k]);
    };
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
