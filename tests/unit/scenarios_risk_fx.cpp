// [risk] fx.CODE (issue #16 item 4): an exchange rate as an uncertain input. The resolver marks
// every amount it converted from another currency (resolve_fx.cpp convert()), the draw of that
// currency's rate moves exactly those amounts, and a key naming a currency the plan never
// converts from is refused naming the key.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/plan/sensitivity.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/overrides.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

/// A EUR plan: "rig" buys two RTX 3090 at a typed 700 EUR each; "cloud" rents two from
/// RunPod at its catalog rate, published in USD and converted at [fx] USD = 0.9 EUR per USD.
/// 10 h/day x 30 days x 12 months; every built-in range held (fixed) but what `risk` adds.
std::string eur_plan(const std::string& risk) {
  return "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\ncurrency = EUR\nhorizon_months = 12\n"
         "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\nhours_per_day = 10\n"
         "days_per_month = 30\n"
         "[site]\ntariff_per_kwh = 0.25\n"
         "[fx]\nUSD = 0.9\n"
         "[option:rig]\nkind = buy\ngpu = rtx-3090\ncount = 2\nprice_per_gpu = 700\n"
         "[option:cloud]\nkind = rent_hourly\ngpu = rtx-3090\ncount = 2\nprovider = runpod\n"
         "[risk]\npurchase_price = fixed\nrental_rate = fixed\nresale = fixed\ntariff = fixed\n"
         "utilization = fixed\nmaintenance = fixed\nfailure_rate = fixed\n" +
         risk;
}

class RiskFx : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& text) {
    return resolve(parse(text), *catalog_);
  }
  static std::string resolve_error(const std::string& text) {
    try {
      resolved(text);
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  }
  static Catalog* catalog_;
};
Catalog* RiskFx::catalog_ = nullptr;

TEST_F(RiskFx, theResolverMarksWhatItConvertedAndTheRangeIsAnInput) {
  const ResolvedScenario r = resolved(eur_plan("fx.USD = uniform -0.1 0.1\n"));
  const OptionInputs& cloud = test::option(r, "cloud");
  const OptionInputs& rig = test::option(r, "rig");
  EXPECT_EQ(cloud.converted_from.rate_per_gpu_hour, "USD");
  EXPECT_EQ(rig.converted_from.price_per_gpu, "");  // typed in EUR
  EXPECT_EQ(r.plan_inputs.site.tariff_converted_from, "");
  ASSERT_EQ(r.risk_model.fx.count("USD"), 1u);
  EXPECT_EQ(r.risk_model.fx.at("USD").low, -0.1);
  EXPECT_EQ(r.risk_model.fx.at("USD").high, 0.1);
  const InputRow* row = test::input(r, "risk", "fx.USD");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->text, "uniform -10.0 % .. +10.0 %");
  EXPECT_EQ(row->provenance, "scenario file line 33");
}

TEST_F(RiskFx, aUsdRentalInAEurPlanAtTheRatesBounds) {
  for (const double change : {-0.1, 0.1}) {
    const std::string bound = change < 0 ? "-0.1" : "0.1";
    const ResolvedScenario r = resolved(eur_plan("fx.USD = uniform " + bound + " " + bound + "\n"));
    const Plan plan = make_plan(r.plan_inputs);
    const RiskResult mc =
        monte_carlo(r.plan_inputs, plan, comparison(r.plan_inputs, plan), 20, 1, r.risk_model);
    const InputRow* rate = test::input(r, "cloud", "rate_per_gpu_hour");
    ASSERT_NE(rate, nullptr);
    ASSERT_TRUE(rate->published_amount.has_value());
    // cloud: the catalog's USD rate per device-hour x 0.9 EUR/USD x (1 + change) x 2 devices
    // x 10 h x 30 days x 12 months (3600 h). RunPod's RTX 3090 at 0.43 USD: 0.43 x 0.9 = 0.387
    // EUR; at -10 % 0.3483 x 7200 = 2507.76 EUR, at +10 % 0.4257 x 7200 = 3065.04 EUR.
    EXPECT_DOUBLE_EQ(*rate->published_amount, 0.43);
    const double expected = change < 0 ? 2507.76 : 3065.04;
    const RiskResult::OptionPercentiles* cloud = nullptr;
    const RiskResult::OptionPercentiles* rig = nullptr;
    for (const auto& o : mc.options) {
      if (o.id == "cloud") cloud = &o;
      if (o.id == "rig") rig = &o;
    }
    ASSERT_NE(cloud, nullptr);
    ASSERT_NE(rig, nullptr);
    EXPECT_NEAR(cloud->p50_total_cost, expected, 1e-9 * expected) << bound;
    EXPECT_EQ(cloud->p10_total_cost, cloud->p90_total_cost);
    // rig: everything in EUR, untouched by the USD rate: the plan's own total.
    double rig_total = 0;
    for (const auto& o : plan.options) rig_total = o.id == "rig" ? o.total_cost : rig_total;
    EXPECT_DOUBLE_EQ(rig->p50_total_cost, rig_total) << bound;
  }
}

