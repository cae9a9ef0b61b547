// Running the gputco binary from a test and capturing what it prints.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace gputco::test {

struct RunResult {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Extra environment variables for run(): name, value (e.g. {"XDG_DATA_HOME", dir}).
/// Without one, XDG_DATA_HOME and XDG_CONFIG_HOME are empty scratch directories, so no user
/// price book or config file leaks in.
using Environment = std::vector<std::pair<std::string, std::string>>;

/// Runs `program` with `args` (no shell interpretation of the arguments: each is quoted),
/// in `working_dir` when given, with LC_ALL=C and TZ=UTC and the variables of `environment`
/// set (names must be shell identifiers; values are quoted), standard input from
/// `stdin_path` (default /dev/null), standard output to `stdout_path` when given (e.g.
/// /dev/full; `out` is then empty), and returns its exit code and output. XDG_DATA_HOME and
/// XDG_CONFIG_HOME are empty scratch directories unless `environment` sets them.
RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::string& working_dir = "", const Environment& environment = {},
              const std::string& stdin_path = "", const std::string& stdout_path = "");

/// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// The whole content of a file ("" if it cannot be read).
std::string read_file(const std::string& path);

/// Writes `content` to `path`.
void write_file(const std::string& path, const std::string& content);

/// The names in `dir`, sorted (no "." or "..").
std::vector<std::string> directory_entries(const std::string& dir);

/// Starts `program` with `args` in the background (its standard output and error to
/// /dev/null), with `environment` set, and waits up to 60 s for the file `marker` to appear:
/// the sign a test hook gives when the process reached the point a test interrupts
/// (GPUTCO_FAULT_*_MARKER). Returns the process id; ADD_FAILUREs and returns it anyway when
/// the marker never came. Reap it with wait_status.
pid_t start_until_marker(const std::string& program, const std::vector<std::string>& args,
                         const Environment& environment, const std::string& marker);

/// Waits for the process `pid` and returns its raw wait(2) status.
int wait_status(pid_t pid);

}  // namespace gputco::test
