// Standard output on a terminal: text from scenarios and catalogs (a scenario's name, a
// customer, a price book's seller or note) may hold escape sequences, carriage returns or
// bidirectional overrides that a terminal would act upon; shown as escapes instead.
#pragma once

#include <memory>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

namespace gputco::cli {

/// While alive, and only when `fd` is a terminal (isatty), filters everything written to
/// `stream` through visible_text (pricing/visible_text.hpp) line by line: control characters
/// other than tab and line feed (and the CR of a CR LF), C1 controls and invisible format
/// characters become escapes such as \x1B. Output to a file or a pipe is left byte for byte
/// (JSON and CSV are data). Restores the stream's buffer, flushing the rest, on destruction;
/// a write error of the terminal reaches `stream`'s state. Throws nothing.
class TerminalSafeOutput {
 public:
  TerminalSafeOutput(std::ostream& stream, int fd);
  ~TerminalSafeOutput();
  TerminalSafeOutput(const TerminalSafeOutput&) = delete;
  TerminalSafeOutput& operator=(const TerminalSafeOutput&) = delete;

 private:
  std::ostream& stream_;
  std::streambuf* original_ = nullptr;
  std::unique_ptr<std::streambuf> filter_;
};

/// Standard output did not arrive (a full disk, a closed pipe, > /dev/full): a runtime
/// failure, exit code 1. what() reads "cannot write to standard output[: REASON]".
class OutputLost : public std::runtime_error {
 public:
  /// `error`: the errno of the failed write, 0 when unknown.
  explicit OutputLost(int error);
};

/// Flushes `out` and throws OutputLost when anything written to it so far did not arrive. A
/// command that writes files and standard output calls it before it commits its staged files
/// (reports/atomic_file.hpp): they replace the old ones only once the output has arrived.
void flush_output(std::ostream& out);

}  // namespace gputco::cli
