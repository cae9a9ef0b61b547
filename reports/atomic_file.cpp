#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "reports/interrupt_cleanup.hpp"

namespace gputco {

ReportError::ReportError(const std::string& path, const std::string& reason)
    : std::runtime_error("cannot write " + path + ": " + reason), path_(path), reason_(reason) {}

namespace {

std::string errno_text(int error) {
  return std::strerror(error);
}

/// What a file that is neither regular nor a link is, for the refusal; nullptr for those two.
const char* special_kind(mode_t mode) {
  if (S_ISREG(mode) || S_ISLNK(mode)) return nullptr;
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Refuses a destination that exists and is neither a regular file nor a link.
void refuse_special(const std::string& path, const struct stat& info) {
  if (const char* kind = special_kind(info.st_mode)) {
    throw OutputRefused(path, std::string("it is ") + kind +
                                  ", not a regular file; give the name of a file to write");
  }
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/// Removes the temporary files ".NAME.tmp-PID-N" that a process killed while writing `target`
/// left next to it (SIGKILL, a power cut: no handler runs), as editors remove a dead
/// session's swap file: only regular files of this user whose process PID no longer exists
/// (kill(PID, 0) answers ESRCH), never this process's own. Best effort: what cannot be read
/// or removed is left. A folder shared between machines could hold a live process's file of
/// another machine under a PID that is dead here: its write then fails to rename, with a
/// message, and can be run again.
void remove_stale_temporaries(const std::filesystem::path& directory, const std::string& stem) {
  const std::string prefix = "." + stem + ".tmp-";
  std::error_code ec;
  std::filesystem::directory_iterator it(directory, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    // PID-N: digits, a dash, digits.
    const std::string rest = name.substr(prefix.size());
    const auto dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash > 9 || dash + 1 == rest.size() ||
        rest.find_first_not_of("0123456789-") != std::string::npos ||
        rest.find('-', dash + 1) != std::string::npos) {
      continue;
    }
    const auto pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
    if (pid <= 0 || pid == ::getpid()) continue;
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
        info.st_uid != ::geteuid()) {
      continue;
    }
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    ::unlink(it->path().c_str());
  }
}

/// Creates an empty, uniquely named file in `directory` and returns its path.
/// O_EXCL makes the name ours (and never follows a link planted under that name); mode 0666
/// lets the umask decide permissions, as for any file the user creates (mkstemp would force
/// 0600). `existing` is the destination's lstat when it is a regular file: its permissions
/// are kept (a shared report stays shared).
std::string create_temp_next_to(const std::filesystem::path& target, const std::string& shown,
                                const struct stat* existing) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // Keep the temporary name within NAME_MAX however long the target's name is.
  std::string stem = target.filename().string().substr(0, 180);
  remove_stale_temporaries(directory, stem);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = "." + stem + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1));
    const std::string candidate = (directory / name).string();
    const int fd =
        ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      if (existing != nullptr) ::fchmod(fd, existing->st_mode & 07777);
      ::close(fd);
      return candidate;
    }
    if (errno != EEXIST) {
      throw ReportError(shown, "cannot create a temporary file in " + directory.string() + ": " +
                                   errno_text(errno));
    }
  }
  throw ReportError(shown, "cannot find a free temporary file name in " + directory.string());
}

/// Flushes a file's data to disk so that the rename never publishes an empty file.
void sync_file(const std::string& file, const std::string& shown) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw ReportError(shown, "cannot reopen the temporary file: " + errno_text(errno));
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (synced != 0) throw ReportError(shown, "cannot flush to disk: " + errno_text(error));
}

/// Flushes the directory entry of the rename; best effort (some file systems refuse).
void sync_directory(const std::filesystem::path& target) {
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The test hook documented in atomic_file.hpp.
void fault_injection_pause() {
  const char* sleep_ms = std::getenv("GPUTCO_FAULT_WRITE_SLEEP_MS");
  if (sleep_ms == nullptr) return;
  if (const char* marker = std::getenv("GPUTCO_FAULT_WRITE_MARKER")) {
    std::ofstream(marker) << "the temporary file is written\n";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(sleep_ms)));
}

}  // namespace

