// Reading the keys of one section of a scenario with their types and ranges (internal to
// scenarios/: parse_scenario's helper).
#pragma once

#include <boost/property_tree/ptree.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco {

/// A decimal comma where its meaning is clear ("0,25", "12,5", "1,2345": one comma, digits
/// on both sides, no dot, and not exactly three digits after it) becomes a dot. "1,200" is
/// left alone, and rejected: a thousands separator or a decimal comma, nobody can tell.
std::string decimal_comma_as_dot(const std::string& s);

/// Reads one section's keys with type checks, naming file, line, section and key in every
/// error (ScenarioError). Records each number key read, with its range, in
/// Scenario::number_keys, and each key given in Scenario::given.
class SectionReader {
 public:
  /// Refuses, at once, a nested value, a key given twice and a key not in `known` (with the
  /// nearest known key suggested).
  SectionReader(const boost::property_tree::ptree& tree, std::string section, Scenario& scenario,
                const std::vector<std::string>& known);

  /// Throws ScenarioError for `key` (at its line, else the section's).
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;

  /// The value of `key` as written. Every value but the free text of name, customer and
  /// quote_id is an id, a choice, a date or a number: a control character in it is refused,
  /// naming it (an escape sequence would reach the terminal through the messages that quote
  /// the value).
  std::optional<std::string> text(const std::string& key) const;
  void text(const std::string& key, std::string& out) const;

  /// A value from a fixed set (the nearest one suggested when it is not).
  void choice(const std::string& key, std::string& out,
              const std::vector<std::string>& allowed) const;

  /// A quantity (hours, days, prices, powers, tokens, intensities) in [min, max], in the one
  /// grammar of parse_number_text (a clear decimal comma accepted; inf and nan named as not
  /// finite). A value whose magnitude is below `smallest` (kSmallestQuantity unless the key
  /// checks a larger floor of its own afterwards) but not 0 is refused: a typo, and figures
  /// divided by it would overflow.
  std::optional<double> number(const std::string& key, double min, double max,
                               const std::string& what, double smallest = kSmallestQuantity) const;
  void number(const std::string& key, double& out, double min, double max, const std::string& what,
              double smallest = kSmallestQuantity) const;
  void number(const std::string& key, std::optional<double>& out, double min, double max,
              const std::string& what, double smallest = kSmallestQuantity) const;

  /// An amount of money in the plan currency (a price, a rate, a tariff): number()'s grammar
  /// and checks, 0 or more and at most `max_usd` x kMostCurrencyUnitsPerUsd (the limit in any
  /// currency). A value above 0 is listed in Scenario::money_limits with `max_usd`: resolve()
  /// refuses it above `max_usd` converted into the plan currency, which the parser cannot know.
  std::optional<double> money(const std::string& key, double max_usd,
                              const std::string& what) const;
  void money(const std::string& key, double& out, double max_usd, const std::string& what) const;
  void money(const std::string& key, std::optional<double>& out, double max_usd,
             const std::string& what) const;

  /// A fraction or a rate (discount, VAT, trends, growth, loan and lease rates, shares of
  /// capex) in [min, max] (min <= 0 <= max): a magnitude below kNegligibleFraction reads as 0.
  /// A value out of range that reads in range as a percentage (10 where 0.10 was meant) is
  /// refused with "(a percentage? did you mean 0.1?)" when `what` speaks of percent ("a
  /// fraction per year (0.05 for +5 %)"; not a correlation).
  void fraction(const std::string& key, double& out, double min, double max,
                const std::string& what) const;
  void fraction(const std::string& key, std::optional<double>& out, double min, double max,
                const std::string& what) const;

  /// A whole number in [min, max].
  std::optional<int> integer(const std::string& key, int min, int max) const;
  void integer(const std::string& key, int& out, int min, int max) const;
  void integer(const std::string& key, std::optional<int>& out, int min, int max) const;

  /// true | false (also yes | no, 1 | 0).
  std::optional<bool> boolean(const std::string& key) const;

 private:
  std::optional<double> fraction(const std::string& key, double min, double max,
                                 const std::string& what) const;
  /// Refuses a value of a *_power_w key above 0 and below 1 W (no GPU or host draws so
  /// little): a figure in kW typed into a key in W, with the value x 1000 suggested.
  void refuse_kilowatts(const std::string& key, double value) const;
  /// Whether a number described as `what` is an amount of money ("a price ...", "a yearly
  /// cost ..."): the keys warn_dot_thousands looks at.
  static bool money_like(const std::string& what);
  /// Adds a warning to Scenario::warnings when the money amount of `key` is written as a dot
  /// thousands separator would write it ("1.500", "95.000"): read as 1.5 and 95.
  void warn_dot_thousands(const std::string& key) const;
  /// The number of `key` in [min, max], without the check of tiny values.
  std::optional<double> parsed_number(const std::string& key, double min, double max,
                                      const std::string& what) const;
  /// Lists a number key of the section in Scenario::number_keys (the first range read wins).
  void record(const std::string& key, double min, double max, bool whole) const;

  const boost::property_tree::ptree& tree_;
  std::string section_;
  Scenario& scenario_;
};

}  // namespace gputco
