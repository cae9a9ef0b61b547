// The Crossover sheet: total cost of every option against hours of use per day, the
// engine's utilization sweep (values: each point is a rerun of the plan), with a line chart
// and a marker at the scenario's own hours per day (a formula over the Inputs).
#include <algorithm>

#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {

void write_crossover_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                           const Plan& plan, const ResolvedScenario& scenario,
                           const Sensitivity& sensitivity, const InputNames& names) {
  sheet.text(0, 0, "Crossover: total cost against hours of use per day, " + plan.currency,
             formats.title);
  sheet.text(1, 0,
             "Engine results: the engine recomputed every option's total cost over the horizon "
             "at each number of hours of use per day, everything else as in the scenario. Where "
             "the lines cross, the cheaper option changes.",
             formats.note);
  const auto& sweep = sensitivity.utilization_sweep;
  const lxw_row_t marker_row = 3;  // two rows: the marker's bottom and top
  const lxw_row_t header = 7;
  const lxw_col_t c_hours = 0;
  const auto last_col = static_cast<lxw_col_t>(plan.options.size());

  sheet.text(header, c_hours, "Hours per day", formats.header_number);
  for (size_t i = 0; i < plan.options.size(); ++i) {
    sheet.text(header, static_cast<lxw_col_t>(1 + i), option_label(scenario, plan.options[i].id),
               formats.header_number);
  }
  check_xlsx(worksheet_set_row(sheet.raw(), header, 30, nullptr), "sizing the Crossover header");
  lxw_row_t row = header + 1;
  double highest = 0;
  for (const SweepPoint& point : sweep) {
    sheet.number(row, c_hours, point.hours_per_day, formats.decimal1);
    for (size_t i = 0; i < point.total_cost.size() && i < plan.options.size(); ++i) {
      sheet.number(row, static_cast<lxw_col_t>(1 + i), point.total_cost[i], formats.money_whole);
      highest = std::max(highest, point.total_cost[i]);
    }
    ++row;
  }
  const lxw_row_t last = row - 1;

  // The scenario's hours per day as a vertical line from 0 to the highest cost.
  const double hours = scenario.plan_inputs.workload.hours_per_day;
  sheet.text(marker_row - 1, 0, "Marker: the scenario's hours per day", formats.label);
  sheet.text(marker_row - 1, 1, "Hours per day", formats.header_number);
  sheet.text(marker_row - 1, 2, "Cost", formats.header_number);
  const std::string hours_name = names.at("workload", "hours_per_day");
  sheet.text(marker_row, 0, "Scenario: hours per day");
  sheet.formula(marker_row, 1, "=" + hours_name, hours, formats.decimal1);
  sheet.number(marker_row, 2, 0, formats.money_whole);
  sheet.text(marker_row + 1, 0, "Scenario: hours per day");
  sheet.formula(marker_row + 1, 1, "=" + hours_name, hours, formats.decimal1);
  if (!sweep.empty() && !plan.options.empty()) {
    sheet.formula(marker_row + 1, 2,
                  "=MAX(" + cell_ref(header + 1, 1) + ":" + cell_ref(last, last_col) + ")", highest,
                  formats.money_whole);
  } else {
    sheet.number(marker_row + 1, 2, 0, formats.money_whole);
  }

  if (!sweep.empty() && !plan.options.empty()) {
    lxw_chart* chart = workbook_add_chart(workbook, LXW_CHART_SCATTER_STRAIGHT);
    if (chart == nullptr) throw XlsxError("out of memory creating the crossover chart");
    const char* name = sheet.name().c_str();
    // Excel's series limit (issue #20): the cheapest options, the rest in the table.
    std::vector<std::string> keep;
    if (!plan.baseline_option_id.empty()) keep.push_back(plan.baseline_option_id);
    if (plan.recommendation) keep.push_back(*plan.recommendation);
    const std::vector<size_t> shown = chart_options(plan, kMaxChartOptions, keep);
    for (const size_t i : shown) {
      lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
      if (series == nullptr) throw XlsxError("out of memory creating a chart series");
      const auto col = static_cast<lxw_col_t>(1 + i);
      chart_series_set_categories(series, name, header + 1, c_hours, last, c_hours);
      chart_series_set_values(series, name, header + 1, col, last, col);
      chart_series_set_name_range(series, name, header, col);
    }
    lxw_chart_series* marker = chart_add_series(chart, nullptr, nullptr);
    if (marker == nullptr) throw XlsxError("out of memory creating a chart series");
    chart_series_set_categories(marker, name, marker_row, 1, marker_row + 1, 1);
    chart_series_set_values(marker, name, marker_row, 2, marker_row + 1, 2);
    chart_series_set_name_range(marker, name, marker_row, 0);
    lxw_chart_line dashed{};
    dashed.color = 0x404040;
    dashed.dash_type = LXW_CHART_LINE_DASH_DASH;
    dashed.width = 1.25;
    chart_series_set_line(marker, &dashed);
    const std::string title = cell_text("Total cost over the horizon against hours of use per day" +
                                        chart_subset_note(shown.size(), plan.options.size()));
    chart_title_set_name(chart, title.c_str());
    chart_axis_set_name(chart->x_axis, "Hours of use per day");
    chart_axis_set_min(chart->x_axis, sweep.front().hours_per_day);
    chart_axis_set_max(chart->x_axis, sweep.back().hours_per_day);
    chart_axis_set_major_unit(chart->x_axis, 2);
    const std::string y_name = cell_text("Total cost, " + plan.currency);
    chart_axis_set_name(chart->y_axis, y_name.c_str());
    chart_axis_set_num_format(chart->y_axis, "#,##0");
    chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
    lxw_chart_options options{};
    options.x_scale = 1.8;
    options.y_scale = 1.5;
    check_xlsx(worksheet_insert_chart_opt(sheet.raw(), header, static_cast<lxw_col_t>(last_col + 2),
                                          chart, &options),
               "inserting the crossover chart");
  }
  sheet.width(0, 0, 34);
  sheet.width(1, std::max<lxw_col_t>(last_col, 2), 15);
  worksheet_freeze_panes(sheet.raw(), header + 1, 1);
}

}  // namespace gputco::xlsx
