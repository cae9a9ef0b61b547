#include "pricing/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

namespace gputco {

namespace {

/// What kind of file a non-regular st_mode is, for the message.
const char* file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

std::string too_large(std::size_t max_bytes, const std::string& size) {
  return "is larger than the limit of " + byte_size_text(max_bytes) + " (" + size + ")";
}

/// Closes a descriptor on every way out (not standard input).
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ > 2) ::close(fd_);
  }
  int get() const { return fd_; }
  /// Gives the descriptor up: no longer closed here.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

/// Reads `fd` to its end, refusing anything past `max_bytes`.
std::string read_all(int fd, std::size_t max_bytes, std::size_t expected) {
  std::string content;
  content.reserve(expected);
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
    }
    if (got == 0) return content;
    if (content.size() + static_cast<std::size_t>(got) > max_bytes) {
      throw InputFileError(too_large(max_bytes, "more than that was read"));
    }
    content.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace

bool is_standard_input(const std::string& path) {
  return path == kStandardInputName;
}

std::string byte_size_text(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024;
  constexpr std::size_t kMiB = kKiB * kKiB;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= 10 * kMiB) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
  if (bytes >= 10 * kKiB) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

namespace {

/// Opens `path` for reading as read_input_file documents, the size checked; -1 never returned.
int open_checked(const std::string& path, std::size_t max_bytes, const std::string& noun) {
  if (is_standard_input(path)) return STDIN_FILENO;
  // O_NONBLOCK: opening a FIFO without a writer returns at once (and fstat then refuses it);
  // a regular file ignores the flag.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw InputFileError("cannot open the file (does it exist?)");
    throw InputFileError(std::string("cannot open the file: ") + std::strerror(error));
  }
  Descriptor file(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputFileError("this is a directory, not a " + noun);
  if (!S_ISREG(info.st_mode)) {
    throw InputFileError(std::string("not a regular file (") + file_kind(info.st_mode) +
                         "); give a file, or - for standard input");
  }
  if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    throw InputFileError(
        too_large(max_bytes, byte_size_text(static_cast<std::size_t>(info.st_size))));
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return file.release();
}

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes,
                            const std::string& noun) {
  Descriptor file(open_checked(path, max_bytes, noun));
  std::size_t expected = 0;
  struct stat info {};
  if (file.get() != STDIN_FILENO && ::fstat(file.get(), &info) == 0) {
    expected = static_cast<std::size_t>(info.st_size);
  }
  return read_all(file.get(), max_bytes, expected);
}

std::uint64_t regular_file_size(const std::string& path, const std::string& noun) {
  if (is_standard_input(path)) {
    throw InputFileError("standard input cannot be read as a " + noun + "; give a file");
  }
  Descriptor file(open_checked(path, std::numeric_limits<std::size_t>::max(), noun));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) {
    throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
  }
  return static_cast<std::uint64_t>(info.st_size);
}

InputStream::InputStream(const std::string& path, std::size_t max_bytes, const std::string& noun)
    : fd_(open_checked(path, max_bytes, noun)), max_bytes_(max_bytes) {}

InputStream::~InputStream() {
  if (fd_ > 2) ::close(fd_);
}

std::size_t InputStream::read(char* buffer, std::size_t size) {
  for (;;) {
    const ssize_t got = ::read(fd_, buffer, size);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputFileError(std::string("cannot read the file: ") + std::strerror(errno));
    }
    read_bytes_ += static_cast<std::size_t>(got);
    if (read_bytes_ > max_bytes_) {
      throw InputFileError(too_large(max_bytes_, "more than that was read"));
    }
    return static_cast<std::size_t>(got);
  }
}

}  // namespace gputco
