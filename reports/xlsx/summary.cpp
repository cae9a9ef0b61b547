// The Summary sheet: what was asked, what is recommended, one row per option, the annual cost
// by component, and the charts (cumulative cost with the break-even crossings marked; annual
// cost stacked by component). Totals, NPVs and annual costs are formulas over the Cash flow
// sheet (cached with the engine's figures); the other metrics are the engine's numbers.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "engine/base/units.hpp"
#include "engine/money/metrics.hpp"
#include "reports/peak_assumption.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {

const char* cost_component_label(size_t which) {
  static constexpr std::array<const char*, kCostComponents> kLabels = {
      "Capex",    "Energy",    "Maintenance", "Hosting",        "Colocation extras",
      "Failures", "Licences",  "Support",     "Rent, API fees", "Financing",
      "Staff",    "Insurance", "VAT",         "Resale"};
  return kLabels.at(which);
}

const std::vector<double>& cost_component(const CashFlow& cf, size_t which) {
  const std::array<const std::vector<double>*, kCostComponents> rows = {
      &cf.capex,    &cf.energy,    &cf.maintenance, &cf.hosting, &cf.colo_extras,
      &cf.failures, &cf.licences,  &cf.support,     &cf.rent,    &cf.financing,
      &cf.staff,    &cf.insurance, &cf.vat,         &cf.resale};
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
      block.capex,    block.energy,    block.maintenance, block.hosting, block.colo_extras,
      block.failures, block.licences,  block.support,     block.rent,    block.financing,
      block.staff,    block.insurance, block.vat,         block.resale};
  return rows.at(which);
}

namespace {

/// Sum of a monthly row over plan year `year` (1-based) by the rule of engine/plan/plan.hpp
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

/// The Summary's columns: the option's name, then equal columns, as many as the widest table
/// (the annual cost by component: nine components and the total), each wide enough for
/// -1,000,000,000 (14 characters). 24 + 10 x 15 characters print one page wide at 75 % on
/// Letter, 80 % on A4 (landscape).
constexpr double kSummaryNameWidth = 24;
constexpr double kSummaryColumnWidth = 15;
constexpr lxw_col_t kSummaryLastCol = 10;
/// Characters of a wrapped text line in a 15-character column, and the height of a line.
constexpr size_t kWrapChars = 16;
constexpr size_t kNameWrapChars = 25;
constexpr double kLineHeight = 15;
/// Rows a chart takes (its height at y_scale 1.3: 374 pixels, 20-pixel rows).
constexpr lxw_row_t kSummaryChartRows = 20;
/// Chart size: across the tables' width (1,250 pixels), 374 pixels tall.
constexpr double kSummaryChartXScale = 2.6;
constexpr double kSummaryChartYScale = 1.3;

/// A paragraph of text across the Summary's columns (merged and wrapped, its row as tall as
/// its lines: about 150 characters a line).
void write_paragraph(SheetWriter& sheet, const Formats& formats, lxw_row_t row,
                     const std::string& text) {
  check_xlsx(worksheet_merge_range(sheet.raw(), row, 0, row, kSummaryLastCol, "", formats.wrapped),
             "merging a Summary paragraph");
  sheet.text(row, 0, text, formats.wrapped);
  const double lines = std::max(1.0, std::ceil(static_cast<double>(text.size()) / 150.0));
  check_xlsx(worksheet_set_row(sheet.raw(), row, kLineHeight * lines, nullptr),
             "sizing a paragraph");
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
  options.x_scale = kSummaryChartXScale;
  options.y_scale = kSummaryChartYScale;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), row, col, chart, &options),
             "inserting the cumulative-cost chart");
}

/// Where one cost component's column is in the annual cost by component: its table's header
/// row and first and last data rows, and its column.
struct ComponentPlace {
  size_t component = 0;
  lxw_row_t header = 0;
  lxw_row_t first = 0;
  lxw_row_t last = 0;
  lxw_col_t col = 0;
};

/// The cost components some option has (a nonzero month): the others would only crowd the
/// table and the legend. VAT too wherever the scenario has a VAT rate, reclaimable or not: a
/// reader who sets Inputs' vat_reclaimable to 0 makes it a cost, and the table must still add
/// up to the total (the Checks test it).
std::vector<size_t> present_components(const Plan& plan, bool vat_rate_given) {
  std::vector<size_t> present;
  for (size_t c = 0; c < kCostComponents; ++c) {
    bool any = vat_rate_given && std::string_view(cost_component_label(c)) == "VAT";
    for (const auto& option : plan.options) {
      for (double v : cost_component(option.cash_flow, c)) any = any || v != 0;
    }
    if (any) present.push_back(c);
  }
  return present;
}

