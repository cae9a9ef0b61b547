#include "pricing/number_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <string>

namespace gputco {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// The decimal exponent, roughly, of a number that follows the grammar and is not 0 (3 for
/// "123.4", -2 for "0.01", -399 for "1e-400"): its sign tells underflow from overflow.
long decimal_exponent(std::string_view text) {
  const std::size_t e = text.find_first_of("eE");
  long exponent = 0;
  if (e != std::string_view::npos) {
    for (char c : text.substr(e + 1)) {
      if (is_digit(c)) exponent = std::min(exponent * 10 + (c - '0'), 100000L);
    }
    if (text.substr(e + 1, 1) == "-") exponent = -exponent;
  }
  const std::string_view mantissa = text.substr(0, e);
  const std::size_t point = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, point);
  if (const std::size_t first = whole.find_first_not_of('0'); first != std::string_view::npos) {
    return exponent + static_cast<long>(whole.size() - first);
  }
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : mantissa.substr(point + 1);
  const std::size_t first = fraction.find_first_not_of('0');
  return exponent - static_cast<long>(first == std::string_view::npos ? 0 : first);
}

}  // namespace

std::optional<double> parse_number_text(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return i - from;
  };
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::size_t mantissa_digits = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa_digits += digits();
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;

  // std::from_chars takes no '+', and its own grammar is wider (inf, nan): it only
  // converts what the scan above accepted.
  const std::string_view unsigned_part = text.substr(text[0] == '+' || text[0] == '-' ? 1 : 0);
  double value = 0;
  const auto [end, error] =
      std::from_chars(unsigned_part.data(), unsigned_part.data() + unsigned_part.size(), value);
  if (error == std::errc::result_out_of_range) {
    if (decimal_exponent(unsigned_part) > 0) return std::nullopt;  // 1e999
    value = std::numeric_limits<double>::denorm_min();             // 1e-400
  } else if (error != std::errc() || end != unsigned_part.data() + unsigned_part.size()) {
    return std::nullopt;
  }
  if (value == 0) return 0.0;
  return negative ? -value : value;
}

bool names_non_finite(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!lower.empty() && (lower[0] == '+' || lower[0] == '-')) lower.erase(0, 1);
  return lower == "inf" || lower == "infinity" || lower.rfind("nan", 0) == 0;
}

}  // namespace gputco
