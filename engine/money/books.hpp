// An option's books: its P&L per plan year and the tax depreciation of its hardware, computed
// from its monthly cash flow (the type, ProfitAndLoss, is plan vocabulary:
// engine/plan_model/profit_and_loss.hpp).
#pragma once

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

}  // namespace gputco
