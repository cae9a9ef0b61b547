// Internal to the xlsx report: the rows of one option block on the Cash flow sheet (what each
// shows, where the engine keeps it, where the sheet puts it). Not part of the public API.
#pragma once

#include <vector>

#include "engine/plan_model/plan_result.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {

/// The rows of one option block, top to bottom: what each shows and where the engine keeps
/// it. Money rows between capex and resale make up the total (SUM over that range).
enum class CashFlowRow {
  load,
  units,
  overflow_load,
  capex,
  energy,
  maintenance,
  hosting,
  colo_extras,
  failures,
  licences,
  support,
  rent,
  financing,
  staff,
  insurance,
  vat,
  resale,
  depreciation,
  book_value,
  interest
};

// VAT is charged on the rows from capex to rent (SUM over them): staff and insurance, which
// carry none, sit after rent.
inline constexpr CashFlowRow kCashFlowRows[] = {
    CashFlowRow::load,       CashFlowRow::units,       CashFlowRow::overflow_load,
    CashFlowRow::capex,      CashFlowRow::energy,      CashFlowRow::maintenance,
    CashFlowRow::hosting,    CashFlowRow::colo_extras, CashFlowRow::failures,
    CashFlowRow::licences,   CashFlowRow::support,     CashFlowRow::rent,
    CashFlowRow::financing,  CashFlowRow::staff,       CashFlowRow::insurance,
    CashFlowRow::vat,        CashFlowRow::resale,      CashFlowRow::depreciation,
    CashFlowRow::book_value, CashFlowRow::interest};

/// The row's label in column A.
const char* cash_flow_row_label(CashFlowRow row);
/// The engine's monthly values of the row.
const std::vector<double>& cash_flow_row_values(const CashFlow& cf, CashFlowRow row);
/// Where the block puts the row.
lxw_row_t& cash_flow_row_of(OptionBlock& block, CashFlowRow row);
/// The engine's value of a row at month m; a row the cash flow does not carry is zero.
double cash_flow_row_value(const CashFlow& cf, CashFlowRow row, size_t m);
/// Money rows (in the total's SUM or the accounting view), not counts or loads.
bool is_money_row(CashFlowRow row);

}  // namespace gputco::xlsx
