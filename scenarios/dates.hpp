// Calendar dates as ISO strings, with std::chrono's civil calendar (no time zone, no clock).
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace gputco {

/// Parses "YYYY-MM-DD" strictly (exactly that shape, a real calendar day, years
/// 1900-2999). nullopt otherwise.
std::optional<std::chrono::year_month_day> parse_date(const std::string& text);

/// Parses "YYYY-MM" strictly. nullopt otherwise.
std::optional<std::chrono::year_month> parse_month(const std::string& text);

/// Whole days from `from` to `to` (negative when `to` is earlier). Both must parse.
int days_between(const std::string& from, const std::string& to);

/// "YYYY-MM-DD" of a date.
std::string format_date(const std::chrono::year_month_day& date);

/// The month `months` after a "YYYY-MM" month, as "YYYY-MM".
std::string add_months(const std::string& month, int months);

}  // namespace gputco
