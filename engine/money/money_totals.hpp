// An option's total cost and NPV without its monthly rows, for loops that keep only those two
// figures of each cash flow (the Monte Carlo's draws, break-even searches; issue #19).
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "engine/money/cash_flow.hpp"
#include "engine/money/month_factors.hpp"
#include "engine/plan_model/plan_inputs.hpp"

namespace gputco {

/// The two figures a Monte Carlo draw keeps of one option's cash flow, plan currency.
struct MoneyTotals {
  double total = 0;  ///< the sum of CashFlow::total over months 0..N (total cost)
  double npv = 0;    ///< the sum of CashFlow::discounted over months 0..N (NPV of cost)
};

/// What money_totals reuses from call to call (one per option and thread in the Monte Carlo):
/// the rows of the options it sums through option_cash_flow, and the months' load and units,
/// kept while what they are computed from is the same.
struct MoneyScratch {
  CashFlow rows;  ///< option_cash_flow's rows (loans, leases, cost lines); total (the others)
  std::vector<double> load;   ///< months 0..N: the load of the last direct call's option
  std::vector<double> units;  ///< months 0..N: its units in service (0 where it has none)
  /// months 0..N when always_on: always_on_instances(max(0, load[m]) x peak_multiplier), the
  /// instances an on-demand rental billed always on runs (engine/finance/billing.hpp); else empty.
  std::vector<double> instances;
  // What load and units were computed from; NaN: nothing yet.
  double load_1 = std::numeric_limits<double>::quiet_NaN();  ///< base_load(option, workload)
  double peak_multiplier = 0;                                ///< factors.shape.peak_multiplier
  double growth_per_month = 0;  ///< factors.growth_per_month (the growth row's rate)
  bool has_units = false;       ///< whether the option has units in service
  bool whole_units = false;     ///< adds_units(option)
  bool always_on = false;       ///< an on-demand rental billed always on (instances kept)
};

/// Does money_totals compute this option without rows? True for every option since issue #43
/// (cost lines, loans and leases included; before, those went through the rows). Throws
/// nothing.
bool money_totals_direct(const OptionInputs& option);

/// std::accumulate (from 0.0, month 0 first) of `total` and of `discounted` of
/// option_cash_flow(option, workload, site, finance, factors, scratch.rows,
/// CashFlowRows::money):
/// bit for bit those two figures. Each month's amounts (capex, energy, maintenance, hosting,
/// failures, rent, financing, VAT, resale, the cost lines) are computed into locals by
/// option_cash_flow's expressions, in its order (a cost line recomputed only when the devices
/// or units in service change: the same function of the same values), and summed in the
/// order of CashFlow::total with the terms that are 0 for the option left out (x + 0 = x; at
/// most the sign of a zero month differs, which no sum from 0.0 sees); the months' load and units
/// are kept in `scratch` and reused by the next call with the same base load, peak multiplier,
/// growth and kind of units (the same values: they are the same function of those), with an
/// on-demand rental billed always on its instances per month (scratch.instances; its bill is
/// then instances x max(0, availability hours), billed_instance_hours' own product), and the
/// months' totals go to scratch.rows.total.
/// money_month_totals then sum_money_totals of this one option.
/// Reused, no allocation once sized. `factors` must be the month factors of these inputs
/// (engine/money/month_factors.hpp; factors.growth_per_month the rate of its growth row, as
/// set_workload_factors and month_factors set it). Preconditions as
/// option_cash_flow's (checked by make_plan). Throws nothing but bad_alloc.
MoneyTotals money_totals(const OptionInputs& option, const WorkloadInputs& workload,
                         const SiteInputs& site, const FinanceInputs& finance,
                         const MonthFactors& factors, MoneyScratch& scratch);

/// money_totals' first half: the option's month totals (months 0..N, plan currency) into
/// scratch.rows.total, by the same path and expressions, without summing them. Same inputs,
/// preconditions and reuse as money_totals. Throws nothing but bad_alloc.
void money_month_totals(const OptionInputs& option, const WorkloadInputs& workload,
                        const SiteInputs& site, const FinanceInputs& finance,
                        const MonthFactors& factors, MoneyScratch& scratch);

/// money_totals' second half for `count` options at once: out[k].total = the sum (from 0.0,
/// month 0 first) of scratches[k].rows.total and out[k].npv the sum of rows.total[m] x
/// discount_factor[m] (finish_cash_flow's discounted row), each option's two sums in their
/// own order, so bit for bit money_totals' figures; the sums of up to four options advance
/// together (independent additions, not one long chain of dependent ones). Every
/// scratches[k].rows.total must hold discount_factor.size() months (money_month_totals with
/// the same factors). Throws nothing.
void sum_money_totals(const MoneyScratch* scratches, std::size_t count,
                      const std::vector<double>& discount_factor, MoneyTotals* out);

}  // namespace gputco
