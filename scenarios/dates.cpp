#include "scenarios/dates.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace gputco {

namespace {

bool digits(const std::string& s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  std::from_chars(s.data() + pos, s.data() + pos + n, out);
  return true;
}

}  // namespace

std::optional<std::chrono::year_month_day> parse_date(const std::string& text) {
  int y = 0, m = 0, d = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !digits(text, 0, 4, y) ||
      !digits(text, 5, 2, m) || !digits(text, 8, 2, d) || y < 1900 || y > 2999) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year{y},
                                         std::chrono::month{static_cast<unsigned>(m)},
                                         std::chrono::day{static_cast<unsigned>(d)}};
  if (!date.ok()) return std::nullopt;
  return date;
}

std::optional<std::chrono::year_month> parse_month(const std::string& text) {
  int y = 0, m = 0;
  if (text.size() != 7 || text[4] != '-' || !digits(text, 0, 4, y) || !digits(text, 5, 2, m) ||
      y < 1900 || y > 2999) {
    return std::nullopt;
  }
  const std::chrono::year_month ym{std::chrono::year{y},
                                   std::chrono::month{static_cast<unsigned>(m)}};
  if (!ym.ok()) return std::nullopt;
  return ym;
}

int days_between(const std::string& from, const std::string& to) {
  const auto a = parse_date(from);
  const auto b = parse_date(to);
  if (!a || !b) throw std::invalid_argument("not a date: '" + (a ? to : from) + "'");
  return static_cast<int>((std::chrono::sys_days{*b} - std::chrono::sys_days{*a}).count());
}

std::string format_date(const std::chrono::year_month_day& date) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return buffer;
}

std::string add_months(const std::string& month, int months) {
  const auto ym = parse_month(month);
  if (!ym) throw std::invalid_argument("not a month: '" + month + "'");
  const auto next = *ym + std::chrono::months{months};
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u", static_cast<int>(next.year()),
                static_cast<unsigned>(next.month()));
  return buffer;
}

}  // namespace gputco
