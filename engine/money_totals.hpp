// An option's total cost and NPV without its monthly rows, for loops that keep only those two
// figures of each cash flow (the Monte Carlo's draws, break-even searches; issue #19).
#pragma once

#include <limits>
#include <vector>

#include "engine/cash_flow.hpp"
#include "engine/month_factors.hpp"
#include "engine/plan_inputs.hpp"

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
  // What load and units were computed from; NaN: nothing yet.
  double load_1 = std::numeric_limits<double>::quiet_NaN();  ///< base_load(option, workload)
  double peak_multiplier = 0;                                ///< factors.shape.peak_multiplier
  double growth_per_month = 0;  ///< factors.growth_per_month (the growth row's rate)
  bool has_units = false;       ///< whether the option has units in service
  bool whole_units = false;     ///< adds_units(option)
};

/// Does money_totals compute this option without rows? True for owned options bought for
/// cash, every hourly and monthly rental and every api, without cost lines; false for loans,
/// leases and any cost line (those go through the rows). Throws nothing.
bool money_totals_direct(const OptionInputs& option);

/// std::accumulate (from 0.0, month 0 first) of `total` and of `discounted` of
/// option_cash_flow(option, workload, site, finance, factors, scratch.rows,
/// CashFlowRows::money):
/// bit for bit those two figures. Where money_totals_direct(option), each month's amounts
/// (capex, energy, maintenance, hosting, failures, rent, VAT, resale) are computed into
/// locals by option_cash_flow's expressions, in its order, and summed in the order of
/// CashFlow::total with the terms that are 0 for such an option left out (x + 0 = x; at most
/// the sign of a zero month differs, which no sum from 0.0 sees); the months' load and units
/// are kept in `scratch` and reused by the next call with the same base load, peak multiplier,
/// growth and kind of units (the same values: they are the same function of those), and the
/// months' totals go to scratch.rows.total. Else the rows are computed into scratch.rows.
/// Reused, no allocation once sized. `factors` must be the month factors of these inputs
/// (engine/month_factors.hpp; factors.growth_per_month the rate of its growth row, as
/// set_workload_factors and month_factors set it). Preconditions as
/// option_cash_flow's (checked by make_plan). Throws nothing but bad_alloc.
MoneyTotals money_totals(const OptionInputs& option, const WorkloadInputs& workload,
                         const SiteInputs& site, const FinanceInputs& finance,
                         const MonthFactors& factors, MoneyScratch& scratch);

}  // namespace gputco
