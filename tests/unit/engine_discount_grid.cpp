// The IRR scan's shared grid of rates and discount factors (engine/finance/discount_grid.hpp): its
// NPVs are net_present_value's bit for bit, and internal_rate_of_return with it finds the very
// double the scan found dividing as it went (issue #19).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/finance/discount_grid.hpp"
#include "engine/finance/finance.hpp"

namespace gputco {
namespace {

/// The bits of a double: equal bits are the same figure (NaN included).
std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// internal_rate_of_return as it was before the grid: every NPV of the scan by
/// net_present_value, rate by rate (the batches gave the same figures).
std::optional<double> dividing_irr(const std::vector<double>& flows, double lowest_rate) {
  bool positive = false, negative = false;
  for (double flow : flows) {
    if (!std::isfinite(flow)) return std::nullopt;
    positive = positive || flow > 0;
    negative = negative || flow < 0;
  }
  if (!positive || !negative) return std::nullopt;
  double a = irr_scan_rate(lowest_rate, 0);
  double npv_a = net_present_value(flows, a);
  for (int i = 1; i <= kIrrScanSteps; ++i) {
    const double b = irr_scan_rate(lowest_rate, i);
    const double npv_b = net_present_value(flows, b);
    if (!std::isfinite(npv_a) || !std::isfinite(npv_b)) {
      a = b;
      npv_a = npv_b;
      continue;
    }
    if (npv_a == 0) return a;
    if ((npv_a < 0) != (npv_b < 0)) {
      double lo = a, hi = b, npv_lo = npv_a;
      for (int step = 0; step < 200 && hi - lo > 1e-12; ++step) {
        const double mid = 0.5 * (lo + hi);
        const double npv_mid = net_present_value(flows, mid);
        if ((npv_mid < 0) == (npv_lo < 0)) {
          lo = mid;
          npv_lo = npv_mid;
        } else {
          hi = mid;
        }
      }
      return 0.5 * (lo + hi);
    }
    a = b;
    npv_a = npv_b;
  }
  return std::nullopt;
}

/// A saving of `months` months: an outlay, then a monthly saving with a wobble and a resale.
std::vector<double> saving_of(std::size_t months, double outlay, double monthly) {
  std::vector<double> flows(months + 1);
  flows[0] = -outlay;
  for (std::size_t m = 1; m <= months; ++m) {
    flows[m] = monthly * (1.0 + 0.1 * std::sin(static_cast<double>(m))) + (m % 7 == 0 ? 0 : 0.3);
  }
  if (months >= 2) flows[months] += 0.2 * outlay;
  return flows;
}

TEST(DiscountGrid, ratesAreTheScansRates) {
  const auto grid = discount_grid(kLowestIrrSearched, 37);
  ASSERT_EQ(grid->rates.size(), static_cast<std::size_t>(kIrrScanSteps + 1));
  EXPECT_EQ(bits(grid->rates[0]), bits(irr_scan_rate(kLowestIrrSearched, 0)));
  EXPECT_NEAR(grid->rates[0], -0.99, 1e-12);
  EXPECT_NEAR(grid->rates[kIrrScanSteps], 10.0, 1e-12);
  for (int i = 0; i <= kIrrScanSteps; ++i) {
    ASSERT_EQ(bits(grid->rates[i]), bits(irr_scan_rate(kLowestIrrSearched, i))) << i;
  }
  // Equal steps in log(1 + r): rate 1000 of a scan from -99 % is 0.01 x 1100^(1/2) - 1.
  EXPECT_NEAR(grid->rates[1000], std::sqrt(0.01 * 11.0) - 1.0, 1e-12);
}

TEST(DiscountGrid, npvsAreNetPresentValuesBitForBit) {
  for (const double lowest : {kLowestIrrSearched, 0.0}) {
    for (const std::size_t months : {std::size_t{0}, std::size_t{1}, std::size_t{36},
                                     std::size_t{119}, kMostGridPeriods - 1}) {
      const std::vector<double> flows = saving_of(months, 12'345.67, 456.78);
      const auto grid = discount_grid(lowest, flows.size());
      ASSERT_EQ(grid->periods, flows.size());
      for (std::size_t batch = 0; batch < kIrrScanSteps / kNpvBatch; ++batch) {
        double npvs[kNpvBatch];
        grid_net_present_values(*grid, flows, batch, npvs);
        for (int k = 0; k < kNpvBatch; ++k) {
          const double rate = grid->rates[1 + batch * kNpvBatch + k];
          ASSERT_EQ(bits(npvs[k]), bits(net_present_value(flows, rate)))
              << "lowest " << lowest << ", " << months << " months, rate " << rate;
        }
      }
    }
  }
}

TEST(DiscountGrid, overflowingNpvsAreTheSameNonFiniteNpvs) {
  // At -99 % a month the factor of month 120 is 1e240: a flow of 1e100 there overflows to an
  // infinity, as net_present_value gives it.
  std::vector<double> flows(kMostGridPeriods, 0.0);
  flows[0] = -1e100;
  flows[60] = 1e100;
  flows[kMostGridPeriods - 1] = -1e100;
  const auto grid = discount_grid(kLowestIrrSearched, flows.size());
  double npvs[kNpvBatch];
  grid_net_present_values(*grid, flows, 0, npvs);
  EXPECT_FALSE(std::isfinite(npvs[0]));
  for (int k = 0; k < kNpvBatch; ++k) {
    EXPECT_EQ(bits(npvs[k]), bits(net_present_value(flows, grid->rates[1 + k])));
  }
}

TEST(DiscountGrid, theIrrIsTheDividingScansDouble) {
  const std::vector<std::vector<double>> cases = {
      {-1000, 300, 400, 500},                        // 8.9 % a period
      {-100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},          // -37 %
      {-1, 12},                                      // +1100 %: beyond the scan, none
      {100, -50, -60},                               // a loan: 6.4 %
      saving_of(36, 9'000, 400),                     // a rig paid back within the horizon
      saving_of(36, 90'000, 400),                    // never paid back: a negative rate
      saving_of(kMostGridPeriods - 1, 20'000, 250),  // the longest flows a grid is made for
      saving_of(600, 50'000, 250),                   // the longest horizon: divides as it goes
      saving_of(kMostGridPeriods + 40, 5'000, 60),   // just past the grids
  };
  for (const auto& flows : cases) {
    for (const double lowest : {kLowestIrrSearched, 0.0}) {
      const auto expected = dividing_irr(flows, lowest);
      const auto got = internal_rate_of_return(flows, lowest);
      ASSERT_EQ(got.has_value(), expected.has_value()) << flows.size() << " flows";
      if (got) {
        EXPECT_EQ(bits(*got), bits(*expected)) << flows.size() << " flows: " << *got;
      }
    }
  }
  EXPECT_NEAR(*internal_rate_of_return({-1000, 300, 400, 500}), 0.0889633947, 1e-9);
  EXPECT_FALSE(internal_rate_of_return({-1, 12}).has_value());
  // The cases above compare rates found, not only their absence.
  EXPECT_NEAR(*internal_rate_of_return({100, -50, -60}), 0.0639, 1e-4);
  EXPECT_LT(*internal_rate_of_return(saving_of(36, 90'000, 400)), 0);
  EXPECT_GT(*internal_rate_of_return(saving_of(600, 50'000, 250)), 0);
  EXPECT_GT(*internal_rate_of_return(saving_of(kMostGridPeriods - 1, 20'000, 250)), 0);
  EXPECT_GT(*internal_rate_of_return(saving_of(kMostGridPeriods + 40, 5'000, 60)), 0);
}

TEST(DiscountGrid, keptGridsAreSharedAndStayValidWhenDropped) {
  const auto first = discount_grid(0.0, 25);
  EXPECT_EQ(discount_grid(0.0, 25).get(), first.get());
  EXPECT_NE(discount_grid(kLowestIrrSearched, 25).get(), first.get());
  // Enough long grids to drop it from the kept ones (8 MiB): the pointer held stays whole.
  for (std::size_t periods = kMostGridPeriods - 5; periods <= kMostGridPeriods; ++periods) {
    EXPECT_EQ(discount_grid(0.0, periods)->periods, periods);
  }
  EXPECT_EQ(first->periods, 25u);
  EXPECT_EQ(first->batch_factors.size(), 25u * kIrrScanSteps);
  EXPECT_EQ(first->batch_factors[0], 1.0);
  EXPECT_THROW(discount_grid(0.0, 0), EngineError);
  EXPECT_THROW(discount_grid(0.0, kMostGridPeriods + 1), EngineError);
  EXPECT_THROW(discount_grid(-1.0, 10), EngineError);
}

}  // namespace
}  // namespace gputco