/// Removes the temporary file unless released: every early exit cleans up, and so does an
/// interrupting signal (interrupt_cleanup.hpp).
class StagedFile::Temp {
 public:
  explicit Temp(std::string path) : path_(std::move(path)), slot_(remove_on_interrupt(path_)) {}
  Temp(const Temp&) = delete;
  Temp& operator=(const Temp&) = delete;
  ~Temp() {
    if (!path_.empty()) ::unlink(path_.c_str());
    forget_on_interrupt(slot_);
  }
  const std::string& path() const { return path_; }
  void release() {
    path_.clear();
    forget_on_interrupt(slot_);
    slot_ = -1;
  }

 private:
  std::string path_;
  int slot_;
};

void check_output_path(const std::string& path, const std::vector<CommandInput>& inputs) {
  struct stat destination {};
  if (path.empty() || ::lstat(path.c_str(), &destination) != 0) return;  // the write says why
  refuse_special(path, destination);
  // The link itself would be replaced, not its target; a link to an input is still refused:
  // whoever typed it meant to write somewhere else.
  struct stat target = destination;
  const bool is_link = S_ISLNK(destination.st_mode);
  const bool has_target = !is_link || ::stat(path.c_str(), &target) == 0;
  for (const CommandInput& input : inputs) {
    struct stat source {};
    if (input.path.empty() || input.path == "-" || ::stat(input.path.c_str(), &source) != 0) {
      continue;
    }
    if (same_file(destination, source) || (has_target && same_file(target, source))) {
      throw OutputRefused(path, std::string(is_link ? "it is a symbolic link to " : "it is ") +
                                    input.role + " (" + input.path +
                                    "), an input of this command; give another output name");
    }
  }
}

StagedFile::StagedFile(const std::string& path,
                       const std::function<void(const std::string& temp_path)>& write)
    : path_(path) {
  if (path.empty()) throw ReportError(path, "empty file name");
  struct stat existing {};
  const bool exists = ::lstat(path.c_str(), &existing) == 0;
  if (exists) refuse_special(path, existing);
  const bool regular = exists && S_ISREG(existing.st_mode);
  // A member: should `write` throw, its destructor removes the temporary file.
  temp_ = std::make_unique<Temp>(create_temp_next_to(path, path, regular ? &existing : nullptr));
  write(temp_->path());
  sync_file(temp_->path(), path);
}

StagedFile::StagedFile(StagedFile&& other) noexcept = default;
StagedFile& StagedFile::operator=(StagedFile&& other) noexcept = default;
StagedFile::~StagedFile() = default;

void StagedFile::commit() {
  if (!temp_) throw std::logic_error("StagedFile::commit: " + path_ + " is not staged");
  fault_injection_pause();
  // Checked again just before the rename: a directory or a FIFO put there meanwhile is
  // refused, not replaced (rename(2) itself replaces a link, never what it points to).
  struct stat existing {};
  if (::lstat(path_.c_str(), &existing) == 0) refuse_special(path_, existing);
  if (::rename(temp_->path().c_str(), path_.c_str()) != 0) {
    throw ReportError(path_, errno_text(errno));
  }
  temp_->release();
  temp_.reset();
  sync_directory(path_);
}

void write_file_atomically(const std::string& path,
                           const std::function<void(const std::string& temp_path)>& write) {
  StagedFile(path, write).commit();
}

StagedFile stage_text_file(const std::string& path, std::string_view content) {
  return StagedFile(path, [&](const std::string& temp_path) {
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) throw ReportError(path, "cannot open the temporary file: " + errno_text(errno));
    std::string_view rest = content;
    while (!rest.empty()) {
      const ssize_t written = ::write(fd, rest.data(), rest.size());
      if (written < 0) {
        if (errno == EINTR) continue;
        const int error = errno;
        ::close(fd);
        throw ReportError(path, errno_text(error));
      }
      rest.remove_prefix(static_cast<size_t>(written));
    }
    if (::close(fd) != 0) throw ReportError(path, errno_text(errno));
  });
}

void write_text_file_atomically(const std::string& path, std::string_view content) {
  stage_text_file(path, content).commit();
}

}  // namespace gputco
