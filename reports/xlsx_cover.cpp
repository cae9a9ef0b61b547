// The Cover: the page a customer reads first. Who it is for, which quote, how old the
// prices are and how long the figures hold, the basis (currency, VAT), the recommendation,
// whether the workbook's own checks pass, and what the figures are not.
#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {

CoverLayout write_cover_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario,
                              const SummaryLayout& summary, const SourcesLayout& sources,
                              const std::string& master_check_cell, bool master_check_value) {
  CoverLayout layout;
  const lxw_col_t label = 0, value = 1;
  layout.value_col = value;
  sheet.text(0, 0, "Total cost of ownership", formats.title);
  sheet.text(1, 0, scenario.name, formats.subtitle);

  lxw_row_t row = 3;
  const auto key = [&](const char* text) { sheet.text(row, label, text, formats.label); };
  key("Customer");
  sheet.text(row++, value, scenario.customer);
  key("Quote");
  sheet.text(row++, value, scenario.quote_id);
  key("Scenario");
  sheet.text(row++, value, scenario.name);
  ++row;

  key("Prices as of");
  layout.as_of_row = row;
  const auto as_of = parse_iso_date(scenario.as_of);
  if (as_of) {
    sheet.date(row, value, *as_of, formats.date);
    check_xlsx(workbook_define_name(workbook, kPricesAsOfName,
                                    ("=" + sheet_cell_ref(kCoverSheet, row, value)).c_str()),
               std::string("defining the workbook name ") + kPricesAsOfName);
  } else {
    sheet.text(row, value, scenario.as_of);
  }
  const lxw_row_t as_of_row = row++;
  key("Valid for");
  const int valid_days = quote_valid_days(scenario);
  sheet.number(row, value, valid_days, formats.days);
  const lxw_row_t valid_row = row++;
  key("Valid until");
  if (as_of) {
    lxw_datetime until = *as_of;
    // The cached result: as_of + valid_days, by the serial arithmetic the formula does.
    const double serial_as_of = [&] {
      const int y = until.month <= 2 ? until.year - 1 : until.year;
      const int era = (y >= 0 ? y : y - 399) / 400;
      const int yoe = y - era * 400;
      const int mp = (until.month + 9) % 12;
      const int doy = (153 * mp + 2) / 5 + until.day - 1;
      const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
      return static_cast<double>(static_cast<long long>(era) * 146097 + doe - 719468 + 25569);
    }();
    sheet.formula(row, value, "=" + cell_ref(as_of_row, value) + "+" + cell_ref(valid_row, value),
                  serial_as_of + valid_days, formats.date);
  } else {
    sheet.text(row, value, kNotAvailable);
  }
  ++row;
  ++row;

  key("Currency");
  sheet.text(row++, value, plan.currency);
  key("VAT basis");
  sheet.text(row++, value, vat_basis_label(scenario.plan_inputs.finance));
  key("Horizon");
  sheet.number(row++, value, plan.horizon_months, formats.months);
  key("First month");
  sheet.text(row++, value, scenario.start);
  ++row;

  key("Recommendation");
  const lxw_row_t recommendation_row = row;
  sheet.formula_text(
      row++, value,
      "=" + sheet_cell_ref(kSummarySheet, summary.recommendation_row, summary.value_col),
      plan.recommendation.value_or("none"), formats.highlight);
  size_t recommended = plan.options.size();
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (plan.recommendation && plan.options[i].id == *plan.recommendation) recommended = i;
  }
  if (recommended < plan.options.size()) {
    // The recommended option's figures, found by its name (the recommendation is a formula).
    const auto last = static_cast<lxw_row_t>(summary.first_option_row + plan.options.size() - 1);
    const auto of_recommended = [&](lxw_col_t col) {
      return "=INDEX(" + sheet_range_ref(kSummarySheet, summary.first_option_row, col, last, col) +
             ",MATCH(" + cell_ref(recommendation_row, value) + "," +
             sheet_range_ref(kSummarySheet, summary.first_option_row, summary.option_col, last,
                             summary.option_col) +
             ",0))";
    };
    key("Its total cost over the horizon");
    sheet.formula(row++, value, of_recommended(summary.total_col),
                  plan.options[recommended].total_cost, formats.money_whole_left);
    key("Its NPV of cost");
    sheet.formula(row++, value, of_recommended(summary.npv_col), plan.options[recommended].npv,
                  formats.money_whole_left);
  }
  key("Why");
  sheet.text(row++, value, plan.recommendation_reason);
  ++row;

  if (sources.count > 0) {
    // Stale prices are a warning beside the master check (which covers the arithmetic).
    key("Prices older than allowed");
    const auto last = static_cast<lxw_row_t>(sources.first_row + sources.count - 1);
    size_t stale = 0;
    for (const SourceRow& source : scenario.sources) stale += source.stale ? 1 : 0;
    sheet.formula(row, value,
                  "=COUNTIF(" +
                      sheet_range_ref(kSourcesSheet, sources.first_row, sources.stale_col, last,
                                      sources.stale_col) +
                      ",\"stale\")",
                  static_cast<double>(stale), formats.integer_left);
    sheet.text(row++, 2,
               "of " + std::to_string(sources.count) + " prices (older than " +
                   std::to_string(scenario.max_price_age_days) + " days; see Sources)",
               formats.note);
  }
  key("Workbook checks pass");
  layout.master_check_row = row;
  if (master_check_cell.empty()) {
    write_check(sheet, false, row, value, "", master_check_value, formats.check);
    sheet.text(row, 2, "as checked in the full workbook", formats.note);
  } else {
    write_check(sheet, true, row, value, "=" + master_check_cell, master_check_value,
                formats.check);
    sheet.text(row, 2, "see the Checks sheet", formats.note);
  }
  for (const auto& [rule_text, format] :
       {std::pair<std::string, lxw_format*>{"=" + cell_ref(row, value) + "=FALSE", formats.fail},
        std::pair<std::string, lxw_format*>{"=" + cell_ref(row, value) + "=TRUE", formats.pass}}) {
    lxw_conditional_format rule{};
    rule.type = LXW_CONDITIONAL_TYPE_FORMULA;
    rule.value_string = const_cast<char*>(rule_text.c_str());
    rule.format = format;
    check_xlsx(worksheet_conditional_format_cell(sheet.raw(), row, value, &rule),
               "colouring the master check");
  }
  row += 2;

  sheet.text(row++, 0, "Please note", formats.subtitle);
  const std::string disclaimer =
      "The figures are estimates for planning, not an offer and not a guarantee. Prices are "
      "public prices as published on the dates shown on the Sources sheet (as of " +
      scenario.as_of +
      "; stale ones are flagged) and change often; speeds are model estimates from memory "
      "bandwidth, not measurements of your workload. Check current prices before you buy "
      "or sign.";
  check_xlsx(worksheet_merge_range(sheet.raw(), row, 0, row + 4, 2, "", formats.wrapped),
             "merging the disclaimer cells");
  sheet.text(row, 0, disclaimer, formats.wrapped);

  // A narrow value column keeps numbers next to their labels; text runs on to the right.
  sheet.width(label, label, 30);
  sheet.width(value, value, 22);
  sheet.width(2, 2, 60);
  return layout;
}

}  // namespace gputco::xlsx
