#include "engine/finance/billing.hpp"

#include <algorithm>
#include <cmath>

namespace gputco {

namespace {
/// A load, or a count of billing periods relative to its size, within this of a whole number
/// is that number (a month's periods reach 1e4-1e6: their rounding residue is relative).
constexpr double kWholeTolerance = 1e-9;
}  // namespace

double periods_per_hour(BillingGranularity g) {
  switch (g) {
    case BillingGranularity::second:
      return 3600.0;
    case BillingGranularity::minute:
      return 60.0;
    case BillingGranularity::hour:
      return 1.0;
  }
  return 1.0;
}

double round_up_to_period(double hours, BillingGranularity g) {
  if (!(hours > 0)) return 0.0;
  const double periods = hours * periods_per_hour(g);
  return std::ceil(periods - kWholeTolerance * std::max(1.0, periods)) / periods_per_hour(g);
}

double whole_instances(double load) {
  if (!(load > kWholeTolerance)) return 0.0;
  return std::ceil(load - kWholeTolerance);
}

double always_on_instances(double load) {
  if (!(load > 0)) return 1.0;
  return std::max(1.0, std::ceil(load - kWholeTolerance));
}

double billed_instance_hours(const HourlyBilling& b, double load, double hours_per_day,
                             double days_of_use, double availability_hours) {
  return billed_instance_hours(b, load, daily_load_shape(hours_per_day, 1.0, {}), days_of_use,
                               availability_hours);
}

double billed_instance_hours(const HourlyBilling& b, double load, const DailyLoadShape& shape,
                             double days_of_use, double availability_hours) {
  const double l = std::max(0.0, load);
  const double a = std::max(0.0, availability_hours);
  if (b.billing == Billing::always_on) {
    return always_on_instances(l * shape.peak_multiplier) *
           a;  // the peak multiplier is 1 on a flat day
  }
  // Hour by hour (issue #43): a stretch of constant load runs whole instances, ceil(its
  // load), the minimum among them; the ones above the minimum run the stretch's hours.
  double above_minimum_per_day = 0;
  for (int i = 0; i < shape.count; ++i) {
    const LoadStretch& s = shape.stretches[static_cast<size_t>(i)];
    const double h = std::max(0.0, s.hours);
    const double above = std::max(0.0, whole_instances(l * s.multiplier) - b.min_instances);
    above_minimum_per_day += above * round_up_to_period(h, b.granularity);
  }
  return b.min_instances * a + std::max(0.0, days_of_use) * above_minimum_per_day;
}

double billed_overflow_instance_hours(const HourlyBilling& b, double load, double units,
                                      double instances_per_load, const DailyLoadShape& shape,
                                      double days_of_use, double availability_hours) {
  const double l = std::max(0.0, load);
  const double u = std::max(0.0, units);
  const double r = std::max(0.0, instances_per_load);
  DailyLoadShape overflow = shape;
  double peak = 0;
  for (int i = 0; i < overflow.count; ++i) {
    LoadStretch& s = overflow.stretches[static_cast<size_t>(i)];
    s.multiplier = std::max(0.0, l * s.multiplier - u) * r;
    peak = std::max(peak, s.multiplier);
  }
  if (!(peak > kWholeTolerance)) return 0.0;  // the owned units carry the whole month
  if (b.billing == Billing::always_on) {
    return std::ceil(peak - kWholeTolerance) * std::max(0.0, availability_hours);
  }
  // Not a day's shape any more (the multipliers are instances, not shares of a mean):
  // billed_instance_hours reads only the stretches when autoscaled.
  overflow.peak_multiplier = peak;
  return billed_instance_hours(b, 1.0, overflow, days_of_use, availability_hours);
}

}  // namespace gputco
