// The Sensitivity sheet: what the buy-versus-rent answer depends on (the tornado) and how
// sure it is (the Monte Carlo). The engine reran the plan for these figures; a spreadsheet
// cannot, so they are written as values and labelled engine results. What follows from them
// (offsets from the base, widths, spreads) and the base difference from the workbook's own
// NPVs are formulas.
#include <algorithm>
#include <array>
#include <cmath>

#include "reports/risk_report.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

/// The sheet's last column (the tornado's Width, I) and the width of A..I in characters:
/// 40 + 22 + 7 x 15.
constexpr lxw_col_t kLastCol = 8;
constexpr double kSheetChars = 167;

std::optional<size_t> option_index(const Plan& plan, const std::string& id) {
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (plan.options[i].id == id) return i;
  }
  return std::nullopt;
}

void write_tornado_chart(lxw_workbook* workbook, SheetWriter& sheet, const Sensitivity& s,
                         lxw_row_t header, lxw_row_t first, lxw_row_t last, lxw_col_t label_col,
                         lxw_col_t low_col, lxw_col_t high_col, lxw_row_t at_row) {
  lxw_chart* chart = workbook_add_chart(workbook, LXW_CHART_BAR);
  if (chart == nullptr) throw XlsxError("out of memory creating the tornado chart");
  for (const lxw_col_t col : {low_col, high_col}) {
    lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
    if (series == nullptr) throw XlsxError("out of memory creating a chart series");
    chart_series_set_categories(series, sheet.name().c_str(), first, label_col, last, label_col);
    chart_series_set_values(series, sheet.name().c_str(), first, col, last, col);
    chart_series_set_name_range(series, sheet.name().c_str(), header, col);
  }
  chart_set_series_overlap(chart, 100);
  chart_set_series_gap(chart, 40);
  chart_title_set_name(chart, "Tornado: change of the NPV difference, owned - compared option");
  // Widest bar on top: the category axis runs top-down; values cross at its far end.
  chart_axis_set_reverse(chart->y_axis);
  chart_axis_set_label_position(chart->y_axis, LXW_CHART_AXIS_LABEL_POSITION_LOW);
  chart_axis_set_num_format(chart->x_axis, "#,##0");
  char swing[64];
  std::snprintf(swing, sizeof swing, "Change from the base, input moved by -/+%g %%",
                s.swing_fraction * 100);
  chart_axis_set_name(chart->x_axis, swing);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  lxw_chart_options options{};
  options.x_scale = 1.8;
  options.y_scale = 1.3;
  check_xlsx(worksheet_insert_chart_opt(sheet.raw(), at_row, 0, chart, &options),
             "inserting the tornado chart");
}

}  // namespace

