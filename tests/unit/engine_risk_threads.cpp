// The Monte Carlo on several threads (issue #19): the same figures for any thread count, the
// block streams' seeds, and the percentiles taken without a full sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/plan/sensitivity.hpp"
#include "engine/risk/risk.hpp"
#include "tests/unit/engine_sensitivity_fixture.hpp"

namespace gputco {
namespace {

/// A double printed with 17 significant digits: equal strings mean equal bits.
std::string exact(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

/// Every figure of a result, bit for bit, as text (one line per figure).
std::string figures(const RiskResult& r) {
  std::string out = exact(r.probability_buy_beats_rent) + " " + exact(r.p10_difference) + " " +
                    exact(r.p50_difference) + " " + exact(r.p90_difference) + "\n";
  for (const auto& o : r.options) {
    out += o.id + " " + exact(o.p10_total_cost) + " " + exact(o.p50_total_cost) + " " +
           exact(o.p90_total_cost) + " " + exact(o.probability_lowest_npv) + "\n";
  }
  return out;
}

/// Every path a draw takes: demand and growth drawn, an owned option renting its overflow,
/// a monthly server, a tariff, failures after a warranty, VAT as a cost.
PlanInputs varied_plan() {
  PlanInputs in = test::tiny_plan();
  in.finance.horizon_months = 36;
  in.finance.discount_rate_per_year = 0.08;
  in.finance.vat_rate = 0.19;
  in.finance.vat_reclaimable = false;
  in.site.tariff_per_kwh = 0.25;
  in.workload.tokens_per_day = 2e6;
  in.workload.growth_per_month = 0.02;
  auto& own = in.options[0];
  own.host_cost = 800;
  own.host_power_w = 150;
  own.residual_fraction = 0.3;
  own.maintenance_per_year = 0.05;
  own.annual_failure_rate = 0.05;
  own.warranty_months = 6;
  own.overflow = Overflow::rent;
  own.overflow_option_id = "rent";
  OptionInputs server = in.options[1];
  server.id = "server";
  server.kind = OptionKind::rent_monthly;
  server.price_per_month = 180;
  server.setup_fee = 50;
  in.options.push_back(server);
  return in;
}

RiskModel varied_model() {
  RiskModel m;  // the defaults, plus demand and growth
  m.demand = {Distribution::uniform, -0.3, 0, 0.3, 0};
  m.growth = {Distribution::triangular, -0.01, 0, 0.01, 0};
  return m;
}

TEST(MonteCarloThreads, oneTwoAndThreeThreadsGiveTheSameFiguresBitForBit) {
  const PlanInputs in = varied_plan();
  const Plan plan = make_plan(in);
  const Comparison pair = *comparison(in, plan);
  // 5,000 draws: 5 blocks of kRiskBlockDraws (the last one short), shared unevenly.
  ASSERT_EQ(kRiskBlockDraws, 1024u);
  for (const std::uint64_t seed : {1ull, 20260101ull}) {
    const RiskResult one = monte_carlo(in, plan, pair, 5000, seed, varied_model(), {}, 1);
    const RiskResult two = monte_carlo(in, plan, pair, 5000, seed, varied_model(), {}, 2);
    const RiskResult three = monte_carlo(in, plan, pair, 5000, seed, varied_model(), {}, 3);
    EXPECT_EQ(figures(one), figures(two)) << "seed " << seed;
    EXPECT_EQ(figures(one), figures(three)) << "seed " << seed;
    ASSERT_EQ(one.options.size(), 3u);
    // The draws vary: the figures are not all one value.
    EXPECT_LT(one.options[0].p10_total_cost, one.options[0].p90_total_cost);
  }
  // The correlated path (two normals per draw) too, and more threads than blocks.
  RiskModel correlated = varied_model();
  correlated.purchase_rental_correlation = 0.6;
  EXPECT_EQ(figures(monte_carlo(in, plan, pair, 1500, 7, correlated, {}, 1)),
            figures(monte_carlo(in, plan, pair, 1500, 7, correlated, {}, 8)));
}

TEST(MonteCarloThreads, aLongRunInItsOwnMappingThroughBandsIsTheSameOnAnyThreadCount) {
  // 70,000 draws x 4 columns (3 options and the differences): 2.2 MB of figures, mapped on
  // their own (2 MiB and more), and 70,000 values a column, read through bands (32,768 and
  // more): the same bits on one, two and three threads.
  const PlanInputs in = varied_plan();
  const Plan plan = make_plan(in);
  const Comparison pair = *comparison(in, plan);
  const RiskResult one = monte_carlo(in, plan, pair, 70000, 3, varied_model(), {}, 1);
  const RiskResult two = monte_carlo(in, plan, pair, 70000, 3, varied_model(), {}, 2);
  const RiskResult three = monte_carlo(in, plan, pair, 70000, 3, varied_model(), {}, 3);
  EXPECT_EQ(figures(one), figures(two));
  EXPECT_EQ(figures(one), figures(three));
  // Near the 5,000 draws' figures of another seed (the same distributions: within 3 %).
  const RiskResult few = monte_carlo(in, plan, pair, 5000, 4, varied_model(), {}, 1);
  ASSERT_EQ(one.options.size(), 3u);
  for (size_t k = 0; k < one.options.size(); ++k) {
    const auto& o = one.options[k];
    EXPECT_LT(o.p10_total_cost, o.p50_total_cost) << o.id;
    EXPECT_LT(o.p50_total_cost, o.p90_total_cost) << o.id;
    EXPECT_NEAR(o.p50_total_cost, few.options[k].p50_total_cost,
                0.03 * few.options[k].p50_total_cost)
        << o.id;
  }
  EXPECT_LE(one.p10_difference, one.p50_difference);
  EXPECT_LE(one.p50_difference, one.p90_difference);
  EXPECT_NEAR(one.probability_buy_beats_rent, few.probability_buy_beats_rent, 0.03);
}

TEST(MonteCarloThreads, exchangeRatesAndNoPairGiveTheSameFiguresOnAnyThreadCount) {
  // The [risk] fx draws (issue #16) come from each block's own stream, as the other inputs:
  // a plan in EUR with USD rentals and tariff and a GBP purchase price, both rates drawn.
  PlanInputs in = varied_plan();
  in.finance.currency = "EUR";
  in.site.tariff_converted_from = "USD";
  in.options[0].converted_from.price_per_gpu = "GBP";
  in.options[1].converted_from.rate_per_gpu_hour = "USD";
  in.options[2].converted_from.price_per_month = "USD";
  in.options[2].converted_from.setup_fee = "USD";
  const Plan plan = make_plan(in);
  const Comparison pair = *comparison(in, plan);
  RiskModel fx = varied_model();
  fx.fx["USD"] = {Distribution::uniform, -0.1, 0, 0.1, 0};
  fx.fx["GBP"] = {Distribution::triangular, -0.05, 0, 0.08, 0};
  const RiskResult one = monte_carlo(in, plan, pair, 3000, 11, fx, {}, 1);
  EXPECT_EQ(figures(one), figures(monte_carlo(in, plan, pair, 3000, 11, fx, {}, 2)));
  EXPECT_EQ(figures(one), figures(monte_carlo(in, plan, pair, 3000, 11, fx, {}, 3)));
  // The rates move the figures: without them the same seed gives other totals.
  EXPECT_NE(figures(one), figures(monte_carlo(in, plan, pair, 3000, 11, varied_model(), {}, 1)));
  // Without a pair: the same on any thread count, and each option's percentiles are those of
  // the run with the pair (the pair only adds the difference column; the draws are the same).
  const RiskResult alone_one = monte_carlo(in, plan, std::nullopt, 3000, 11, fx, {}, 1);
  const RiskResult alone_two = monte_carlo(in, plan, std::nullopt, 3000, 11, fx, {}, 2);
  EXPECT_FALSE(alone_one.compared);
  EXPECT_EQ(figures(alone_one), figures(alone_two));
  ASSERT_EQ(alone_one.options.size(), one.options.size());
  for (size_t k = 0; k < one.options.size(); ++k) {
    EXPECT_EQ(exact(alone_one.options[k].p10_total_cost), exact(one.options[k].p10_total_cost));
    EXPECT_EQ(exact(alone_one.options[k].p50_total_cost), exact(one.options[k].p50_total_cost));
    EXPECT_EQ(exact(alone_one.options[k].p90_total_cost), exact(one.options[k].p90_total_cost));
  }
}

TEST(MonteCarloThreads, progressComesFromTheCallingThreadInOrder) {
  const PlanInputs in = varied_plan();
  const Plan plan = make_plan(in);
  std::vector<int> done;
  const auto caller = std::this_thread::get_id();
  bool other_thread = false;
  monte_carlo(
      in, plan, *comparison(in, plan), 10000, 5, {},
      [&](int d, int total) {
        EXPECT_EQ(total, 10000);
        other_thread = other_thread || std::this_thread::get_id() != caller;
        done.push_back(d);
      },
      2);
  EXPECT_FALSE(other_thread);
  ASSERT_FALSE(done.empty());
  EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
  EXPECT_EQ(done.back(), 10000);
}

TEST(MonteCarloThreads, refusesLessThanOneThread) {
  const PlanInputs in = varied_plan();
  const Plan plan = make_plan(in);
  EXPECT_THROW(monte_carlo(in, plan, *comparison(in, plan), 10, 1, {}, {}, 0), EngineError);
}

TEST(MonteCarloThreads, blockSeedsAreSplitMix64sOutputs) {
  // SplitMix64 seeded with 1234567, its first five outputs (the reference sequence of Vigna's
  // splitmix64.c, as the test vectors of Rust's rand_xoshiro quote it): block b's seed is the
  // (b + 1)-th output.
  const std::uint64_t expected[] = {6457827717110365317ull, 3203168211198807973ull,
                                    9817491932198370423ull, 4593380528125082431ull,
                                    16408922859458223821ull};
  for (std::uint64_t b = 0; b < 5; ++b) EXPECT_EQ(risk_block_seed(1234567, b), expected[b]) << b;
  // Seed 0's first output: 0xE220A8397B1DCDAF.
  EXPECT_EQ(risk_block_seed(0, 0), 0xE220A8397B1DCDAFull);
}

TEST(MonteCarloThreads, aDrawAtThePlansValuesStillGivesThePlan) {
  // Zero-width distributions on every block: every draw is the plan, whichever thread drew it.
  const PlanInputs in = varied_plan();
  const Plan plan = make_plan(in);
  RiskModel certain;
  certain.purchase_price = {};
  certain.resale = {};
  certain.tariff = {Distribution::normal, 0, 0, 0, 0};
  certain.hours_per_day = {};
  certain.rental_rate = {Distribution::triangular, 0, 0, 0, 0};
  certain.maintenance = {};
  certain.failure_rate = {};
  const RiskResult r = monte_carlo(in, plan, *comparison(in, plan), 3000, 3, certain, {}, 2);
  ASSERT_EQ(r.options.size(), plan.options.size());
  for (size_t i = 0; i < plan.options.size(); ++i) {
    EXPECT_EQ(r.options[i].p10_total_cost, plan.options[i].total_cost) << r.options[i].id;
    EXPECT_EQ(r.options[i].p90_total_cost, plan.options[i].total_cost) << r.options[i].id;
  }
}

TEST(Percentiles, withoutSortingEqualTheSortedColumnsQuantiles) {
  // Every length from 1 to 60, with and without ties: p10_p50_p90 must equal
  // quantile_sorted on the sorted copy, bit for bit.
  std::mt19937_64 g(99);
  for (size_t n = 1; n <= 60; ++n) {
    for (const bool ties : {false, true}) {
      std::vector<double> values(n);
      for (auto& v : values) {
        const double u = risk::uniform01(g);
        v = ties ? std::floor(u * 5) : u * 1000 - 300;
      }
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      const auto p = risk::p10_p50_p90(values);
      EXPECT_EQ(p[0], risk::quantile_sorted(sorted, 0.1)) << n << " " << ties;
      EXPECT_EQ(p[1], risk::quantile_sorted(sorted, 0.5)) << n << " " << ties;
      EXPECT_EQ(p[2], risk::quantile_sorted(sorted, 0.9)) << n << " " << ties;
    }
  }
  // By hand: 1..11 shuffled: h = 10 p: P10 = x[1] = 2, P50 = x[5] = 6, P90 = x[9] = 10.
  std::vector<double> eleven = {7, 3, 11, 1, 9, 5, 2, 10, 4, 8, 6};
  const auto p = risk::p10_p50_p90(eleven);
  EXPECT_EQ(p[0], 2);
  EXPECT_EQ(p[1], 6);
  EXPECT_EQ(p[2], 10);
  std::vector<double> empty;
  EXPECT_THROW(risk::p10_p50_p90(empty), EngineError);
}

/// p10_p50_p90 of `values` against quantile_sorted of the sorted copy, bit for bit; returns
/// whether `values` were left in their order (read through bands, not reordered).
bool expect_sorted_quantiles(std::vector<double> values, const std::string& what) {
  const std::vector<double> given = values;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const auto p = risk::p10_p50_p90(values.data(), values.size());
  EXPECT_EQ(p[0], risk::quantile_sorted(sorted, 0.1)) << what;
  EXPECT_EQ(p[1], risk::quantile_sorted(sorted, 0.5)) << what;
  EXPECT_EQ(p[2], risk::quantile_sorted(sorted, 0.9)) << what;
  return values == given;
}

TEST(Percentiles, longColumnsReadThroughBandsEqualTheSortedColumnsQuantiles) {
  std::mt19937_64 g(7);
  // Costs as the Monte Carlo draws them, lengths around the first banded one (32,768) and
  // a million: read through bands, left in their order.
  for (const size_t n : {size_t{32768}, size_t{32769}, size_t{100001}, size_t{1000000}}) {
    std::vector<double> costs(n);
    for (auto& v : costs) v = 40000 + 25000 * risk::uniform01(g) * risk::uniform01(g);
    EXPECT_TRUE(expect_sorted_quantiles(costs, "costs " + std::to_string(n))) << n;
  }
  // Buy-minus-rent differences of both signs, a skewed tail.
  std::vector<double> differences(200000);
  for (auto& v : differences) v = -3000 + 9000 * std::pow(risk::uniform01(g), 3);
  EXPECT_TRUE(expect_sorted_quantiles(differences, "differences"));
  // Below 32,768: selection over the whole column, which reorders it.
  std::vector<double> short_column(32767);
  for (auto& v : short_column) v = risk::uniform01(g);
  EXPECT_FALSE(expect_sorted_quantiles(short_column, "short"));
  // Five values only: every band holds a fifth of the column or more, past its room.
  std::vector<double> ties(100000);
  for (auto& v : ties) v = std::floor(risk::uniform01(g) * 5);
  EXPECT_FALSE(expect_sorted_quantiles(ties, "ties"));
  // The sampled positions (every 24th of 100,000 values: n / 4,096) hold the smallest
  // values: the bands lie below every rank and miss them.
  std::vector<double> unlike(100000);
  for (size_t i = 0; i < unlike.size(); ++i) {
    unlike[i] = (i % 24 == 0 ? 0.0 : 1000.0) + risk::uniform01(g);
  }
  EXPECT_FALSE(expect_sorted_quantiles(unlike, "sample unlike the column"));
  // Zeros at the ranks (of -0.0 and 0.0 the selection decides): selected over the column.
  std::vector<double> zeros(100000);
  for (size_t i = 0; i < zeros.size(); ++i) {
    zeros[i] = i % 3 == 0 ? (i % 2 == 0 ? 0.0 : -0.0)
                          : (i % 3 == 1 ? -1.0 : 1.0) * (1 + risk::uniform01(g));
  }
  EXPECT_FALSE(expect_sorted_quantiles(zeros, "zeros"));
  // By hand: 0, 1, ..., 99,999 reversed: h = 99,999 p: P10 = 9,999.9, P50 = 49,999.5,
  // P90 = 89,999.1 (to the rounding of h's fraction).
  std::vector<double> ramp(100000);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<double>(ramp.size() - 1 - i);
  const auto p = risk::p10_p50_p90(ramp.data(), ramp.size());
  EXPECT_NEAR(p[0], 9999.9, 1e-9);
  EXPECT_NEAR(p[1], 49999.5, 1e-9);
  EXPECT_NEAR(p[2], 89999.1, 1e-9);
  EXPECT_EQ(ramp[0], 99999);  // left in its order
}

}  // namespace
}  // namespace gputco
