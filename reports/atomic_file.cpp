#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gputco {

ReportError::ReportError(const std::string& path, const std::string& reason)
    : std::runtime_error("cannot write " + path + ": " + reason), path_(path), reason_(reason) {}

namespace {

std::string errno_text(int error) {
  return std::strerror(error);
}

/// Removes the temporary file unless released: every early exit cleans up.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }
  void release() { path_.clear(); }

 private:
  std::string path_;
};

/// Creates an empty, uniquely named file in `directory` and returns its path.
/// O_EXCL makes the name ours; mode 0666 lets the umask decide permissions, as for any
/// file the user creates (mkstemp would force 0600).
std::string create_temp_next_to(const std::filesystem::path& target, const std::string& shown) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path directory =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // Keep the temporary name within NAME_MAX however long the target's name is.
  std::string stem = target.filename().string().substr(0, 180);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = "." + stem + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter.fetch_add(1));
    const std::string candidate = (directory / name).string();
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      // Replacing a file keeps its permissions (a shared report stays shared).
      struct stat existing {};
      if (::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
        ::fchmod(fd, existing.st_mode & 07777);
      }
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
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
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

/// The file a chain of symbolic links ends at (the path itself when it is no link), so
/// that the rename replaces that file and not the link. A dangling link resolves to the
/// path it names, which is then created. Throws ReportError on a loop.
std::filesystem::path follow_links(const std::filesystem::path& path, const std::string& shown) {
  std::filesystem::path current = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit (ELOOP) is 40
    std::error_code error;
    if (!std::filesystem::is_symlink(current, error)) return current;
    const std::filesystem::path next = std::filesystem::read_symlink(current, error);
    if (error) throw ReportError(shown, "cannot read the symbolic link: " + error.message());
    current = next.is_absolute() ? next : current.parent_path() / next;
  }
  throw ReportError(shown, "too many levels of symbolic links");
}

}  // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(const std::string& temp_path)>& write) {
  if (path.empty()) throw ReportError(path, "empty file name");
  const std::filesystem::path target = follow_links(path, path);
  TempFile temp(create_temp_next_to(target, path));
  write(temp.path());
  sync_file(temp.path(), path);
  if (::rename(temp.path().c_str(), target.c_str()) != 0) {
    throw ReportError(path, errno_text(errno));
  }
  temp.release();
  sync_directory(target);
}

void write_text_file_atomically(const std::string& path, std::string_view content) {
  write_file_atomically(path, [&](const std::string& temp_path) {
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
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

}  // namespace gputco
