// An option's total cost and NPV without its monthly rows, for loops that keep only those two
// figures of each cash flow (the Monte Carlo's draws, break-even searches; issue #19).
#pragma once

#include "engine/cash_flow.hpp"
#include "engine/month_factors.hpp"
#include "engine/plan_inputs.hpp"

namespace gputco {

/// The two figures a Monte Carlo draw keeps of one option's cash flow, plan currency.
struct MoneyTotals {
  double total = 0;  ///< the sum of CashFlow::total over months 0..N (total cost)
  double npv = 0;    ///< the sum of CashFlow::discounted over months 0..N (NPV of cost)
};

/// Does money_totals compute this option without rows? True for owned options bought for
/// cash, every hourly and monthly rental and every api, without cost lines; false for loans,
/// leases and any cost line (those go through the rows). Throws nothing.
bool money_totals_direct(const OptionInputs& option);

/// std::accumulate (from 0.0, month 0 first) of `total` and of `discounted` of
/// option_cash_flow(option, workload, site, finance, factors, scratch, CashFlowRows::money):
/// bit for bit those two figures. Where money_totals_direct(option), each month's amounts
/// (capex, energy, maintenance, hosting, failures, rent, VAT, resale) are computed into
/// locals by option_cash_flow's expressions, in its order, and summed in the order of
/// CashFlow::total with the terms that are 0 for such an option left out (x + 0 = x; at most
/// the sign of a zero month differs, which no sum from 0.0 sees); of `scratch` only `total`
/// is then set (those months' totals). Else the rows are computed into `scratch` (reused, no
/// allocation once sized). `factors`
/// must be the month factors of these inputs (engine/month_factors.hpp). Preconditions as
/// option_cash_flow's (checked by make_plan). Throws nothing but bad_alloc.
MoneyTotals money_totals(const OptionInputs& option, const WorkloadInputs& workload,
                         const SiteInputs& site, const FinanceInputs& finance,
                         const MonthFactors& factors, CashFlow& scratch);

}  // namespace gputco
