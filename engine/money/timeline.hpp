// The plan's calendar: hours in a month under a convention, days and hours of use, the
// month-by-month growth and trend factors.
#pragma once

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Hours in month m (1-based) under the workload's convention: 730, 720, or the calendar
/// month's days x 24 (from finance.start_year / start_month). Throws nothing.
double hours_in_month(const WorkloadInputs& workload, const FinanceInputs& finance, int month);

/// Days of use in month m (1-based): days_per_month, or the convention's hours / 24 when
/// days_follow_convention; never more than the month holds under the convention (hours in
/// month m / 24: 30.42 at 730, 30 at 720, the calendar month's days), so that hours of use
/// (hours_per_day x days of use) never exceed the hours in the month. Throws nothing.
double days_of_use(const WorkloadInputs& workload, const FinanceInputs& finance, int month);

/// Hours of availability in month m (1-based): the hours the service must be reachable,
/// hours_per_day x days_of_use under Availability::hours_of_use, hours_in_month under
/// around_the_clock. Throws nothing.
double availability_hours(const WorkloadInputs& workload, const FinanceInputs& finance, int month);

/// days_of_use and availability_hours of a month from its hours_in_month (`hours_in_month`,
/// h): the same values, by the same expressions, without computing the month's hours again
/// (for set_workload_factors, once per Monte Carlo draw). Throws nothing.
double days_of_use_in(const WorkloadInputs& workload, double hours_in_month);
double availability_hours_in(const WorkloadInputs& workload, double hours_in_month);

/// The plan's timeline (see Timeline) for these inputs. Throws nothing.
Timeline plan_timeline(const WorkloadInputs& workload, const SiteInputs& site,
                       const FinanceInputs& finance);

/// Average hours per month of a convention (for commitments running past the horizon): 730,
/// 720, 730.5 (365.25 days x 24 / 12) for calendar months.
double average_hours_per_month(HoursConvention convention);

}  // namespace gputco
