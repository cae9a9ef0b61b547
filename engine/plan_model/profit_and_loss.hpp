// The P&L view of an option beside its cash flow, per plan year (the type; engine/money/books.hpp
// computes it from the cash flow): operating expenses,
// depreciation (book, straight line) and interest instead of capex and loan flows, the
// disposal at the horizon, and the items that reconcile it with the cash; and the tax
// depreciation schedule of owned hardware, apart from the book schedule.
//
// Leases are taken as operating leases: the fee is an operating expense when paid (the view of
// most local GAAPs and the income-statement view of US GAAP ASC 842 for operating leases), not
// IFRS 16's right-of-use asset with its depreciation and interest. Over a lease's whole term
// both views cost the same; IFRS 16 moves cost into the early years.
#pragma once

#include <vector>

#include "engine/finance/depreciation.hpp"
#include "engine/plan_model/plan_inputs.hpp"

namespace gputco {

/// One option's P&L per plan year (index 0 = year 1 = months 0..12, year k = months
/// 12(k-1)+1..12k, as annual_costs), plan currency, costs positive.
struct ProfitAndLoss {
  /// Energy, maintenance, hosting, colocation extras, failures, licences, support, rent (and
  /// per-token fees), staff, insurance, and a lease's fees (an operating lease): what the cash
  /// flow pays for running, as paid.
  std::vector<double> operating_expenses;
  /// VAT not reclaimable, expensed as paid (a simplification: IAS 16.16(a) would add the VAT
  /// on a purchase to the asset's cost and depreciate it).
  std::vector<double> vat;
  std::vector<double> depreciation;  ///< book: straight line (CashFlow::depreciation)
  std::vector<double> interest;      ///< loan interest (CashFlow::interest)
  /// At the horizon (the last year): the book value still on the books, written off, less the
  /// resale proceeds: a loss on disposal (> 0) or a gain (< 0). 0 in the other years.
  std::vector<double> disposal;
  std::vector<double> total;  ///< the P&L cost: the sum of the five lines above
  std::vector<double> cash;   ///< the cash view: CashFlow::total by year (annual_costs)
  // What reconciles the two, year by year: cash = total + capex - depreciation +
  // loan_principal - book_value_written_off.
  std::vector<double> capex;  ///< paid for hardware (cash), capitalised in the P&L
  std::vector<double>
      loan_principal;  ///< loan proceeds (-) and repayments (+): financing - interest
  std::vector<double> book_value_written_off;  ///< in disposal, not cash (the last year)
  /// At the end of each year (accounting); 0 at the end of the last (sold at the horizon).
  std::vector<double> book_value;
  // Tax: the owned hardware's cost per asset class, depreciated under FinanceInputs' tax rules
  // (tax_depreciation_by_year; salvage 0, the full-year convention); leased hardware none.
  std::vector<double> tax_depreciation_devices;
  std::vector<double> tax_depreciation_host;
  std::vector<double> tax_depreciation;  ///< devices + host
  /// Tax written-down value at the end of each year: tax cost to date - tax depreciation to
  /// date (what the tax books still hold; the last year's, before the disposal, is written off
  /// against the proceeds when the hardware is sold).
  std::vector<double> tax_written_down_value;
  /// At the horizon (the last year): the tax written-down value still on the tax books, written
  /// off, less the resale proceeds: a loss (> 0, deductible) or a gain (< 0, taxable) on
  /// disposal for tax (issue #40). 0 in the other years; 0 for rentals and leases.
  std::vector<double> tax_disposal;
  /// What the tax computation deducts in each year (issue #40): operating_expenses + vat +
  /// interest + tax_depreciation + tax_disposal (the P&L with the tax schedule in place of the
  /// book's depreciation and disposal). Rentals: their rent; leases: the fees; loans: the
  /// interest (the principal is not deductible).
  std::vector<double> tax_deductible;
};

}  // namespace gputco
