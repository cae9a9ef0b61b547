// The plan's peak assumption in one line (issue #21): how the day's demand peaks and how the
// hourly rentals are billed, for the terminal summary and the workbook's Summary sheet.
#pragma once

#include <string>
#include <vector>

#include "scenarios/resolved.hpp"

namespace gputco {

/// One line, without a trailing newline: the peak ("demand spread evenly over the 10.0 hours
/// of use (peak factor 1)", "peak factor 3: the peak hour at 3.00 x the mean hour", "hourly
/// profile over 8 hours: the peak hour at 2.40 x the mean hour"; engine/finance/load_shape.hpp
/// load_shape_of gives the multiplier) and, when the plan has on-demand or spot rentals, how
/// each is billed ("hourly rentals billed always on for the hours of use", or per option:
/// "gpu-a always on, gpu-b autoscaled hour by hour (min 1 instance(s), per minute)"). Throws
/// nothing.
std::string peak_assumption_text(const ResolvedScenario& scenario);

/// A piece of that line: fixed text, or a figure a spreadsheet formula reads from its input (the
/// hours of use a day, the peak hour's multiplier) and formats with `decimals`.
struct PeakTextPiece {
  enum class Kind { text, hours_per_day, peak_multiplier };
  Kind kind = Kind::text;
  std::string text;  ///< Kind::text only
  int decimals = 0;  ///< the figures: digits after the point
};

/// peak_assumption_text in pieces, in order: joined, with each figure formatted to its
/// decimals, they are that line. The workbook writes them as a formula over its inputs, so
/// the line follows an edited hours-of-use cell. Throws nothing.
std::vector<PeakTextPiece> peak_assumption_pieces(const ResolvedScenario& scenario);

}  // namespace gputco
