// The Monte Carlo's exchange rates (issue #16 item 4, [risk] fx.CODE): a draw of a rate moves
// exactly the amounts converted from that currency, nothing else; and a plan with nothing to
// compare still gets every option's percentiles.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "engine/plan/sensitivity.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

/// Nothing uncertain but what a test sets: every built-in range at zero width.
RiskModel nothing_varied() {
  RiskModel m;
  m.purchase_price = {};
  m.resale = {};
  m.tariff = {Distribution::normal, 0, 0, 0, 0};
  m.hours_per_day = {};
  m.rental_rate = {Distribution::triangular, 0, 0, 0, 0};
  m.maintenance = {};
  m.failure_rate = {};
  return m;
}

/// A range at one point: every draw is the factor 1 + change (zero width draws nothing).
UncertainInput at(double change) {
  return {Distribution::uniform, change, 0, change, 0};
}

/// The tiny plan in EUR: "own" buys one card at 1000 EUR (typed, or converted from GBP),
/// "rent" pays 1.00 EUR an hour converted from USD (a US provider's catalog rate), "server" a
/// monthly server at 180 EUR a month and a 50 EUR setup fee, both converted from USD.
/// 10 h/day x 30 days x 12 months = 3600 hours; tariff 0, discount rate 0.
PlanInputs eur_plan_with_usd_rentals() {
  PlanInputs in = test::tiny_plan();
  in.finance.currency = "EUR";
  in.options[1].converted_from.rate_per_gpu_hour = "USD";
  OptionInputs server = in.options[1];
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.rate_per_gpu_hour = 0;
  server.converted_from = {};
  server.price_per_month = 180;
  server.setup_fee = 50;
  server.converted_from.price_per_month = "USD";
  server.converted_from.setup_fee = "USD";
  in.options.push_back(server);
  return in;
}

RiskResult run(const PlanInputs& in, const RiskModel& model, int draws = 100) {
  const Plan plan = make_plan(in);
  return monte_carlo(in, plan, comparison(in, plan), draws, 1, model);
}

double p50_of(const RiskResult& r, const std::string& id) {
  for (const auto& o : r.options) {
    if (o.id == id) return o.p50_total_cost;
  }
  throw std::logic_error("no option " + id);
}

TEST(MonteCarloFx, aUsdRateAtItsBoundsMovesExactlyTheUsdAmounts) {
  const PlanInputs in = eur_plan_with_usd_rentals();
  RiskModel low = nothing_varied();
  low.fx["USD"] = at(-0.1);  // the EUR per USD rate 10 % lower
  const RiskResult at_low = run(in, low);
  // rent: 3600 h x 1.00 EUR x 0.9 = 3240 EUR.
  EXPECT_NEAR(p50_of(at_low, "rent"), 3240, 1e-9);
  EXPECT_EQ(at_low.options[1].p10_total_cost, at_low.options[1].p90_total_cost);
  // server: (12 x 180 + 50) x 0.9 = 2210 x 0.9 = 1989 EUR (the setup fee too).
  EXPECT_NEAR(p50_of(at_low, "server"), 1989, 1e-9);
  // own: 1000 EUR typed in the plan currency, not moved.
  EXPECT_DOUBLE_EQ(p50_of(at_low, "own"), 1000);
  // Buying (1000) beats renting (3240) in every draw; buy - rent = 1000 - 3240 = -2240.
  EXPECT_EQ(at_low.probability_buy_beats_rent, 1.0);
  EXPECT_NEAR(at_low.p50_difference, -2240, 1e-9);

  RiskModel high = nothing_varied();
  high.fx["USD"] = at(0.1);
  const RiskResult at_high = run(in, high);
  // rent: 3600 x 1.1 = 3960; server: 2210 x 1.1 = 2431; own: 1000.
  EXPECT_NEAR(p50_of(at_high, "rent"), 3960, 1e-9);
  EXPECT_NEAR(p50_of(at_high, "server"), 2431, 1e-9);
  EXPECT_DOUBLE_EQ(p50_of(at_high, "own"), 1000);
}

TEST(MonteCarloFx, aRateMovesOnlyItsOwnCurrency) {
  PlanInputs in = eur_plan_with_usd_rentals();
  in.options[0].converted_from.price_per_gpu = "GBP";  // a UK dealer's price
  RiskModel m = nothing_varied();
  m.fx["GBP"] = at(0.2);
  m.fx["USD"] = at(0);  // listed, held
  const RiskResult r = run(in, m);
  // own: 1000 x 1.2 = 1200 EUR (no tariff, no resale); the USD rentals keep 3600 and 2210.
  EXPECT_NEAR(p50_of(r, "own"), 1200, 1e-9);
  EXPECT_DOUBLE_EQ(p50_of(r, "rent"), 3600);
  EXPECT_DOUBLE_EQ(p50_of(r, "server"), 2210);
}

