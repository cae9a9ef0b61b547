#include "engine/month_factors.hpp"

#include <cmath>

#include "engine/capacity.hpp"
#include "engine/finance.hpp"
#include "engine/timeline.hpp"
#include "engine/units.hpp"

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
  for (auto* row :
       {&out.hours_in_month, &out.days_of_use, &out.hours_of_use, &out.availability_hours}) {
    row->resize(n);
  }
  out.growth.resize(n);
  for (size_t m = 0; m < n; ++m) {
    const int month = static_cast<int>(m);
    if (m > 0) {
      // The month's hours once; days and availability from them (engine/timeline.hpp).
      const double hours = hours_in_month(w, f, month);
      out.hours_in_month[m] = hours;
      out.days_of_use[m] = days_of_use_in(w, hours);
      out.hours_of_use[m] = w.hours_per_day * out.days_of_use[m];
      out.availability_hours[m] = availability_hours_in(w, hours);
    } else {
      out.hours_in_month[m] = out.days_of_use[m] = out.hours_of_use[m] = out.availability_hours[m] =
          0;
    }
    if (!same_growth) out.growth[m] = growth_factor(w.growth_per_month, month);
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
