// Scenario files as an attacker or a careless user writes them (issue 20): nesting that would
// exhaust the parser's stack, numbers outside the one grammar, values too small to mean
// anything, control characters in ids, more options than a plan takes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "scenarios/scenario.hpp"
#include "scenarios/scenario_text.hpp"

namespace gputco {
namespace {

const std::string kHead =
    "[scenario]\n"            // 1
    "as_of = 2026-11-01\n"    // 2
    "[workload]\n"            // 3
    "model = llama-3.1-8b\n"  // 4
    "quant = Q4_K_M\n";       // 5

const std::string kRental =
    "[option:a]\n"
    "kind = rent_hourly\n"
    "gpu = rtx-4090\n";

Scenario parse_text(const std::string& text, ScenarioFormat format = ScenarioFormat::ini) {
  std::istringstream in(text);
  return parse_scenario(in, format, "test.ini");
}

std::string error_of(const std::string& text, ScenarioFormat format = ScenarioFormat::ini) {
  try {
    parse_text(text, format);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioAdversarial, jsonNestedDeeperThanTheLimitIsRefusedBeforeTheParserRecurses) {
  // 100,000 levels crashed Boost's recursive parser (SIGSEGV); 65 are already refused.
  for (const int depth : {65, 100'000}) {
    const std::string text =
        std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
    EXPECT_EQ(error_of(text, ScenarioFormat::json),
              "test.ini:1: nested deeper than 64 levels of { and [; a scenario is an object of "
              "sections, each an object of keys (two levels)")
        << depth;
  }
  // Brackets inside strings do not count; the line of the 65th level is named.
  const std::string quoted = "{\"scenario\": {\"name\": \"" + std::string(100, '[') + "\\\"[\"}," +
                             "\n\"x\":" + std::string(64, '[') + std::string(64, ']') + "}";
  EXPECT_EQ(error_of(quoted, ScenarioFormat::json).rfind("test.ini:2: nested deeper", 0), 0u)
      << error_of(quoted, ScenarioFormat::json);
}

TEST(ScenarioAdversarial, numbersFollowOneGrammar) {
  const std::pair<std::string, std::string> cases[] = {
      {"discount_rate = +-0.08",
       "test.ini:3: [scenario] discount_rate: expected a fraction per year (0.08 for 8 %), got "
       "'+-0.08'"},
      {"discount_rate = 0x10",
       "test.ini:3: [scenario] discount_rate: expected a fraction per year (0.08 for 8 %), got "
       "'0x10'"},
      {"discount_rate = -inf",
       "test.ini:3: [scenario] discount_rate: expected a finite number, got '-inf'"},
      {"discount_rate = nan",
       "test.ini:3: [scenario] discount_rate: expected a finite number, got 'nan'"},
      {"discount_rate = 1e999",
       "test.ini:3: [scenario] discount_rate: expected a fraction per year (0.08 for 8 %), got "
       "'1e999'"}};
  for (const auto& [line, message] : cases) {
    const std::string text = "[scenario]\nas_of = 2026-11-01\n" + line +
                             "\n[workload]\nmodel = llama-3.1-8b\n"
                             "quant = Q4_K_M\n" +
                             kRental;
    EXPECT_EQ(error_of(text), message) << line;
  }
  // What the grammar takes: a sign, an exponent, a clear decimal comma.
  const Scenario s = parse_text(
      "[scenario]\nas_of = 2026-11-01\ndiscount_rate = +8e-2\n[workload]\nmodel = llama-3.1-8b\n"
      "quant = Q4_K_M\nhours_per_day = 7,5\n" +
      kRental);
  EXPECT_DOUBLE_EQ(s.discount_rate, 0.08);
  EXPECT_DOUBLE_EQ(s.hours_per_day, 7.5);
}

TEST(ScenarioAdversarial, aVanishingQuantityIsATypoAndAVanishingRateIsZero) {
  // hours_per_day = 1e-320 printed "inf" and "-nan" in every report: refused.
  for (const char* value : {"1e-320", "1e-400", "0.0000001"}) {
    EXPECT_EQ(error_of(kHead + "hours_per_day = " + value + "\n" + kRental),
              std::string("test.ini:6: [workload] hours_per_day: expected 0 or at least 1e-06, "
                          "got ") +
                  value + " (a value this small is a typo)")
        << value;
  }
  EXPECT_DOUBLE_EQ(parse_text(kHead + "hours_per_day = 0.000001\n" + kRental).hours_per_day, 1e-6);
  EXPECT_EQ(parse_text(kHead + "days_per_month = 0\n" + kRental).days_per_month, 0.0);
  // A rate of 1e-17 (it made the loan's annuity divide by zero) and a VAT of -1e-300 read as 0:
  // no figure moves by a billionth of a percent.
  const Scenario s =
      parse_text("[scenario]\nas_of = 2026-11-01\nvat_rate = -1e-300\ndiscount_rate = 5e-10\n" +
                 kHead.substr(kHead.find("[workload]")) +
                 "[site]\ntariff_per_kwh = 0.2\n[option:own]\nkind = buy\ngpu = rtx-3090\n"
                 "financing = loan\nloan_rate = 1e-17\n");
  EXPECT_EQ(s.vat_rate, 0.0);
  EXPECT_EQ(s.discount_rate, 0.0);
  ASSERT_EQ(s.options.size(), 1u);
  EXPECT_EQ(s.options[0].loan_rate, 0.0);
  // 1e-9 itself is a rate (the limit is exclusive), and a rate out of range is still refused.
  EXPECT_DOUBLE_EQ(parse_text("[scenario]\nas_of = 2026-11-01\nvat_rate = 1e-9\n" +
                              kHead.substr(kHead.find("[workload]")) + kRental)
                       .vat_rate,
                   1e-9);
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-01\nvat_rate = -0.5\n" +
                     kHead.substr(kHead.find("[workload]")) + kRental)
                .find("vat_rate: expected a fraction (0.19 for 19 %) between 0 and 1, got -0.5"),
            std::string::npos);
}

TEST(ScenarioAdversarial, controlCharactersAreRefusedInIdsAndKeptInFreeText) {
  EXPECT_EQ(error_of(kHead + "[option:a]\nkind = rent_hourly\ngpu = rtx\x1b[31m-4090\n"),
            "test.ini:8: [option:a] gpu: control character U+001B in 'rtx\\x1B[31m-4090': ids, "
            "choices, dates and numbers are plain text");
  EXPECT_EQ(error_of("[scenario]\nas_of = 2026-11-01\x07\n" +
                     kHead.substr(kHead.find("[workload]")) + kRental),
            "test.ini:2: [scenario] as_of: control character U+0007 in '2026-11-01\\x07': ids, "
            "choices, dates and numbers are plain text");
  // Free text keeps them: the terminal and messages show them as escapes (visible_text).
  const Scenario s = parse_text("[scenario]\nas_of = 2026-11-01\nname = Plan \x1b]0;pwned\x07\n" +
                                kHead.substr(kHead.find("[workload]")) + kRental);
  EXPECT_EQ(s.name, "Plan \x1b]0;pwned\x07");
}

TEST(ScenarioAdversarial, moreOptionsThanTheLimitAreRefusedNamingTheSection) {
  std::string text = kHead;
  for (int i = 1; i <= kMaxOptions + 1; ++i) {
    text += "[option:o" + std::to_string(i) + "]\nkind = rent_hourly\ngpu = rtx-4090\n";
  }
  // The 101st section starts at line 5 + 100 x 3 + 1.
  EXPECT_EQ(error_of(text),
            "test.ini:306: [option:o101]: more than 100 options, the limit of a scenario; split "
            "it into several");
  text = kHead;
  for (int i = 1; i <= kMaxOptions; ++i) {
    text += "[option:o" + std::to_string(i) + "]\nkind = rent_hourly\ngpu = rtx-4090\n";
  }
  EXPECT_EQ(parse_text(text).options.size(), static_cast<size_t>(kMaxOptions));
}

TEST(ScenarioAdversarial, standardInputIsJsonWhenItStartsWithABrace) {
  EXPECT_EQ(scenario_format("-", "\xEF\xBB\xBF \n{\"scenario\": {}}"), ScenarioFormat::json);
  EXPECT_EQ(scenario_format("-", "[scenario]\n"), ScenarioFormat::ini);
  EXPECT_EQ(scenario_format("plan.JSON", ""), ScenarioFormat::json);
  EXPECT_THROW(scenario_format("plan.txt", ""), ScenarioError);
}

}  // namespace
}  // namespace gputco
