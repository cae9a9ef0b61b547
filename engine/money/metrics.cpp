#include "engine/money/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/cash_flow.hpp"
#include "engine/money/energy.hpp"
#include "engine/money/money_totals.hpp"
#include "engine/money/month_factors.hpp"

namespace gputco {

std::vector<double> hours_scaled_costs(const OptionInputs& option, const WorkloadInputs& workload,
                                       const SiteInputs& site, const FinanceInputs& finance,
                                       const CashFlow& at_hours) {
  std::vector<double> scaled(at_hours.total.size(), 0.0);
  if (!(workload.hours_per_day > 0)) return scaled;
  const CashFlow half = option_cash_flow(
      option, at_hours_per_day(workload, workload.hours_per_day / 2), site, finance);
  for (size_t m = 0; m < scaled.size() && m < half.total.size(); ++m) {
    scaled[m] = 2 * (at_hours.total[m] - half.total[m]);
  }
  return scaled;
}

std::vector<double> volume_scaled_costs(const OptionInputs& option, const WorkloadInputs& workload,
                                        const SiteInputs& site, const FinanceInputs& finance,
                                        const CashFlow& at_volume) {
  std::vector<double> scaled(at_volume.total.size(), 0.0);
  if (!workload.tokens_per_day || !(*workload.tokens_per_day > 0)) return scaled;
  const CashFlow half = option_cash_flow(
      option, at_tokens_per_day(workload, *workload.tokens_per_day / 2), site, finance);
  for (size_t m = 0; m < scaled.size() && m < half.total.size(); ++m) {
    scaled[m] = 2 * (at_volume.total[m] - half.total[m]);
  }
  return scaled;
}

std::optional<double> break_even_hours(const OptionInputs& owned, const OptionInputs& rented,
                                       const SiteInputs& site, const FinanceInputs& f) {
  GPUTCO_REQUIRE(owned.kind == OptionKind::buy, "break-even hours need an owned option");
  GPUTCO_REQUIRE(rented.kind == OptionKind::rent_hourly,
                 "break-even hours need an hourly rental baseline");
  const double capex = capex_of(owned);
  const double fixed = capex * (1.0 - owned.residual_fraction) +
                       capex * owned.maintenance_per_year / kMonthsPerYear * f.horizon_months;
  const double rent_per_hour = rented.rate_per_gpu_hour * rented.count / rented.goodput;
  const double saving_per_hour = rent_per_hour - energy_cost_per_hour(owned, site);
  if (saving_per_hour <= 0) return std::nullopt;  // renting is cheaper per hour: never
  return fixed / saving_per_hour;
}

namespace {

/// Is owning dearer than renting (cumulative) in each month? Sums within
/// kComparisonTolerance x max(1, |rented sum|) are equal, so a rounding residue never makes
/// owning dearer.
std::vector<bool> dearer_by_month(const CashFlow& owned, const CashFlow& rented) {
  const size_t n = std::min(owned.cumulative.size(), rented.cumulative.size());
  std::vector<bool> dearer(n);
  for (size_t m = 0; m < n; ++m) {
    const double tolerance = kComparisonTolerance * std::max(1.0, std::abs(rented.cumulative[m]));
    dearer[m] = owned.cumulative[m] > rented.cumulative[m] + tolerance;
  }
  return dearer;
}

}  // namespace

std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented) {
  const std::vector<bool> dearer = dearer_by_month(owned, rented);
  // Owning breaks even for good in the month after the last month it is dearer.
  for (size_t m = dearer.size(); m-- > 0;) {
    if (!dearer[m]) continue;
    if (m + 1 < dearer.size()) return static_cast<int>(m + 1);
    return std::nullopt;  // dearer at the end of the horizon: never
  }
  return std::nullopt;  // never dearer: nothing to break even
}

std::optional<MonthSpan> ahead_then_behind(const CashFlow& owned, const CashFlow& rented) {
  const std::vector<bool> dearer = dearer_by_month(owned, rented);
  if (dearer.empty() || !dearer.back()) return std::nullopt;
  size_t last = dearer.size() - 1;
  while (last > 0 && dearer[last]) --last;
  // Month 0 is the start, before any month has run: a tie there is no lead.
  if (last == 0) return std::nullopt;
  size_t first = last;
  while (first > 1 && !dearer[first - 1]) --first;
  return MonthSpan{static_cast<int>(first), static_cast<int>(last)};
}

int saving_sign_changes(const std::vector<double>& saving,
                        const std::vector<double>& rented_total) {
  int changes = 0;
  int last_sign = 0;
  for (size_t m = 0; m < saving.size(); ++m) {
    const double rent = m < rented_total.size() ? rented_total[m] : 0.0;
    const double tolerance = kComparisonTolerance * std::max(1.0, std::abs(rent));
    const int sign = saving[m] > tolerance ? 1 : saving[m] < -tolerance ? -1 : 0;
    if (sign == 0) continue;
    if (last_sign != 0 && sign != last_sign) ++changes;
    last_sign = sign;
  }
  return changes;
}

int cumulative_saving_sign_changes(const std::vector<double>& saving,
                                   const std::vector<double>& rented_cumulative) {
  int changes = 0;
  int last_sign = 0;
  double running = 0;
  for (size_t m = 0; m < saving.size(); ++m) {
    running += saving[m];
    const double rent = m < rented_cumulative.size() ? rented_cumulative[m] : 0.0;
    const double tolerance = kComparisonTolerance * std::max(1.0, std::abs(rent));
    const int sign = running > tolerance ? 1 : running < -tolerance ? -1 : 0;
    if (sign == 0) continue;
    if (last_sign != 0 && sign != last_sign) ++changes;
    last_sign = sign;
  }
  return changes;
}

