#include "cli/terminal_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pricing/visible_text.hpp"

namespace gputco::cli {

namespace {

/// Collects what is written and passes it on one complete line at a time, made visible: a
/// line is the unit in which an escape sequence, a CR LF and a UTF-8 character are whole.
class VisibleLinesBuffer : public std::streambuf {
 public:
  explicit VisibleLinesBuffer(std::streambuf* target) : target_(target) {}
  ~VisibleLinesBuffer() override { sync(); }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    pending_ += traits_type::to_char_type(c);
    if (c == '\n' && !pass_lines()) return traits_type::eof();
    return c;
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<std::size_t>(n));
    if (pending_.find('\n') != std::string::npos && !pass_lines()) return 0;
    return n;
  }

  int sync() override {
    const std::string shown = visible_text(pending_, true);
    pending_.clear();
    const auto size = static_cast<std::streamsize>(shown.size());
    if (target_->sputn(shown.data(), size) != size) return -1;
    return target_->pubsync();
  }

 private:
  /// Passes every complete line on; keeps the rest. False on a write error.
  bool pass_lines() {
    const std::size_t end = pending_.rfind('\n') + 1;
    const std::string shown = visible_text(std::string_view(pending_).substr(0, end), true);
    pending_.erase(0, end);
    const auto size = static_cast<std::streamsize>(shown.size());
    return target_->sputn(shown.data(), size) == size;
  }

  std::streambuf* target_;
  std::string pending_;
};

}  // namespace

TerminalSafeOutput::TerminalSafeOutput(std::ostream& stream, int fd) : stream_(stream) {
  if (::isatty(fd) != 1) return;
  original_ = stream.rdbuf();
  filter_ = std::make_unique<VisibleLinesBuffer>(original_);
  stream.rdbuf(filter_.get());
}

TerminalSafeOutput::~TerminalSafeOutput() {
  if (!filter_) return;
  if (filter_->pubsync() != 0) stream_.setstate(std::ios::badbit);
  stream_.rdbuf(original_);
}

OutputLost::OutputLost(int error)
    : std::runtime_error(std::string("cannot write to standard output") +
                         (error != 0 ? std::string(": ") + std::strerror(error) : std::string())) {}

void flush_output(std::ostream& out) {
  errno = 0;
  out.flush();
  if (!out) throw OutputLost(errno);
}

}  // namespace gputco::cli
