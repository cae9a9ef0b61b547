#include "scenarios/section_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "pricing/number_text.hpp"
#include "pricing/suggest.hpp"
#include "pricing/visible_text.hpp"

namespace gputco {

namespace pt = boost::property_tree;

std::string decimal_comma_as_dot(const std::string& s) {
  const auto comma = s.find(',');
  if (comma == std::string::npos || s.find(',', comma + 1) != std::string::npos ||
      s.find('.') != std::string::npos) {
    return s;
  }
  const size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const auto digits = [&](size_t from, size_t to) {
    return from < to && std::all_of(s.begin() + static_cast<std::ptrdiff_t>(from),
                                    s.begin() + static_cast<std::ptrdiff_t>(to),
                                    [](unsigned char c) { return std::isdigit(c); });
  };
  const size_t decimals = s.size() - comma - 1;
  if (!digits(sign, comma) || !digits(comma + 1, s.size()) || decimals == 3) return s;
  std::string dotted = s;
  dotted[comma] = '.';
  return dotted;
}

SectionReader::SectionReader(const pt::ptree& tree, std::string section, Scenario& scenario,
                             const std::vector<std::string>& known)
    : tree_(tree), section_(std::move(section)), scenario_(scenario) {
  std::set<std::string> seen;
  for (const auto& [key, child] : tree_) {
    if (!child.empty()) fail(key, "expected a value, found a nested section");
    // INI files are refused by the parser; a JSON object may repeat a key, and only one of
    // the values would count.
    if (!seen.insert(key).second) fail(key, "duplicate key: give each key once");
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      fail(key, "unknown key" + did_you_mean(key, known));
    }
    scenario_.given[section_ + "." + key] = true;
  }
}

void SectionReader::fail(const std::string& key, const std::string& problem) const {
  // A missing key has no line: name the section's. A value from the config file or --set
  // names where it came from.
  const auto [file, line] = scenario_.location_of(section_, key);
  throw ScenarioError(file, line, "[" + section_ + "] " + key, problem);
}

std::optional<std::string> SectionReader::text(const std::string& key) const {
  // The child named `key` (get_child_optional's with no path separator, without making a path).
  const auto child = tree_.find(key);
  if (child == tree_.not_found()) return std::nullopt;
  const std::string& value = child->second.data();
  if (key != "name" && key != "customer" && key != "quote_id") {
    if (const auto at = first_control_character(value); at != std::string::npos) {
      fail(key, "control character " + code_point_name(value, at) + " in '" + visible_text(value) +
                    "': ids, choices, dates and numbers are plain text");
    }
  }
  return value;
}

void SectionReader::text(const std::string& key, std::string& out) const {
  if (auto v = text(key)) out = *v;
}

void SectionReader::choice(const std::string& key, std::string& out,
                           const std::vector<std::string>& allowed) const {
  auto v = text(key);
  if (!v) return;
  if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : " | ") + a;
    fail(key, "expected one of " + list + ", got '" + *v + "'" + did_you_mean(*v, allowed));
  }
  out = *v;
}

std::optional<double> SectionReader::number(const std::string& key, double min, double max,
                                            const std::string& what, double smallest) const {
  auto value = parsed_number(key, min, max, what);
  if (value && *value != 0 && std::fabs(*value) < smallest) {
    std::ostringstream problem;
    problem << "expected 0 or at least " << smallest << ", got " << *text(key)
            << " (a value this small is a typo)";
    fail(key, problem.str());
  }
  if (value) refuse_kilowatts(key, *value);
  if (value && money_like(what)) warn_dot_thousands(key);
  return value;
}

