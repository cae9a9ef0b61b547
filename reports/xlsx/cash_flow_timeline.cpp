// The Cash flow sheet's timeline rows (month, flags, year, discount factor, hours, days of
// use, growth and price trend factors): one formula per row across the months, the month,
// flag, year and discount rows linked to the Timeline sheet when there is one.
#include "engine/base/units.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// The engine's timeline value at month m; a plan without one (built by hand) gives 0.
double timeline_value(const std::vector<double>& values, int m) {
  const auto index = static_cast<size_t>(m);
  return index < values.size() ? values[index] : 0.0;
}

}  // namespace

void write_cash_flow_timeline(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                              const CashFlowLayout& layout, const InputNames& names,
                              const TimelineLayout* timeline) {
  const int horizon = plan.horizon_months;
  const std::string horizon_name = names.at("scenario", "horizon_months");
  const std::string months_per_year = names.at(kConstantsSection, "months_per_year");
  const std::string full_day = names.at(kConstantsSection, "hours_per_full_day");
  const std::string rate = names.at("scenario", "discount_rate");

  sheet.text(layout.month_row, layout.label_col, "Month", formats.header);
  sheet.text(layout.month_row, layout.sum_col, "Sum", formats.header);
  sheet.text(layout.is_start_row, layout.label_col, "is start (month 0)", formats.flag_label);
  sheet.text(layout.is_running_row, layout.label_col, "is running month (1..horizon)",
             formats.flag_label);
  sheet.text(layout.is_end_row, layout.label_col, "is horizon end", formats.flag_label);
  sheet.text(layout.year_row, layout.label_col, "Year", formats.flag_label);
  sheet.text(layout.discount_row, layout.label_col, "Discount factor", formats.label);
  sheet.text(layout.hours_in_month_row, layout.label_col, "Hours in the month (24 h billing)",
             formats.label);
  sheet.text(layout.days_of_use_row, layout.label_col, "Days of use", formats.label);
  sheet.text(layout.hours_of_use_row, layout.label_col, "Hours of use", formats.label);
  sheet.text(layout.growth_row, layout.label_col, "Demand factor (growth)", formats.label);
  sheet.text(layout.rent_factor_row, layout.label_col, "Hourly rent price factor", formats.label);
  sheet.text(layout.tariff_factor_row, layout.label_col, "Electricity price factor", formats.label);
  if (layout.api_factor_row != 0) {
    sheet.text(layout.api_factor_row, layout.label_col, "API price factor (per token)",
               formats.label);
  }

  // The engine's timeline figures, from the first option's flows and the inputs.
  const CashFlow* first = plan.options.empty() ? nullptr : &plan.options.front().cash_flow;
  for (int m = 0; m <= horizon; ++m) {
    const auto col = static_cast<lxw_col_t>(layout.first_month_col + m);
    const auto index = static_cast<size_t>(m);
    const std::string month = cell_ref(layout.month_row, col, true);
    const std::string running = cell_ref(layout.is_running_row, col, true);
    const std::string since_first = "MAX(0," + month + "-1)";
    // With the Timeline sheet, these rows link to its rows (same column): one timeline.
    const auto linked = [&](lxw_row_t timeline_row, const std::string& own) {
      if (timeline == nullptr) return own;
      return "='" + std::string(kTimelineSheet) + "'!" + cell_ref(timeline_row, col, true);
    };
    if (timeline != nullptr) {
      sheet.formula(layout.month_row, col, linked(timeline->month_row, ""), m,
                    formats.month_header);
    } else {
      sheet.number(layout.month_row, col, m, formats.month_header);
    }
    sheet.formula(layout.is_start_row, col,
                  linked(timeline ? timeline->is_start_row : 0, "=IF(" + month + "=0,1,0)"),
                  m == 0 ? 1 : 0, formats.flag);
    sheet.formula(layout.is_running_row, col,
                  linked(timeline ? timeline->is_running_row : 0,
                         "=IF(AND(" + month + ">=1," + month + "<=" + horizon_name + "),1,0)"),
                  m >= 1 && m <= horizon ? 1 : 0, formats.flag);
    sheet.formula(
        layout.is_end_row, col,
        linked(timeline ? timeline->is_end_row : 0, "=IF(" + month + "=" + horizon_name + ",1,0)"),
        m == horizon ? 1 : 0, formats.flag);
    // Year 1 holds the start (month 0) and months 1-12; year k months 12(k-1)+1..12k.
    sheet.formula(layout.year_row, col,
                  linked(timeline ? timeline->year_row : 0,
                         "=MAX(1,ROUNDUP(" + month + "/" + months_per_year + ",0))"),
                  m == 0 ? 1 : (m - 1) / kMonthsPerYear + 1, formats.flag);
    if (first == nullptr) continue;
    sheet.formula(layout.discount_row, col,
                  linked(timeline ? timeline->discount_row : 0,
                         "=(1+" + rate + ")^(-" + month + "/" + months_per_year + ")"),
                  first->discount_factor[index], formats.factor);
    sheet.formula(layout.hours_in_month_row, col,
                  "=" + running + "*IF(" + names.at("workload", "calendar_months") +
                      "=1,DAY(EOMONTH(DATE(" + names.at("scenario", "start_year") + "," +
                      names.at("scenario", "start_month") + "+" + month + "-1,1),0))*" + full_day +
                      "," + names.at("workload", "hours_per_month") + ")",
                  timeline_value(plan.timeline.hours_in_month, m), formats.decimal1);
    sheet.formula(layout.days_of_use_row, col,
                  // Never more days than the month holds (engine days_of_use).
                  "=" + running + "*IF(" + names.at("workload", "days_follow_convention") + "=1," +
                      cell_ref(layout.hours_in_month_row, col) + "/" + full_day + ",MIN(" +
                      names.at("workload", "days_per_month") + "," +
                      cell_ref(layout.hours_in_month_row, col) + "/" + full_day + "))",
                  timeline_value(plan.timeline.days_of_use, m), formats.decimal2);
    sheet.formula(
        layout.hours_of_use_row, col,
        "=" + names.at("workload", "hours_per_day") + "*" + cell_ref(layout.days_of_use_row, col),
        timeline_value(plan.timeline.hours_of_use, m), formats.decimal1);
    sheet.formula(layout.growth_row, col,
                  "=(1+" + names.at("workload", "growth_per_month") + ")^" + since_first,
                  timeline_value(plan.timeline.growth_factor, m), formats.factor);
    sheet.formula(layout.rent_factor_row, col,
                  "=(1+" + names.at("scenario", "rent_trend_per_year") + ")^(" + since_first + "/" +
                      months_per_year + ")",
                  timeline_value(plan.timeline.rent_factor, m), formats.factor);
    sheet.formula(layout.tariff_factor_row, col,
                  "=(1+" + names.at("site", "tariff_trend_per_year") + ")^(" + since_first + "/" +
                      months_per_year + ")",
                  timeline_value(plan.timeline.tariff_factor, m), formats.factor);
    if (layout.api_factor_row != 0) {
      sheet.formula(layout.api_factor_row, col,
                    "=(1+" + names.at("scenario", "api_price_trend_per_year") + ")^(" +
                        since_first + "/" + months_per_year + ")",
                    timeline_value(plan.timeline.api_factor, m), formats.factor);
    }
  }
}

}  // namespace gputco::xlsx
