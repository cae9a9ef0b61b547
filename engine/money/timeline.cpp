#include "engine/money/timeline.hpp"

#include <algorithm>

#include "engine/base/units.hpp"
#include "engine/finance/finance.hpp"

namespace gputco {

namespace {

bool is_leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_calendar_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

}  // namespace

double hours_in_month(const WorkloadInputs& w, const FinanceInputs& f, int month) {
  switch (w.hours_per_month_convention) {
    case HoursConvention::h730:
      return 730.0;
    case HoursConvention::h720:
      return 720.0;
    case HoursConvention::calendar: {
      // Month 1 is the start month.
      const int index = f.start_year * kMonthsPerYear + (f.start_month - 1) + (month - 1);
      return days_in_calendar_month(index / kMonthsPerYear, index % kMonthsPerYear + 1) *
             kHoursPerFullDay;
    }
  }
  return 730.0;
}

double days_of_use_in(const WorkloadInputs& w, double hours) {
  const double days_in_month = hours / kHoursPerFullDay;
  return w.days_follow_convention ? days_in_month : std::min(w.days_per_month, days_in_month);
}

double days_of_use(const WorkloadInputs& w, const FinanceInputs& f, int month) {
  return days_of_use_in(w, hours_in_month(w, f, month));
}

double availability_hours_in(const WorkloadInputs& w, double hours) {
  return w.availability == Availability::around_the_clock
             ? hours
             : w.hours_per_day * days_of_use_in(w, hours);
}

double availability_hours(const WorkloadInputs& w, const FinanceInputs& f, int month) {
  return availability_hours_in(w, hours_in_month(w, f, month));
}

Timeline plan_timeline(const WorkloadInputs& w, const SiteInputs& site, const FinanceInputs& f) {
  Timeline t;
  const auto n = static_cast<size_t>(f.horizon_months) + 1;
  for (auto* row : {&t.hours_in_month, &t.days_of_use, &t.hours_of_use, &t.growth_factor,
                    &t.rent_factor, &t.tariff_factor, &t.api_factor}) {
    row->assign(n, 0.0);
  }
  for (size_t m = 0; m < n; ++m) {
    const int month = static_cast<int>(m);
    if (m > 0) {
      t.hours_in_month[m] = hours_in_month(w, f, month);
      t.days_of_use[m] = days_of_use(w, f, month);
      t.hours_of_use[m] = w.hours_per_day * t.days_of_use[m];
    }
    t.growth_factor[m] = growth_factor(w.growth_per_month, month);
    t.rent_factor[m] = trend_factor(f.rent_trend_per_year, month);
    t.tariff_factor[m] = trend_factor(site.tariff_trend_per_year, month);
    t.api_factor[m] = trend_factor(f.api_price_trend_per_year, month);
  }
  return t;
}

double average_hours_per_month(HoursConvention convention) {
  switch (convention) {
    case HoursConvention::h730:
      return 730.0;
    case HoursConvention::h720:
      return 720.0;
    case HoursConvention::calendar:
      return 365.25 * kHoursPerFullDay / kMonthsPerYear;
  }
  return 730.0;
}

}  // namespace gputco
