// Reading an input file (a scenario, a price file, a config) whole, safely: a regular file or
// standard input ("-"), never more than a stated size, never blocking on a FIFO or a device.
// Shared by scenarios/ and pricing/ (the CSV reader), which wrap the error in their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gputco {

/// An input file that cannot be read: what() is the reason, without the path (the caller
/// names the file in its own error type), e.g. "not a regular file (a FIFO); give a file, or -
/// for standard input".
class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The name that means standard input on the command line.
inline constexpr const char* kStandardInputName = "-";

/// True when `path` is "-" (standard input).
bool is_standard_input(const std::string& path);

/// A size in bytes as people read it: "16 MiB", "300 KiB", "12 bytes".
std::string byte_size_text(std::size_t bytes);

/// The whole content of `path`, at most `max_bytes` long.
///  - "-" reads standard input to its end (a pipe or a file), refusing it once it passes
///    `max_bytes` (so `gputco plan - < /dev/zero` stops at the limit);
///  - otherwise `path` must name a regular file (after symbolic links). It is opened
///    non-blocking, so a FIFO is refused at once instead of waiting for a writer; a directory,
///    a FIFO, a socket or a device node (/dev/zero, a terminal) is refused before any byte is
///    read; a regular file larger than `max_bytes` is refused before it is read.
/// Throws InputFileError naming the problem and, for a size, the limit: "cannot open the file
/// (does it exist?)",
/// "this is a directory, not a NOUN" (`noun`: "scenario file", "CSV file"), "not a regular
/// file (a FIFO); ...", "is larger than the limit of 16 MiB (20 MiB)", or the system's reason
/// (permission denied, an I/O error).
std::string read_input_file(const std::string& path, std::size_t max_bytes,
                            const std::string& noun);

/// The size in bytes of `path`, checked as read_input_file checks it (a regular file after
/// symbolic links, never waiting on a FIFO) but of any size and without reading it: for a file
/// read in part, as a GGUF file's header. Standard input ("-") is refused. Throws
/// InputFileError with read_input_file's messages ("not a regular file (a FIFO); ...").
std::uint64_t regular_file_size(const std::string& path, const std::string& noun);

/// The same file read piece by piece, for a reader that keeps only what it works on (the CSV
/// reader of an import: pricing/csv_table.hpp). Opening checks what read_input_file checks
/// (a regular file or "-", not larger than `max_bytes`), each read refuses what passes
/// `max_bytes`. Throws InputFileError with read_input_file's messages.
class InputStream {
 public:
  InputStream(const std::string& path, std::size_t max_bytes, const std::string& noun);
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;
  ~InputStream();
  /// Up to `size` bytes into `buffer`; 0 at the end of the file.
  std::size_t read(char* buffer, std::size_t size);

 private:
  int fd_ = -1;
  std::size_t max_bytes_ = 0;
  std::size_t read_bytes_ = 0;
};

}  // namespace gputco
