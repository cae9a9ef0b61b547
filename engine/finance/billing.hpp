// How an hourly rental is billed when a demand is stated: always on (the instances the peak
// needs, for every hour the service must be reachable) or autoscaled (a minimum always on,
// the rest started for the busy hours and billed by the provider's granularity).
#pragma once

#include "engine/finance/load_shape.hpp"

namespace gputco {

/// How an on-demand or spot rental (rent_hourly without a reserved term) is billed.
enum class Billing {
  /// The default: the instances needed at the peak run for every hour of availability,
  /// busy or not, and are billed for all of them (how a rented server is kept reachable).
  always_on,
  /// min_instances run for every hour of availability; hour by hour, the whole instances
  /// that hour's load needs run for the hour (issue #43), the minimum among them.
  autoscaled
};

/// The unit a provider bills running time in (autoscaled rentals): per second (AWS EC2 and
/// Google Compute Engine for Linux instances, RunPod, Modal), per minute or per hour. The
/// plan's load changes hour by hour, so an instance runs whole hours and the granularity
/// matters only for a part hour of use (hours_per_day 10.5: the last half hour); per second
/// saves more only where an instance really stops within the hour, which an hourly load
/// does not show.
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

/// Whole instances a load of `load` needs (in units of one instance's capacity): ceil(load -
/// 1e-9), 0 for a load of at most 1e-9 (a rounding residue is no instance). Throws nothing.
double whole_instances(double load);

/// Instances an always-on rental runs at a load of `load` (in units of one instance's
/// capacity during the hours of use): max(1, ceil(load - 1e-9)). Throws nothing.
double always_on_instances(double load);

/// Instance-hours billed in one month (before goodput and trend), with L = `load` in units
/// of one instance's capacity, h = hours_per_day of use, D = days of use in the month and
/// A = availability_hours in the month:
/// - always_on: always_on_instances(L) x A;
/// - autoscaled: min_instances x A + D x max(0, whole_instances(L) - min_instances) x
///   round_up(h): every hour of use runs the whole instances its load needs (max(min,
///   ceil(L)) in all), those above the minimum for the h hours of use, rounded up to the
///   granularity; the minimum runs every hour of availability. A fractional instance is a
///   whole one: an autoscaler keeps the third instance up while 2.43 instances of load last,
///   it cannot pack the 0.43 into fewer hours (issue #43). No cold start, no idle timeout.
/// Throws nothing; negative inputs count as 0.
double billed_instance_hours(const HourlyBilling& billing, double load, double hours_per_day,
                             double days_of_use, double availability_hours);

/// The same over a day of `shape` (engine/finance/load_shape.hpp; a flat day of hours_per_day hours
/// gives the function above, bit for bit), with P = shape.peak_multiplier:
/// - always_on: always_on_instances(L x P) x A: the instances of the peak hour, every hour of
///   availability;
/// - autoscaled: min_instances x A + D x sum over the stretches s of max(0,
///   whole_instances(L x multiplier_s) - min_instances) x round_up(h_s), h_s the stretch's
///   hours: hour by hour, max(min_instances, ceil(that hour's load)) instances. A peak_factor
///   and the hourly_profile of the same day (one hour at the peak, the others even) bill the
///   same.
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
///   stretches at multipliers o_s: min_instances x A + D x sum_s max(0, whole_instances(o_s)
///   - min_instances) x RU(h_s), RU rounded up to the granularity: hour by hour, the whole
///   instances each hour's overflow needs.
/// Throws nothing; negative inputs count as 0.
double billed_overflow_instance_hours(const HourlyBilling& billing, double load, double units,
                                      double instances_per_load, const DailyLoadShape& shape,
                                      double days_of_use, double availability_hours);

}  // namespace gputco
