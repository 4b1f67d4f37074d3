#include "core/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "core/error.hpp"

namespace interflow {

namespace {

std::string reason(int error) { return std::strerror(error); }

}  // namespace

void check_readable(const std::string& path, const std::string& what) {
  const std::string name = what + " '" + path + "'";
  if (path.empty()) throw InputError(what + ": no file named");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(name + ": cannot read: " + reason(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(name + ": is a directory, not a file");
  if (::access(path.c_str(), R_OK) != 0) throw InputError(name + ": cannot read: " + reason(errno));
}

std::ifstream open_input(const std::string& path, const std::string& what) {
  check_readable(path, what);
  errno = 0;
  std::ifstream in(path);
  if (!in) throw InputError(what + " '" + path + "': cannot read: " + reason(errno != 0 ? errno : EIO));
  return in;
}

FileBuffer::~FileBuffer() {
  if (fd_ >= 0) ::close(fd_);
}

bool FileBuffer::open(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) error_ = errno;
  return fd_ >= 0;
}

bool FileBuffer::drain() {
  const char* p = pbase();
  while (p < pptr()) {
    const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (error_ == 0) error_ = n < 0 ? errno : EIO;
      setp(buffer_, buffer_ + sizeof buffer_);
      return false;
    }
    p += n;
  }
  setp(buffer_, buffer_ + sizeof buffer_);
  return true;
}

FileBuffer::int_type FileBuffer::overflow(int_type c) {
  if (fd_ < 0 || error_ != 0 || !drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int FileBuffer::sync() { return fd_ >= 0 && error_ == 0 && drain() ? 0 : -1; }

bool FileBuffer::close() {
  if (fd_ < 0) return error_ == 0;
  const bool drained = error_ == 0 && drain();
  if (::close(fd_) != 0 && error_ == 0) error_ = errno;
  fd_ = -1;
  return drained && error_ == 0;
}

OutputFile::OutputFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw InputError(what_ + ": no file named");
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(what_ + " '" + path_ + "': is a directory, not a file");
    in_place_ = !S_ISREG(st.st_mode);  // a device or a pipe: written where it is
  }
  temp_ = in_place_ ? path_ : path_ + ".partial-" + std::to_string(::getpid());
  buffer_ = std::make_unique<FileBuffer>();
  if (!buffer_->open(temp_)) {
    committed_ = true;  // nothing to remove
    throw OutputError(what_ + " '" + path_ + "': cannot create: " + reason(buffer_->error()));
  }
  out_.rdbuf(buffer_.get());
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (buffer_) buffer_->close();
  if (!in_place_) std::remove(temp_.c_str());
}

void OutputFile::fail(const std::string& why) {
  if (buffer_) buffer_->close();
  if (!in_place_ && !temp_.empty()) std::remove(temp_.c_str());
  committed_ = true;
  throw OutputError(what_ + " '" + path_ + "': " + why);
}

void OutputFile::commit() {
  if (committed_) return;
  out_.flush();
  if (!buffer_->close() || !out_) fail("write failed: " + reason(buffer_->error() != 0 ? buffer_->error() : EIO));
  if (!in_place_ && std::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename into place: " + reason(errno));
  committed_ = true;
}

void check_stdout() {
  errno = 0;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    throw OutputError("standard output: write failed: " + reason(errno != 0 ? errno : EIO));
}

}  // namespace interflow
