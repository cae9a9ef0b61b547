#include "engine/money/month_factors.hpp"

#include <cmath>

#include "engine/base/units.hpp"
#include "engine/finance/finance.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {

void set_finance_factors(const SiteInputs& site, const FinanceInputs& f, MonthFactors& out) {
  const auto n = static_cast<size_t>(f.horizon_months) + 1;
  for (auto* row : {&out.discount_factor, &out.rent_trend, &out.tariff_trend, &out.api_trend}) {
    row->resize(n);
  }
  for (size_t m = 0; m < n; ++m) {
    const int month = static_cast<int>(m);
    // Monthly discounting with the effective annual rate: a flow at the end of month m is
    // worth (1 + r)^(-m/12) today.
    out.discount_factor[m] =
        std::pow(1.0 + f.discount_rate_per_year, -static_cast<double>(m) / kMonthsPerYear);
    out.rent_trend[m] = trend_factor(f.rent_trend_per_year, month);
    out.tariff_trend[m] = trend_factor(site.tariff_trend_per_year, month);
    out.api_trend[m] = trend_factor(f.api_price_trend_per_year, month);
  }
}

void set_workload_factors(const WorkloadInputs& w, const FinanceInputs& f, MonthFactors& out) {
  const auto n = static_cast<size_t>(f.horizon_months) + 1;
  const bool same_growth = out.growth.size() == n && out.growth_per_month == w.growth_per_month;
  const MonthFactors::Calendar calendar{w.hours_per_month_convention, w.days_follow_convention,
                                        w.days_per_month, f.start_year, f.start_month};
  const MonthFactors::Calendar& kept = out.calendar;
  const bool same_calendar =
      out.calendar_rows && out.hours_in_month.size() == n && out.days_of_use.size() == n &&
      kept.convention == calendar.convention &&
      kept.days_follow_convention == calendar.days_follow_convention &&
      kept.days_per_month == calendar.days_per_month && kept.start_year == calendar.start_year &&
      kept.start_month == calendar.start_month;
  for (auto* row :
       {&out.hours_in_month, &out.days_of_use, &out.hours_of_use, &out.availability_hours}) {
    row->resize(n);
  }
  out.growth.resize(n);
  if (!same_calendar) {
    out.calendar_rows = false;
    for (size_t m = 0; m < n; ++m) {
      // The month's hours once; days from them (engine/money/timeline.hpp).
      const double hours = m > 0 ? hours_in_month(w, f, static_cast<int>(m)) : 0.0;
      out.hours_in_month[m] = hours;
      out.days_of_use[m] = m > 0 ? days_of_use_in(w, hours) : 0.0;
    }
    out.calendar = calendar;
    out.calendar_rows = true;
  }
  // availability_hours_in's expressions over the kept rows: days_of_use_in(w, hours) is
  // days_of_use[m], the same function of the same arguments.
  const bool around_the_clock = w.availability == Availability::around_the_clock;
  out.hours_of_use[0] = out.availability_hours[0] = 0;
  for (size_t m = 1; m < n; ++m) {
    out.hours_of_use[m] = w.hours_per_day * out.days_of_use[m];
    out.availability_hours[m] =
        around_the_clock ? out.hours_in_month[m] : w.hours_per_day * out.days_of_use[m];
  }
  if (!same_growth) {
    for (size_t m = 0; m < n; ++m)
      out.growth[m] = growth_factor(w.growth_per_month, static_cast<int>(m));
  }
  out.growth_per_month = w.growth_per_month;
  out.shape = load_shape_of(w);
}

MonthFactors month_factors(const WorkloadInputs& w, const SiteInputs& site,
                           const FinanceInputs& f) {
  MonthFactors out;
  set_finance_factors(site, f, out);
  set_workload_factors(w, f, out);
  return out;
}

}  // namespace gputco
