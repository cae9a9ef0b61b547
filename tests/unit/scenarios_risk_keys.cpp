// The [risk] section (issue #16 item 4): the Monte Carlo's ranges as the user sets them, over
// the built-in symmetric defaults; bad ranges refused naming the key.
#include <gtest/gtest.h>

#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

const std::string kHead =
    "[scenario]\n"
    "as_of = 2026-11-27\n"
    "[workload]\n"
    "model = qwen3-32b\n"
    "quant = Q4_K_M\n"
    "[option:a]\n"
    "kind = rent_hourly\n"
    "gpu = h100-sxm\n"
    "rate_per_gpu_hour = 2\n";

/// kHead with a demand in tokens: a demand range moves it.
std::string with_demand(const std::string& text) {
  return "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n"
         "tokens_per_day = 2000000\n" +
         text.substr(kHead.find("[option:a]"));
}

/// The error resolving `text` raises; "" when it resolves.
std::string resolve_error(const std::string& text) {
  try {
    resolve(parse(text), Catalog::open_builtin());
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(RiskKeys, rangesReplaceTheDefaultsAndAreListedAsInputs) {
  const Scenario s = parse(with_demand(kHead) +
                           "[risk]\n"
                           "rental_rate = uniform -0.1 0.25\n"
                           "purchase_price = triangular -0.1 0 0.3\n"
                           "tariff = normal 0.05\n"
                           "demand = uniform -0.3 0.3\n"
                           "growth = uniform -0.01 0.02\n"
                           "resale = fixed\n"
                           "correlation_purchase_rental = 0.6\n");
  const ResolvedScenario r = resolve(s, Catalog::open_builtin());
  const RiskModel& m = r.risk_model;
  EXPECT_EQ(m.rental_rate.distribution, Distribution::uniform);
  EXPECT_EQ(m.rental_rate.low, -0.1);
  EXPECT_EQ(m.rental_rate.high, 0.25);
  EXPECT_EQ(m.purchase_price.distribution, Distribution::triangular);
  EXPECT_EQ(m.purchase_price.high, 0.3);
  EXPECT_EQ(m.tariff.sd, 0.05);
  EXPECT_EQ(m.demand.low, -0.3);
  EXPECT_EQ(m.growth.high, 0.02);
  EXPECT_EQ(m.resale.low, 0);  // fixed: not varied
  EXPECT_EQ(m.resale.high, 0);
  EXPECT_EQ(m.purchase_rental_correlation, 0.6);
  // Not named: the symmetric default.
  EXPECT_EQ(m.hours_per_day.low, -0.25);
  EXPECT_EQ(m.hours_per_day.high, 0.25);
  bool listed = false;
  for (const auto& row : r.inputs) {
    if (row.section == "risk" && row.key == "rental_rate") {
      listed = true;
      EXPECT_EQ(row.text, "uniform -10.0 % .. +25.0 %");
      EXPECT_EQ(row.provenance, "scenario file line 12");
    }
  }
  EXPECT_TRUE(listed);
}

TEST(RiskKeys, badRangesAreRefusedNamingTheKey) {
  EXPECT_EQ(error_of(kHead + "[risk]\nrental_rate = unifrom -0.1 0.1\n"),
            "test.ini:11: [risk] rental_rate: unknown distribution 'unifrom'; did you mean "
            "'uniform'? (write uniform LOW HIGH, triangular LOW MODE HIGH, normal SD or fixed "
            "(relative changes: -0.2 for -20 %))");
  EXPECT_EQ(error_of(kHead + "[risk]\npurchase_price = triangular 0.1 0 0.2\n"),
            "test.ini:11: [risk] purchase_price: expected LOW <= MODE <= HIGH, got 'triangular "
            "0.1 0 0.2'");
  EXPECT_EQ(error_of(kHead + "[risk]\nresale = uniform -1.5 0.5\n"),
            "test.ini:11: [risk] resale: a change below -1 (-100 %) would make the value "
            "negative, got 'uniform -1.5 0.5'");
  // No upper bound let 1e308 through to a NaN NPV (a newcomer's try).
  EXPECT_EQ(error_of(kHead + "[risk]\npurchase_price = uniform 1e308 1e308\n"),
            "test.ini:11: [risk] purchase_price: a change above 100 (+10,000 %, 101 times the "
            "value) is not a range gputco takes, got 'uniform 1e308 1e308'");
  EXPECT_EQ(error_of(kHead + "[risk]\ngrowth = uniform -2 2\n"),
            "test.ini:11: [risk] growth: a change of the monthly growth between -1 and 1 (0.02: "
            "two points more a month), got 'uniform -2 2'");
  EXPECT_EQ(error_of(kHead + "[risk]\ncorrelation_purchase_rental = 2\n"),
            "test.ini:11: [risk] correlation_purchase_rental: expected a correlation (0.6: the "
            "two prices move together) between -1 and 1, got 2");
  EXPECT_EQ(error_of(kHead + "[risk]\ntariff = normal 0.1 0.2\n"),
            "test.ini:11: [risk] tariff: normal takes 1 number(s), got 2 in 'normal 0.1 0.2' "
            "(write uniform LOW HIGH, triangular LOW MODE HIGH, normal SD or fixed (relative "
            "changes: -0.2 for -20 %))");
  EXPECT_NE(error_of(kHead + "[risk]\nhours_per_day = uniform -0.1 0.1\n")
                .find("[risk] hours_per_day: unknown key"),
            std::string::npos);
}

TEST(RiskKeys, aDemandRangeWithoutADemandInTokensIsRefusedAsMovingNothing) {
  // newcomer7: listed as varied, it moved nothing (the load is the concurrent streams); as a
  // currency nothing is converted from (fx.CODE), refused naming the key.
  EXPECT_EQ(resolve_error(kHead + "[risk]\ndemand = uniform -0.3 0.3\n"),
            "test.ini:11: [risk] demand: the workload states no demand in tokens "
            "(tokens_per_day, or requests_per_day with output_tokens_per_request): the draws "
            "would move nothing (its load is its concurrent_streams); state the demand, or write "
            "demand = fixed");
  EXPECT_EQ(resolve_error(kHead + "[risk]\ndemand = fixed\n"), "");
  EXPECT_EQ(resolve_error(with_demand(kHead) + "[risk]\ndemand = uniform -0.3 0.3\n"), "");
}

}  // namespace
}  // namespace gputco
