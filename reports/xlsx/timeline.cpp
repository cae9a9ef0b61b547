// The Timeline sheet: the one timeline every calculation shares (FAST: one row per
// concept, one formula per row). Month m sits in the same column as on the Cash flow sheet.
#include <cmath>

#include "engine/base/units.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// Workbook name of the first month of the plan (a date: its first day).
constexpr const char* kFirstMonthName = "first_month_date";

/// Serial of the last day of the month `offset` months after (year, month).
double end_of_month_serial(int year, int month, int offset) {
  int index = year * 12 + (month - 1) + offset + 1;  // the month after, then one day back
  return date_serial(index / 12, index % 12 + 1, 1) - 1;
}

/// The first month of the plan: scenario.start (YYYY-MM), else the as-of date's month.
lxw_datetime first_month(const ResolvedScenario& scenario) {
  if (const auto date = parse_iso_date(scenario.start + "-01")) return *date;
  if (const auto as_of = parse_iso_date(scenario.as_of)) {
    return lxw_datetime{as_of->year, as_of->month, 1, 0, 0, 0.0};
  }
  return lxw_datetime{2000, 1, 1, 0, 0, 0.0};
}

}  // namespace

TimelineLayout write_timeline_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                    const Formats& formats, const Plan& plan,
                                    const ResolvedScenario& scenario, const InputNames& names,
                                    lxw_col_t first_month_col) {
  TimelineLayout t;
  t.first_month_row = 3;
  t.month_row = 5;
  t.date_row = 6;
  t.year_row = 7;
  t.calendar_year_row = 8;
  t.is_start_row = 9;
  t.is_running_row = 10;
  t.is_end_row = 11;
  t.is_year_end_row = 12;
  t.discount_row = 13;
  t.first_month_col = first_month_col;
  const int horizon = plan.horizon_months;
  t.last_month_col = static_cast<lxw_col_t>(first_month_col + horizon);
  const lxw_col_t label = 0;

  sheet.text(0, 0, "Timeline", formats.title);
  sheet.text(1, 0,
             "The shared timeline: month 0 is the start of the first month (purchases, setup "
             "fees), month m the end of month m. Flags are 1 or 0; each row is one formula "
             "across the months.",
             formats.note);
  const lxw_datetime start = first_month(scenario);
  sheet.text(t.first_month_row, label, "First month of the plan", formats.label);
  sheet.date(t.first_month_row, 1, start, formats.input_date);
  sheet.text(t.first_month_row, 2, "input: scenario key start (" + scenario.start + ")",
             formats.note);
  check_xlsx(
      workbook_define_name(workbook, kFirstMonthName,
                           ("=" + sheet_cell_ref(kTimelineSheet, t.first_month_row, 1)).c_str()),
      std::string("defining the workbook name ") + kFirstMonthName);

  const std::string horizon_name = names.at("scenario", "horizon_months");
  const std::string months_per_year = names.at(kConstantsSection, "months_per_year");
  const std::string rate = names.at("scenario", "discount_rate");

  sheet.text(t.month_row, label, "Month", formats.header);
  sheet.blank(t.month_row, 1, formats.header);
  sheet.text(t.date_row, label, "Date (month 0: first day; month m: last day)", formats.label);
  sheet.text(t.year_row, label, "Plan year", formats.flag_label);
  sheet.text(t.calendar_year_row, label, "Calendar year", formats.flag_label);
  sheet.text(t.is_start_row, label, "is start (month 0)", formats.flag_label);
  sheet.text(t.is_running_row, label, "is running month (1..horizon)", formats.flag_label);
  sheet.text(t.is_end_row, label, "is horizon end", formats.flag_label);
  sheet.text(t.is_year_end_row, label, "is plan-year end", formats.flag_label);
  sheet.text(t.discount_row, label, "Discount factor", formats.label);

  for (int m = 0; m <= horizon; ++m) {
    const auto col = static_cast<lxw_col_t>(first_month_col + m);
    const std::string month = cell_ref(t.month_row, col, true);
    const std::string is_start = cell_ref(t.is_start_row, col, true);
    const std::string is_running = cell_ref(t.is_running_row, col, true);
    const bool running = m >= 1 && m <= horizon;
    sheet.number(t.month_row, col, m, formats.month_header);
    const double date = end_of_month_serial(start.year, start.month, m - 1) + (m == 0 ? 1 : 0);
    sheet.formula(t.date_row, col,
                  "=EOMONTH(" + std::string(kFirstMonthName) + "," + month + "-1)+" + is_start,
                  date, formats.period_date);
    sheet.formula(t.year_row, col, "=MAX(1,ROUNDUP(" + month + "/" + months_per_year + ",0))",
                  m == 0 ? 1 : (m - 1) / kMonthsPerYear + 1, formats.flag);
    const int calendar_year = [&] {
      const int index = start.year * 12 + (start.month - 1) + (m == 0 ? 0 : m - 1);
      return index / 12;
    }();
    sheet.formula(t.calendar_year_row, col, "=YEAR(" + cell_ref(t.date_row, col, true) + ")",
                  calendar_year, formats.flag);
    sheet.formula(t.is_start_row, col, "=IF(" + month + "=0,1,0)", m == 0 ? 1 : 0, formats.flag);
    sheet.formula(t.is_running_row, col,
                  "=IF(AND(" + month + ">=1," + month + "<=" + horizon_name + "),1,0)",
                  running ? 1 : 0, formats.flag);
    sheet.formula(t.is_end_row, col, "=IF(" + month + "=" + horizon_name + ",1,0)",
                  m == horizon ? 1 : 0, formats.flag);
    sheet.formula(t.is_year_end_row, col,
                  "=" + is_running + "*IF(OR(MOD(" + month + "," + months_per_year + ")=0," +
                      month + "=" + horizon_name + "),1,0)",
                  running && (m % kMonthsPerYear == 0 || m == horizon) ? 1 : 0, formats.flag);
    if (!plan.options.empty()) {
      sheet.formula(
          t.discount_row, col, "=(1+" + rate + ")^(-" + month + "/" + months_per_year + ")",
          plan.options.front().cash_flow.discount_factor[static_cast<size_t>(m)], formats.factor);
    }
  }
  sheet.width(label, label, 40);
  sheet.width(1, 1, 12);
  sheet.width(t.first_month_col, t.last_month_col, 11);
  worksheet_freeze_panes(sheet.raw(), t.month_row + 1, t.first_month_col);
  check_xlsx(worksheet_repeat_columns(sheet.raw(), label, 1), "setting Timeline print titles");
  return t;
}

}  // namespace gputco::xlsx
