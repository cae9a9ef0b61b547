// An option's books: its P&L per plan year, the tax depreciation of its hardware and its
// after-tax view, computed from its monthly cash flow (the types, ProfitAndLoss and AfterTax,
// are plan vocabulary: engine/plan_model/).
#pragma once

#include "engine/plan_model/after_tax.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/profit_and_loss.hpp"

namespace gputco {

struct CashFlow;

/// The P&L of option `option` from its cash flow `cf` (option_cash_flow) under `finance`
/// (the plan years follow cf's months; the tax rules are finance.tax_devices and
/// finance.tax_host). Every vector has one entry per plan year. Summed over the horizon,
/// total = cash: capex - depreciation - book value written off = 0 and the loan's principal
/// nets to 0 (the engine books what is still owed at the horizon).
/// Throws EngineError when the tax rules are out of their domain (validate_tax_rules).
ProfitAndLoss profit_and_loss(const OptionInputs& option, const CashFlow& cf,
                              const FinanceInputs& finance);

/// The after-tax view of the cash flow `cf` and its P&L `pl` (profit_and_loss of the same
/// option) at `tax_rate` (0 <= rate < 1). Timing: the tax of plan year y (year 1 = months
/// 0..12, year k = months 12(k-1)+1..12k) is settled at the end of its last month, min(12y,
/// horizon). Assumes the company has enough taxable profit elsewhere to use every deduction
/// in the year it arises (a loss is not carried forward). The spreadsheet: on the Profit and
/// loss sheet, -rate x deductible; on the Cash flow sheet, that figure in the year's last
/// month. Throws EngineError unless 0 <= tax_rate < 1 (finite) and the rows agree in size.
AfterTax after_tax(const CashFlow& cf, const ProfitAndLoss& pl, double tax_rate);

}  // namespace gputco
