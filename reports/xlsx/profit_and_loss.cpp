// The Profit and loss sheet (issue #16 item 2): per option and plan year, the P&L beside the
// cash view, the items that reconcile the two, and the tax depreciation schedule per asset
// class. Every figure is a formula over the Cash flow sheet and the Inputs (SUMIF by plan
// year), cached with the engine's value (engine/plan_model/profit_and_loss.hpp); the tax shares are
// the spreadsheet's VDB, so a changed tax rule on the Inputs sheet moves every schedule.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/base/units.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// Year y's cash less the P&L reconciled to it (cash - (total + capex - depreciation + loan
/// principal - book value written off)): 0 by construction. A residue below 1e-12 of the
/// largest term is the rounding of the terms (millions: an ulp is 1e-10), shown as the 0 a
/// spreadsheet computes (its subtraction snaps near-equal operands to 0).
double reconciliation_residue(const ProfitAndLoss& pl, size_t y) {
  const auto at = [](const std::vector<double>& v, size_t i) { return i < v.size() ? v[i] : 0.0; };
  const double terms[] = {at(pl.cash, y),           at(pl.total, y),
                          at(pl.capex, y),          at(pl.depreciation, y),
                          at(pl.loan_principal, y), at(pl.book_value_written_off, y)};
  double largest = 0;
  for (double t : terms) largest = std::max(largest, std::abs(t));
  const double residue = terms[0] - (terms[1] + terms[2] - terms[3] + terms[4] - terms[5]);
  return std::abs(residue) <= 1e-12 * largest ? 0.0 : residue;
}

/// The rows of one option's block, top to bottom.
struct PnlBlock {
  lxw_row_t title = 0;
  lxw_row_t operating = 0;
  lxw_row_t vat = 0;
  lxw_row_t depreciation = 0;
  lxw_row_t interest = 0;
  lxw_row_t disposal = 0;
  lxw_row_t total = 0;
  lxw_row_t cash = 0;
  lxw_row_t capex = 0;
  lxw_row_t principal = 0;
  lxw_row_t written_off = 0;
  lxw_row_t difference = 0;
  lxw_row_t book_value = 0;
  lxw_row_t devices_capex = 0;
  lxw_row_t host_capex = 0;
  lxw_row_t tax_devices = 0;
  lxw_row_t tax_host = 0;
  lxw_row_t tax_total = 0;
  lxw_row_t tax_value = 0;
  // The after-tax view (issue #40), only with a tax rate.
  lxw_row_t tax_disposal = 0;
  lxw_row_t tax_deductible = 0;
  lxw_row_t tax = 0;
};

/// Column widths, in characters: the label, the horizon total and a plan year. Eight years a
/// page: the label and horizon (repeated on every page) and 8 x 14 characters are 1,303
/// pixels, printed at 79 % on A4 and 74 % on Letter landscape (10.69 and 10 inches of
/// 96 pixels); a column of w characters is 7w + 5 pixels.
constexpr double kLabelWidth = 52;
constexpr double kSumWidth = 15;
constexpr double kYearWidth = 14;
constexpr size_t kYearsPerPage = 8;

double at(const std::vector<double>& row, size_t i) {
  return i < row.size() ? row[i] : 0.0;
}

/// The after-tax rows of one option's block (issue #40), year by year: the tax disposal at
/// the horizon (the tax written-down value + the resale, a negative cash row), the deductible
/// costs and the tax at the rate (engine ProfitAndLoss::tax_disposal, tax_deductible and
/// AfterTax::tax_by_year).
template <typename ColOf, typename CashRange>
void write_after_tax_rows(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                          const PnlBlock& b, size_t years, const ColOf& col_of, lxw_row_t year_row,
                          const std::string& last_year, const CashRange& cash_range,
                          const std::string& year_range, const OptionBlock& cf,
                          const std::string& rate) {
  const ProfitAndLoss& pl = option.profit_and_loss;
  const bool owned = option.kind == OptionKind::buy;
  for (size_t y = 0; y < years; ++y) {
    const lxw_col_t col = col_of(y);
    const std::string year = cell_ref(year_row, col, true);
    const auto here = [&](lxw_row_t r) { return cell_ref(r, col); };
    if (owned) {
      sheet.formula(b.tax_disposal, col,
                    "=IF(" + year + "=" + last_year + "," + here(b.tax_value) + "+SUMIF(" +
                        year_range + "," + year + "," + cash_range(cf.resale) + "),0)",
                    at(pl.tax_disposal, y), formats.money);
    } else {
      sheet.number(b.tax_disposal, col, at(pl.tax_disposal, y), formats.money_quiet);
    }
    sheet.formula(b.tax_deductible, col,
                  "=" + here(b.operating) + "+" + here(b.vat) + "+" + here(b.interest) + "+" +
                      here(b.tax_total) + "+" + here(b.tax_disposal),
                  at(pl.tax_deductible, y), formats.money);
    sheet.formula(b.tax, col, "=-" + rate + "*" + here(b.tax_deductible),
                  option.after_tax ? at(option.after_tax->tax_by_year, y) : 0.0,
                  formats.money_bold);
  }
}

}  // namespace

