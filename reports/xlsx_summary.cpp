// The Summary sheet: what was asked, what is recommended, one row per option, the annual cost
// by component, and the charts (cumulative cost with the break-even crossings marked; annual
// cost stacked by component). Totals, NPVs and annual costs are formulas over the Cash flow
// sheet (cached with the engine's figures); the other metrics are the engine's numbers.
#include <algorithm>
#include <array>
#include <cstdio>

#include "engine/units.hpp"
#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {

const char* cost_component_label(size_t which) {
  static constexpr std::array<const char*, kCostComponents> kLabels = {
      "Capex", "Energy",    "Maintenance", "Hosting", "Failures",
      "Rent",  "Financing", "VAT",         "Resale"};
  return kLabels.at(which);
}

const std::vector<double>& cost_component(const CashFlow& cf, size_t which) {
  const std::array<const std::vector<double>*, kCostComponents> rows = {
      &cf.capex, &cf.energy,    &cf.maintenance, &cf.hosting, &cf.failures,
      &cf.rent,  &cf.financing, &cf.vat,         &cf.resale};
  return *rows.at(which);
}

std::vector<size_t> chart_options(const Plan& plan, size_t limit,
                                  const std::vector<std::string>& keep) {
  std::vector<size_t> order(plan.options.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() <= limit) return order;
  // Cheapest first, options that hold the model before those that do not; ties keep plan order.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const OptionResult& x = plan.options[a];
    const OptionResult& y = plan.options[b];
    if (x.feasible != y.feasible) return x.feasible;
    return x.npv < y.npv;
  });
  std::vector<size_t> shown(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(limit));
  for (const std::string& id : keep) {
    for (size_t i = 0; i < plan.options.size(); ++i) {
      if (plan.options[i].id != id || std::find(shown.begin(), shown.end(), i) != shown.end() ||
          shown.empty()) {
        continue;
      }
      // Replace the dearest shown option that is not itself kept.
      for (size_t k = shown.size(); k-- > 0;) {
        const std::string& candidate = plan.options[shown[k]].id;
        if (std::find(keep.begin(), keep.end(), candidate) == keep.end()) {
          shown[k] = i;
          break;
        }
      }
    }
  }
  std::sort(shown.begin(), shown.end());
  return shown;
}

std::string chart_subset_note(size_t shown, size_t total) {
  if (shown >= total) return "";
  return " (the " + std::to_string(shown) + " cheapest of " + std::to_string(total) +
         " options by NPV)";
}

lxw_row_t cost_component_row(const OptionBlock& block, size_t which) {
  const std::array<lxw_row_t, kCostComponents> rows = {
      block.capex, block.energy,    block.maintenance, block.hosting, block.failures,
      block.rent,  block.financing, block.vat,         block.resale};
  return rows.at(which);
}