TEST(MonteCarloFx, aUniformRateStaysWithinItsBounds) {
  const PlanInputs in = eur_plan_with_usd_rentals();
  RiskModel m = nothing_varied();
  m.fx["USD"] = {Distribution::uniform, -0.1, 0, 0.1, 0};
  const RiskResult r = run(in, m, 2000);
  // rent between 3240 (-10 %) and 3960 (+10 %), spread by the draws.
  EXPECT_GE(r.options[1].p10_total_cost, 3240);
  EXPECT_LE(r.options[1].p90_total_cost, 3960);
  EXPECT_LT(r.options[1].p10_total_cost, r.options[1].p90_total_cost);
  EXPECT_DOUBLE_EQ(r.options[0].p10_total_cost, 1000);
  EXPECT_DOUBLE_EQ(r.options[0].p90_total_cost, 1000);
}

TEST(MonteCarloFx, aHeldRateKeepsEverySeedsNumbers) {
  // The rates are drawn last and a zero width draws nothing: listing USD as held changes no
  // draw of the default model.
  const PlanInputs in = eur_plan_with_usd_rentals();
  RiskModel held;
  held.fx["USD"] = at(0);
  const RiskResult with = run(in, held, 3000);
  const RiskResult without = run(in, RiskModel{}, 3000);
  ASSERT_EQ(with.options.size(), without.options.size());
  for (size_t i = 0; i < with.options.size(); ++i) {
    EXPECT_EQ(with.options[i].p10_total_cost, without.options[i].p10_total_cost);
    EXPECT_EQ(with.options[i].p90_total_cost, without.options[i].p90_total_cost);
  }
  EXPECT_EQ(with.probability_buy_beats_rent, without.probability_buy_beats_rent);
}

TEST(MonteCarloFx, anOverflowRateMovesWithItsRentalsCurrency) {
  // The owned option rents its peaks from "rent" (converted from USD): its overflow rate,
  // rate x count / goodput, moves with the USD rate as the rental's own rate does. Reference:
  // the plan with the rental's rate typed 10 % higher.
  PlanInputs in = eur_plan_with_usd_rentals();
  in.workload.tokens_per_day = 2e7;  // more than one card serves in 10 h: peaks overflow
  in.options[0].overflow = Overflow::rent;
  in.options[0].overflow_option_id = "rent";
  RiskModel m = nothing_varied();
  m.fx["USD"] = at(0.1);
  const RiskResult r = run(in, m);
  PlanInputs dearer = in;
  dearer.options[1].rate_per_gpu_hour = 1.1;
  const Plan reference = make_plan(dearer);
  EXPECT_NEAR(p50_of(r, "own"), reference.options[0].total_cost,
              1e-9 * reference.options[0].total_cost);
  EXPECT_GT(reference.options[0].total_cost, make_plan(in).options[0].total_cost)
      << "the test needs an overflow to move";
}

TEST(MonteCarloFx, withoutAPairEveryOptionsPercentilesAndNoProbability) {
  PlanInputs in = test::tiny_plan();
  in.options.pop_back();  // only "own": nothing to compare
  const Plan plan = make_plan(in);
  ASSERT_FALSE(comparison(in, plan).has_value());
  RiskModel m = nothing_varied();
  m.purchase_price = at(0.15);
  const RiskResult r = monte_carlo(in, plan, std::nullopt, 50, 1, m);
  EXPECT_FALSE(r.compared);
  EXPECT_TRUE(r.owned_option_id.empty());
  EXPECT_EQ(r.probability_buy_beats_rent, 0);
  ASSERT_EQ(r.options.size(), 1u);
  // 1000 x 1.15 = 1150.
  EXPECT_NEAR(r.options[0].p50_total_cost, 1150, 1e-9);
}

TEST(MonteCarloFx, aBadRangeIsRefusedNamingTheCurrency) {
  const PlanInputs in = eur_plan_with_usd_rentals();
  RiskModel m;
  m.fx["USD"] = {Distribution::uniform, -1.5, 0, 0.1, 0};
  try {
    run(in, m);
    FAIL() << "expected an EngineError";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("exchange rate USD"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gputco
