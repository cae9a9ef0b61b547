// One table of `[risk]`'s keys (scenarios/risk_keys.hpp) for the scenario reader, the resolver
// and the reports: every report lists the uncertain inputs in the section's order, each key
// describing the RiskModel field it sets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/risk_report.hpp"
#include "scenarios/risk_keys.hpp"

namespace gputco {
namespace {

TEST(RiskKeys, reportsListTheKeysInTheSectionsOrder) {
  const RiskModel m;
  const std::vector<RiskInputText> texts = risk_input_texts(m);
  std::vector<std::string> keys;
  for (const auto& t : texts) keys.push_back(t.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"purchase_price", "rental_rate", "resale", "tariff",
                                            "utilization", "maintenance", "failure_rate", "demand",
                                            "growth"}));
  // The [risk] keys the reader takes: the same, then the correlation.
  std::vector<std::string> section = keys;
  section.push_back("correlation_purchase_rental");
  EXPECT_EQ(scenario_detail::risk_keys(), section);
  // Each key's text describes the field it sets (utilization: hours per day).
  ASSERT_EQ(texts.size(), 9u);
  EXPECT_EQ(texts[0].input, &m.purchase_price);
  EXPECT_EQ(texts[1].input, &m.rental_rate);
  EXPECT_EQ(texts[4].input, &m.hours_per_day);
  EXPECT_EQ(texts[4].name, "hours per day");
  EXPECT_EQ(texts[8].input, &m.growth);
  // The built-in defaults (engine/plan/sensitivity.hpp RiskModel), in whole percents.
  EXPECT_EQ(texts[0].distribution, "triangular -15 % / 0 % / +15 %");
  EXPECT_EQ(texts[1].distribution, "triangular -20 % / 0 % / +20 %");
  EXPECT_EQ(texts[2].distribution, "uniform -50 % .. +50 %");
  EXPECT_EQ(texts[3].distribution, "normal, sd 10 %, truncated at zero");
  EXPECT_EQ(texts[7].distribution, "fixed (not varied)");
}

// The Inputs sheet's text of a range (one decimal) and the reports' (none), from one function.
TEST(RiskKeys, oneRangeTextAtEitherPrecision) {
  const UncertainInput uniform{Distribution::uniform, -0.2, 0, 0.25, 0};
  EXPECT_EQ(risk_range_text(uniform, 1), "uniform -20.0 % .. +25.0 %");
  EXPECT_EQ(risk_range_text(uniform, 0), "uniform -20 % .. +25 %");
  const UncertainInput triangular{Distribution::triangular, -0.3, 0, 0.1, 0};
  EXPECT_EQ(risk_range_text(triangular, 1), "triangular -30.0 % / 0.0 % / +10.0 %");
  const UncertainInput normal{Distribution::normal, 0, 0, 0, 0.125};
  EXPECT_EQ(risk_range_text(normal, 1), "normal, sd 12.5 %");
  EXPECT_EQ(risk_range_text(UncertainInput{Distribution::uniform, 0, 0, 0, 0}, 1),
            "fixed (not varied)");
}

}  // namespace
}  // namespace gputco