namespace {

/// Sum of a monthly row over plan year `year` (1-based) by the rule of engine/plan.hpp
/// annual_costs: year 1 = index 0..12, year k = 12(k-1)+1..12k. The cached result of a
/// SUMIF over the Timeline's year row.
double year_sum(const std::vector<double>& monthly, size_t year) {
  double sum = 0;
  for (size_t m = 0; m < monthly.size(); ++m) {
    const size_t y = m == 0 ? 1 : (m - 1) / static_cast<size_t>(kMonthsPerYear) + 1;
    if (y == year) sum += monthly[m];
  }
  return sum;
}

/// Break-even figures exist only for owned options with a rental baseline that hold the
/// model; otherwise they do not apply ("n/a"). An owned option that never catches up with
/// the baseline shows "never".
std::string break_even_gap(const Plan& plan, const OptionResult& option) {
  if (option.kind != OptionKind::buy || plan.baseline_option_id.empty() || !option.feasible ||
      option.never_dearer_than_baseline) {
    return std::string(kNotAvailable);
  }
  return "never";
}

lxw_row_t write_key_values(SheetWriter& sheet, const Formats& formats, const Plan& plan,
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
  const lxw_row_t recommendation_row = row;
  label("Recommendation");
  sheet.text(row++, 1, plan.recommendation.value_or("none"), formats.highlight);
  label("Why");
  sheet.text(row++, 1, plan.recommendation_reason);
  return recommendation_row;
}

lxw_chart* new_chart(lxw_workbook* workbook, uint8_t type) {
  lxw_chart* chart = workbook_add_chart(workbook, type);
  if (chart == nullptr) throw XlsxError("out of memory creating a chart");
  return chart;
}

lxw_chart_series* new_series(lxw_chart* chart) {
  lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
  if (series == nullptr) throw XlsxError("out of memory creating a chart series");
  return series;
}

/// One break-even crossing on the Summary: its label, month and cumulative cost cells.
struct Marker {
  lxw_row_t row = 0;
  size_t option = 0;  ///< plan index of the owned option
};

void write_cumulative_chart(lxw_workbook* workbook, SheetWriter& sheet, const Plan& plan,
                            const CumulativeSource& source, const std::vector<Marker>& markers,
                            lxw_col_t marker_label_col, lxw_col_t marker_month_col,
                            lxw_col_t marker_cost_col, lxw_row_t row, lxw_col_t col) {
  // A scatter chart with straight lines: months are numbers on a value axis, so a
  // crossing's marker sits exactly at its month.
  lxw_chart* chart = new_chart(workbook, LXW_CHART_SCATTER_STRAIGHT);
  // Excel's series limit (issue #20): a line per shown option, a marker per shown crossing.
  std::vector<std::string> keep;
  if (!plan.baseline_option_id.empty()) keep.push_back(plan.baseline_option_id);
  if (plan.recommendation) keep.push_back(*plan.recommendation);
  const std::vector<size_t> shown = chart_options(plan, kMaxChartOptions, keep);
  for (const size_t i : shown) {
    if (i >= source.cumulative_rows.size()) continue;
    lxw_chart_series* series = new_series(chart);
    chart_series_set_categories(series, source.sheet.c_str(), source.month_row, source.first_col,
                                source.month_row, source.last_col);
    chart_series_set_values(series, source.sheet.c_str(), source.cumulative_rows[i],
                            source.first_col, source.cumulative_rows[i], source.last_col);
    // The option id is user text: the series name points at its cell, never parsed.
    chart_series_set_name_range(series, source.sheet.c_str(), source.name_rows[i], source.name_col);
  }
  for (const Marker& marker : markers) {
    if (std::find(shown.begin(), shown.end(), marker.option) == shown.end()) continue;
    lxw_chart_series* series = new_series(chart);
    chart_series_set_categories(series, sheet.name().c_str(), marker.row, marker_month_col,
                                marker.row, marker_month_col);
    chart_series_set_values(series, sheet.name().c_str(), marker.row, marker_cost_col, marker.row,
                            marker_cost_col);
    chart_series_set_name_range(series, sheet.name().c_str(), marker.row, marker_label_col);
    lxw_chart_line no_line{};
    no_line.none = LXW_TRUE;
    chart_series_set_line(series, &no_line);
    chart_series_set_marker_type(series, LXW_CHART_MARKER_DIAMOND);
    chart_series_set_marker_size(series, 11);
    lxw_chart_fill fill{};
    fill.color = 0xC00000;
    chart_series_set_marker_fill(series, &fill);
    lxw_chart_line outline{};
    outline.color = 0x000000;
    chart_series_set_marker_line(series, &outline);
    // A vertical drop from the crossing to the axis: a minus error bar of 100 %.
    chart_series_set_error_bars(series->y_error_bars, LXW_CHART_ERROR_BAR_TYPE_PERCENTAGE, 100);
    chart_series_set_error_bars_direction(series->y_error_bars, LXW_CHART_ERROR_BAR_DIR_MINUS);
    chart_series_set_error_bars_endcap(series->y_error_bars, LXW_CHART_ERROR_BAR_NO_CAP);
    lxw_chart_line drop{};
    drop.color = 0xC00000;
    drop.dash_type = LXW_CHART_LINE_DASH_DASH;
    drop.width = 1.5;
    chart_series_set_error_bars_line(series->y_error_bars, &drop);
  }
  const std::string title =
      cell_text("Cumulative cost by month" + chart_subset_note(shown.size(), plan.options.size()));
  chart_title_set_name(chart, title.c_str());
  chart_axis_set_name(chart->x_axis, "Month (0 = start)");
  const std::string y_name = cell_text("Cumulative cost, " + plan.currency);
  chart_axis_set_name(chart->y_axis, y_name.c_str());
  chart_axis_set_num_format(chart->y_axis, "#,##0");
  chart_axis_set_min(chart->x_axis, 0);
  chart_axis_set_max(chart->x_axis, plan.horizon_months);
  chart_axis_set_major_unit(chart->x_axis, plan.horizon_months > 24 ? 6 : 3);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  lxw_chart_options options{};
  options.x_scale = 1.55;
  options.y_scale = 1.45;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), row, col, chart, &options),
             "inserting the cumulative-cost chart");
}

