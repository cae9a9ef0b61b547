// The after-tax view of an option (issue #40): the tax each plan year saves (or costs) at the
// scenario's tax rate on the deductible costs of its P&L with the tax depreciation schedule,
// settled in the year's last month, and the after-tax cash flow and NPV: the type
// (engine/money/books.hpp computes it).
#pragma once

#include <vector>

namespace gputco {

/// The assumptions of the after-tax view, one sentence every report shows beside it.
inline constexpr const char* kAfterTaxAssumption =
    "after tax: the tax rate times each plan year's deductible costs (operating expenses and "
    "non-reclaimable VAT as paid, rent and lease fees, loan interest, the tax depreciation "
    "schedule, the disposal against the tax written-down value at the horizon), settled in the "
    "year's last month; assumes the company has enough taxable profit to use every deduction "
    "in the year it arises; payback, IRR and break-evens stay pre-tax";

/// One option's after-tax figures, plan currency, costs positive (money saved negative).
struct AfterTax {
  double tax_rate = 0;  ///< the rate they were computed at (0.25 = 25 %)
  /// Per plan year (index 0 = year 1, as ProfitAndLoss): -tax_rate x tax_deductible, the tax
  /// the year's deductible costs save (< 0), or cost when a disposal gain makes them negative.
  std::vector<double> tax_by_year;
  /// Per month (index as CashFlow, 0..horizon): each year's tax_by_year in the year's last
  /// month (month 12k, or the horizon for a last partial year), 0 in the other months.
  std::vector<double> tax;
  std::vector<double> total;       ///< CashFlow::total + tax, month by month
  std::vector<double> discounted;  ///< total x CashFlow::discount_factor
  double total_cost = 0;           ///< sum of total
  double npv = 0;                  ///< sum of discounted (the same discount rate as pre-tax)
};

}  // namespace gputco
