// Financial arithmetic of the plan: annuities, straight-line depreciation, discounting,
// the internal rate of return, and growth and trend factors. Pure functions, plain numbers;
// each says which spreadsheet function gives the same value.
#pragma once

#include <optional>
#include <vector>

namespace gputco {

/// Annuity rates per period below this in magnitude, 1e-9, are 0: the zero-rate formulas
/// apply. At such a rate 1 + r keeps under 7 significant digits of r (1 + 1e-17 is exactly 1
/// in a double), so r P / (1 - (1 + r)^-n) divides by a number that has rounded away (0: an
/// infinite instalment); P / n differs from the exact instalment by r (n + 1) / 2 of it, at
/// most 3e-7 of it over 600 periods. The workbook's loan formula uses the same test.
inline constexpr double kNegligibleRatePerPeriod = 1e-9;

/// Instalment per period of an annuity that repays `principal` over `periods` periods at
/// `rate_per_period`, paid at the end of each period: PMT = r P / (1 - (1 + r)^-n), and P / n
/// when |r| < kNegligibleRatePerPeriod. Same value as the spreadsheet PMT(r, n, -P).
/// Throws EngineError unless principal >= 0, periods >= 1 and rate_per_period > -1 (finite).
double annuity_payment(double principal, double rate_per_period, int periods);

/// What is still owed on that annuity after `paid` instalments: P (1 + r)^k - PMT ((1 + r)^k -
/// 1) / r (P - k PMT when |r| < kNegligibleRatePerPeriod); 0 once paid >= periods. Same value
/// as the spreadsheet -FV(r, k, -PMT, P). Throws EngineError as annuity_payment, or when
/// paid < 0.
double annuity_balance(double principal, double rate_per_period, int periods, int paid);

/// Straight-line depreciation per period: (cost - salvage) / life. Same value as the
/// spreadsheet SLN(cost, salvage, life). Throws EngineError unless life >= 1 and cost, salvage
/// are finite.
double straight_line_depreciation(double cost, double salvage, int life_periods);

/// Net present value of `flows` at `rate_per_period`, flow k discounted by (1 + r)^-k (flow 0
/// undiscounted). The spreadsheet NPV(r, v1..vn) discounts its first value by one period:
/// this equals flows[0] + NPV(r, flows[1..]). Throws EngineError unless rate > -1 (finite).
double net_present_value(const std::vector<double>& flows, double rate_per_period);

/// The lowest rate per period internal_rate_of_return searches by default: -99 % (nearer
/// -100 % a long stream's discount factors overflow a double).
inline constexpr double kLowestIrrSearched = -0.99;

/// Internal rate of return per period of `flows` (index = period): the rate r > -1 at which
/// net_present_value(flows, r) = 0. Robust: scans rates from `lowest_rate` (default -99 %;
/// must be in [-0.99, 10)) to +1000 % per period for
/// the first sign change of the NPV, then bisects to 1e-12 (no Newton steps that can diverge);
/// rates at which the NPV overflows a double (near -100 % over hundreds of periods) are skipped.
/// nullopt ("n/a") when the flows never change sign or the NPV has no root in that range.
/// Same root as the spreadsheet IRR(flows) when IRR converges to the lowest root. The root is
/// unique only when the flows change sign once (Descartes' rule of signs on the NPV as a
/// polynomial in 1 / (1 + r)); with more changes this gives the lowest of possibly several
/// roots, which is no rate of return: make_plan then reports the IRR as not applicable
/// (engine/money/metrics.hpp saving_sign_changes) and does not call this, unless the running sum
/// changes sign once (Norstrom's criterion, engine/money/metrics.hpp
/// cumulative_saving_sign_changes): then the one root above 0 is the rate, found with
/// `lowest_rate` = 0. Throws EngineError for a `lowest_rate` outside that range.
std::optional<double> internal_rate_of_return(const std::vector<double>& flows,
                                              double lowest_rate = kLowestIrrSearched);

/// An annual rate as the equivalent monthly one: (1 + r)^(1/12) - 1; and back: (1 + m)^12 - 1.
double monthly_from_annual(double annual_rate);
double annual_from_monthly(double monthly_rate);

/// The factor of a trend per year applied monthly from month 1: (1 + trend)^((m - 1) / 12)
/// for m >= 1, 1 for m <= 1. Throws nothing; the trend must be > -1 (checked by make_plan).
double trend_factor(double trend_per_year, int month);

/// The demand factor of growth per month: (1 + growth)^(m - 1) for m >= 1, 1 for m <= 1.
double growth_factor(double growth_per_month, int month);

}  // namespace gputco