void write_annual_chart(lxw_workbook* workbook, SheetWriter& sheet, const Plan& plan,
                        lxw_row_t first_row, lxw_row_t last_row, lxw_col_t label_col,
                        lxw_col_t first_component_col, lxw_row_t header_row, lxw_row_t row,
                        lxw_col_t col) {
  // A component no option has (hosting without colocation, financing paid cash...) would
  // only crowd the legend; the table below the chart still lists it. All zero: no chart.
  std::vector<lxw_col_t> shown;
  for (lxw_col_t c = 0; c < kCostComponents; ++c) {
    bool any = false;
    for (const auto& option : plan.options) {
      for (double v : cost_component(option.cash_flow, c)) any = any || v != 0;
    }
    if (any) shown.push_back(c);
  }
  if (shown.empty()) return;
  lxw_chart* chart = new_chart(workbook, LXW_CHART_COLUMN_STACKED);
  for (const lxw_col_t c : shown) {
    lxw_chart_series* series = new_series(chart);
    const auto component_col = static_cast<lxw_col_t>(first_component_col + c);
    chart_series_set_categories(series, sheet.name().c_str(), first_row, label_col, last_row,
                                label_col);
    chart_series_set_values(series, sheet.name().c_str(), first_row, component_col, last_row,
                            component_col);
    chart_series_set_name_range(series, sheet.name().c_str(), header_row, component_col);
  }
  chart_set_series_gap(chart, 60);
  chart_title_set_name(chart, "Annual cost by component");
  const std::string y_name = cell_text("Cost per plan year, " + plan.currency);
  chart_axis_set_name(chart->y_axis, y_name.c_str());
  chart_axis_set_num_format(chart->y_axis, "#,##0");
  chart_axis_set_label_position(chart->x_axis, LXW_CHART_AXIS_LABEL_POSITION_LOW);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  lxw_chart_options options{};
  options.x_scale = 1.55;
  options.y_scale = 1.45;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), row, col, chart, &options),
             "inserting the annual-cost chart");
}

}  // namespace

