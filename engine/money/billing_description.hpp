// How an option's hourly rent is billed, in one sentence for every report (issue #21): an
// on-demand or spot rental's own instances, and the overflow an owned option rents.
#pragma once

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Fills `r.billing` (one sentence: always on or autoscaled, the instances at month 1 and at
/// their most, the hours of availability, spot's goodput) and `r.billed_instance_hours` (the
/// sum over the horizon of billed_instance_hours, engine/finance/billing.hpp, before goodput) of an
/// on-demand or spot rental `o`, from its load row `r.cash_flow.load` (option_cash_flow's,
/// one entry per month 0..horizon). Throws nothing but bad_alloc.
void describe_billing(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
                      OptionResult& r);

/// Fills `r.billing` and `r.billed_instance_hours` of an owned option `o` that rents its
/// overflow (overflow = rent) from `rental` (the on-demand or spot option named by
/// o.overflow_option_id), from the rows option_cash_flow left in `r.cash_flow` (load and
/// units, months 0..horizon): the overflow rental's id and billing mode (o.overflow_billing),
/// the first month anything is rented and the instances at the peak (always on: the whole
/// instances the peak leaves over, ceil(max(0, L x P - U) x r - 1e-9), P the day's peak
/// multiplier, U the owned units, r = overflow_units_per_load; autoscaled: its minimum while
/// it overflows), and the instance-hours billed over the horizon: the sum of
/// billed_overflow_instance_hours (engine/finance/billing.hpp) month by month, the hours the cash
/// flow's rent row is priced on, before a spot rental's goodput (the sentence then says
/// "/ goodput G", as describe_billing does). Always on names the hours of availability of
/// the first month it rents; autoscaled bills its minimum for them and the busy periods
/// above it. Throws nothing but bad_alloc.
void describe_overflow_billing(const OptionInputs& o, const OptionInputs& rental,
                               const WorkloadInputs& w, const FinanceInputs& f, OptionResult& r);

}  // namespace gputco
