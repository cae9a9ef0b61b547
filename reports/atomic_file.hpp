// Writing output files all at once: a reader sees the old file or the new one, never half.
// An output never replaces anything but a regular file or a symbolic link (the link itself,
// never the file it points to), never one of the command's inputs, and leaves no temporary
// file behind, even when the process is interrupted (SIGINT, SIGTERM, SIGHUP, SIGPIPE).
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// An output path refused before anything was written because of what it names: a
/// directory, a device node, a FIFO or a socket, or one of the command's own inputs. Bad
/// usage: the CLI maps it to exit code 2. what() reads "cannot write PATH: REASON".
class OutputRefused : public ReportError {
 public:
  using ReportError::ReportError;
};

/// An input of a command, for check_output_path: what it is ("the scenario", "the catalog
/// (--catalog)") and its path ("-", standard input, is never a file on disk).
struct CommandInput {
  std::string role;
  std::string path;
};

/// Checks, before any work is done, that `path` may receive an output: it does not exist
/// yet, or it is a regular file or a symbolic link (write_file_atomically replaces the link
/// itself), and it is not the same file (st_dev and st_ino, so a hard link or another
/// spelling of the path counts) as one of `inputs`, nor a link to one. Throws OutputRefused
/// naming the kind of file or the input it would replace. Problems of the folder (missing,
/// not a folder, unwritable) are left to the write, which reports them (exit 1).
void check_output_path(const std::string& path, const std::vector<CommandInput>& inputs);

/// Produces `path` atomically. First removes the temporary files of `path` that a killed
/// process left (".NAME.tmp-PID-N" of this user whose PID is not alive: SIGKILL runs no
/// handler). Creates an empty temporary file next to `path` (same
/// directory, so the final rename(2) cannot cross file systems; permissions from the umask,
/// or those of an existing regular `path`), calls `write(temp_path)` to fill it, flushes it
/// to disk and renames it over `path`. A `path` that is a symbolic link is replaced by the
/// new file: the link is never followed, so the file it pointed to is left as it was (the
/// semantics of O_NOFOLLOW on the last component; a planted link cannot redirect the
/// write). A `path` that is a directory, FIFO, socket or device node is refused
/// (OutputRefused), nothing written.
/// On any failure the temporary file is removed and an existing `path` is left untouched:
/// an exception thrown by `write` propagates unchanged; failures to create, flush or rename
/// throw ReportError naming `path`. While the temporary file exists it is listed where a
/// handler of SIGINT, SIGTERM, SIGHUP and SIGPIPE (installed on first use, unless the signal is
/// ignored) removes it before the process dies of the signal.
///
/// Test hook: with GPUTCO_FAULT_WRITE_SLEEP_MS=N in the environment, the write sleeps N ms
/// once the temporary file is complete, before the rename, having first created the file
/// named by GPUTCO_FAULT_WRITE_MARKER (if set); tests send a signal there.
void write_file_atomically(const std::string& path,
                           const std::function<void(const std::string& temp_path)>& write);

/// Writes `content` to `path` atomically (see write_file_atomically). Throws ReportError.
void write_text_file_atomically(const std::string& path, std::string_view content);

/// write_file_atomically in two steps, for a command whose outputs must all arrive or none:
/// the constructor writes the complete temporary file (the same checks, permissions, flush to
/// disk and removal on interrupt); commit() renames it over `path`. Until commit() `path` is
/// untouched, so a command stages its files, writes and flushes its standard output, and
/// commits only when that arrived. A StagedFile destroyed uncommitted (an exception, a
/// failed standard output) removes its temporary file. The test hook of write_file_atomically
/// pauses in commit(), before the rename.
class StagedFile {
 public:
  /// Writes the temporary file with `write(temp_path)`. Throws as write_file_atomically does;
  /// nothing is left behind then.
  StagedFile(const std::string& path,
             const std::function<void(const std::string& temp_path)>& write);
  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();

  /// The destination.
  const std::string& path() const noexcept { return path_; }
  /// Renames the temporary file over path(): once; a second call, or one on a moved-from
  /// object, throws std::logic_error. Throws ReportError when the rename fails, OutputRefused
  /// when a directory or a FIFO took path()'s place meanwhile; the temporary file is then
  /// removed (by the destructor) and path() left as it was.
  void commit();

 private:
  class Temp;
  std::string path_;
  std::unique_ptr<Temp> temp_;
};

/// Stages `content` for `path` (see StagedFile). Throws ReportError.
StagedFile stage_text_file(const std::string& path, std::string_view content);

}  // namespace gputco