TEST_F(RiskFx, aCatalogSystemsHostOnlyPriceMovesWithItsCurrency) {
  // Issue #21: the rig-4x-rtx-3090 system's host-only price (1,500 USD) and its used cards'
  // catalog prices (USD) are all converted from USD, so a +10 % USD draw (0.9 -> 0.99 EUR per
  // USD) gives the rig the total of the same plan resolved at USD = 0.99. Before, the host
  // stayed at 0.9 (1,500 x 0.09 = 135 EUR short of it, before resale).
  const std::string plan_text =
      "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\ncurrency = EUR\nhorizon_months = 12\n"
      "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\nhours_per_day = 10\n"
      "days_per_month = 30\n[site]\ntariff_per_kwh = 0.25\n"
      "[option:rig]\nkind = buy\nsystem = rig-4x-rtx-3090\ncondition = used\n";
  const std::string held =
      "[risk]\npurchase_price = fixed\nrental_rate = fixed\nresale = fixed\ntariff = fixed\n"
      "utilization = fixed\nmaintenance = fixed\nfailure_rate = fixed\n";
  const ResolvedScenario drawn =
      resolved(plan_text + "[fx]\nUSD = 0.9\n" + held + "fx.USD = uniform 0.1 0.1\n");
  EXPECT_EQ(test::option(drawn, "rig").converted_from.host_cost, "USD");
  EXPECT_EQ(test::option(drawn, "rig").converted_from.price_per_gpu, "USD");
  const Plan plan = make_plan(drawn.plan_inputs);
  const RiskResult mc = monte_carlo(drawn.plan_inputs, plan, comparison(drawn.plan_inputs, plan),
                                    20, 1, drawn.risk_model);
  const ResolvedScenario at_rate = resolved(plan_text + "[fx]\nUSD = 0.99\n" + held);
  const Plan moved = make_plan(at_rate.plan_inputs);
  ASSERT_EQ(mc.options.size(), 1u);
  ASSERT_EQ(moved.options.size(), 1u);
  EXPECT_NEAR(mc.options[0].p50_total_cost, moved.options[0].total_cost,
              1e-9 * moved.options[0].total_cost);
}

TEST_F(RiskFx, keysNamingNoConvertedCurrencyAreRefusedNamingTheKey) {
  // The plan converts from USD only: GBP and the plan's own EUR would move nothing.
  EXPECT_EQ(resolve_error(eur_plan("fx.GBP = uniform -0.1 0.1\n")),
            "test.ini:33: [risk] fx.GBP: no amount of this plan is converted from GBP (the draws "
            "would move nothing); its converted currencies: fx.USD");
  EXPECT_EQ(resolve_error(eur_plan("fx.EUR = uniform -0.1 0.1\n")),
            "test.ini:33: [risk] fx.EUR: EUR is the plan currency: no amount is converted from "
            "it (the draws would move nothing); its converted currencies: fx.USD");
  // Not a currency code, and a bad range: parse errors naming the key.
  EXPECT_EQ(error_of(eur_plan("fx.US = uniform -0.1 0.1\n")),
            "test.ini:33: [risk] fx.US: expected fx. and an ISO 4217 currency code in capitals "
            "(fx.USD: the exchange rate, plan currency per 1 USD)");
  EXPECT_EQ(error_of(eur_plan("fx.USD = uniform -2 0.1\n")),
            "test.ini:33: [risk] fx.USD: a change below -1 (-100 %) would make the value "
            "negative, got 'uniform -2 0.1'");
}

TEST_F(RiskFx, aConvertedCurrencyNotNamedIsListedAndHeld) {
  const ResolvedScenario r = resolved(eur_plan(""));
  ASSERT_EQ(r.risk_model.fx.count("USD"), 1u);
  const UncertainInput& usd = r.risk_model.fx.at("USD");
  EXPECT_EQ(usd.low, 0);
  EXPECT_EQ(usd.high, 0);
  EXPECT_EQ(test::input(r, "risk", "fx.USD"), nullptr);  // not set by the scenario
}

TEST(RiskFxSet, setTakesAnExchangeRatesKey) {
  // --set risk.fx.USD=...: the section is risk, the key fx.USD (its own dot kept).
  const ScenarioOverride o = parse_set_option("risk.fx.USD=uniform -0.05 0.05");
  EXPECT_EQ(o.section, "risk");
  EXPECT_EQ(o.key, "fx.USD");
  EXPECT_EQ(*o.value, "uniform -0.05 0.05");
}

}  // namespace
}  // namespace gputco