void write_annual_chart(lxw_workbook* workbook, SheetWriter& sheet, const Plan& plan,
                        const std::vector<ComponentPlace>& places, lxw_col_t label_col,
                        lxw_row_t row, lxw_col_t col) {
  if (places.empty()) return;  // every component zero: no chart
  lxw_chart* chart = new_chart(workbook, LXW_CHART_COLUMN_STACKED);
  for (const ComponentPlace& place : places) {
    lxw_chart_series* series = new_series(chart);
    chart_series_set_categories(series, sheet.name().c_str(), place.first, label_col, place.last,
                                label_col);
    chart_series_set_values(series, sheet.name().c_str(), place.first, place.col, place.last,
                            place.col);
    chart_series_set_name_range(series, sheet.name().c_str(), place.header, place.col);
  }
  chart_set_series_gap(chart, 60);
  chart_title_set_name(chart, "Annual cost by component");
  const std::string y_name = cell_text("Cost per plan year, " + plan.currency);
  chart_axis_set_name(chart->y_axis, y_name.c_str());
  chart_axis_set_num_format(chart->y_axis, "#,##0");
  chart_axis_set_label_position(chart->x_axis, LXW_CHART_AXIS_LABEL_POSITION_LOW);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  lxw_chart_options options{};
  options.x_scale = kSummaryChartXScale;
  options.y_scale = kSummaryChartYScale;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), row, col, chart, &options),
             "inserting the annual-cost chart");
}

}  // namespace