ProfitAndLossLayout write_profit_and_loss_sheet(SheetWriter& sheet, const Formats& formats,
                                                const Plan& plan, const ResolvedScenario& scenario,
                                                const InputNames& names,
                                                const CashFlowLayout& layout) {
  ProfitAndLossLayout out;
  const size_t years = plan.options.empty() ? 0 : plan.options.front().annual_costs.size();
  const lxw_col_t label = 0, sum_col = 1, first = 2;
  const auto col_of = [&](size_t y) { return static_cast<lxw_col_t>(first + y); };
  const lxw_col_t last = years > 0 ? col_of(years - 1) : first;
  const auto cash_range = [&](lxw_row_t row) {
    return sheet_range_ref(kCashFlowSheet, row, layout.first_month_col, row, layout.last_month_col);
  };
  const std::string year_range = cash_range(layout.year_row);
  const std::string month_range = cash_range(layout.month_row);
  const std::string months_per_year = names.at(kConstantsSection, "months_per_year");
  const std::string horizon = names.at("scenario", "horizon_months");
  const std::string last_year = "ROUNDUP(" + horizon + "/" + months_per_year + ",0)";

  sheet.text(0, 0, "Profit and loss and tax, " + plan.currency, formats.title);
  // The introduction wrapped across the label, the horizon and at most the first
  // kYearsPerPage years (one printed page): unwrapped, its 700 characters made the sheet's
  // print width and the table printed at a quarter of the page (M6).
  const lxw_col_t intro_last = years > 0 ? col_of(std::min(years, kYearsPerPage) - 1) : sum_col;
  write_wrapped_across(
      sheet, 1, label, intro_last,
      kLabelWidth + kSumWidth + kYearWidth * static_cast<double>(intro_last - sum_col),
      "Per plan year (year 1 = months 0-12), beside the cash view: capex becomes book "
      "depreciation (straight line over the useful life), a loan shows its interest, the "
      "hardware still on the books at the horizon is written off against its resale "
      "(disposal). Leases are operating leases: the fee is an operating expense (local "
      "GAAP, US GAAP ASC 842's operating lease cost), not IFRS 16's right-of-use asset. "
      "VAT not reclaimable is expensed as paid. Over the horizon the P&L cost equals the "
      "cash; the reconciling items say why a year differs. Tax depreciation per asset "
      "class (Inputs, section tax), full-year convention, apart from the book schedule." +
          std::string(plan.tax_rate ? " With a tax rate (Inputs, tax_rate), the deductible "
                                      "costs (the P&L with the tax schedule in place of the "
                                      "book's) times the rate are the tax saved, settled in "
                                      "the year's last month on the Cash flow sheet."
                                    : ""),
      formats.note_wrapped);
  out.year_row = 3;
  sheet.text(out.year_row, label, "Plan year", formats.header);
  sheet.text(out.year_row, sum_col, "Horizon", formats.header_number);
  const lxw_row_t age_row = 4, devices_share_row = 5, host_share_row = 6;
  sheet.text(age_row, label, "Tax: age of a purchase, years", formats.flag_label);
  sheet.text(devices_share_row, label, "Tax: share of a device's cost deducted at that age",
             formats.label);
  sheet.text(host_share_row, label, "Tax: share of the host's cost deducted at that age",
             formats.label);
  const auto share_formula = [&](const char* what, lxw_col_t col) {
    const std::string life = names.at("tax", (std::string(what) + "_life_years").c_str());
    const std::string age = cell_ref(age_row, col, true);
    return "=IF(" + age + ">=" + life + ",0,IF(" +
           names.at("tax", (std::string(what) + "_declining_balance").c_str()) + "=1,VDB(1,0," +
           life + "," + age + "," + age + "+1," + names.at("tax", "declining_balance_factor") +
           ",1-" + names.at("tax", "switch_to_straight_line") + "),1/" + life + "))";
  };
  const FinanceInputs& finance = scenario.plan_inputs.finance;
  for (size_t y = 0; y < years; ++y) {
    const lxw_col_t col = col_of(y);
    sheet.number(out.year_row, col, static_cast<double>(y + 1), formats.year_header);
    sheet.number(age_row, col, static_cast<double>(y), formats.flag);
    sheet.formula(devices_share_row, col, share_formula("devices", col),
                  tax_depreciation_share(finance.tax_devices, static_cast<int>(y)), formats.factor);
    sheet.formula(host_share_row, col, share_formula("host", col),
                  tax_depreciation_share(finance.tax_host, static_cast<int>(y)), formats.factor);
  }

  const bool taxed = plan.tax_rate.has_value() && names.has("tax", "rate");
  lxw_row_t row = host_share_row + 2;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    const ProfitAndLoss& pl = option.profit_and_loss;
    const OptionBlock& cf = layout.blocks.at(i);
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    const bool owned = option.kind == OptionKind::buy;
    const bool lease = owned && inputs != nullptr && inputs->financing == Financing::lease;
    const bool loan = owned && inputs != nullptr && inputs->financing == Financing::loan;
    PnlBlock b;
    b.title = row++;
    for (lxw_row_t* r :
         {&b.operating, &b.vat, &b.depreciation, &b.interest, &b.disposal, &b.total, &b.cash,
          &b.capex, &b.principal, &b.written_off, &b.difference, &b.book_value, &b.devices_capex,
          &b.host_capex, &b.tax_devices, &b.tax_host, &b.tax_total, &b.tax_value}) {
      *r = row++;
    }
    if (taxed) {
      for (lxw_row_t* r : {&b.tax_disposal, &b.tax_deductible, &b.tax}) *r = row++;
    }
    ++row;
    sheet.text(b.title, label, option.id, formats.subtitle);
    sheet.text(b.title, sum_col, kind_label(option.kind, inputs), formats.note);
    const std::pair<lxw_row_t, const char*> labels[] = {
        {b.operating, "Operating expenses"},
        {b.vat, "VAT not reclaimable (expensed)"},
        {b.depreciation, "Depreciation (book, straight line)"},
        {b.interest, "Interest (loan)"},
        {b.disposal, "Disposal: book value written off - resale"},
        {b.total, "P&L cost"},
        {b.cash, "Cash (the cash flow's total)"},
        {b.capex, "Reconciling: capex paid (capitalised)"},
        {b.principal, "Reconciling: loan drawn (-) and repaid (+)"},
        {b.written_off, "Reconciling: book value written off (not cash)"},
        {b.difference, "Cash - P&L - capex + depreciation - loan + written off (0)"},
        {b.book_value, "Book value at the end of the year"},
        {b.devices_capex, "Tax: devices bought (cost)"},
        {b.host_capex, "Tax: host systems bought (cost)"},
        {b.tax_devices, "Tax depreciation, devices"},
        {b.tax_host, "Tax depreciation, host"},
        {b.tax_total, "Tax depreciation"},
        {b.tax_value, "Tax written-down value at the end of the year"}};
    for (const auto& [r, text] : labels) {
      sheet.text(r, label, text, r == b.total ? formats.bold : formats.label);
    }
    if (taxed) {
      sheet.text(b.tax_disposal, label, "Tax: disposal, tax written-down value - resale",
                 formats.label);
      sheet.text(b.tax_deductible, label,
                 "Tax: deductible (operating + VAT + interest + tax depreciation + disposal)",
                 formats.label);
      sheet.text(b.tax, label, "Tax at the rate: saved (-), paid (+)", formats.bold);
    }
    const auto sumif = [&](lxw_row_t cash_row, const std::string& year) {
      return "SUMIF(" + year_range + "," + year + "," + cash_range(cash_row) + ")";
    };
    const std::string book_value_at_horizon =
        "SUMIF(" + month_range + "," + horizon + "," + cash_range(cf.book_value) + ")";
    for (size_t y = 0; y < years; ++y) {
      const lxw_col_t col = col_of(y);
      const std::string year = cell_ref(out.year_row, col, true);
      const auto here = [&](lxw_row_t r) { return cell_ref(r, col); };
      std::string opex = "=";
      for (const lxw_row_t r : {cf.energy, cf.maintenance, cf.hosting, cf.colo_extras, cf.failures,
                                cf.licences, cf.support, cf.rent, cf.staff, cf.insurance}) {
        opex += (opex.size() > 1 ? "+" : "") + sumif(r, year);
      }
      if (lease) opex += "+" + sumif(cf.financing, year);
      sheet.formula(b.operating, col, opex, at(pl.operating_expenses, y), formats.money);
      sheet.formula(b.vat, col, "=" + sumif(cf.vat, year), at(pl.vat, y), formats.money);
      sheet.formula(b.depreciation, col, "=" + sumif(cf.depreciation, year), at(pl.depreciation, y),
                    formats.money);
      sheet.formula(b.interest, col, "=" + sumif(cf.interest, year), at(pl.interest, y),
                    formats.money);
      const std::string written_off =
          owned ? "IF(" + year + "=" + last_year + "," + book_value_at_horizon + ",0)" : "0";
      sheet.formula(b.disposal, col, "=" + written_off + "+" + sumif(cf.resale, year),
                    at(pl.disposal, y), formats.money);
      sheet.formula(b.total, col, "=SUM(" + here(b.operating) + ":" + here(b.disposal) + ")",
                    at(pl.total, y), formats.money_bold);
      sheet.formula(b.cash, col, "=" + sumif(cf.total, year), at(pl.cash, y), formats.money);
      sheet.formula(b.capex, col, "=" + sumif(cf.capex, year), at(pl.capex, y), formats.money);
      if (loan) {
        sheet.formula(b.principal, col, "=" + sumif(cf.financing, year) + "-" + here(b.interest),
                      at(pl.loan_principal, y), formats.money);
      } else {
        sheet.number(b.principal, col, at(pl.loan_principal, y), formats.money_quiet);
      }
      sheet.formula(b.written_off, col, "=" + written_off, at(pl.book_value_written_off, y),
                    formats.money);
      const double difference = reconciliation_residue(pl, y);
      sheet.formula(b.difference, col,
                    "=" + here(b.cash) + "-" + here(b.total) + "-" + here(b.capex) + "+" +
                        here(b.depreciation) + "-" + here(b.principal) + "+" + here(b.written_off),
                    difference, formats.money);
      sheet.formula(b.book_value, col,
                    "=IF(" + year + "=" + last_year + ",0,SUMIF(" + month_range + ",MIN(" + year +
                        "*" + months_per_year + "," + horizon + ")," + cash_range(cf.book_value) +
                        "))",
                    at(pl.book_value, y), formats.money);
    }
    // Tax rows: the capex of each year split by the unit's cost (count x price_per_gpu of it
    // devices), then per year the lots of every year so far times the share at their age.
    for (size_t y = 0; y < years; ++y) {
      const lxw_col_t col = col_of(y);
      const auto here = [&](lxw_row_t r) { return cell_ref(r, col); };
      if (!owned) {
        for (const lxw_row_t r :
             {b.devices_capex, b.host_capex, b.tax_devices, b.tax_host, b.tax_total, b.tax_value}) {
          sheet.number(r, col, 0, formats.money_quiet);
        }
        continue;
      }
      const double unit_capex = inputs != nullptr ? capex_of(*inputs) : 0.0;
      const double share = unit_capex > 0 && inputs != nullptr
                               ? inputs->count * inputs->price_per_gpu / unit_capex
                               : 0.0;
      const double devices = at(pl.capex, y) * share;
      const std::string devices_cost =
          names.at(option.id, "count") + "*" + names.at(option.id, "price_per_gpu");
      const std::string unit = "(" + devices_cost + "+" + names.at(option.id, "host_cost") + ")";
      sheet.formula(b.devices_capex, col,
                    "=IF(" + unit + ">0," + here(b.capex) + "*" + devices_cost + "/" + unit + ",0)",
                    devices, formats.money);
      sheet.formula(b.host_capex, col, "=" + here(b.capex) + "-" + here(b.devices_capex),
                    at(pl.capex, y) - devices, formats.money);
      std::string tax_devices = "=", tax_host = "=";
      for (size_t k = 0; k <= y; ++k) {
        const lxw_col_t bought = col_of(k);
        const lxw_col_t age = col_of(y - k);
        tax_devices += (k > 0 ? "+" : "") + cell_ref(b.devices_capex, bought) + "*" +
                       cell_ref(devices_share_row, age, true, true);
        tax_host += (k > 0 ? "+" : "") + cell_ref(b.host_capex, bought) + "*" +
                    cell_ref(host_share_row, age, true, true);
      }
      sheet.formula(b.tax_devices, col, tax_devices, at(pl.tax_depreciation_devices, y),
                    formats.money);
      sheet.formula(b.tax_host, col, tax_host, at(pl.tax_depreciation_host, y), formats.money);
      sheet.formula(b.tax_total, col, "=" + here(b.tax_devices) + "+" + here(b.tax_host),
                    at(pl.tax_depreciation, y), formats.money);
      sheet.formula(b.tax_value, col,
                    "=SUM(" + cell_ref(b.capex, first, false, true) + ":" + here(b.capex) +
                        ")-SUM(" + cell_ref(b.tax_total, first, false, true) + ":" +
                        here(b.tax_total) + ")",
                    at(pl.tax_written_down_value, y), formats.money);
    }
    if (taxed) {
      write_after_tax_rows(sheet, formats, option, b, years, col_of, out.year_row, last_year,
                           cash_range, year_range, cf, names.at("tax", "rate"));
      out.tax_rows.push_back(b.tax);
    }
    // The horizon's sums of the flows (not of the year-end values).
    const auto row_sum = [&](lxw_row_t r, double value, lxw_format* format) {
      sheet.formula(r, sum_col, "=SUM(" + cell_ref(r, first) + ":" + cell_ref(r, last) + ")", value,
                    format);
    };
    double difference_sum = 0;
    for (size_t y = 0; y < years; ++y) difference_sum += reconciliation_residue(pl, y);
    const auto total_of = [](const std::vector<double>& v) {
      double s = 0;
      for (double x : v) s += x;
      return s;
    };
    if (years > 0) {
      row_sum(b.operating, total_of(pl.operating_expenses), formats.money);
      row_sum(b.vat, total_of(pl.vat), formats.money);
      row_sum(b.depreciation, total_of(pl.depreciation), formats.money);
      row_sum(b.interest, total_of(pl.interest), formats.money);
      row_sum(b.disposal, total_of(pl.disposal), formats.money);
      row_sum(b.total, total_of(pl.total), formats.money_bold);
      row_sum(b.cash, total_of(pl.cash), formats.money);
      row_sum(b.capex, total_of(pl.capex), formats.money);
      row_sum(b.principal, total_of(pl.loan_principal), formats.money);
      row_sum(b.written_off, total_of(pl.book_value_written_off), formats.money);
      row_sum(b.difference, difference_sum, formats.money);
      row_sum(b.tax_devices, total_of(pl.tax_depreciation_devices), formats.money);
      row_sum(b.tax_host, total_of(pl.tax_depreciation_host), formats.money);
      row_sum(b.tax_total, total_of(pl.tax_depreciation), formats.money);
      if (taxed) {
        row_sum(b.tax_disposal, total_of(pl.tax_disposal), formats.money);
        row_sum(b.tax_deductible, total_of(pl.tax_deductible), formats.money);
        row_sum(b.tax, option.after_tax ? total_of(option.after_tax->tax_by_year) : 0.0,
                formats.money_bold);
      }
    }
    out.total_rows.push_back(b.total);
    out.cash_rows.push_back(b.cash);
    out.difference_rows.push_back(b.difference);
  }
  out.sum_col = sum_col;
  out.first_year_col = first;
  out.last_year_col = last;
  sheet.width(label, label, kLabelWidth);
  sheet.width(sum_col, sum_col, kSumWidth);
  if (years > 0) sheet.width(first, last, kYearWidth);
  worksheet_freeze_panes(sheet.raw(), out.year_row + 1, first);
  set_print_layout(sheet);
  // Beyond kYearsPerPage years, more pages wide, the labels and the horizon on each.
  check_xlsx(worksheet_repeat_columns(sheet.raw(), label, sum_col),
             "setting Profit and loss print titles");
  out.pages_wide =
      static_cast<uint16_t>(std::max<size_t>(1, (years + kYearsPerPage - 1) / kYearsPerPage));
  worksheet_fit_to_pages(sheet.raw(), out.pages_wide, 0);
  return out;
}

}  // namespace gputco::xlsx
