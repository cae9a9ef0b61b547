// Metrics comparing options: break-even (hours, month, hours per day, token volume against
// an API), payback period.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// Two running sums or flows closer than this (relative to the larger of 1 and the figure
/// compared with; absolute for a sum that should be 0) are equal: a rounding residue never
/// makes a break-even, a payback or an initial outlay. The workbook's formulas read the same
/// value from its Inputs sheet.
inline constexpr double kComparisonTolerance = 1e-9;

/// The part of each month's total that scales with hours_per_day (OptionResult::
/// hours_scaled_cost): 2 x (total_m at hours_per_day - total_m at half of it), tokens_per_day
/// scaled with the hours (at_hours_per_day). Exact because a total is linear in the hours of
/// use for 0 < h <= 24 at a fixed load per hour: energy at load and hourly rent grow with the
/// hours of use, an idle unit-hour is an hour not at load (never below 0, since hours of use
/// never exceed the hours in the month), units follow the load, not the hours.
/// `at_hours` is option_cash_flow(option, workload, site, finance). All zeros when
/// hours_per_day is not above 0. Throws what option_cash_flow throws.
std::vector<double> hours_scaled_costs(const OptionInputs& option, const WorkloadInputs& workload,
                                       const SiteInputs& site, const FinanceInputs& finance,
                                       const CashFlow& at_hours);

/// The part of each month's total that scales with tokens_per_day at fixed hours of use: 2 x
/// (total_m at tokens_per_day - total_m at half of it) (at_tokens_per_day: requests scaled alike).
/// Exact while the units stay as they are (one unit carries the volume, nothing rented as
/// overflow): the energy at load net of the idle draw it replaces, an hourly rental's busy hours,
/// an API's fees and their VAT grow with the load; the idle draw of an owned unit through the hours
/// of use does not (an owned unit switched off outside them still idles while unused within them).
/// All zeros without a demand in tokens per day above 0. `at_volume` is option_cash_flow(option,
/// workload, site, finance) (the plan's cash flow of the option, its inputs as prepared by
/// prepare_plan_inputs). The workbook's break-even volume against an API is a formula of it
/// (reports/xlsx/metrics.cpp). Throws what option_cash_flow throws.
std::vector<double> volume_scaled_costs(const OptionInputs& option, const WorkloadInputs& workload,
                                        const SiteInputs& site, const FinanceInputs& finance,
                                        const CashFlow& at_volume);

/// Hours of use over the horizon at which owning costs the same as renting (DOMAIN E2:
/// purchase price / hourly rate). Owning's fixed cost = capex x (1 - residual_fraction) +
/// maintenance over the horizon; each hour of use costs its electricity (power x tariff x
/// PUE) when owned and rate_per_gpu_hour x count when rented.
/// Returns nullopt ("never") when renting an hour costs no more than powering the owned
/// hardware for it. Throws EngineError unless `owned` is buy and `rented` rent_hourly.
std::optional<double> break_even_hours(const OptionInputs& owned, const OptionInputs& rented,
                                       const SiteInputs& site, const FinanceInputs& finance);

/// The break-even month: the month index (0..horizon) from which the owned option's
/// cumulative cost stays at or below the rented one's through the end of the horizon,
/// having been above it in the month before (owning must first cost more, then catch up
/// for good: a month-0 tie of two zero sums is no break-even). That is the month after the
/// last month owning is dearer. nullopt when owning is still dearer in the last month
/// ("never", even if it was ahead for a while: see ahead_then_behind) and when owning is
/// never dearer. With a monthly saving that changes sign once (an outlay, then savings) this
/// is the first month at or below. Sums within kComparisonTolerance x max(1, |rented sum|)
/// are equal.
std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented);

/// When owning is dearer (cumulative, as break_even_month) in the last month of the horizon
/// but was at or below the rented option in some month >= 1 before: the last such stretch of
/// months (owning is dearer from span.last + 1 to the end). nullopt otherwise (a break-even
/// month exists, owning is never at or below after month 0, or never dearer). Throws nothing.
std::optional<MonthSpan> ahead_then_behind(const CashFlow& owned, const CashFlow& rented);

/// Sign changes of the monthly saving of owning (`saving`, index = month: rented total -
/// owned total), the count of Descartes' rule of signs: by it the saving's NPV, a polynomial
/// in 1 / (1 + r), has at most that many roots r > -1, and exactly one when the saving
/// changes sign once. A month whose saving is within kComparisonTolerance x max(1,
/// |rented_total[m]|) of 0 is 0 and skipped (a rounding residue is no sign). `rented_total`
/// is the baseline's monthly total (index as `saving`; missing months count as 0).
int saving_sign_changes(const std::vector<double>& saving, const std::vector<double>& rented_total);

