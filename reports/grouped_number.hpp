// A figure for people to read with commas between groups of three digits ("15,220",
// "405.5", "-1,020.25"), locale-free: the one way the serving reports (throughput, the
// measured runs of calibrate) write counts and rates.
#pragma once

#include <string>

namespace gputco {

/// `x` with `decimals` decimals (fmt's "{:.Nf}": correctly rounded, an exact half to even) and
/// a comma before every third digit of its whole part, counted from the right; the sign, the
/// decimal point and the decimals as fmt writes them: grouped_number(3200) == "3,200",
/// grouped_number(405.46, 1) == "405.5", grouped_number(-1234567) == "-1,234,567". A caller
/// that wants halves rounded away from zero passes std::round(x). Not finite: "inf", "-inf" or
/// "nan", as fmt writes them. Never throws but std::bad_alloc.
std::string grouped_number(double x, int decimals = 0);

}  // namespace gputco