SummaryLayout write_summary_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                  const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const CumulativeSource& source,
                                  bool live) {
  SummaryLayout layout;
  sheet.text(0, 0, "Total cost of ownership", formats.title);
  sheet.text(1, 0, scenario.name, formats.subtitle);
  layout.recommendation_row = write_key_values(sheet, formats, plan, scenario, 3);

  size_t years = 0;
  for (const auto& option : plan.options) years = std::max(years, option.annual_costs.size());
  layout.years = years;

  // Table columns.
  const lxw_col_t c_option = 0, c_kind = 1, c_devices = 2, c_fit = 3, c_decode = 4, c_total = 5,
                  c_npv = 6, c_year1 = 7;
  const auto c_be_hours = static_cast<lxw_col_t>(c_year1 + years);
  const auto c_be_month = static_cast<lxw_col_t>(c_be_hours + 1);
  const auto c_per_million = static_cast<lxw_col_t>(c_be_hours + 2);
  const auto c_kwh = static_cast<lxw_col_t>(c_be_hours + 3);
  const auto c_co2e = static_cast<lxw_col_t>(c_be_hours + 4);
  const auto c_be_tokens = static_cast<lxw_col_t>(c_be_hours + 5);
  const auto c_note = static_cast<lxw_col_t>(c_be_hours + 6);
  layout.option_col = c_option;
  layout.fit_col = c_fit;
  layout.total_col = c_total;
  layout.npv_col = c_npv;
  layout.first_year_col = c_year1;
  layout.break_even_month_col = c_be_month;

  const lxw_row_t header = 15;
  layout.first_option_row = header + 1;
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
  sheet.text(header, c_kwh, "Energy, kWh (horizon)", formats.header_number);
  sheet.text(header, c_co2e, "Emissions, kg CO2e (horizon)", formats.header_number);
  sheet.text(header, c_be_tokens, "Break-even tokens/day vs API", formats.header_number);
  sheet.text(header, c_note, "Note", formats.header_indented);
  check_xlsx(worksheet_set_row(sheet.raw(), header, 45, nullptr), "sizing the Summary header");

  const std::string year_range = sheet_range_ref(source.sheet, source.year_row, source.first_col,
                                                 source.year_row, source.last_col);
  const auto monthly_range = [&](lxw_row_t row) {
    return sheet_range_ref(source.sheet, row, source.first_col, row, source.last_col);
  };
  lxw_row_t row = layout.first_option_row;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    const bool recommended = plan.recommendation && *plan.recommendation == option.id;

    sheet.text(row, c_option, option.id, recommended ? formats.highlight : formats.bold);
    sheet.text(row, c_kind, kind_label(option.kind, inputs));
    sheet.text(row, c_devices, devices_label(inputs));
    if (option.kind == OptionKind::api) {
      // The provider serves the model: no fit of ours, no speed to show (as text and JSON).
      sheet.text(row, c_fit, "hosted");
      sheet.text(row, c_decode, kNotAvailable, formats.not_available);
    } else if (option.feasible) {
      sheet.text(row, c_fit, verdict_label(option.fit.verdict));
      sheet.number(row, c_decode, option.speed.decode_tokens_per_s, formats.decimal1);
    } else {
      sheet.text(row, c_fit, verdict_label(option.fit.verdict), formats.warning);
      sheet.text(row, c_decode, kNotAvailable, formats.not_available);
    }
    write_figure(sheet, live, row, c_total,
                 "=" + sheet_cell_ref(source.sheet, source.total_rows[i], source.sum_col),
                 option.total_cost, formats.money_whole);
    write_figure(sheet, live, row, c_npv,
                 "=" + sheet_cell_ref(source.sheet, source.discounted_rows[i], source.sum_col),
                 option.npv, formats.money_whole);
    for (size_t y = 0; y < years; ++y) {
      const auto col = static_cast<lxw_col_t>(c_year1 + y);
      if (y >= option.annual_costs.size()) {
        sheet.text(row, col, kNotAvailable, formats.not_available);
        continue;
      }
      write_figure(sheet, live, row, col,
                   "=SUMIF(" + year_range + "," + cell_ref(header, col, true, false) + "," +
                       monthly_range(source.total_rows[i]) + ")",
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
    // Energy and emissions: the sums of the option's physical rows on the Cash flow sheet;
    // "unknown" (never 0) where the engine has no figure (an API's energy, a rental region
    // without a grid intensity).
    const auto physical = [&](lxw_col_t col, const std::optional<double>& total,
                              const std::vector<lxw_row_t>& rows) {
      if (!total) {
        sheet.text(row, col, "unknown", formats.not_available);
        return;
      }
      const std::string formula =
          i < rows.size() ? "=" + sheet_cell_ref(source.sheet, rows[i], source.sum_col) : "";
      write_figure(sheet, live && !formula.empty(), row, col, formula, *total, formats.integer);
    };
    physical(c_kwh, option.energy_kwh_total, source.energy_kwh_rows);
    physical(c_co2e, option.energy_kwh_total ? option.co2e_kg_total : std::nullopt,
             source.co2e_kg_rows);
    // A solved figure (the engine's bisection on two recomputed plans): a number, not a
    // formula; the note under the table says so.
    if (option.break_even_tokens_per_day) {
      sheet.number(row, c_be_tokens, *option.break_even_tokens_per_day, formats.integer);
    } else {
      sheet.text(
          row, c_be_tokens,
          option.kind == OptionKind::api || plan.api_reference_option_id.empty() || !option.feasible
              ? std::string(kNotAvailable)
              : "never",
          formats.not_available);
    }
    std::string note = option.note;
    for (const auto& w : option.warnings) note += (note.empty() ? "" : "; ") + w;
    sheet.text(row, c_note, note, formats.indented);
    ++row;
  }

  sheet.width(c_option, c_option, 24);
  sheet.width(c_kind, c_kind, 13);
  sheet.width(c_devices, c_devices, 24);
  sheet.width(c_fit, c_fit, 12);
  sheet.width(c_decode, c_decode, 12);
  sheet.width(c_total, c_npv, 14);
  if (years > 0) sheet.width(c_year1, static_cast<lxw_col_t>(c_be_hours - 1), 12);
  sheet.width(c_be_hours, c_be_tokens, 12);
  sheet.width(c_note, c_note, 44);
  if (!plan.api_reference_option_id.empty()) {
    sheet.text(row, 0,
               "Break-even tokens/day vs API: the output tokens per day of use at which the "
               "option costs as much over the horizon as " +
                   plan.api_reference_option_id +
                   " (the engine solves it on recomputed plans: a value, not a formula). "
                   "Energy and emissions are physical figures, not money.",
               formats.note);
  }
  // What the whole plan adjusted (e.g. days of use capped at the days of a month).
  for (const auto& warning : plan.warnings) sheet.text(++row, 0, warning, formats.note);

  // Below the charts: the crossings they mark, then the annual cost by component they plot.
  const lxw_row_t chart_row = row + 2;
  row = chart_row + 24;  // the charts are about 22 rows tall at this scale

  std::vector<Marker> markers;
  const lxw_col_t m_option = 0, m_month = 1, m_cost = 2, m_label = 3;
  bool any_crossing = false;
  for (const auto& option : plan.options) any_crossing = any_crossing || option.break_even_month;
  if (any_crossing) {
    sheet.text(row++, 0,
               "Break-even crossings with " + plan.baseline_option_id +
                   " (marked on the cumulative chart)",
               formats.subtitle);
    sheet.text(row, m_option, "Owned option", formats.header);
    sheet.text(row, m_month, "Month", formats.header_number);
    sheet.text(row, m_cost, "Cumulative cost then, " + plan.currency, formats.header_number);
    sheet.text(row, m_label, "Chart label", formats.header_indented);
    ++row;
    for (size_t i = 0; i < plan.options.size(); ++i) {
      const OptionResult& option = plan.options[i];
      if (!option.break_even_month) continue;
      const int month = *option.break_even_month;
      sheet.text(row, m_option, option.id);
      write_figure(sheet, live, row, m_month,
                   "=" + cell_ref(static_cast<lxw_row_t>(layout.first_option_row + i), c_be_month,
                                  true, true),
                   month, formats.integer);
      write_figure(sheet, live, row, m_cost,
                   "=INDEX(" + monthly_range(source.cumulative_rows[i]) + ",1," +
                       cell_ref(row, m_month) + "+1)",
                   option.cash_flow.cumulative.at(static_cast<size_t>(month)), formats.money_whole);
      sheet.text(row, m_label, option.id + " breaks even (month " + std::to_string(month) + ")",
                 formats.indented);
      markers.push_back({row, i});
      ++row;
    }
    ++row;
  }

  // Annual cost by component: one row per option and plan year.
  const lxw_col_t a_label = 0, a_year = 1, a_first = 2;
  const auto a_total = static_cast<lxw_col_t>(a_first + kCostComponents);
  layout.component_total_col = a_total;
  sheet.text(row++, 0, "Annual cost by component, " + plan.currency, formats.subtitle);
  const lxw_row_t a_header = row++;
  sheet.text(a_header, a_label, "Option, plan year", formats.header);
  sheet.text(a_header, a_year, "Year", formats.header_number);
  for (size_t c = 0; c < kCostComponents; ++c) {
    sheet.text(a_header, static_cast<lxw_col_t>(a_first + c), cost_component_label(c),
               formats.header_number);
  }
  sheet.text(a_header, a_total, "Total", formats.header_number);
  layout.first_component_row = row;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const OptionResult& option = plan.options[i];
    for (size_t y = 1; y <= years; ++y) {
      sheet.text(row, a_label, option.id + ", year " + std::to_string(y));
      sheet.number(row, a_year, static_cast<double>(y), formats.integer);
      double total = 0;
      for (size_t c = 0; c < kCostComponents; ++c) {
        const double value = year_sum(cost_component(option.cash_flow, c), y);
        total += value;
        write_figure(sheet, live, row, static_cast<lxw_col_t>(a_first + c),
                     "=SUMIF(" + year_range + "," + cell_ref(row, a_year) + "," +
                         monthly_range(source.component_rows[c][i]) + ")",
                     value, formats.money_whole);
      }
      // The sum of the component cells: a formula in both workbooks (same sheet).
      sheet.formula(row, a_total,
                    "=SUM(" + cell_ref(row, a_first) + ":" +
                        cell_ref(row, static_cast<lxw_col_t>(a_total - 1)) + ")",
                    total, formats.money_whole);
      ++row;
    }
  }
  const lxw_row_t a_last = row - 1;

  if (!plan.options.empty()) {
    write_cumulative_chart(workbook, sheet, plan, source, markers, m_label, m_month, m_cost,
                           chart_row, 0);
    if (years > 0) {
      write_annual_chart(workbook, sheet, plan, layout.first_component_row, a_last, a_label,
                         a_first, a_header, chart_row, 6);
    }
  }
  ++row;
  sheet.text(row, 0,
             live ? "Estimates for planning. Prices are as published on the dates on the Sources "
                    "sheet (stale ones flagged); speeds are model estimates, not measurements of "
                    "the customer's workload. Figures on this sheet recalculate from the Inputs "
                    "and Cash flow sheets. Not an offer."
                  : "Estimates for planning. Prices are as published on the dates on the Sources "
                    "sheet (stale ones flagged); speeds are model estimates, not measurements of "
                    "the customer's workload. Figures are those of the full TCO workbook of this "
                    "quote. Not an offer.",
             formats.note);
  return layout;
}

}  // namespace gputco::xlsx
