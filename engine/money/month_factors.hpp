// The per-month factors of a plan's cash flows that do not depend on the option: computed once
// and shared by every option of a plan, a Monte Carlo draw or a sweep point.
#pragma once

#include <vector>

#include "engine/finance/load_shape.hpp"
#include "engine/plan_model/plan_inputs.hpp"

namespace gputco {

/// Rows indexed by month 0..horizon_months, each value computed by the same function, with the
/// same arguments, as option_cash_flow computed it month by month before issue #19 (so a cash
/// flow from these factors is bit for bit the one without them):
struct MonthFactors {
  // From the finance and the site (set_finance_factors):
  /// (1 + discount_rate_per_year)^(-m / 12), finish_cash_flow's discount factor.
  std::vector<double> discount_factor;
  std::vector<double> rent_trend;    ///< trend_factor(rent_trend_per_year, m)
  std::vector<double> tariff_trend;  ///< trend_factor(site.tariff_trend_per_year, m)
  std::vector<double> api_trend;     ///< trend_factor(api_price_trend_per_year, m)
  // From the workload (set_workload_factors); index 0 holds 0 in the first four rows:
  std::vector<double> hours_in_month;      ///< hours_in_month(w, f, m), h
  std::vector<double> days_of_use;         ///< days_of_use(w, f, m)
  std::vector<double> hours_of_use;        ///< w.hours_per_day x days_of_use(w, f, m), h
  std::vector<double> availability_hours;  ///< availability_hours(w, f, m), h
  std::vector<double> growth;              ///< growth_factor(w.growth_per_month, m)
  /// The growth_per_month `growth` holds (set_workload_factors skips its powers when the same).
  double growth_per_month = 0;
  DailyLoadShape shape;  ///< load_shape_of(w)
  /// What the hours_in_month and days_of_use rows were computed from (set_workload_factors
  /// keeps them while these are the same: a Monte Carlo draw moves hours_per_day, not the
  /// calendar). calendar_rows false: not computed yet.
  struct Calendar {
    HoursConvention convention = HoursConvention::h730;  ///< hours_per_month_convention
    bool days_follow_convention = false;                 ///< workload's
    double days_per_month = 0;                           ///< workload's
    int start_year = 0;                                  ///< finance's
    int start_month = 0;                                 ///< finance's
  };
  Calendar calendar;  ///< the rows' calendar, valid when calendar_rows
  bool calendar_rows = false;
};

/// Sets the finance rows of `out` for these inputs (std::pow per month: 4 x (horizon + 1)
/// calls). Reuses the rows' capacity. Throws nothing but bad_alloc.
void set_finance_factors(const SiteInputs& site, const FinanceInputs& finance, MonthFactors& out);

/// Sets the workload rows and the shape of `out` for this workload; the growth row is
/// recomputed only when workload.growth_per_month differs from out.growth_per_month or the
/// horizon changed, and the hours_in_month and days_of_use rows only when the calendar they
/// depend on (out.calendar: the hours convention, days_follow_convention, days_per_month, the
/// start month) or the horizon changed; the rows kept are the values the same functions give
/// (hours_of_use and availability_hours are recomputed from them by the same expressions), so
/// `out` is bit for bit month_factors(workload, ...)'s. Reuses the rows' capacity. Throws
/// nothing but bad_alloc.
void set_workload_factors(const WorkloadInputs& workload, const FinanceInputs& finance,
                          MonthFactors& out);

/// Both: the factors of these inputs.
MonthFactors month_factors(const WorkloadInputs& workload, const SiteInputs& site,
                           const FinanceInputs& finance);

}  // namespace gputco
