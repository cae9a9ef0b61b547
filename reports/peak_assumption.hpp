// The plan's peak assumption in one line (issue #21): how the day's demand peaks and how the
// hourly rentals are billed, for the terminal summary and the workbook's Summary sheet.
#pragma once

#include <string>

#include "scenarios/resolved.hpp"

namespace gputco {

/// One line, without a trailing newline: the peak ("demand spread evenly over the 10.0 hours
/// of use (peak factor 1)", "peak factor 3: the peak hour at 3.00 x the mean hour", "hourly
/// profile over 8 hours: the peak hour at 2.40 x the mean hour"; engine/load_shape.hpp
/// load_shape_of gives the multiplier) and, when the plan has on-demand or spot rentals, how
/// each is billed ("hourly rentals billed always on for the hours of use", or per option:
/// "gpu-a always on, gpu-b autoscaled (min 1 instance(s), per minute)"). Throws nothing.
std::string peak_assumption_text(const ResolvedScenario& scenario);

}  // namespace gputco
