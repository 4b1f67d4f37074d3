#pragma once
// Files in and out, checked: no result is ever lost or wrong in silence.
//
// Input: open_input() refuses a missing file, a directory or an unreadable file with the operating
// system's reason, naming the input ("--config 'x.toml': cannot read: No such file or directory").
//
// Output: an OutputFile writes to a temporary name beside the target and renames it over the target
// only when commit() finds every byte written (a full disk, a closed pipe, a failed flush or close
// end the run with an OutputError naming the file and the reason); a file never committed is removed,
// so a partial file is never left where a result is expected. Targets that are not regular files
// (/dev/stdout, /dev/full, a FIFO) are written in place, and still checked. check_stdout() does the
// same for standard output at the end of a run.
#include <fstream>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

namespace interflow {

// Opens `path` for reading; InputError "<what> '<path>': <reason>" when it is missing, a directory or
// unreadable.
std::ifstream open_input(const std::string& path, const std::string& what);
// The same check without opening (for readers with their own open call, e.g. gzopen or igraph).
void check_readable(const std::string& path, const std::string& what);

// A stream buffer over a file descriptor that keeps the operating system's reason for the first
// write that failed (std::ofstream loses it).
class FileBuffer : public std::streambuf {
 public:
  FileBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
  ~FileBuffer() override;
  bool open(const std::string& path);  // false with error() set
  bool close();                        // flushes and closes; false with error() set
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool drain();
  int fd_ = -1, error_ = 0;
  char buffer_[1 << 16];
};

class OutputFile {
 public:
  // Starts writing `path` (in a temporary file beside it); `what` names it in errors ("--out",
  // "--write-goal"). InputError for a directory given as the file, OutputError when it cannot be
  // created.
  OutputFile(std::string path, std::string what);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return out_; }
  template <class T>
  OutputFile& operator<<(const T& v) {
    out_ << v;
    return *this;
  }
  // Flushes, closes and checks the stream, then renames the file into place; OutputError naming the
  // file and the reason when any of it fails (the temporary file is then removed).
  void commit();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& reason);
  std::string path_, what_, temp_;
  std::unique_ptr<FileBuffer> buffer_;
  std::ostream out_{nullptr};
  bool in_place_ = false, committed_ = false;
};

// Flushes standard output and checks it; OutputError "standard output: <reason>" when a write failed.
void check_stdout();

}  // namespace interflow