/// Sign changes of the running sum of the saving (`saving`, index = month; the cumulative
/// saving of owning, rented - owned cumulative), counted as saving_sign_changes counts the
/// saving's own: a running sum within kComparisonTolerance x max(1, |rented_cumulative[m]|)
/// of 0 is 0 and skipped (the tolerance break_even_month uses). `rented_cumulative` is the
/// baseline's cumulative cost (index as `saving`; missing months count as 0). Throws nothing.
///
/// Norstrom's criterion (C. J. Norstrom, "A sufficient condition for a unique nonnegative
/// internal rate of return", Journal of Financial and Quantitative Analysis 7(3), 1972,
/// pp. 1835-1839): when the running sum starts negative and changes sign exactly once, the
/// NPV has exactly one root r > 0, however often the saving itself changes sign. Proof
/// sketch: NPV(r) = (1 - d) sum_{t<n} A_t d^t + A_n d^n with d = 1 / (1 + r) and A_t the
/// running sums; for 0 < d < 1 the coefficients change sign once, so by Descartes' rule
/// there is one root in 0 < d < 1.
int cumulative_saving_sign_changes(const std::vector<double>& saving,
                                   const std::vector<double>& rented_cumulative);

/// Is the IRR of a saving with an initial outlay unique? Yes when the saving changes sign at
/// most once (`saving_changes`, Descartes' rule of signs: one root r > -1) or its running sum
/// changes sign exactly once (`cumulative_changes`, Norstrom's criterion: one root r > 0,
/// the rate to report). Throws nothing.
bool irr_is_unique(int saving_changes, int cumulative_changes);

/// What the reports show for an IRR that does not apply because the saving changes sign
/// `sign_changes` (> 1) times: "n/a (saving changes sign N times)". The workbook's IRR
/// formula builds the same text.
std::string irr_not_unique_text(int sign_changes);

/// Is there an initial outlay in `saving` (baseline - own, index 0 = month 0)? True when the
/// month-0 saving is negative beyond rounding: money is invested up front (capex, a down
/// payment) that later savings may pay back. A lease or a loan without down payment has
/// none: payback and IRR do not apply.
bool has_initial_outlay(const std::vector<double>& saving);

/// Payback period of an investment whose incremental monthly flows are `saving` (index 0 =
/// month 0, negative: the outlay): the month from which the running sum stays non-negative
/// through the last month (within kComparisonTolerance x max(1, |sum before| + |flow|)),
/// interpolated linearly within that month. With a saving that changes sign once this is the
/// first month the running sum turns non-negative; a running sum that turns non-negative and
/// negative again later has not paid back there. nullopt when the running sum is negative in
/// the last month, and when there is no initial outlay (has_initial_outlay false: nothing to
/// pay back).
std::optional<double> payback_months(const std::vector<double>& saving);

/// A break-even below one second of use a day is no break-even: owning is cheaper at any use.
inline constexpr double kNegligibleHoursPerDay = 1.0 / 3600.0;

/// Hours of use per day (0..24) at which the owned option's total cost over the horizon
/// equals the rented one's, solved by bisection on the totals of option_cash_flow with both
/// options at the same hours per day (tokens_per_day scaled with it: the load per hour of
/// use stays the same). nullopt ("never") when renting is still cheaper at 24 h/day (also
/// when owning is cheaper unused but dearer with use, as against a rental billed for every
/// hour of a 24x7 availability); else 0 when owning is no dearer even unused, or dearer only
/// below kNegligibleHoursPerDay (cheaper at any use: with a demand in tokens, no use at all
/// sizes one unit and one instance where any use sizes the fleets). Needs prepared inputs.
std::optional<double> break_even_hours_per_day(const OptionInputs& owned,
                                               const OptionInputs& rented,
                                               const WorkloadInputs& workload,
                                               const SiteInputs& site,
                                               const FinanceInputs& finance);

/// Output tokens per day of use (see OptionResult::break_even_tokens_per_day) at which the
/// option's total over the horizon equals the api option's; both through option_cash_flow.
/// nullopt when `option` is an api option, `api` is not one, or no crossing lies in [0,
/// option.capacity_tokens_per_hour x hours_per_day]. Needs prepared inputs.
std::optional<double> break_even_tokens_per_day(const OptionInputs& option, const OptionInputs& api,
                                                const WorkloadInputs& workload,
                                                const SiteInputs& site,
                                                const FinanceInputs& finance);

}  // namespace gputco
