// Currencies (issue #16 item 3): a plan in any ISO 4217 currency, exchange rates from the
// catalog (the ECB's dated reference rates, directly, inverted or crossed through EUR) or the
// scenario's [fx] section over them, each rate an input of its own with its provenance.
#include <gtest/gtest.h>

#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/currencies.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/scenarios_fixtures.hpp"

namespace gputco {
namespace {

using test::error_of;
using test::parse;

/// A plan in `currency` with one used RTX 3090 at the catalog's price (published in USD).
std::string scenario(const std::string& currency, const std::string& fx = "") {
  return "[scenario]\nas_of = 2026-11-27\nstart = 2027-01\ncurrency = " + currency +
         "\n"
         "[workload]\nmodel = qwen3-32b\nquant = Q4_K_M\n"
         "[site]\ntariff_per_kwh = 0.25\n"
         "[option:rig]\nkind = buy\ngpu = rtx-3090\ncondition = used\ncount = 2\n"
         "host_cost = 900\n" +
         fx;
}

TEST(Currencies, anyActiveIso4217Code) {
  for (const char* code : {"EUR", "USD", "GBP", "CHF", "JPY", "SEK", "XOF", "ZWG"}) {
    EXPECT_TRUE(is_iso_4217_currency(code)) << code;
  }
  // Lower case, withdrawn (Bulgaria's lev since the euro on 2026-01-01), a metal, made up.
  for (const char* code : {"eur", "BGN", "HRK", "XAU", "XXX", "ABC", "EURO", ""}) {
    EXPECT_FALSE(is_iso_4217_currency(code)) << code;
  }
}

TEST(Currencies, parsedWithTheirRates) {
  const Scenario s = parse(scenario("GBP", "[fx]\nUSD = 0.74\nEUR = 0.86\n"));
  EXPECT_EQ(s.currency, "GBP");
  EXPECT_DOUBLE_EQ(s.fx.at("USD"), 0.74);
  EXPECT_DOUBLE_EQ(s.fx.at("EUR"), 0.86);
  EXPECT_NE(error_of(scenario("eur"))
                .find("[scenario] currency: expected an ISO 4217 currency code in capitals"),
            std::string::npos);
  // Gold's code is ISO 4217 but no money: said so, not "expected an ISO 4217 code".
  EXPECT_NE(error_of(scenario("XAU"))
                .find("[scenario] currency: 'XAU' is an ISO 4217 code of a precious metal, fund "
                      "or test, not a currency a plan is kept in"),
            std::string::npos);
  EXPECT_NE(error_of(scenario("EUR", "[fx]\nUS = 0.9\n"))
                .find("[fx] US: expected an ISO 4217 currency code as the key"),
            std::string::npos);
  EXPECT_NE(error_of(scenario("EUR", "[fx]\nUSD = 0\n"))
                .find("[fx] USD: expected an exchange rate (the plan currency per 1 USD) between"),
            std::string::npos);
  EXPECT_NE(error_of(scenario("EUR", "[fx]\nEUR = 1\n"))
                .find("[fx] EUR: the plan's own currency needs no exchange rate"),
            std::string::npos);
}

class FxResolve : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(Catalog::open_builtin()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static ResolvedScenario resolved(const std::string& text) {
    return resolve(parse(text), *catalog_);
  }
  static Catalog* catalog_;
};
Catalog* FxResolve::catalog_ = nullptr;

TEST_F(FxResolve, theScenariosRateOverridesTheCatalogs) {
  const ResolvedScenario catalog_rate = resolved(scenario("EUR"));
  const ResolvedScenario typed = resolved(scenario("EUR", "[fx]\nUSD = 0.5\n"));
  // The catalog's latest EUR/USD before as_of is the ECB's 1.1637 of 2026-05-27: 1 USD =
  // 1 / 1.1637 EUR. At 0.5 EUR per USD the same USD price costs 0.5 x 1.1637 = 0.58185 times
  // as many euros.
  const double by_catalog = test::option(catalog_rate, "rig").price_per_gpu;
  const double by_scenario = test::option(typed, "rig").price_per_gpu;
  EXPECT_NEAR(by_scenario / by_catalog, 0.58185, 1e-12);
  const InputRow* rate = test::input(typed, "fx", "USD");
  ASSERT_NE(rate, nullptr);
  EXPECT_DOUBLE_EQ(*rate->value, 0.5);
  EXPECT_EQ(rate->unit, "EUR/USD");
  EXPECT_EQ(rate->provenance, "scenario file line 17");
  const InputRow* catalog_row = test::input(catalog_rate, "fx", "USD");
  ASSERT_NE(catalog_row, nullptr);
  EXPECT_NEAR(*catalog_row->value, 1 / 1.1637, 1e-12);
  EXPECT_NE(catalog_row->provenance.find("observed 2026-05-27"), std::string::npos)
      << catalog_row->provenance;
  // The price keeps its published amount: price = amount x rate.
  const InputRow* price = test::input(typed, "rig", "price_per_gpu");
  ASSERT_NE(price, nullptr);
  ASSERT_TRUE(price->published_amount.has_value());
  EXPECT_EQ(price->published_currency, "USD");
  EXPECT_NEAR(*price->value, *price->published_amount * 0.5, 1e-9);
}

TEST_F(FxResolve, aCrossRateThroughTheEuro) {
  // GBP per USD: the catalog has EUR/GBP 0.8641 (ECB, 2026-05-08) and EUR/USD 1.1637
  // (2026-05-27) and 1.1761 (2026-05-08), no USD/GBP. Both legs of one date, the latest both
  // have (issue 38), 2026-05-08: 1 USD = 0.8641 / 1.1761 GBP = 0.734716...
  const ResolvedScenario r = resolved(scenario("GBP"));
  const InputRow* rate = test::input(r, "fx", "USD");
  ASSERT_NE(rate, nullptr);
  EXPECT_NEAR(*rate->value, 0.8641 / 1.1761, 1e-12);
  EXPECT_NE(rate->provenance.find("cross rate through EUR"), std::string::npos) << rate->provenance;
  // Both legs are on the Sources sheet.
  int legs = 0;
  for (const auto& row : r.sources) legs += row.what.rfind("FX ", 0) == 0 ? 1 : 0;
  EXPECT_EQ(legs, 2);
}

TEST_F(FxResolve, aCrossRateOfTheEcbsOlderDay) {
  // CHF per USD: EUR/CHF 0.9394 is of 2025-02-28 only; EUR/USD of that day is 1.0411 (before
  // issue 38 the later 1.1637 of 2026-05-27 was crossed with it): 1 USD = 0.9394 / 1.0411 =
  // 0.902315... CHF, both legs of 2025-02-28 on the Sources sheet.
  const ResolvedScenario r = resolved(scenario("CHF"));
  EXPECT_NEAR(*test::input(r, "fx", "USD")->value, 0.9394 / 1.0411, 1e-12);
  int legs = 0;
  for (const auto& row : r.sources) {
    if (row.what == "FX EUR/CHF" || row.what == "FX USD/EUR") {
      ++legs;
      EXPECT_EQ(row.observed_on, "2025-02-28") << row.what;
      EXPECT_TRUE(row.stale);  // older than max_price_age_days as of 2026-11-27
    }
  }
  EXPECT_EQ(legs, 2);
}

TEST_F(FxResolve, noRateNamesTheValueAndTheFxKey) {
  try {
    resolved(scenario("AED"));
    FAIL() << "an AED plan of USD prices needs a rate (the ECB quotes no AED)";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the catalog has no USD/AED exchange rate as of 2026-11-27"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("give it as [fx] USD = AED per USD"), std::string::npos) << what;
  }
  // With the rate given the plan resolves, the rate an input of its own: 3.6725 AED per USD
  // (the dirham's peg), so a price is its USD amount x 3.6725.
  const ResolvedScenario r = resolved(scenario("AED", "[fx]\nUSD = 3.6725\n"));
  EXPECT_DOUBLE_EQ(*test::input(r, "fx", "USD")->value, 3.6725);
  const InputRow* price = test::input(r, "rig", "price_per_gpu");
  ASSERT_NE(price, nullptr);
  ASSERT_TRUE(price->published_amount.has_value());
  EXPECT_NEAR(*price->value, *price->published_amount * 3.6725, 1e-9);
}

// Issue 38: "exchange rates of different dates are crossed (CHF of 2025-02 with USD of
// 2026-05)". A cross rate through EUR takes both legs of one date: the latest both have.
TEST(CrossRates, bothLegsOfTheLatestDateTheyShare) {
  const auto data = test::fixture_data("fx_dates_data", "fx_dates");
  const std::string file = (data.parent_path() / "fx.sqlite").string();
  build_catalog(data.string(), file);
  const Catalog catalog = Catalog::open_file(file);
  auto plan = [&](const std::string& tariff) {
    return resolve(parse("[scenario]\nas_of = 2026-06-01\nstart = 2027-01\ncurrency = USD\n"
                         "[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff = " +
                         tariff +
                         "\n[option:r]\nkind = rent_hourly\ngpu = h100-sxm\n"
                         "rate_per_gpu_hour = 2.5\n"),
                   catalog);
  };
  // CHF: its latest rate is of 2026-03-02 (EUR/CHF 0.95); EUR/USD has 1.16 of 2026-05-27 and
  // 1.10 of 2026-03-02: the cross takes 1.10. 1.10 / 0.95 = 1.157895 USD per CHF, so the
  // tariff 0.20 CHF is 0.231579 USD (with the later USD leg it would be 0.244211).
  const ResolvedScenario ch = plan("ch-business");
  const InputRow* fx = test::input(ch, "fx", "CHF");
  ASSERT_NE(fx, nullptr);
  EXPECT_NEAR(*fx->value, 1.10 / 0.95, 1e-12);
  EXPECT_NE(fx->provenance.find("observed 2026-03-02"), std::string::npos) << fx->provenance;
  EXPECT_EQ(fx->provenance.find("2026-05-27"), std::string::npos) << fx->provenance;
  for (const auto& w : ch.warnings) {
    EXPECT_EQ(w.find("exchange rates of different dates"), std::string::npos) << w;
  }
  // GBP: the only rate is of 2025-02-28, a date EUR/USD lacks: each leg's latest, and the plan
  // says so, each pair with its date. 1.16 / 0.85 = 1.364706 USD per GBP.
  const ResolvedScenario gb = plan("gb-business");
  const InputRow* gbp = test::input(gb, "fx", "GBP");
  ASSERT_NE(gbp, nullptr);
  EXPECT_NEAR(*gbp->value, 1.16 / 0.85, 1e-12);
  bool said = false;
  for (const auto& w : gb.warnings) {
    if (w.find("exchange rates of different dates: ") == std::string::npos) continue;
    said = true;
    EXPECT_NE(w.find(" of 2025-02-28"), std::string::npos) << w;
    EXPECT_NE(w.find("EUR/USD of 2026-05-27"), std::string::npos) << w;
  }
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace gputco