void SectionReader::refuse_kilowatts(const std::string& key, double value) const {
  // No GPU board, host or idle machine draws under 1 W (the smallest catalog board power is
  // tens of W): 0.15 is a figure in kW (150 W) typed into a key in W.
  const std::string kSuffix = "_power_w";
  const bool in_watts = key.size() > kSuffix.size() &&
                        key.compare(key.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
  if (!in_watts || value <= 0 || value >= 1) return;
  // x 1000 rounded to a millionth of a W, so 0.35 suggests 350, not 349.99999999999994.
  const double watts = std::round(value * 1e9) / 1e6;
  fail(key, fmt::format("is in watts, got {}: no GPU or host draws under 1 W (a figure in kW?); "
                        "did you mean {}?",
                        *text(key), watts));
}

bool SectionReader::money_like(const std::string& what) {
  return what.rfind("a price", 0) == 0 || what.rfind("a yearly cost", 0) == 0;
}

void SectionReader::warn_dot_thousands(const std::string& key) const {
  // "1.500" / "95.000": one to three digits (not 0), a dot, exactly three digits. Where a
  // dot groups thousands (German, Dutch, Danish...) it means 1500 and 95000; gputco reads a
  // dot as the decimal separator. "1,500" is refused as ambiguous (decimal_comma_as_dot).
  const std::string s = *text(key);
  const auto dot = s.find('.');
  const bool shaped = dot != std::string::npos && dot >= 1 && dot <= 3 && s[0] != '0' &&
                      s.size() == dot + 4 &&
                      std::all_of(s.begin(), s.end(),
                                  [](unsigned char c) { return std::isdigit(c) || c == '.'; }) &&
                      s.find('.', dot + 1) == std::string::npos;
  if (!shaped) return;
  const auto [file, line] = scenario_.location_of(section_, key);
  std::string digits = s;
  digits.erase(dot, 1);
  std::ostringstream warning;
  warning << file << (line > 0 ? ":" + std::to_string(line) : "") << ": [" << section_ << "] "
          << key << " = " << s << " is read as " << parse_number_text(s).value_or(0)
          << " (a dot is the decimal separator); if you meant " << digits << ", write " << digits;
  auto& warnings = scenario_.warnings;
  if (std::find(warnings.begin(), warnings.end(), warning.str()) == warnings.end()) {
    warnings.push_back(warning.str());
  }
}

void SectionReader::number(const std::string& key, double& out, double min, double max,
                           const std::string& what, double smallest) const {
  if (auto v = number(key, min, max, what, smallest)) out = *v;
}

void SectionReader::number(const std::string& key, std::optional<double>& out, double min,
                           double max, const std::string& what, double smallest) const {
  if (auto v = number(key, min, max, what, smallest)) out = *v;
}

std::optional<double> SectionReader::money(const std::string& key, double max_usd,
                                           const std::string& what) const {
  const double max = max_usd * kMostCurrencyUnitsPerUsd;
  record(key, 0, max, false);
  constexpr double kAny = std::numeric_limits<double>::max();
  const auto written = parsed_number(key, -kAny, kAny, what);  // the grammar only
  if (!written) return std::nullopt;
  if (*written < 0) fail(key, "expected " + what + " of 0 or more, got " + *text(key));
  if (*written > max) {
    fail(key, fmt::format("expected {} between 0 and {:g} in any currency ({:g} USD, at most {:g} "
                          "units of a currency per USD), got {}",
                          what, max, max_usd, kMostCurrencyUnitsPerUsd, *text(key)));
  }
  const auto value = number(key, 0, max, what);  // the check of tiny values, the warnings
  if (*value > 0)
    scenario_.money_limits.push_back({section_, key, *value, *text(key), max_usd, what});
  return value;
}

void SectionReader::money(const std::string& key, double& out, double max_usd,
                          const std::string& what) const {
  if (auto v = money(key, max_usd, what)) out = *v;
}

void SectionReader::money(const std::string& key, std::optional<double>& out, double max_usd,
                          const std::string& what) const {
  if (auto v = money(key, max_usd, what)) out = *v;
}

void SectionReader::fraction(const std::string& key, double& out, double min, double max,
                             const std::string& what) const {
  if (auto v = fraction(key, min, max, what)) out = *v;
}

void SectionReader::fraction(const std::string& key, std::optional<double>& out, double min,
                             double max, const std::string& what) const {
  if (auto v = fraction(key, min, max, what)) out = *v;
}

std::optional<double> SectionReader::fraction(const std::string& key, double min, double max,
                                              const std::string& what) const {
  record(key, min, max, false);
  constexpr double kAny = std::numeric_limits<double>::max();
  const auto value = parsed_number(key, -kAny, kAny, what);  // the grammar only
  if (!value) return std::nullopt;
  if (std::fabs(*value) < kNegligibleFraction && min <= 0 && max >= 0) return 0.0;
  // A rate typed in percent (10 for 10 %) where the key takes a fraction: out of range, and
  // the fraction it meant is in range. Say so rather than read it 100 times too large. Only
  // for a key whose description speaks of percent (not a correlation).
  const double as_fraction = *value / 100.0;
  if (what.find('%') != std::string::npos && (*value < min || *value > max) &&
      std::fabs(*value) >= 1 && std::fabs(*value) <= 100 && as_fraction >= min &&
      as_fraction <= max) {
    std::ostringstream message;
    message << "expected " << what << " between " << min << " and " << max << ", got " << *text(key)
            << " (a percentage? did you mean " << as_fraction << "?)";
    fail(key, message.str());
  }
  return parsed_number(key, min, max, what);  // the range, with its message
}

std::optional<double> SectionReader::parsed_number(const std::string& key, double min, double max,
                                                   const std::string& what) const {
  record(key, min, max, false);
  auto v = text(key);
  if (!v) return std::nullopt;
  const std::string& s = *v;
  const auto value = parse_number_text(decimal_comma_as_dot(s));
  if (!value) {
    if (names_non_finite(s)) fail(key, "expected a finite number, got '" + s + "'");
    std::string hint;
    if (s.find(',') != std::string::npos) {
      hint = " (use a dot as the decimal separator, no thousands separators)";
    }
    fail(key, "expected " + what + ", got '" + s + "'" + hint);
  }
  if (*value < min || *value > max) {
    std::ostringstream range;
    range << "expected " << what << " between " << min << " and " << max << ", got " << s;
    fail(key, range.str());
  }
  return value;
}

std::optional<int> SectionReader::integer(const std::string& key, int min, int max) const {
  record(key, min, max, true);
  auto v = number(key, min, max, "a whole number");
  if (!v) return std::nullopt;
  if (std::floor(*v) != *v) fail(key, "expected a whole number, got '" + *text(key) + "'");
  return static_cast<int>(*v);
}

void SectionReader::integer(const std::string& key, int& out, int min, int max) const {
  if (auto v = integer(key, min, max)) out = *v;
}

void SectionReader::integer(const std::string& key, std::optional<int>& out, int min,
                            int max) const {
  if (auto v = integer(key, min, max)) out = *v;
}

std::optional<bool> SectionReader::boolean(const std::string& key) const {
  auto v = text(key);
  if (!v) return std::nullopt;
  if (*v == "true" || *v == "yes" || *v == "1") return true;
  if (*v == "false" || *v == "no" || *v == "0") return false;
  fail(key, "expected true or false, got '" + *v + "'");
}

void SectionReader::record(const std::string& key, double min, double max, bool whole) const {
  // The first range read wins (issue #19); one look-up in the scenario's index of listed keys
  // (a scan of them made reading N sections quadratic, issue #39).
  if (!scenario_.number_keys_listed.insert(section_ + '\n' + key).second) return;
  scenario_.number_keys.push_back({section_, key, min, max, whole});
}

}  // namespace gputco