SummaryLayout write_summary_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                  const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const CumulativeSource& source,
                                  const MetricsLayout* metrics, const InputNames* names) {
  const bool live = metrics != nullptr;
  const auto label_of = [&](const std::string& id) { return option_label(scenario, id); };
  SummaryLayout layout;
  const size_t n = plan.options.size();
  sheet.text(0, 0, "Total cost of ownership", formats.title);
  sheet.text(1, 0, scenario.name, formats.subtitle);
  const auto metric = [&](size_t i, lxw_col_t col) {
    return "=" + sheet_cell_ref(kMetricsSheet,
                                static_cast<lxw_row_t>(metrics->first_option_row + i), col);
  };

  // Key facts.
  lxw_row_t row = 3;
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
  sheet.text(row++, 1,
             plan.baseline_option_id.empty() ? "none" : label_of(plan.baseline_option_id));
  label("Peak and billing");
  if (live && names != nullptr && names->has("workload", "hours_per_day") &&
      names->has("workload", "peak_multiplier")) {
    // A formula over the hours of use and the peak multiplier: the line follows their edits.
    std::string formula;
    for (const PeakTextPiece& piece : peak_assumption_pieces(scenario)) {
      formula += formula.empty() ? "=" : "&";
      if (piece.kind == PeakTextPiece::Kind::text) {
        formula += string_literal(piece.text);
        continue;
      }
      const std::string format = piece.decimals > 0 ? "0." + std::string(piece.decimals, '0') : "0";
      formula += "TEXT(" +
                 (piece.kind == PeakTextPiece::Kind::hours_per_day
                      ? names->at("workload", "hours_per_day")
                      : names->at("workload", "peak_multiplier")) +
                 ",\"" + format + "\")";
    }
    sheet.formula_text(row++, 1, formula, peak_assumption_text(scenario));
  } else {
    sheet.text(row++, 1, peak_assumption_text(scenario));
  }
  if (!scenario.proposed_option_id.empty()) {
    label("Proposed");
    sheet.text(row++, 1, label_of(scenario.proposed_option_id), formats.bold);
  }
  layout.recommendation_row = row;
  label("Recommendation");
  const std::string recommended =
      plan.recommendation ? label_of(*plan.recommendation) : std::string("none");
  if (live) {
    sheet.formula_text(
        row++, 1,
        "=" + sheet_cell_ref(kMetricsSheet, metrics->recommendation_row, metrics->value_col),
        recommended, formats.highlight);
  } else {
    sheet.text(row++, 1, recommended, formats.highlight);
  }
  label("Why");
  sheet.text(row++, 1, plan.recommendation_reason);
  if (plan.tax_rate) {
    // The after-tax view (issue #40): its rate and what it assumes.
    label("After tax");
    const bool rate_input = live && names != nullptr && names->has("tax", "rate");
    // A quote carries no Inputs sheet to point at.
    const std::string rest =
        std::string(rate_input ? " % (Inputs, tax_rate); " : " %; ") + kAfterTaxAssumption +
        (plan.pre_tax_recommendation
             ? "; pre-tax recommendation: " + label_of(*plan.pre_tax_recommendation)
             : std::string());
    const std::string rate = fmt::format("{:.2f}", *plan.tax_rate * 100);
    if (rate_input) {
      // The rate follows an edit of the input (the pre-tax recommendation does not depend on
      // it): TEXT(rate x 100, "0.00") gives fmt's {:.2f}.
      sheet.formula_text(row++, 1,
                         "=\"tax rate \"&TEXT(" + names->at("tax", "rate") + "*100,\"0.00\")&" +
                             string_literal(rest),
                         "tax rate " + rate + rest);
    } else {
      sheet.text(row++, 1, "tax rate " + rate + rest);
    }
  }

  size_t years = 0;
  for (const auto& option : plan.options) years = std::max(years, option.annual_costs.size());
  layout.years = years;
  // Headers of text columns (the first `text_columns`) left, of numbers right.
  const auto header_row = [&](lxw_row_t at, const std::vector<std::string>& headers,
                              size_t text_columns = 1) {
    for (size_t c = 0; c < headers.size(); ++c) {
      sheet.text(at, static_cast<lxw_col_t>(c), headers[c],
                 c < text_columns ? formats.header : formats.header_number);
    }
    check_xlsx(worksheet_set_row(sheet.raw(), at, 45, nullptr), "sizing a Summary header");
  };
  // An option's name, wrapped in its column, the row as tall as the name's lines (table 1
  // sizes its rows for the kind and devices too).
  const auto option_name = [&](lxw_row_t at, size_t i) {
    const bool recommended_here = plan.recommendation && *plan.recommendation == plan.options[i].id;
    const std::string& name = label_of(plan.options[i].id);
    sheet.text(at, 0, name, recommended_here ? formats.highlight_wrapped : formats.name_wrapped);
    const size_t lines = (name.size() + kNameWrapChars - 1) / kNameWrapChars;
    if (lines > 1) {
      check_xlsx(
          worksheet_set_row(sheet.raw(), at, kLineHeight * static_cast<double>(lines), nullptr),
          "sizing an option's row");
    }
  };
  // A figure of the Metrics sheet (live) or its value (the quote): a number, else its word.
  const auto figure = [&](lxw_row_t at, lxw_col_t col, size_t i, lxw_col_t metrics_col,
                          const std::optional<double>& value, const std::string& otherwise,
                          lxw_format* format) {
    if (live) {
      if (value && std::isfinite(*value)) {
        sheet.formula(at, col, metric(i, metrics_col), *value, format);
      } else {
        sheet.formula_text(at, col, metric(i, metrics_col), otherwise, formats.not_available);
      }
    } else if (value && std::isfinite(*value)) {
      sheet.number(at, col, *value, format);
    } else {
      sheet.text(at, col, otherwise, formats.not_available);
    }
  };

  // Table 1: the options and what each costs.
  row += 1;
  sheet.text(row++, 0, "Options", formats.subtitle);
  std::vector<std::string> option_headers = {"Option",
                                             "Kind",
                                             "Devices",
                                             "Fit",
                                             "Total cost, " + plan.currency,
                                             "NPV of cost, " + plan.currency,
                                             "Cost per year, " + plan.currency,
                                             "Cost per million output tokens, " + plan.currency,
                                             "Cost per user per month, " + plan.currency};
  // The after-tax view (issue #40) beside the pre-tax figures.
  const bool taxed = plan.tax_rate.has_value() && (!live || metrics->after_tax_npv_col != 0);
  if (taxed) {
    layout.after_tax_total_col = layout.per_user_col + 1;
    layout.after_tax_npv_col = layout.per_user_col + 2;
    option_headers.push_back("After-tax total cost, " + plan.currency);
    option_headers.push_back("After-tax NPV of cost, " + plan.currency);
  }
  header_row(row, option_headers, 4);
  layout.first_option_row = ++row;
  for (size_t i = 0; i < n; ++i, ++row) {
    const OptionResult& option = plan.options[i];
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    option_name(row, i);
    // Wrapped text needs its lines: the spreadsheet does not size a row on opening it.
    const size_t longest =
        std::max({label_of(option.id).size() * kWrapChars / kNameWrapChars,
                  kind_label(option.kind, inputs).size(), devices_label(inputs).size()});
    const auto lines = static_cast<double>((longest + kWrapChars - 1) / kWrapChars);
    if (lines > 1) {
      check_xlsx(worksheet_set_row(sheet.raw(), row, kLineHeight * lines, nullptr),
                 "sizing an option's row");
    }
    sheet.text(row, layout.kind_col, kind_label(option.kind, inputs), formats.wrapped);
    sheet.text(row, layout.devices_col, devices_label(inputs), formats.wrapped);
    if (option.kind == OptionKind::api) {
      sheet.text(row, layout.fit_col, "hosted", formats.wrapped);
    } else {
      sheet.text(row, layout.fit_col, verdict_label(option.fit.verdict),
                 option.feasible ? formats.wrapped : formats.warning);
    }
    if (!option.feasible) {
      // Never priced (issue #43): the option cannot serve the demand; its note says why.
      for (const lxw_col_t col : {layout.total_col, layout.npv_col, layout.per_year_col}) {
        sheet.text(row, col, "not priced", formats.not_available);
      }
      if (taxed) {
        for (const lxw_col_t col : {layout.after_tax_total_col, layout.after_tax_npv_col}) {
          sheet.text(row, col, "not priced", formats.not_available);
        }
      }
    } else {
      figure(row, layout.total_col, i, live ? metrics->total_col : 0, option.total_cost, "n/a",
             formats.money_whole);
      figure(row, layout.npv_col, i, live ? metrics->npv_col : 0, option.npv, "n/a",
             formats.money_whole);
      figure(row, layout.per_year_col, i, live ? metrics->cost_per_year_col : 0,
             option.cost_per_year, "n/a", formats.money_whole);
      if (taxed) {
        const auto after = [&](double AfterTax::*figure_of) -> std::optional<double> {
          if (!option.after_tax) return std::nullopt;
          return (*option.after_tax).*figure_of;
        };
        figure(row, layout.after_tax_total_col, i, live ? metrics->after_tax_total_col : 0,
               after(&AfterTax::total_cost), "n/a", formats.money_whole);
        figure(row, layout.after_tax_npv_col, i, live ? metrics->after_tax_npv_col : 0,
               after(&AfterTax::npv), "n/a", formats.money_whole);
      }
    }
    figure(row, layout.per_million_col, i, live ? metrics->per_million_col : 0,
           option.cost_per_million_tokens, "n/a", formats.money);
    figure(row, layout.per_user_col, i, live ? metrics->per_user_col : 0,
           option.cost_per_user_per_month, "n/a", formats.money);
  }

  // Table 2: break-even against the baseline (owned options) and against the API (volume).
  const bool any_compared =
      !plan.baseline_option_id.empty() || !plan.api_reference_option_id.empty();
  if (any_compared) {
    row += 1;
    std::string title = "Break-even";
    if (!plan.baseline_option_id.empty()) {
      title +=
          ": owning against " + label_of(plan.baseline_option_id) + " (hours, month, payback, IRR)";
    }
    if (!plan.api_reference_option_id.empty()) {
      title += std::string(plan.baseline_option_id.empty() ? ":" : ";") + " each option against " +
               label_of(plan.api_reference_option_id) + " (tokens per day)";
    }
    sheet.text(row++, 0, title, formats.subtitle);
    // A financed option's IRR is the equity IRR (issue #40): its basis and the project IRR
    // (gputco's figure, as if bought for cash) beside it, when the plan has one.
    bool any_financed = false;
    for (const OptionResult& option : plan.options) {
      any_financed = any_financed || (option.irr_basis == "equity" && option.feasible);
    }
    std::vector<std::string> compare_headers = {"Option",
                                                "Break-even hours of use",
                                                "Break-even hours per day",
                                                "Break-even month",
                                                "Payback, months",
                                                "IRR per year",
                                                "Break-even output tokens per day of use"};
    if (any_financed) {
      layout.irr_basis_col = layout.be_tokens_col + 1;
      layout.project_irr_col = layout.be_tokens_col + 2;
      compare_headers.push_back(
          "IRR basis (project: bought for cash; equity: on the down payment)");
      compare_headers.push_back("Project IRR per year (gputco's, as if bought for cash)");
    }
    header_row(row, compare_headers);
    layout.first_compare_row = ++row;
    for (size_t i = 0; i < n; ++i, ++row) {
      const OptionResult& option = plan.options[i];
      option_name(row, i);
      const bool compared =
          option.kind == OptionKind::buy && option.feasible && !plan.baseline_option_id.empty();
      if (compared) {
        const std::string never_or_na = option.never_dearer_than_baseline ? "n/a" : "never";
        const bool na = !option.comparison_na_reason.empty();
        // Owning cheaper even unused: "always", never a break-even of 0 hours.
        const std::string no_hours = option.owning_cheaper_at_any_use ? "always" : "never";
        figure(row, layout.be_hours_col, i, live ? metrics->be_hours_col : 0,
               option.break_even_hours, no_hours, formats.hours);
        figure(row, layout.be_hours_per_day_col, i, live ? metrics->be_hours_per_day_col : 0,
               option.break_even_hours_per_day, no_hours, formats.decimal2);
        figure(row, layout.break_even_month_col, i, live ? metrics->be_month_col : 0,
               option.break_even_month ? std::optional<double>(*option.break_even_month)
                                       : std::nullopt,
               never_or_na, formats.integer);
        figure(row, layout.payback_col, i, live ? metrics->payback_col : 0,
               na ? std::nullopt : option.payback_months, na ? "n/a" : "never", formats.decimal1);
        // More than one sign change of the saving: no unique rate, the Metrics sheet's words.
        figure(
            row, layout.irr_col, i, live ? metrics->irr_col : 0, na ? std::nullopt : option.irr,
            !na && !irr_is_unique(option.saving_sign_changes, option.cumulative_saving_sign_changes)
                ? irr_not_unique_text(option.saving_sign_changes)
                : "n/a",
            formats.percent);
      } else {
        for (lxw_col_t c = layout.be_hours_col; c <= layout.irr_col; ++c) {
          sheet.text(row, c, kNotAvailable, formats.not_available);
        }
      }
      if (any_financed) {
        if (compared && !option.irr_basis.empty()) {
          sheet.text(row, layout.irr_basis_col, option.irr_basis, formats.wrapped);
          const std::optional<double> project =
              option.irr_basis == "project" ? option.irr : option.project_irr;
          if (project && std::isfinite(*project)) {
            sheet.number(row, layout.project_irr_col, *project, formats.percent);
          } else {
            sheet.text(row, layout.project_irr_col, kNotAvailable, formats.not_available);
          }
        } else {
          sheet.text(row, layout.irr_basis_col, kNotAvailable, formats.not_available);
          sheet.text(row, layout.project_irr_col, kNotAvailable, formats.not_available);
        }
      }
      const bool against_api = !plan.api_reference_option_id.empty() &&
                               option.kind != OptionKind::api && option.feasible;
      if (against_api) {
        figure(row, layout.be_tokens_col, i, live ? metrics->be_tokens_col : 0,
               option.break_even_tokens_per_day, "never", formats.integer);
      } else {
        sheet.text(row, layout.be_tokens_col, kNotAvailable, formats.not_available);
      }
    }
  }

  // Table 3: cost by plan year, in blocks of at most kSummaryLastCol years (the columns of
  // the widest table) stacked down the sheet: one column per year of a 50-year horizon
  // would squeeze the whole sheet onto one page wide at a few percent (M5).
  layout.years_per_block = kSummaryLastCol + 1u - layout.first_year_col;
  layout.year_block_rows = static_cast<lxw_row_t>(n + 2);
  if (years > 0) {
    row += 1;
    sheet.text(row++, 0, "Cost by plan year, " + plan.currency, formats.subtitle);
    layout.year_header_row = row;
    layout.first_year_row = row + 1;
    const std::string year_range = sheet_range_ref(source.sheet, source.year_row, source.first_col,
                                                   source.year_row, source.last_col);
    for (size_t first_year = 1; first_year <= years; first_year += layout.years_per_block) {
      const size_t last_year = std::min(years, first_year + layout.years_per_block - 1);
      const lxw_row_t year_header = layout.year_header_row_of(first_year);
      sheet.text(year_header, 0, "Option", formats.header);
      for (size_t y = first_year; y <= last_year; ++y) {
        sheet.number(year_header, layout.year_col_of(y), static_cast<double>(y),
                     formats.year_header);
      }
      for (size_t i = 0; i < n; ++i) {
        const OptionResult& option = plan.options[i];
        const lxw_row_t at = layout.year_row_of(i, first_year);
        option_name(at, i);
        for (size_t y = first_year; y <= last_year; ++y) {
          const lxw_col_t col = layout.year_col_of(y);
          if (y > option.annual_costs.size()) {
            sheet.text(at, col, kNotAvailable, formats.not_available);
            continue;
          }
          write_figure(sheet, live, at, col,
                       "=SUMIF(" + year_range + "," + cell_ref(year_header, col, true, false) +
                           "," +
                           sheet_range_ref(source.sheet, source.total_rows[i], source.first_col,
                                           source.total_rows[i], source.last_col) +
                           ")",
                       option.annual_costs[y - 1], formats.money_whole);
        }
      }
      // The next block's header, else the row after this block's last option.
      row = static_cast<lxw_row_t>(layout.year_row_of(n, first_year) + 1);
    }
    --row;  // the row after the last block's last option, as after the other tables
  }

  // Table 4: speed, energy and emissions (physical figures, not money).
  row += 1;
  sheet.text(row++, 0, "Speed, energy and emissions", formats.subtitle);
  header_row(row, {"Option", "Decode tokens/s per stream", "Energy, kWh (horizon)",
                   "Emissions, kg CO2e (horizon)"});
  layout.first_physical_row = ++row;
  for (size_t i = 0; i < n; ++i, ++row) {
    const OptionResult& option = plan.options[i];
    option_name(row, i);
    if (option.kind == OptionKind::api) {
      sheet.text(row, layout.decode_col, "hosted (API)", formats.not_available);
    } else if (option.feasible) {
      sheet.number(row, layout.decode_col, option.speed.decode_tokens_per_s, formats.decimal1);
    } else {
      sheet.text(row, layout.decode_col, kNotAvailable, formats.not_available);
    }
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
    physical(layout.kwh_col, option.energy_kwh_total, source.energy_kwh_rows);
    physical(layout.co2e_col, option.energy_kwh_total ? option.co2e_kg_total : std::nullopt,
             source.co2e_kg_rows);
  }

  // Notes: what each option's figures leave out or assume, and the plan's adjustments.
  std::vector<std::string> notes;
  for (const OptionResult& option : plan.options) {
    std::string note = option.note;
    for (const auto& w : option.warnings) note += (note.empty() ? "" : "; ") + w;
    if (!option.cost_lines_not_entered.empty()) {
      std::string lines;
      for (const auto& line : option.cost_lines_not_entered) {
        lines += (lines.empty() ? "" : ", ") + line;
      }
      note += (note.empty() ? "" : "; ") + std::string("not entered (counted as 0): ") + lines;
    }
    if (!note.empty()) notes.push_back(label_of(option.id) + ": " + note);
  }
  if (!plan.api_reference_option_id.empty()) {
    notes.push_back(
        "Break-even output tokens per day: the volume at which the option costs as "
        "much over the horizon as " +
        label_of(plan.api_reference_option_id) +
        " (same token mix, growth and hours; while one unit carries the volume)");
  }
  for (const auto& warning : plan.warnings) notes.push_back(warning);
  if (!notes.empty()) {
    row += 1;
    sheet.text(row++, 0, "Notes", formats.subtitle);
    for (const std::string& note : notes) write_paragraph(sheet, formats, row++, note);
  }

  // The charts on a page of their own, one above the other across the tables' width; then
  // the crossings they mark and the annual cost by component they plot.
  const lxw_row_t chart_row = row + 1;
  row = chart_row + 2 * kSummaryChartRows + 1;
  lxw_row_t breaks[] = {chart_row, row, 0};
  check_xlsx(worksheet_set_h_pagebreaks(sheet.raw(), breaks), "breaking the Summary's pages");

  std::vector<Marker> markers;
  const lxw_col_t m_option = 0, m_month = 1, m_cost = 2, m_label = 3;
  // Every owned option compared with the baseline has a row, whether it breaks even as gputco
  // wrote the workbook or not: an edited input may move, make or remove a crossing, and the
  // month, the cost then and the chart's label follow by formula.
  const auto compared = [&](const OptionResult& option) {
    return layout.first_compare_row != 0 && option.kind == OptionKind::buy && option.feasible &&
           !plan.baseline_option_id.empty() && (live || option.break_even_month);
  };
  bool any_crossing_row = false;
  for (const auto& option : plan.options) {
    any_crossing_row = any_crossing_row || compared(option);
  }
  if (any_crossing_row) {
    sheet.text(row++, 0,
               "Break-even crossings with " + label_of(plan.baseline_option_id) +
                   " (marked on the cumulative chart)",
               formats.subtitle);
    sheet.text(row, m_option, "Owned option", formats.header);
    sheet.text(row, m_month, "Month", formats.header_number);
    sheet.text(row, m_cost, "Cumulative cost then, " + plan.currency, formats.header_number);
    sheet.text(row, m_label, "Chart label", formats.header_indented);
    ++row;
    for (size_t i = 0; i < n; ++i) {
      const OptionResult& option = plan.options[i];
      if (!compared(option)) continue;
      const std::optional<int> month = option.break_even_month;
      const std::string month_cell = cell_ref(row, m_month);
      sheet.text(row, m_option, label_of(option.id));
      const std::string month_formula =
          "=" + cell_ref(static_cast<lxw_row_t>(layout.first_compare_row + i),
                         layout.break_even_month_col, true, true);
      const std::string no_month = option.never_dearer_than_baseline ? "n/a" : "never";
      if (live) {
        if (month) {
          sheet.formula(row, m_month, month_formula, *month, formats.integer);
        } else {
          sheet.formula_text(row, m_month, month_formula, no_month, formats.integer);
        }
      } else if (month) {
        sheet.number(row, m_month, *month, formats.integer);
      } else {
        sheet.text(row, m_month, no_month, formats.not_available);
      }
      const std::string cost_formula =
          "=IF(ISNUMBER(" + month_cell + "),INDEX(" +
          sheet_range_ref(source.sheet, source.cumulative_rows[i], source.first_col,
                          source.cumulative_rows[i], source.last_col) +
          ",1," + month_cell + "+1),\"n/a\")";
      const std::string name = label_of(option.id);
      const std::string written_label =
          month ? name + " breaks even (month " + std::to_string(*month) + ")"
                : name + " does not break even";
      if (live) {
        if (month) {
          sheet.formula(row, m_cost, cost_formula,
                        option.cash_flow.cumulative.at(static_cast<size_t>(*month)),
                        formats.money_whole);
        } else {
          sheet.formula_text(row, m_cost, cost_formula, "n/a", formats.money_whole);
        }
        // The option's name is user text: it stays in its own cell (column A), never inside
        // the formula's quotes.
        sheet.formula_text(row, m_label,
                           "=" + cell_ref(row, m_option) + "&IF(ISNUMBER(" + month_cell +
                               "),\" breaks even (month \"&" + month_cell +
                               "&\")\",\" does not break even\")",
                           written_label, formats.indented);
      } else {
        if (month) {
          sheet.number(row, m_cost, option.cash_flow.cumulative.at(static_cast<size_t>(*month)),
                       formats.money_whole);
        } else {
          sheet.text(row, m_cost, kNotAvailable, formats.not_available);
        }
        sheet.text(row, m_label, written_label, formats.indented);
      }
      markers.push_back({row, i});
      ++row;
    }
    ++row;
  }

  // Annual cost by component: one row per option and plan year, the components some option
  // has, at most nine to a table (a table below continues them), the total in the last.
  const lxw_col_t a_label = 0, a_first = 1;
  const std::vector<size_t> present =
      present_components(plan, scenario.plan_inputs.finance.vat_rate > 0);
  const size_t per_table = kSummaryLastCol - a_first;
  const size_t tables = std::max<size_t>(1, (present.size() + per_table - 1) / per_table);
  const std::string year_range = sheet_range_ref(source.sheet, source.year_row, source.first_col,
                                                 source.year_row, source.last_col);
  std::vector<ComponentPlace> places;
  std::vector<lxw_row_t> table_first_rows;
  for (size_t t = 0; t < tables; ++t) {
    const bool last_table = t + 1 == tables;
    const size_t from = t * per_table;
    const size_t to = std::min(present.size(), from + per_table);
    sheet.text(row++, 0,
               "Annual cost by component, " + plan.currency + (t > 0 ? " (continued)" : ""),
               formats.subtitle);
    const lxw_row_t header = row++;
    sheet.text(header, a_label, "Option, plan year", formats.header);
    for (size_t k = from; k < to; ++k) {
      sheet.text(header, static_cast<lxw_col_t>(a_first + k - from),
                 cost_component_label(present[k]), formats.header_number);
    }
    const auto total_col = static_cast<lxw_col_t>(a_first + to - from);
    if (last_table) {
      sheet.text(header, total_col, "Total", formats.header_number);
      layout.component_total_col = total_col;
      layout.first_component_row = row;
    }
    table_first_rows.push_back(row);
    for (size_t k = from; k < to; ++k) {
      places.push_back({present[k], header, row,
                        static_cast<lxw_row_t>(row + (n * years == 0 ? 0 : n * years - 1)),
                        static_cast<lxw_col_t>(a_first + k - from)});
    }
    for (size_t i = 0; i < n; ++i) {
      const OptionResult& option = plan.options[i];
      for (size_t y = 1; y <= years; ++y) {
        // Wrapped, the row as tall as its lines: a long name keeps its year in sight.
        const std::string name = label_of(option.id) + ", year " + std::to_string(y);
        sheet.text(row, a_label, name, formats.wrapped);
        const size_t lines = (name.size() + kNameWrapChars - 1) / kNameWrapChars;
        if (lines > 1) {
          check_xlsx(worksheet_set_row(sheet.raw(), row, kLineHeight * static_cast<double>(lines),
                                       nullptr),
                     "sizing a component row");
        }
        for (size_t k = from; k < to; ++k) {
          const size_t c = present[k];
          // The plan year: its header cell in the Cost by plan year table.
          write_figure(
              sheet, live, row, static_cast<lxw_col_t>(a_first + k - from),
              "=SUMIF(" + year_range + "," +
                  cell_ref(layout.year_header_row_of(y), layout.year_col_of(y), true, true) + "," +
                  sheet_range_ref(source.sheet, source.component_rows[c][i], source.first_col,
                                  source.component_rows[c][i], source.last_col) +
                  ")",
              year_sum(cost_component(option.cash_flow, c), y), formats.money_whole);
        }
        if (last_table) {
          // The sum of the component cells of every table: a formula in both workbooks.
          double total = 0;
          for (size_t c : present) total += year_sum(cost_component(option.cash_flow, c), y);
          std::string sum;
          const size_t offset = i * years + (y - 1);
          for (size_t u = 0; u < tables; ++u) {
            const size_t chunk = std::min(present.size(), (u + 1) * per_table) - u * per_table;
            if (chunk == 0) continue;
            const auto at = static_cast<lxw_row_t>(table_first_rows[u] + offset);
            sum += (sum.empty() ? "=" : "+") + std::string("SUM(") + cell_ref(at, a_first) + ":" +
                   cell_ref(at, static_cast<lxw_col_t>(a_first + chunk - 1)) + ")";
          }
          if (sum.empty()) {
            sheet.number(row, total_col, total, formats.money_whole);
          } else {
            sheet.formula(row, total_col, sum, total, formats.money_whole);
          }
        }
        ++row;
      }
    }
    ++row;
  }

  if (!plan.options.empty()) {
    write_cumulative_chart(workbook, sheet, plan, source, markers, m_label, m_month, m_cost,
                           chart_row, 0);
    if (years > 0) {
      write_annual_chart(workbook, sheet, plan, places, a_label, chart_row + kSummaryChartRows, 0);
    }
  }
  ++row;
  write_paragraph(
      sheet, formats, row,
      live ? "Estimates for planning. Prices are as published on the dates on the Sources "
             "sheet (stale ones flagged); speeds are model estimates, not measurements of "
             "the customer's workload. Figures on this sheet recalculate from the Inputs "
             "and Cash flow sheets (the Metrics sheet shows how). Not an offer."
           : "Estimates for planning. Prices are as published on the dates on the Sources "
             "sheet (stale ones flagged); speeds are model estimates, not measurements of "
             "the customer's workload. Figures are those of the full TCO workbook of this "
             "quote. Not an offer.");

  // Columns: the option's name, then equal columns wide enough for -1,000,000,000 (14
  // characters) so that no amount up to 10^9 shows as ###.
  sheet.width(0, 0, kSummaryNameWidth);
  sheet.width(1, kSummaryLastCol, kSummaryColumnWidth);
  return layout;
}

}  // namespace gputco::xlsx
