// How an hourly rental is billed when a demand is stated: always on (the instances the peak
// needs, for every hour the service must be reachable) or autoscaled (a minimum always on,
// the rest started for the busy hours and billed by the provider's granularity).
#pragma once

#include "engine/load_shape.hpp"

namespace gputco {

/// How an on-demand or spot rental (rent_hourly without a reserved term) is billed.
enum class Billing {
  /// The default: the instances needed at the peak run for every hour of availability,
  /// busy or not, and are billed for all of them (how a rented server is kept reachable).
  always_on,
  /// min_instances run for every hour of availability; the instances above them run only
  /// while the demand needs them, each busy period rounded up to the billing granularity.
  autoscaled
};

/// The unit a provider bills busy time in (autoscaled rentals): per second (AWS EC2 and
/// Google Compute Engine for Linux instances, RunPod, Modal), per minute or per hour.
enum class BillingGranularity { second, minute, hour };

/// The hours a service must be reachable (workload `availability`).
enum class Availability {
  hours_of_use,     ///< the hours of use: hours_per_day x days of use (the default)
  around_the_clock  ///< 24/7: every hour of the month (hours in the month, convention)
};

/// An hourly rental's billing terms.
struct HourlyBilling {
  Billing billing = Billing::always_on;
  /// autoscaled: instances kept running for every hour of availability (0: scales to zero).
  int min_instances = 0;
  BillingGranularity granularity = BillingGranularity::second;
};

/// Billing periods per hour of a granularity: 3600, 60 or 1.
double periods_per_hour(BillingGranularity granularity);

/// `hours` rounded up to a whole number of billing periods p = hours x periods_per_hour: ceil(p
/// - 1e-9 x max(1, p)) periods (a relative residue under 1e-9 is rounding, not a period).
/// Throws nothing.
double round_up_to_period(double hours, BillingGranularity granularity);

/// Instances an always-on rental runs at a load of `load` (in units of one instance's
/// capacity during the hours of use): max(1, ceil(load - 1e-9)). Throws nothing.
double always_on_instances(double load);

/// Instance-hours billed in one month (before goodput and trend), with L = `load` in units
/// of one instance's capacity, h = hours_per_day of use, D = days of use in the month and
/// A = availability_hours in the month:
/// - always_on: always_on_instances(L) x A;
/// - autoscaled: min_instances x A + D x (floor(X) x round_up(h) + round_up(frac(X) x h)),
///   X = max(0, L - min_instances): each instance above the minimum is busy one period a day
///   (whole instances for all h hours, the last for its share), each period rounded up to
///   the granularity. The demand spread evenly over the hours of use, packed onto as few
///   instances as it needs: the idealised autoscaler (no cold start, no idle timeout), the
///   cheap end of what autoscaling can bill.
/// Throws nothing; negative inputs count as 0.
double billed_instance_hours(const HourlyBilling& billing, double load, double hours_per_day,
                             double days_of_use, double availability_hours);

/// The same over a day of `shape` (engine/load_shape.hpp; a flat day of hours_per_day hours
/// gives the function above, bit for bit), with P = shape.peak_multiplier:
/// - always_on: always_on_instances(L x P) x A: the instances of the peak hour, every hour of
///   availability;
/// - autoscaled: min_instances x A + D x sum over the stretches s of (floor(X_s) x
///   round_up(h_s) + round_up(frac(X_s) x h_s)), X_s = max(0, L x multiplier_s -
///   min_instances), h_s the stretch's hours: for an hourly profile, the instances above the
///   minimum that each hour needs, hour by hour.
/// Throws nothing; negative inputs count as 0.
double billed_instance_hours(const HourlyBilling& billing, double load, const DailyLoadShape& shape,
                             double days_of_use, double availability_hours);

/// Instance-hours billed in one month for the overflow an owned option rents (overflow =
/// rent, issue #21), before goodput and trend, by the overflow rental's own billing. L =
/// `load` (the owned option's mean load, in units of one owned unit's capacity), U = `units`
/// owned, r = `instances_per_load` (overflow_units_per_load: rental instances per owned unit
/// of load). Each stretch s of `shape` rents o_s = max(0, L x multiplier_s - U) x r instances;
/// o = max_s o_s (the peak's). With A = availability_hours, D = days_of_use:
/// - no overflow (o <= 1e-9): 0, nothing is rented that month;
/// - always_on: ceil(o - 1e-9) x A: the instances the peak leaves over, every hour of
///   availability, busy or not (as the rental itself is billed);
/// - autoscaled: billed_instance_hours(billing, 1, shape', D, A) with shape' the same
///   stretches at multipliers o_s: min_instances x A + D x sum_s (floor(X_s) x RU(h_s) +
///   RU(frac(X_s) x h_s)), X_s = max(0, o_s - min_instances), RU rounded up to the
///   granularity. Per second without a minimum it is sum_s o_s x h_s x D to the second: the
///   load-hours billing of before issue #21.
/// Throws nothing; negative inputs count as 0.
double billed_overflow_instance_hours(const HourlyBilling& billing, double load, double units,
                                      double instances_per_load, const DailyLoadShape& shape,
                                      double days_of_use, double availability_hours);

}  // namespace gputco
