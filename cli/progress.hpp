// A progress bar on stderr for long runs (sweep, risk): drawn only when stderr is a terminal
// and only once the run has taken more than a second, so quick runs and pipes see nothing.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>

namespace gputco::cli {

class ProgressBar {
 public:
  /// `err` is where the bar goes; it is drawn only if `err` is std::cerr and stderr is a
  /// terminal (isatty), and never when `quiet` (--quiet). `label` precedes the bar ("risk",
  /// "sweep").
  ProgressBar(std::ostream& err, std::string label, bool quiet = false);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// `done` of `total` steps are finished. Redraws at most ten times a second.
  void update(long long done, long long total);
  /// Clears the bar's line (if one was drawn).
  void finish();

 private:
  std::ostream& err_;
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace gputco::cli
