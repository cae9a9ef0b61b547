// Writing output files all at once: a reader sees the old file or the new one, never half.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gputco {

/// The reports layer's one exception type: an output file could not be written.
/// what() reads "cannot write PATH: REASON". The CLI maps it to exit code 1.
class ReportError : public std::runtime_error {
 public:
  ReportError(const std::string& path, const std::string& reason);
  /// The output file that was asked for.
  const std::string& path() const noexcept { return path_; }
  /// Why it could not be written, without the path.
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string path_;
  std::string reason_;
};

/// Produces `path` atomically. Creates an empty temporary file next to `path` (same
/// directory, so the final rename(2) cannot cross file systems; permissions from the umask,
/// or those of an existing `path`), calls `write(temp_path)` to fill it, flushes it to disk
/// and renames it over `path`. A `path` that is a symbolic link is followed: the file it
/// points to is replaced (in that file's directory) and the link stays a link.
/// On any failure the temporary file is removed and an existing `path` is left untouched:
/// an exception thrown by `write` propagates unchanged; failures to create, flush or rename
/// throw ReportError naming `path`.
void write_file_atomically(const std::string& path,
                           const std::function<void(const std::string& temp_path)>& write);

/// Writes `content` to `path` atomically (see write_file_atomically). Throws ReportError.
void write_text_file_atomically(const std::string& path, std::string_view content);

}  // namespace gputco
