// The one grammar of numbers that people type: scenario keys, sweep ranges, overrides.
#pragma once

#include <optional>
#include <string_view>

namespace gputco {

/// Reads `text` as a number when all of it follows the grammar
///   [+|-] (digits [. [digits]] | . digits) [(e|E) [+|-] digits]
/// with a dot for decimals and nothing before or after: no hexadecimal (0x10, 0x1p3), no
/// inf or nan, no second sign (+-0.08, --1), no spaces, no thousands separators, no
/// locale. Returns std::nullopt for anything else and for a value beyond the range of a
/// double (1e999). A value too small for a double (1e-400, which would round to 0) reads as
/// the smallest positive double of its sign (4.9e-324), so that a caller that refuses or
/// zeroes tiny values treats it like 1e-320; -0 reads as 0. Throws nothing.
std::optional<double> parse_number_text(std::string_view text);

/// True when `text` names infinity or not-a-number as strtod would take it ("inf",
/// "-Infinity", "nan", "NaN(0x1)"), for a message that says "a finite number".
bool names_non_finite(std::string_view text);

}  // namespace gputco
