// The rows of one option block on the Cash flow sheet: labels, the engine's values, places.
#include "reports/xlsx/cash_flow_rows.hpp"

namespace gputco::xlsx {

const char* cash_flow_row_label(CashFlowRow row) {
  switch (row) {
    case CashFlowRow::load:
      return "Load (units of this option)";
    case CashFlowRow::units:
      return "Units in service";
    case CashFlowRow::overflow_load:
      return "Overflow load rented";
    case CashFlowRow::capex:
      return "Capex";
    case CashFlowRow::energy:
      return "Energy";
    case CashFlowRow::maintenance:
      return "Maintenance";
    case CashFlowRow::hosting:
      return "Hosting (colocation)";
    case CashFlowRow::colo_extras:
      return "Colocation extras";
    case CashFlowRow::failures:
      return "Failures (expected replacements)";
    case CashFlowRow::licences:
      return "Software licences";
    case CashFlowRow::support:
      return "Support contracts";
    case CashFlowRow::rent:
      return "Rent";
    case CashFlowRow::financing:
      return "Financing (loan, lease)";
    case CashFlowRow::staff:
      return "Staff and operations";
    case CashFlowRow::insurance:
      return "Insurance";
    case CashFlowRow::vat:
      return "VAT (not reclaimable)";
    case CashFlowRow::resale:
      return "Resale";
    case CashFlowRow::depreciation:
      return "Depreciation (accounting, not in total)";
    case CashFlowRow::book_value:
      return "Book value (accounting)";
    case CashFlowRow::interest:
      return "Loan interest (accounting, in financing)";
  }
  return "";
}

const std::vector<double>& cash_flow_row_values(const CashFlow& cf, CashFlowRow row) {
  switch (row) {
    case CashFlowRow::load:
      return cf.load;
    case CashFlowRow::units:
      return cf.units;
    case CashFlowRow::overflow_load:
      return cf.overflow_load;
    case CashFlowRow::capex:
      return cf.capex;
    case CashFlowRow::energy:
      return cf.energy;
    case CashFlowRow::maintenance:
      return cf.maintenance;
    case CashFlowRow::hosting:
      return cf.hosting;
    case CashFlowRow::colo_extras:
      return cf.colo_extras;
    case CashFlowRow::failures:
      return cf.failures;
    case CashFlowRow::licences:
      return cf.licences;
    case CashFlowRow::support:
      return cf.support;
    case CashFlowRow::rent:
      return cf.rent;
    case CashFlowRow::financing:
      return cf.financing;
    case CashFlowRow::staff:
      return cf.staff;
    case CashFlowRow::insurance:
      return cf.insurance;
    case CashFlowRow::vat:
      return cf.vat;
    case CashFlowRow::resale:
      return cf.resale;
    case CashFlowRow::depreciation:
      return cf.depreciation;
    case CashFlowRow::book_value:
      return cf.book_value;
    case CashFlowRow::interest:
      return cf.interest;
  }
  return cf.total;
}

lxw_row_t& cash_flow_row_of(OptionBlock& block, CashFlowRow row) {
  switch (row) {
    case CashFlowRow::load:
      return block.load;
    case CashFlowRow::units:
      return block.units;
    case CashFlowRow::overflow_load:
      return block.overflow_load;
    case CashFlowRow::capex:
      return block.capex;
    case CashFlowRow::energy:
      return block.energy;
    case CashFlowRow::maintenance:
      return block.maintenance;
    case CashFlowRow::hosting:
      return block.hosting;
    case CashFlowRow::colo_extras:
      return block.colo_extras;
    case CashFlowRow::failures:
      return block.failures;
    case CashFlowRow::licences:
      return block.licences;
    case CashFlowRow::support:
      return block.support;
    case CashFlowRow::rent:
      return block.rent;
    case CashFlowRow::financing:
      return block.financing;
    case CashFlowRow::staff:
      return block.staff;
    case CashFlowRow::insurance:
      return block.insurance;
    case CashFlowRow::vat:
      return block.vat;
    case CashFlowRow::resale:
      return block.resale;
    case CashFlowRow::depreciation:
      return block.depreciation;
    case CashFlowRow::book_value:
      return block.book_value;
    case CashFlowRow::interest:
      return block.interest;
  }
  return block.total;
}

double cash_flow_row_value(const CashFlow& cf, CashFlowRow row, size_t m) {
  const auto& values = cash_flow_row_values(cf, row);
  return m < values.size() ? values[m] : 0.0;
}

bool is_money_row(CashFlowRow row) {
  return row != CashFlowRow::load && row != CashFlowRow::units && row != CashFlowRow::overflow_load;
}

}  // namespace gputco::xlsx
