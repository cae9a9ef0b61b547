#include "engine/money/billing_description.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/finance/billing.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {

namespace {

/// Why a per-second or per-minute granularity bills whole hours here: the load changes hour by
/// hour, so an instance started for an hour runs it; only a part hour of use is billed in part.
std::string granularity_note(BillingGranularity g, double hours_per_day) {
  if (g == BillingGranularity::hour) return "";
  const bool part_hour = hours_per_day != std::floor(hours_per_day);
  return part_hour ? " (whole hours but the day's last part hour: the load is hourly, so an "
                     "instance runs the hour it is started for)"
                   : " (whole hours: the load is hourly, so an instance runs the hour it is "
                     "started for; per-second billing saves more only where instances stop "
                     "within the hour)";
}

}  // namespace

void describe_billing(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
                      OptionResult& r) {
  const HourlyBilling& b = o.hourly_billing;
  double first = 0, most = 0, hours_month_1 = 0;
  int most_month = 1;
  const DailyLoadShape shape = load_shape_of(w);
  for (int m = 1; m <= f.horizon_months; ++m) {
    const auto i = static_cast<size_t>(m);
    const double availability = availability_hours(w, f, m);
    r.billed_instance_hours +=
        billed_instance_hours(b, r.cash_flow.load[i], shape, days_of_use(w, f, m), availability);
    const double instances =
        std::max(static_cast<double>(b.min_instances),
                 always_on_instances(r.cash_flow.load[i] * shape.peak_multiplier));
    if (m == 1) {
      first = instances;
      hours_month_1 = availability;
    }
    if (instances > most) {
      most = instances;
      most_month = m;
    }
  }
  const std::string hours = fmt::format("{:.1f} h of availability in month 1 ({})", hours_month_1,
                                        w.availability == Availability::around_the_clock
                                            ? "24/7"
                                            : fmt::format("{:.1f} h/day of use", w.hours_per_day));
  const std::string peak =
      most > first ? fmt::format(", up to {:.0f} by month {}", most, most_month) : "";
  const std::string spot =
      o.term == RentTerm::spot
          ? fmt::format(", / goodput {:.2f} (interruptions' lost work)", o.goodput)
          : "";
  // The peak the instances are sized for, when the demand is not spread evenly (issue #21).
  const std::string at_peak =
      shape.flat
          ? ""
          : fmt::format(" (the peak hour at {:.2f} x the mean load{})", shape.peak_multiplier,
                        w.hourly_profile.empty() ? "" : ", hourly profile");
  if (b.billing == Billing::always_on) {
    r.billing = fmt::format(
        "always on: {:.0f} instance(s) at the peak{}{} billed for all {}, busy or not{}", first,
        at_peak, peak, hours, spot);
  } else {
    r.billing = fmt::format(
        "autoscaled hour by hour: {} instance(s) always running for the {}; each hour of use "
        "runs the whole instances its load needs ({:.0f} at the peak hour of month 1{}{}), "
        "billed per {}{}{}",
        b.min_instances, hours, first, peak,
        shape.flat ? ""
                   : (w.hourly_profile.empty() ? "; the peak hour at its factor, the rest even"
                                               : "; as the hourly profile says"),
        to_string(b.granularity), granularity_note(b.granularity, w.hours_per_day), spot);
  }
}

void describe_overflow_billing(const OptionInputs& o, const OptionInputs& rental,
                               const WorkloadInputs& w, const FinanceInputs& f, OptionResult& r) {
  const HourlyBilling& b = o.overflow_billing;
  const DailyLoadShape shape = load_shape_of(w);
  const double instances_per_load = overflow_units_per_load(o, w);
  const auto& load = r.cash_flow.load;
  const auto& units = r.cash_flow.units;
  int first_month = 0, most_month = 0;
  double first = 0, most = 0, first_hours = 0;
  r.billed_instance_hours = 0;
  for (int m = 1; m <= f.horizon_months; ++m) {
    const auto i = static_cast<size_t>(m);
    if (i >= load.size() || i >= units.size()) break;
    const double availability = availability_hours(w, f, m);
    const double billed = billed_overflow_instance_hours(b, load[i], units[i], instances_per_load,
                                                         shape, days_of_use(w, f, m), availability);
    r.billed_instance_hours += billed;
    if (!(billed > 0)) continue;
    // The instances at the peak hour: what the owned units leave over, in rental instances.
    const double over =
        std::max(0.0, load[i] * shape.peak_multiplier - units[i]) * instances_per_load;
    const double instances =
        b.billing == Billing::always_on
            ? std::ceil(over - 1e-9)
            : std::max(static_cast<double>(b.min_instances), std::ceil(over - 1e-9));
    if (first_month == 0) {
      first_month = m;
      first = instances;
      first_hours = availability;
    }
    if (instances > most) {
      most = instances;
      most_month = m;
    }
  }
  const bool always_on = b.billing == Billing::always_on;
  const std::string head =
      "overflow rented from " + rental.id + ", " +
      (always_on ? std::string("always on")
                 : fmt::format("autoscaled hour by hour (min {} instance(s) for every hour of "
                               "availability in a month it overflows, above it the whole "
                               "instances each hour's overflow needs, billed per {})",
                               b.min_instances, to_string(b.granularity)));
  // Spot: the rent is the billed hours / goodput (the work interruptions lose, redone).
  const std::string spot =
      rental.term == RentTerm::spot
          ? fmt::format(", / goodput {:.2f} (interruptions' lost work)", rental.goodput)
          : "";
  if (first_month == 0) {
    r.billing = head + ": never needed within the horizon (the owned units carry the peak " +
                "every month), 0 instance-hours";
    return;
  }
  const std::string peak =
      most > first ? fmt::format(", up to {:.0f} by month {}", most, most_month) : "";
  const std::string hours =
      always_on ? fmt::format(
                      ", billed for every hour of availability ({:.1f} h in month {}), "
                      "busy or not",
                      first_hours, first_month)
                : "";
  r.billing = fmt::format(
      "{}: {:.0f} instance(s) at the peak from month {}{}{}; none in a month the owned units "
      "carry alone; {:.0f} instance-hours over the horizon{}",
      head, first, first_month, peak, hours, r.billed_instance_hours, spot);
}

}  // namespace gputco
