// The Summary sheet: what was asked, what is recommended, one row per option, and the
// cumulative-cost chart. Totals, NPVs and annual costs are formulas over the Cash flow
// sheet (cached with the engine's figures); the other metrics are the engine's numbers.
#include <algorithm>
#include <cstdio>

#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {
namespace {

/// Break-even figures exist only for owned options with a rental baseline that hold the
/// model; otherwise they do not apply ("n/a"). An owned option that never catches up with
/// the baseline shows "never".
std::string break_even_gap(const Plan& plan, const OptionResult& option) {
  if (option.kind != OptionKind::buy || plan.baseline_option_id.empty() || !option.feasible) {
    return std::string(kNotAvailable);
  }
  return "never";
}

void write_key_values(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                      const ResolvedScenario& scenario, lxw_row_t row) {
  const auto label = [&](const char* text) { sheet.text(row, 0, text, formats.label); };
  label("Scenario");
  sheet.text(row++, 1, scenario.name);
  label("Customer");
  sheet.text(row++, 1, scenario.customer);
  label("Quote");
  sheet.text(row++, 1, scenario.quote_id);
  label("Prices as of");
  if (const auto date = parse_iso_date(scenario.as_of)) {
    sheet.date(row++, 1, *date, formats.date);
  } else {
    sheet.text(row++, 1, scenario.as_of);
  }
  label("Currency");
  sheet.text(row++, 1, plan.currency);
  label("Horizon");
  sheet.number(row++, 1, plan.horizon_months, formats.months);
  label("Start");
  sheet.text(row++, 1, scenario.start);
  label("Break-even baseline");
  sheet.text(row++, 1, plan.baseline_option_id.empty() ? "none" : plan.baseline_option_id);
  label("Recommendation");
  sheet.text(row++, 1, plan.recommendation.value_or("none"), formats.highlight);
  label("Why");
  sheet.text(row++, 1, plan.recommendation_reason);
}

void write_chart(lxw_workbook* workbook, SheetWriter& sheet, const Plan& plan,
                 const CashFlowLayout& layout, lxw_row_t row) {
  lxw_chart* chart = workbook_add_chart(workbook, LXW_CHART_LINE);
  if (chart == nullptr) throw XlsxError("out of memory creating the chart");
  for (const OptionBlock& block : layout.blocks) {
    lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
    if (series == nullptr) throw XlsxError("out of memory creating a chart series");
    chart_series_set_categories(series, kCashFlowSheet, layout.month_row, layout.first_month_col,
                                layout.month_row, layout.last_month_col);
    chart_series_set_values(series, kCashFlowSheet, block.cumulative, layout.first_month_col,
                            block.cumulative, layout.last_month_col);
    // The option id is user text: the series name points at its cell, never parsed.
    chart_series_set_name_range(series, kCashFlowSheet, block.title, layout.label_col);
  }
  chart_title_set_name(chart, "Cumulative cost by month");
  chart_axis_set_name(chart->x_axis, "Month (0 = start)");
  const std::string y_name = cell_text("Cumulative cost, " + plan.currency);
  chart_axis_set_name(chart->y_axis, y_name.c_str());
  chart_axis_set_num_format(chart->y_axis, "#,##0");
  chart_axis_set_interval_unit(chart->x_axis,
                               static_cast<uint16_t>(std::max(1, plan.horizon_months / 12)));
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  lxw_chart_options options{};
  options.x_scale = 2.2;
  options.y_scale = 1.5;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), row, 0, chart, &options),
             "inserting the chart");
}

}  // namespace