SensitivityLayout write_sensitivity_sheet(lxw_workbook* workbook, SheetWriter& sheet,
                                          const Formats& formats, const Plan& plan,
                                          const ResolvedScenario& scenario, const Sensitivity& s,
                                          const CashFlowLayout& layout) {
  SensitivityLayout out;
  const lxw_col_t value = 1;
  out.value_col = value;
  sheet.text(0, 0, "Sensitivity and risk, " + plan.currency, formats.title);
  // Wrapped across the tornado's columns (40 + 22 + 7 x 15 characters), as every long text
  // on this sheet: a line running past the last column widens what prints one page wide.
  write_wrapped_across(
      sheet, 1, 0, kLastCol, kSheetChars,
      "Engine results: the engine recomputed the plan with each input moved (tornado) and "
      "with random draws of the uncertain inputs (Monte Carlo). A spreadsheet cannot redo "
      "those runs, so their figures are values; what follows from them is a formula.",
      formats.note_wrapped);
  lxw_row_t row = 3;
  const auto key = [&](const std::string& text) { sheet.text(row, 0, text, formats.label); };
  // Without a device rental the comparison is the cheapest pay-per-token API: not "renting".
  const auto compared_with = option_index(plan, s.rented_option_id);
  const bool api = compared_with && plan.options[*compared_with].kind == OptionKind::api;
  const std::string other = api ? "paying per token" : "renting";
  const std::string other_short = api ? "API" : "rent";
  key("Owned option compared");
  sheet.text(row++, value, s.owned_option_id.empty() ? "none" : s.owned_option_id);
  key(api ? "API it is compared with" : "Rental it is compared with");
  sheet.text(row++, value, s.rented_option_id.empty() ? "none" : s.rented_option_id);
  key("Each input moved by (engine result)");
  sheet.number(row++, value, s.swing_fraction, formats.percent);
  const auto owned = option_index(plan, s.owned_option_id);
  const auto rented = option_index(plan, s.rented_option_id);
  const bool compared = owned && rented && !s.tornado.empty();
  if (compared) {
    key("Buy - " + other_short + " NPV difference (engine result)");
    out.engine_base_row = row;
    sheet.number(row++, value, s.base_difference, formats.money_whole);
    key("Buy - " + other_short + " NPV difference from the Cash flow");
    out.workbook_base_row = row;
    sheet.formula(
        row++, value,
        "=" + sheet_cell_ref(kCashFlowSheet, layout.blocks.at(*owned).discounted, layout.sum_col) +
            "-" +
            sheet_cell_ref(kCashFlowSheet, layout.blocks.at(*rented).discounted, layout.sum_col),
        plan.options[*owned].npv - plan.options[*rented].npv, formats.money_whole);
    sheet.text(row++, 0, "Negative: buying is cheaper.", formats.note);
  }
  ++row;

  // The tornado.
  const lxw_col_t c_input = 0, c_key = 1, c_low = 2, c_high = 3, c_diff_low = 4, c_diff_high = 5,
                  c_off_low = 6, c_off_high = 7, c_width = 8;
  sheet.text(row++, 0, "Tornado", formats.subtitle);
  if (!compared) {
    sheet.text(row++, 0,
               s.note.empty()
                   ? "No tornado: the plan has no feasible owned option and another to compare."
                   : "No tornado: " + s.note,
               formats.note);
  } else {
    const lxw_row_t header = row++;
    const char* headers[] = {"Input",      "Scenario key",      "Input low",
                             "Input high", "Difference at low", "Difference at high",
                             "Input down", "Input up",          "Width"};
    for (lxw_col_t c = 0; c <= c_width; ++c) {
      sheet.text(header, c, headers[c], c >= c_low ? formats.header_number : formats.header);
    }
    check_xlsx(worksheet_set_row(sheet.raw(), header, 30, nullptr), "sizing the tornado header");
    const std::string base = cell_ref(out.engine_base_row, value, true, true);
    const lxw_row_t first = row;
    for (const TornadoBar& bar : s.tornado) {
      sheet.text(row, c_input, bar.input);
      sheet.text(row, c_key, bar.key);
      // Two to four decimals: a -/+20 % move of a discount rate of 0.08 reads 0.064 / 0.096
      // (two decimals showed 0.06 / 0.10, not the values the engine used).
      sheet.number(row, c_low, bar.low_value, formats.amount);
      sheet.number(row, c_high, bar.high_value, formats.amount);
      sheet.number(row, c_diff_low, bar.difference_low, formats.money_whole);
      sheet.number(row, c_diff_high, bar.difference_high, formats.money_whole);
      sheet.formula(row, c_off_low, "=" + cell_ref(row, c_diff_low) + "-" + base,
                    bar.difference_low - s.base_difference, formats.money_whole);
      sheet.formula(row, c_off_high, "=" + cell_ref(row, c_diff_high) + "-" + base,
                    bar.difference_high - s.base_difference, formats.money_whole);
      sheet.formula(row, c_width,
                    "=ABS(" + cell_ref(row, c_diff_high) + "-" + cell_ref(row, c_diff_low) + ")",
                    std::abs(bar.difference_high - bar.difference_low), formats.money_whole);
      ++row;
    }
    const lxw_row_t last = row - 1;
    sheet.text(row++, 0,
               "Input low/high, differences: engine results. Input down/up: the difference's "
               "change from the engine's base; width: how far the input moves the answer.",
               formats.note);
    ++row;
    write_tornado_chart(workbook, sheet, s, header, first, last, c_input, c_off_low, c_off_high,
                        row);
    row += 21;
  }

  // The Monte Carlo.
  sheet.text(row++, 0, "Monte Carlo (engine results)", formats.subtitle);
  if (!s.risk) {
    sheet.text(row++, 0, "No Monte Carlo in this run.", formats.note);
  } else {
    const RiskResult& risk = *s.risk;
    key("Draws");
    sheet.number(row++, value, risk.draws, formats.integer);
    key("Seed");
    sheet.number(row++, value, static_cast<double>(risk.seed), formats.identifier);
    if (!risk.owned_option_id.empty()) {
      key("Owned option compared");
      sheet.text(row++, value, risk.owned_option_id);
      key(api ? "API it is compared with" : "Rental it is compared with");
      sheet.text(row++, value, risk.rented_option_id);
    }
    key("Probability that buying beats " + other);
    sheet.number(row++, value, risk.probability_buy_beats_rent, formats.percent);
    out.difference_row = row;
    key("Buy - " + other_short + " NPV difference P10");
    sheet.number(row++, value, risk.p10_difference, formats.money_whole);
    key("Buy - " + other_short + " NPV difference P50");
    sheet.number(row++, value, risk.p50_difference, formats.money_whole);
    key("Buy - " + other_short + " NPV difference P90");
    sheet.number(row++, value, risk.p90_difference, formats.money_whole);
    ++row;
    const lxw_row_t header = row++;
    const char* headers[] = {"Option",         "P10 total cost", "P50 total cost",
                             "P90 total cost", "P90 - P10",      "Lowest NPV"};
    for (lxw_col_t c = 0; c < 6; ++c) {
      sheet.text(header, c, headers[c], c > 0 ? formats.header_number : formats.header);
    }
    out.monte_carlo_first_row = row;
    out.p10_col = 1;
    for (const auto& p : risk.options) {
      sheet.text(row, 0, p.id);
      sheet.number(row, 1, p.p10_total_cost, formats.money_whole);
      sheet.number(row, 2, p.p50_total_cost, formats.money_whole);
      sheet.number(row, 3, p.p90_total_cost, formats.money_whole);
      sheet.formula(row, 4, "=" + cell_ref(row, 3) + "-" + cell_ref(row, 1),
                    p.p90_total_cost - p.p10_total_cost, formats.money_whole);
      // The recommendation rule applied to each draw: how often this option is the cheapest.
      if (const OptionResult* option = find_option_result(plan, p.id);
          option != nullptr && is_candidate(*option)) {
        sheet.number(row, 5, p.probability_lowest_npv, formats.percent);
      } else {
        sheet.text(row, 5, "excluded", formats.note);
      }
      if (const auto i = option_index(plan, p.id)) out.monte_carlo_options.push_back(*i);
      ++row;
    }
    // What was varied: every input the draws move, as a change of the scenario's value.
    ++row;
    sheet.text(row++, 0, "What was varied (each a change of the scenario's value)",
               formats.subtitle);
    // Each text merged across enough columns to show it, wrapped: the input (column A, 40
    // characters wide), its distribution (B:C, 37), what it moves (D:F, 45) and what set it
    // (G:I, 45); about 1.1 characters of text a character of width (Calibri 11).
    struct Span {
      lxw_col_t first, last;
      double chars;
    };
    constexpr Span spans[] = {{0, 0, 44}, {1, 2, 40}, {3, 5, 49}, {6, kLastCol, 49}};
    const auto varied_row = [&](const std::array<std::string, 4>& texts, lxw_format* format) {
      double lines = 1;
      for (size_t k = 0; k < texts.size(); ++k) {
        const Span& span = spans[k];
        if (span.last > span.first) {
          check_xlsx(
              worksheet_merge_range(sheet.raw(), row, span.first, row, span.last, "", format),
              "merging a cell of What was varied");
        }
        sheet.text(row, span.first, texts[k], format);
        lines = std::max(lines, std::ceil(static_cast<double>(texts[k].size()) / span.chars));
      }
      check_xlsx(worksheet_set_row(sheet.raw(), row, 15 * lines, nullptr),
                 "sizing a row of What was varied");
      ++row;
    };
    varied_row({"Input", "Distribution", "What it moves", "Set by"}, formats.header);
    const auto set_by = [&](const std::string& risk_key) -> std::string {
      for (const auto& in : scenario.inputs) {
        if (in.section == "risk" && in.key == risk_key) {
          return "[risk] " + risk_key + ", " + in.provenance;
        }
      }
      // An exchange rate [risk] does not name is held at the plan's rate (fixed).
      if (risk_key.rfind("fx.", 0) == 0)
        return "not set in [risk] (exchange rates have no default range)";
      return "default (symmetric about the scenario's value)";
    };
    for (const auto& in : risk_input_texts(s.risk_model)) {
      varied_row({in.name, in.distribution, in.applies_to, set_by(in.key)}, formats.wrapped);
    }
    varied_row({"correlation", risk_correlation_text(s.risk_model), "",
                set_by("correlation_purchase_rental")},
               formats.wrapped);
  }
  sheet.width(0, 0, 40);
  sheet.width(1, 1, 22);
  sheet.width(2, kLastCol, 15);
  return out;
}

}  // namespace gputco::xlsx