bool irr_is_unique(int saving_changes, int cumulative_changes) {
  return saving_changes <= 1 || cumulative_changes == 1;
}

std::string irr_not_unique_text(int sign_changes) {
  return "n/a (saving changes sign " + std::to_string(sign_changes) + " times)";
}

bool has_initial_outlay(const std::vector<double>& saving) {
  if (saving.empty()) return false;
  // Rounding of two equal month-0 flows (a lease's 0 against a rental's 0) is no outlay.
  return saving[0] < -kComparisonTolerance;
}

std::optional<double> payback_months(const std::vector<double>& saving) {
  if (!has_initial_outlay(saving)) return std::nullopt;
  // The first month of the last stretch in which the running sum is not negative, with the
  // running sum before it: the month it pays back for good.
  std::optional<size_t> from;
  double before_from = 0;
  double running = 0;
  for (size_t m = 0; m < saving.size(); ++m) {
    const double before = running;
    running += saving[m];
    // Tolerance: equal running sums must not miss each other by rounding.
    const double tolerance =
        kComparisonTolerance * std::max(1.0, std::abs(before) + std::abs(saving[m]));
    if (running < -tolerance) {
      from.reset();
    } else if (!from) {
      from = m;
      before_from = before;
    }
  }
  if (!from) return std::nullopt;
  const size_t m = *from;
  if (m == 0 || before_from >= 0 || saving[m] <= 0) return static_cast<double>(m);
  // Linear within the month: the saving accrues evenly from m - 1 to m.
  return static_cast<double>(m - 1) + std::min(1.0, -before_from / saving[m]);
}

std::optional<double> break_even_hours_per_day(const OptionInputs& owned,
                                               const OptionInputs& rented,
                                               const WorkloadInputs& workload,
                                               const SiteInputs& site,
                                               const FinanceInputs& finance) {
  // Only the totals (money_totals: the same figures as every row's, issue #19).
  MoneyScratch own_cf, rent_cf;
  // The finance's factors (discounting, trends) are the same at every point of the search.
  MonthFactors factors;
  set_finance_factors(site, finance, factors);
  const auto gap = [&](double hours_per_day) {
    const WorkloadInputs w = at_hours_per_day(workload, hours_per_day);
    set_workload_factors(w, finance, factors);
    const double own = money_totals(owned, w, site, finance, factors, own_cf).total;
    const double rent = money_totals(rented, w, site, finance, factors, rent_cf).total;
    return own - rent;
  };
  // With tokens_per_day, the load per hour of use must come from the stated hours.
  if (workload.tokens_per_day && workload.hours_per_day <= 0) return std::nullopt;
  double lo = 0, hi = kHoursPerFullDay;
  // Renting still cheaper at 24 h a day first: with a rental billed for every hour of a 24x7
  // availability the rent is flat in the hours while owning draws more power with them, so
  // owning can be cheaper unused and dearer at the plan's hours: no hours of use make owning
  // pay off ("never"), which is not "cheaper at any use".
  if (gap(hi) > 0) return std::nullopt;
  if (gap(lo) <= 0) return 0.0;
  for (int i = 0; i < 100 && hi - lo > 1e-10; ++i) {
    const double mid = 0.5 * (lo + hi);
    (gap(mid) > 0 ? lo : hi) = mid;
  }
  // Dearer only at exactly 0 h (no use sizes one unit where any use sizes the fleet; issue
  // #43's H200 boxes "broke even" at 4.78e-08 h/day): cheaper at any use, not a break-even.
  if (hi <= kNegligibleHoursPerDay) return 0.0;
  return 0.5 * (lo + hi);
}

std::optional<double> break_even_tokens_per_day(const OptionInputs& option, const OptionInputs& api,
                                                const WorkloadInputs& workload,
                                                const SiteInputs& site,
                                                const FinanceInputs& finance) {
  if (option.kind == OptionKind::api || api.kind != OptionKind::api) return std::nullopt;
  const double upper = option.capacity_tokens_per_hour * workload.hours_per_day;
  if (!(upper > 0) || !std::isfinite(upper)) return std::nullopt;
  MoneyScratch own_cf, api_cf;  // only the totals (money_totals)
  MonthFactors factors;
  set_finance_factors(site, finance, factors);
  const auto gap = [&](double tokens_per_day) {
    const WorkloadInputs w = at_tokens_per_day(workload, tokens_per_day);
    set_workload_factors(w, finance, factors);
    return money_totals(option, w, site, finance, factors, own_cf).total -
           money_totals(api, w, site, finance, factors, api_cf).total;
  };
  const double at_zero = gap(0);
  if (at_zero < 0) return 0.0;
  // The lowest crossing: scan (steps of units and servers make the gap non-monotone), then
  // bisect within the first interval where the option is no dearer.
  constexpr int kScanPoints = 200;
  double previous = 0;
  for (int i = 1; i <= kScanPoints; ++i) {
    const double t = upper * i / kScanPoints;
    if (gap(t) > 0) {
      previous = t;
      continue;
    }
    // Both cost nothing at zero volume (nothing but per-token costs) and the option is no
    // dearer above it: the crossing is 0 itself, not a bisection's residue next to it.
    if (previous == 0 && at_zero == 0) return 0.0;
    double lo = previous, hi = t;
    for (int k = 0; k < 100 && hi - lo > 1e-12 * upper; ++k) {
      const double mid = 0.5 * (lo + hi);
      (gap(mid) > 0 ? lo : hi) = mid;
    }
    return hi;
  }
  return std::nullopt;
}

}  // namespace gputco