void write_summary_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                         const Plan& plan, const ResolvedScenario& scenario,
                         const CashFlowLayout& layout) {
  sheet.text(0, 0, "Total cost of ownership", formats.title);
  sheet.text(1, 0, scenario.name, formats.subtitle);
  write_key_values(sheet, formats, plan, scenario, 3);

  size_t years = 0;
  for (const auto& option : plan.options) years = std::max(years, option.annual_costs.size());

  // Table columns.
  const lxw_col_t c_option = 0, c_kind = 1, c_devices = 2, c_fit = 3, c_decode = 4, c_total = 5,
                  c_npv = 6, c_year1 = 7;
  const auto c_be_hours = static_cast<lxw_col_t>(c_year1 + years);
  const auto c_be_month = static_cast<lxw_col_t>(c_be_hours + 1);
  const auto c_per_million = static_cast<lxw_col_t>(c_be_hours + 2);
  const auto c_note = static_cast<lxw_col_t>(c_be_hours + 3);

  const lxw_row_t header = 15;
  sheet.text(header - 1, 0, "Options", formats.subtitle);
  sheet.text(header, c_option, "Option", formats.header);
  sheet.text(header, c_kind, "Kind", formats.header);
  sheet.text(header, c_devices, "Devices", formats.header);
  sheet.text(header, c_fit, "Fit", formats.header);
  sheet.text(header, c_decode, "Decode tokens/s per stream", formats.header_number);
  sheet.text(header, c_total, "Total cost, " + plan.currency, formats.header_number);
  sheet.text(header, c_npv, "NPV of cost, " + plan.currency, formats.header_number);
  for (size_t y = 0; y < years; ++y) {
    sheet.number(header, static_cast<lxw_col_t>(c_year1 + y), static_cast<double>(y + 1),
                 formats.year_header);
  }
  sheet.text(header, c_be_hours, "Break-even hours of use", formats.header_number);
  sheet.text(header, c_be_month, "Break-even month", formats.header_number);
  sheet.text(header, c_per_million, "Cost per million tokens, " + plan.currency,
             formats.header_number);
  sheet.text(header, c_note, "Note", formats.header_indented);
  check_xlsx(worksheet_set_row(sheet.raw(), header, 45, nullptr), "sizing the Summary header");

  const std::string year_range =
      sheet_range_ref(kCashFlowSheet, layout.year_row, layout.first_month_col, layout.year_row,
                      layout.last_month_col);
  lxw_row_t row = header + 1;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    const OptionBlock& block = layout.blocks[i];
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    const bool recommended = plan.recommendation && *plan.recommendation == option.id;

    sheet.text(row, c_option, option.id, recommended ? formats.highlight : formats.bold);
    sheet.text(row, c_kind, kind_label(option.kind, inputs));
    sheet.text(row, c_devices, devices_label(inputs));
    sheet.text(row, c_fit, verdict_label(option.fit.verdict),
               option.feasible ? nullptr : formats.warning);
    if (option.feasible) {
      sheet.number(row, c_decode, option.speed.decode_tokens_per_s, formats.decimal1);
    } else {
      sheet.text(row, c_decode, kNotAvailable, formats.not_available);
    }
    sheet.formula(row, c_total, "=" + sheet_cell_ref(kCashFlowSheet, block.total, layout.sum_col),
                  option.total_cost, formats.money_whole);
    sheet.formula(row, c_npv,
                  "=" + sheet_cell_ref(kCashFlowSheet, block.discounted, layout.sum_col),
                  option.npv, formats.money_whole);
    const std::string total_range = sheet_range_ref(
        kCashFlowSheet, block.total, layout.first_month_col, block.total, layout.last_month_col);
    for (size_t y = 0; y < years; ++y) {
      const auto col = static_cast<lxw_col_t>(c_year1 + y);
      if (y >= option.annual_costs.size()) {
        sheet.text(row, col, kNotAvailable, formats.not_available);
        continue;
      }
      sheet.formula(row, col,
                    "=SUMIF(" + year_range + "," + cell_ref(header, col, true, false) + "," +
                        total_range + ")",
                    option.annual_costs[y], formats.money_whole);
    }
    if (option.break_even_hours) {
      sheet.number(row, c_be_hours, *option.break_even_hours, formats.hours);
    } else {
      sheet.text(row, c_be_hours, break_even_gap(plan, option), formats.not_available);
    }
    if (option.break_even_month) {
      sheet.number(row, c_be_month, *option.break_even_month, formats.integer);
    } else {
      sheet.text(row, c_be_month, break_even_gap(plan, option), formats.not_available);
    }
    if (option.cost_per_million_tokens) {
      sheet.number(row, c_per_million, *option.cost_per_million_tokens, formats.money);
    } else {
      sheet.text(row, c_per_million, kNotAvailable, formats.not_available);
    }
    sheet.text(row, c_note, option.note, formats.indented);
    ++row;
  }

  sheet.width(c_option, c_option, 24);
  sheet.width(c_kind, c_kind, 13);
  sheet.width(c_devices, c_devices, 24);
  sheet.width(c_fit, c_fit, 12);
  sheet.width(c_decode, c_decode, 12);
  sheet.width(c_total, c_npv, 14);
  if (years > 0) sheet.width(c_year1, static_cast<lxw_col_t>(c_be_hours - 1), 12);
  sheet.width(c_be_hours, c_per_million, 12);
  sheet.width(c_note, c_note, 44);

  lxw_row_t chart_row = row + 2;
  if (!layout.blocks.empty()) {
    write_chart(workbook, sheet, plan, layout, chart_row);
    chart_row += 23;  // the chart is about 22 rows tall at this scale
  }
  sheet.text(chart_row, 0,
             "Estimates for planning. Prices are as published on the dates on the Sources sheet "
             "(stale ones flagged); speeds are model estimates, not measurements of the "
             "customer's workload. Figures on this sheet recalculate from the Inputs and Cash "
             "flow sheets. Not an offer.",
             formats.note);
  set_print_layout(sheet);
}

}  // namespace gputco::xlsx
