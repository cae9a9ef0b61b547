#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>

namespace gputco::cli {

ProgressBar::ProgressBar(std::ostream& err, std::string label, bool quiet)
    : err_(err),
      label_(std::move(label)),
      enabled_(!quiet && &err == &std::cerr && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::update(long long done, long long total) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;
  if (drawn_ && done < total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  constexpr int kWidth = 40;
  const double fraction =
      std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0);
  const int filled = static_cast<int>(fraction * kWidth);
  err_ << "\r" << label_ << " [" << std::string(static_cast<size_t>(filled), '#')
       << std::string(static_cast<size_t>(kWidth - filled), ' ') << "] "
       << static_cast<int>(fraction * 100) << " %" << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  err_ << "\r" << std::string(label_.size() + 50, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace gputco::cli
