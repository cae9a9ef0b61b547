#include "engine/finance/finance.hpp"

#include <cmath>
#include <memory>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/finance/discount_grid.hpp"

namespace gputco {

namespace {

void check_annuity(double principal, double rate, int periods) {
  GPUTCO_REQUIRE(std::isfinite(principal) && principal >= 0,
                 "annuity principal must be a non-negative number, got " << principal);
  GPUTCO_REQUIRE(std::isfinite(rate) && rate > -1,
                 "annuity rate per period must be above -100%, got " << rate);
  GPUTCO_REQUIRE(periods >= 1, "annuity needs at least one period, got " << periods);
}

}  // namespace

double annuity_payment(double principal, double rate, int periods) {
  check_annuity(principal, rate, periods);
  const double n = periods;
  if (std::fabs(rate) < kNegligibleRatePerPeriod) return principal / n;
  return rate * principal / (1.0 - std::pow(1.0 + rate, -n));
}

double annuity_balance(double principal, double rate, int periods, int paid) {
  check_annuity(principal, rate, periods);
  GPUTCO_REQUIRE(paid >= 0, "instalments paid must not be negative, got " << paid);
  if (paid >= periods) return 0;
  const double payment = annuity_payment(principal, rate, periods);
  const double k = paid;
  if (std::fabs(rate) < kNegligibleRatePerPeriod) return principal - k * payment;
  const double growth = std::pow(1.0 + rate, k);
  return principal * growth - payment * (growth - 1.0) / rate;
}

double straight_line_depreciation(double cost, double salvage, int life_periods) {
  GPUTCO_REQUIRE(
      std::isfinite(cost) && std::isfinite(salvage),
      "depreciation needs a finite cost and salvage, got " << cost << " and " << salvage);
  GPUTCO_REQUIRE(life_periods >= 1,
                 "useful life must be at least one period, got " << life_periods);
  return (cost - salvage) / life_periods;
}

double net_present_value(const std::vector<double>& flows, double rate) {
  GPUTCO_REQUIRE(std::isfinite(rate) && rate > -1,
                 "discount rate per period must be above -100%, got " << rate);
  double npv = 0;
  double factor = 1;
  for (double flow : flows) {
    npv += flow * factor;
    factor /= 1.0 + rate;
  }
  return npv;
}

namespace {

/// net_present_value(flows, rates[k]) for k = 0..kNpvBatch-1 into npvs[k], every rate by the
/// same operations in the same order as net_present_value (so bit for bit its figures), the
/// rates interleaved: the divisions of one rate depend on each other, those of different
/// rates do not, so the CPU overlaps them (the IRR's scan, issue #19). Rates must be > -1.
/// For flows too long for a DiscountGrid.
void net_present_values(const std::vector<double>& flows, const double (&rates)[kNpvBatch],
                        double (&npvs)[kNpvBatch]) {
  double factor[kNpvBatch], divisor[kNpvBatch], npv[kNpvBatch];
  for (int k = 0; k < kNpvBatch; ++k) {
    factor[k] = 1;
    divisor[k] = 1.0 + rates[k];
    npv[k] = 0;
  }
  for (double flow : flows) {
    for (int k = 0; k < kNpvBatch; ++k) {
      npv[k] += flow * factor[k];
      factor[k] /= divisor[k];
    }
  }
  for (int k = 0; k < kNpvBatch; ++k) npvs[k] = npv[k];
}

}  // namespace

std::optional<double> internal_rate_of_return(const std::vector<double>& flows,
                                              double lowest_rate) {
  GPUTCO_REQUIRE(lowest_rate >= kLowestIrrSearched && lowest_rate < 10.0,
                 "the IRR search starts from -99 % to below +1000 % a period, got " << lowest_rate);
  bool positive = false, negative = false;
  for (double flow : flows) {
    if (!std::isfinite(flow)) return std::nullopt;
    positive = positive || flow > 0;
    negative = negative || flow < 0;
  }
  if (!positive || !negative) return std::nullopt;
  // Scan a grid that is dense near zero (where monthly rates live) for the first sign change.
  // Its rates and discount factors are shared by every scan of as many flows
  // (engine/finance/discount_grid.hpp); longer flows divide as they go. Both give
  // net_present_value's figures bit for bit.
  const std::shared_ptr<const DiscountGrid> grid =
      flows.size() <= kMostGridPeriods ? discount_grid(lowest_rate, flows.size()) : nullptr;
  double a = grid ? grid->rates[0] : irr_scan_rate(lowest_rate, 0);
  double npv_a = net_present_value(flows, a);
  // The grid's NPVs kNpvBatch at a time (the same figures as one at a time), each batch then
  // read in order: at most kNpvBatch - 1 NPVs past the sign change are computed for nothing.
  double rates[kNpvBatch], npvs[kNpvBatch];
  for (int first = 1; first <= kIrrScanSteps; first += kNpvBatch) {
    if (grid) {
      for (int k = 0; k < kNpvBatch; ++k) rates[k] = grid->rates[first + k];
      grid_net_present_values(*grid, flows, static_cast<std::size_t>(first / kNpvBatch), npvs);
    } else {
      for (int k = 0; k < kNpvBatch; ++k) rates[k] = irr_scan_rate(lowest_rate, first + k);
      net_present_values(flows, rates, npvs);
    }
    for (int k = 0; k < kNpvBatch; ++k) {
      const double b = rates[k];
      const double npv_b = npvs[k];
      // Near -100 % a long stream's discount factors overflow ((1 - 0.99)^-600 = 1e1200): such
      // a rate says nothing, and inf - inf is no sign change (it gave an IRR of -100 %).
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
  }
  return std::nullopt;
}

double monthly_from_annual(double annual_rate) {
  return std::pow(1.0 + annual_rate, 1.0 / kMonthsPerYear) - 1.0;
}

double annual_from_monthly(double monthly_rate) {
  return std::pow(1.0 + monthly_rate, kMonthsPerYear) - 1.0;
}

double trend_factor(double trend_per_year, int month) {
  if (month <= 1 || trend_per_year == 0) return 1.0;
  return std::pow(1.0 + trend_per_year, static_cast<double>(month - 1) / kMonthsPerYear);
}

double growth_factor(double growth_per_month, int month) {
  if (month <= 1 || growth_per_month == 0) return 1.0;
  return std::pow(1.0 + growth_per_month, static_cast<double>(month - 1));
}

}  // namespace gputco
