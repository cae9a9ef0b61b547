// The Metrics sheet: every figure the Summary shows that is not a plain sum, as a formula over
// the Cash flow sheet and the Inputs (cached with the engine's value), with the monthly rows
// each rests on. What the engine solves by search (break-even hours per day, the break-even
// volume) is a closed form here: a month's total is linear in the hours of use (the row "what
// scales with the hours of use", engine hours_scaled_costs), and in the volume while one unit
// carries it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/finance/finance.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/metrics.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

std::optional<size_t> index_of(const Plan& plan, const std::string& id) {
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (plan.options[i].id == id) return i;
  }
  return std::nullopt;
}

/// A figure that is a number in some cases and a word ("n/a", "never") in others.
void write_either(SheetWriter& sheet, lxw_row_t row, lxw_col_t col, const std::string& formula,
                  const std::optional<double>& value, const std::string& otherwise,
                  lxw_format* format) {
  if (value && std::isfinite(*value)) {
    sheet.formula(row, col, formula, *value, format);
  } else {
    sheet.formula_text(row, col, formula, otherwise, format);
  }
}

/// A figure only gputco's search gives (a break-even on an uneven day, a volume where units
/// change): `value` (or the text `otherwise` without one) while every input is as gputco
/// wrote it, "rerun gputco" once one is edited (changed_inputs_count), since the search does
/// not follow edits and an old figure beside edited prices would read as current.
void write_engine_figure(SheetWriter& sheet, lxw_row_t row, lxw_col_t col,
                         const std::optional<double>& value, const std::string& otherwise,
                         lxw_format* format, lxw_format* text_format) {
  const std::string unchanged = "=IF(" + changed_inputs_count() + "=0,";
  const std::string rerun = ",\"rerun gputco\")";
  if (value && std::isfinite(*value)) {
    sheet.formula(row, col, unchanged + fmt::format("{:.17g}", *value) + rerun, *value, format);
  } else {
    sheet.formula_text(row, col, unchanged + "\"" + otherwise + "\"" + rerun, otherwise,
                       text_format);
  }
}

/// The monthly rows of an owned option compared with the baseline.
struct ComparisonRows {
  lxw_row_t saving = 0;      ///< baseline total - own total
  lxw_row_t cumulative = 0;  ///< running sum of the saving
  lxw_row_t dearer = 0;      ///< 1: owning's cumulative cost is above the baseline's
  /// 1: dearer in the month before, in no month from this one to the end (breaks even for good)
  lxw_row_t breaks_even = 0;
  /// 1: the running saving is not negative (within tolerance) here and in every later month
  lxw_row_t paid_back = 0;
  lxw_row_t sign = 0;  ///< the saving's last sign so far: 1, -1 (0 within rounding is skipped)
  lxw_row_t sign_changes = 0;  ///< 1: the sign above flips this month; their sum in the Sum column
  lxw_row_t cumulative_sign = 0;          ///< sign of the cumulative saving so far (1, -1)
  lxw_row_t cumulative_sign_changes = 0;  ///< 1: that sign flips this month; sum in Sum column
};

}  // namespace

MetricsLayout write_metrics_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                                  const ResolvedScenario& scenario, const InputNames& names,
                                  const CashFlowLayout& layout) {
  MetricsLayout out;
  const size_t n = plan.options.size();
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  const std::string tolerance = names.at(kConstantsSection, "comparison_tolerance");
  const auto cash = [&](lxw_row_t row, lxw_col_t col) {
    return sheet_cell_ref(kCashFlowSheet, row, col);
  };
  const auto cash_row = [&](lxw_row_t row) {
    return sheet_range_ref(kCashFlowSheet, row, first, row, last);
  };
  const auto cash_here = [&](lxw_row_t row, lxw_col_t col) {
    return "'" + std::string(kCashFlowSheet) + "'!" + cell_ref(row, col, false, false);
  };

  sheet.text(0, 0, "Metrics, " + plan.currency, formats.title);
  // Long texts wrapped across the first columns (A:F, 34 + 5 x 15 characters, within the
  // first printed page): unwrapped they ran across the month columns and were cut between
  // printed pages.
  constexpr lxw_col_t kNoteLastCol = 5;
  constexpr double kNoteChars = 34 + 5 * 15;
  write_wrapped_across(
      sheet, 1, 0, kNoteLastCol, kNoteChars,
      "How each figure of the Summary follows from the Cash flow and the Inputs: one "
      "formula per cell, cached with gputco's value. Break-even hours and volume solve "
      "the totals in closed form: a month's total is its fixed part plus the part that "
      "scales with the hours of use (linear in them, and in the volume while one unit "
      "carries it).",
      formats.note_wrapped);

  // The recommendation: the lowest NPV among the options that hold the model and that no
  // constraint excludes (first in the plan on a tie, as the engine).
  out.recommendation_row = 3;
  out.first_option_row = 7;
  // The after-tax view (issue #40): two columns after the others, ranked instead of the NPV.
  bool taxed = plan.tax_rate.has_value();
  for (const OptionBlock& block : layout.blocks) taxed = taxed && block.has_tax;
  taxed = taxed && !layout.blocks.empty();
  if (taxed) {
    out.after_tax_total_col = out.volume_fixed_col + 1;
    out.after_tax_npv_col = out.volume_fixed_col + 2;
    out.ranking_npv_col = out.after_tax_npv_col;
  }
  const lxw_row_t header = out.first_option_row - 1;
  const lxw_row_t last_option = static_cast<lxw_row_t>(out.first_option_row + (n == 0 ? 0 : n - 1));
  const std::string ranked = cell_ref(out.first_option_row, out.ranked_npv_col, true, true) + ":" +
                             cell_ref(last_option, out.ranked_npv_col, true, true);
  const std::string labels = cell_ref(out.first_option_row, out.label_col, true, true) + ":" +
                             cell_ref(last_option, out.label_col, true, true);
  sheet.text(out.recommendation_row, 0, "Recommendation", formats.label);
  const std::string recommended =
      plan.recommendation ? option_label(scenario, *plan.recommendation) : std::string("none");
  sheet.formula_text(out.recommendation_row, out.value_col,
                     "=IF(COUNT(" + ranked + ")=0,\"none\",INDEX(" + labels + ",MATCH(MIN(" +
                         ranked + ")," + ranked + ",0)))",
                     recommended, formats.highlight);
  sheet.text(out.recommendation_row, out.written_col, recommended, formats.indented);
  write_wrapped_across(
      sheet, out.recommendation_row + 1, 0, kNoteLastCol, kNoteChars,
      std::string(taxed ? "The lowest after-tax NPV of cost (with the tax rate; column AA) "
                        : "The lowest NPV of cost ") +
          "among the options that hold the model and are allowed "
          "(column E); beside "
          "it, gputco's recommendation when it wrote the workbook (a value: the Checks sheet "
          "flags a difference).",
      formats.note_wrapped);

  std::vector<const char*> headers = {
      "Option",
      "Holds the model (1 = yes)",
      "Total cost",
      "NPV of cost",
      taxed ? "After-tax NPV if it holds the model" : "NPV if it holds the model",
      "Output tokens over the horizon",
      "Cost per million output tokens",
      "Cost per user per month",
      "Of the total: scales with the hours of use",
      "Fixed part",
      "Break-even hours per day",
      "Break-even hours of use",
      "Break-even month",
      "First month paid back for good",
      "Payback, months",
      "IRR start (gputco's, per month)",
      "IRR per month (spreadsheet IRR)",
      "IRR per month (refined)",
      "IRR per year",
      "Break-even tokens/day vs API",
      "Most units in service",
      "Cost per year",
      "Allowed (1 = yes; 0: excluded, the reason in the Summary's notes)",
      "Of the total: scales with the output tokens per day",
      "Fixed in the volume"};
  if (taxed) {
    headers.push_back("After-tax total cost");
    headers.push_back("After-tax NPV of cost");
  }
  for (lxw_col_t c = 0; c < headers.size(); ++c) {
    sheet.text(header, c, headers[c], c == 0 ? formats.header : formats.header_number);
  }
  check_xlsx(worksheet_set_row(sheet.raw(), header, 60, nullptr), "sizing the Metrics header");

  // Monthly rows below the table: the month, then per compared option its comparison rows.
  const lxw_row_t month_row = last_option + 3;
  sheet.text(month_row, 0, "Month", formats.header);
  sheet.text(month_row, 1, "Sum", formats.header);
  for (lxw_col_t col = first; col <= last; ++col) {
    sheet.formula(month_row, col, "=" + cash_here(layout.month_row, col), col - first,
                  formats.month_header);
  }
  const std::string months = sheet_range_ref(kMetricsSheet, month_row, first, month_row, last);
  const std::string months_here =
      cell_ref(month_row, first, true, true) + ":" + cell_ref(month_row, last, true, true);

  const std::optional<size_t> baseline = index_of(plan, plan.baseline_option_id);
  const std::optional<size_t> api = index_of(plan, plan.api_reference_option_id);
  const auto row_of = [&](size_t i) { return static_cast<lxw_row_t>(out.first_option_row + i); };
  const auto here = [&](size_t i, lxw_col_t col) { return cell_ref(row_of(i), col, true, true); };
  const std::string hours = names.at("workload", "hours_per_day");
  const std::string days_total = "SUM(" + cash_row(layout.days_of_use_row) + ")";

  lxw_row_t row = month_row + 2;
  for (size_t i = 0; i < n; ++i) {
    const OptionResult& option = plan.options[i];
    const OptionBlock& block = layout.blocks.at(i);
    const lxw_row_t r = row_of(i);
    const auto ref = [&](lxw_col_t col) { return cell_ref(r, col); };
    sheet.text(r, out.label_col, option_label(scenario, option.id), formats.bold);
    sheet.number(r, out.holds_col, option.feasible ? 1 : 0, formats.flag);
    sheet.number(r, out.allowed_col, option.excluded_reason.empty() ? 1 : 0, formats.flag);
    sheet.formula(r, out.total_col, "=" + cash(block.total, layout.sum_col), option.total_cost,
                  formats.money_whole);
    sheet.formula(r, out.npv_col, "=" + cash(block.discounted, layout.sum_col), option.npv,
                  formats.money_whole);
    const double ranked_npv = taxed && option.after_tax ? option.after_tax->npv : option.npv;
    if (taxed) {
      sheet.formula(r, out.after_tax_total_col, "=" + cash(block.after_tax_total, layout.sum_col),
                    option.after_tax ? option.after_tax->total_cost : 0.0, formats.money_whole);
      sheet.formula(r, out.after_tax_npv_col,
                    "=" + cash(block.after_tax_discounted, layout.sum_col), ranked_npv,
                    formats.money_whole);
    }
    write_either(sheet, r, out.ranked_npv_col,
                 "=IF(AND(" + ref(out.holds_col) + "=1," + ref(out.allowed_col) + "=1)," +
                     ref(out.ranking_npv_col) + ",\"\")",
                 is_candidate(option) ? std::optional<double>(ranked_npv) : std::nullopt, "",
                 formats.money_whole);
    double tokens = 0, scaled = 0;
    for (double x : option.tokens_served) tokens += x;
    for (double x : option.hours_scaled_cost) scaled += x;
    sheet.formula(r, out.tokens_col, "=" + cash(block.tokens, layout.sum_col), tokens,
                  formats.integer);
    write_either(sheet, r, out.per_million_col,
                 "=IF(AND(" + ref(out.holds_col) + "=1," + ref(out.tokens_col) + ">0)," +
                     ref(out.total_col) + "/" + ref(out.tokens_col) + "*" +
                     names.at(kConstantsSection, "tokens_per_million") + ",\"n/a\")",
                 option.cost_per_million_tokens, "n/a", formats.money);
    if (names.has("workload", "users")) {
      write_either(sheet, r, out.per_user_col,
                   "=IF(" + ref(out.holds_col) + "=1," + ref(out.total_col) + "/(" +
                       names.at("workload", "users") + "*" +
                       names.at("scenario", "horizon_months") + "),\"n/a\")",
                   option.cost_per_user_per_month, "n/a", formats.money);
    } else {
      sheet.text(r, out.per_user_col, kNotAvailable, formats.not_available);
    }
    sheet.formula(r, out.cost_per_year_col,
                  "=" + ref(out.total_col) + "/(" + names.at("scenario", "horizon_months") + "/" +
                      names.at(kConstantsSection, "months_per_year") + ")",
                  option.cost_per_year, formats.money_whole);
    sheet.formula(r, out.scaled_col, "=" + cash(block.hours_scaled, layout.sum_col), scaled,
                  formats.money_whole);
    sheet.formula(r, out.fixed_col, "=" + ref(out.total_col) + "-" + ref(out.scaled_col),
                  option.total_cost - scaled, formats.money_whole);
    double most_units = 0;
    for (double u : option.cash_flow.units) most_units = std::max(most_units, u);
    sheet.formula(r, out.units_col, "=MAX(" + cash_row(block.units) + ")", most_units,
                  formats.decimal2);

    // What scales with the volume at the same hours (engine volume_scaled_costs): an owned
    // unit switched off outside the hours of use still idles through them whatever it serves,
    // so its idle draw then is taken out of the hours-scaled part (a unit that stays on has
    // its whole idle draw in the fixed part already); an always-on rental bills whole
    // instances for every hour of availability whatever they serve: nothing. A formula while
    // the units and instances stay as they are at half the volume (linear in it); else the
    // engine's figure, as a value.
    const OptionInputs* option_inputs = find_option_inputs(scenario, option.id);
    // Its cached value is the engine's (OptionResult::volume_scaled_cost: over the option as
    // the plan prepared it, its capacity included).
    // A plan made by hand without it: over the option's inputs as they are.
    double volume_scaled = 0;
    if (!option.volume_scaled_cost.empty()) {
      for (double x : option.volume_scaled_cost) volume_scaled += x;
    } else if (option_inputs != nullptr) {
      const PlanInputs& in = scenario.plan_inputs;
      for (double x : volume_scaled_costs(*option_inputs, in.workload, in.site, in.finance,
                                          option.cash_flow)) {
        volume_scaled += x;
      }
    }
    const bool hourly = option.kind == OptionKind::rent_hourly && option_inputs != nullptr &&
                        term_months(option_inputs->term) == 0;
    const bool always_on = hourly && option_inputs->hourly_billing.billing == Billing::always_on;
    double most_overflow = 0, most_load = 0;
    for (double x : option.cash_flow.overflow_load) most_overflow = std::max(most_overflow, x);
    for (double x : option.cash_flow.load) most_load = std::max(most_load, x);
    const double peak = load_shape_of(scenario.plan_inputs.workload).peak_multiplier;
    const bool volume_linear = scenario.plan_inputs.workload.tokens_per_day &&
                               *scenario.plan_inputs.workload.tokens_per_day > 0 &&
                               (option.kind == OptionKind::api ||
                                (most_units <= 1 && most_overflow <= 0 && !(hourly && !always_on) &&
                                 !(always_on && most_load * peak > 1 + kLoadTolerance)));
    std::string volume_scaled_formula = "=" + ref(out.scaled_col);
    if (option.kind == OptionKind::buy && names.has(option.id, "powered_off_when_idle") &&
        names.has(option.id, "idle_power_w")) {
      const auto own_or_site = [&](const char* key) {
        return names.has(option.id, key) ? names.at(option.id, key) : names.at("site", key);
      };
      std::string idle_in_use =
          names.at(option.id, "powered_off_when_idle") + "*" + names.at(option.id, "idle_power_w") +
          "/" + names.at(kConstantsSection, "watts_per_kw") + "*" + own_or_site("tariff_per_kwh") +
          "*" + own_or_site("pue") + "*(1+(1-" + names.at("scenario", "vat_reclaimable") + ")*" +
          names.at("scenario", "vat_rate") + ")*SUMPRODUCT(" + cash_row(layout.is_running_row) +
          "," + cash_row(block.units) + "," + cash_row(layout.hours_of_use_row) + "," +
          cash_row(layout.tariff_factor_row) + ")";
      if (option_inputs != nullptr && option_inputs->hosting == Hosting::colocation) {
        idle_in_use += "*" + names.at(option.id, "power_metered");
      }
      volume_scaled_formula += "-" + idle_in_use;
    } else if (always_on) {
      volume_scaled_formula = "=0";
    }
    if (volume_linear) {
      sheet.formula(r, out.volume_scaled_col, volume_scaled_formula, volume_scaled,
                    formats.money_whole);
      sheet.formula(r, out.volume_fixed_col,
                    "=" + ref(out.total_col) + "-" + ref(out.volume_scaled_col),
                    option.total_cost - volume_scaled, formats.money_whole);
    } else {
      sheet.number(r, out.volume_scaled_col, volume_scaled, formats.money_whole);
      sheet.number(r, out.volume_fixed_col, option.total_cost - volume_scaled, formats.money_whole);
    }

    // Owned against the baseline.
    const bool compared = option.kind == OptionKind::buy && option.feasible && baseline;
    if (!compared) {
      for (lxw_col_t c = out.be_hours_per_day_col; c <= out.irr_col; ++c) {
        sheet.text(r, c, kNotAvailable, formats.not_available);
      }
    } else {
      const size_t b = *baseline;
      const OptionBlock& base = layout.blocks.at(b);
      const CashFlow& own_cf = option.cash_flow;
      const CashFlow& base_cf = plan.options[b].cash_flow;
      // Break-even hours per day: the gap of the totals, (fixed own - fixed baseline) + h x
      // (scaled own - scaled baseline) / hours_per_day, is 0 at h = -fixed gap / slope;
      // "never" when renting is still cheaper at 24 h a day, else "always" when owning costs
      // no more unused (engine owning_cheaper_at_any_use: a break-even at or below 0 h is no
      // number of hours).
      const std::string gap_fixed = "(" + ref(out.fixed_col) + "-" + here(b, out.fixed_col) + ")";
      const std::string gap_scaled =
          "(" + ref(out.scaled_col) + "-" + here(b, out.scaled_col) + ")";
      const std::string full_day = names.at(kConstantsSection, "hours_per_full_day");
      // "never" is tested first, as the engine does: owning cheaper unused but dearer at 24 h
      // (a flat 24x7 rent) is not "always".
      const std::string per_day_formula = "=IF(" + hours + ">0,IF(" + gap_fixed + "+" + full_day +
                                          "*" + gap_scaled + "/" + hours + ">0,\"never\",IF(" +
                                          gap_fixed + "<=0,\"always\",-" + gap_fixed + "*" + hours +
                                          "/" + gap_scaled + ")),\"n/a\")";
      // An uneven day (issue #21): units follow the peak, which a change of hours can cap, so
      // the totals are not linear in the hours: the engine's search, as a figure.
      const bool flat_day = load_shape_of(scenario.plan_inputs.workload).flat;
      const std::string no_hours = option.owning_cheaper_at_any_use ? "always" : "never";
      if (scenario.plan_inputs.workload.hours_per_day > 0 && flat_day) {
        write_either(sheet, r, out.be_hours_per_day_col, per_day_formula,
                     option.break_even_hours_per_day, no_hours, formats.decimal2);
        write_either(sheet, r, out.be_hours_col,
                     "=IF(ISNUMBER(" + ref(out.be_hours_per_day_col) + ")," +
                         ref(out.be_hours_per_day_col) + "*" + days_total + "," +
                         ref(out.be_hours_per_day_col) + ")",
                     option.break_even_hours, no_hours, formats.hours);
      } else {
        // No hours of use (nothing scales, no slope to solve with) or an uneven day: the
        // engine's figure, until an input is edited.
        write_engine_figure(sheet, r, out.be_hours_per_day_col, option.break_even_hours_per_day,
                            no_hours, formats.decimal2, formats.not_available);
        write_engine_figure(sheet, r, out.be_hours_col, option.break_even_hours, no_hours,
                            formats.hours, formats.not_available);
      }

      // Monthly comparison rows.
      ComparisonRows rows;
      sheet.text(row++, 0,
                 option_label(scenario, option.id) + " against " +
                     option_label(scenario, plan.baseline_option_id),
                 formats.subtitle);
      rows.saving = row++;
      rows.cumulative = row++;
      rows.dearer = row++;
      rows.breaks_even = row++;
      rows.paid_back = row++;
      rows.sign = row++;
      rows.sign_changes = row++;
      rows.cumulative_sign = row++;
      rows.cumulative_sign_changes = row++;
      ++row;
      sheet.text(rows.saving, 0,
                 "Saving against " + option_label(scenario, plan.baseline_option_id));
      sheet.text(rows.cumulative, 0, "Cumulative saving");
      sheet.text(rows.dearer, 0, "Owning dearer so far (cumulative), 1 = yes", formats.flag_label);
      sheet.text(rows.breaks_even, 0, "Breaks even for good this month, 1 = yes",
                 formats.flag_label);
      sheet.text(rows.paid_back, 0, "Paid back by this month and every later one, 1 = yes",
                 formats.flag_label);
      sheet.text(rows.sign, 0, "Sign of the saving so far (1, -1; 0 within rounding skipped)",
                 formats.flag_label);
      sheet.text(rows.sign_changes, 0, "The saving changes sign this month, 1 = yes",
                 formats.flag_label);
      sheet.text(rows.cumulative_sign, 0,
                 "Sign of the cumulative saving so far (1, -1; 0 within rounding skipped)",
                 formats.flag_label);
      sheet.text(rows.cumulative_sign_changes, 0,
                 "The cumulative saving changes sign this month, 1 = yes", formats.flag_label);
      // The engine's rules month by month first: breaking even and paying back "for good"
      // look ahead to the end of the horizon.
      const size_t months_n = static_cast<size_t>(last - first) + 1;
      std::vector<double> savings(months_n), running_sums(months_n);
      std::vector<bool> dearer_at(months_n), paid_at(months_n);
      double running = 0;
      for (size_t m = 0; m < months_n; ++m) {
        savings[m] = base_cf.total[m] - own_cf.total[m];
        const double before = running;
        running += savings[m];
        running_sums[m] = running;
        // The engine's break_even_month: dearer beyond the tolerance.
        const double tol_dearer =
            kComparisonTolerance * std::max(1.0, std::abs(base_cf.cumulative[m]));
        dearer_at[m] = own_cf.cumulative[m] > base_cf.cumulative[m] + tol_dearer;
        // The engine's payback_months: the running saving within tolerance of 0 or above.
        const double tol_paid =
            kComparisonTolerance * std::max(1.0, std::abs(before) + std::abs(savings[m]));
        paid_at[m] = running >= -tol_paid;
      }
      std::vector<bool> dearer_later(months_n + 1, false), paid_for_good(months_n + 1, true);
      for (size_t m = months_n; m-- > 0;) {
        dearer_later[m] = dearer_at[m] || dearer_later[m + 1];
        paid_for_good[m] = paid_at[m] && paid_for_good[m + 1];
      }
      std::optional<int> first_paid_back;
      int sign_so_far = 0, sign_changes = 0;
      int cumulative_sign_so_far = 0, cumulative_sign_changes = 0;
      for (lxw_col_t col = first; col <= last; ++col) {
        const auto m = static_cast<size_t>(col - first);
        const double saving = savings[m];
        if (paid_for_good[m] && !first_paid_back) first_paid_back = static_cast<int>(m);
        const std::string s_here = cell_ref(rows.saving, col);
        const std::string r_here = cell_ref(rows.cumulative, col);
        sheet.formula(rows.saving, col,
                      "=" + cash_here(base.total, col) + "-" + cash_here(block.total, col), saving,
                      formats.money);
        sheet.formula(rows.cumulative, col,
                      "=SUM(" + cell_ref(rows.saving, first, true, true) + ":" + s_here + ")",
                      running_sums[m], formats.money);
        sheet.formula(rows.dearer, col,
                      "=IF(" + cash_here(block.cumulative, col) + ">" +
                          cash_here(base.cumulative, col) + "+" + tolerance + "*MAX(1,ABS(" +
                          cash_here(base.cumulative, col) + ")),1,0)",
                      dearer_at[m] ? 1 : 0, formats.flag);
        // The engine's break_even_month: dearer the month before and never again.
        if (col == first) {
          sheet.number(rows.breaks_even, col, 0, formats.flag);
        } else {
          sheet.formula(rows.breaks_even, col,
                        "=IF(AND(" + cell_ref(rows.dearer, col - 1) + "=1,MAX(" +
                            cell_ref(rows.dearer, col) + ":" +
                            cell_ref(rows.dearer, last, false, true) + ")=0),1,0)",
                        dearer_at[m - 1] && !dearer_later[m] ? 1 : 0, formats.flag);
        }
        // Paid back here and (the next month's flag, which looks further ahead) ever after.
        const std::string before_ref =
            col == first ? std::string("0") : cell_ref(rows.cumulative, col - 1);
        const std::string paid_here =
            r_here + ">=-" + tolerance + "*MAX(1,ABS(" + before_ref + ")+ABS(" + s_here + "))";
        sheet.formula(rows.paid_back, col,
                      col == last ? "=IF(" + paid_here + ",1,0)"
                                  : "=IF(AND(" + paid_here + "," +
                                        cell_ref(rows.paid_back, col + 1) + "=1),1,0)",
                      paid_for_good[m] ? 1 : 0, formats.flag);
        // The engine's saving_sign_changes: a saving within the tolerance of the baseline's
        // month is 0 and keeps the sign before it.
        const double tol_sign = kComparisonTolerance * std::max(1.0, std::abs(base_cf.total[m]));
        const int sign = saving > tol_sign ? 1 : saving < -tol_sign ? -1 : 0;
        const bool flips = sign != 0 && sign_so_far != 0 && sign != sign_so_far;
        if (flips) ++sign_changes;
        if (sign != 0) sign_so_far = sign;
        const std::string tol_here = tolerance + "*MAX(1,ABS(" + cash_here(base.total, col) + "))";
        sheet.formula(rows.sign, col,
                      "=IF(" + s_here + ">" + tol_here + ",1,IF(" + s_here + "<-" + tol_here +
                          ",-1," +
                          (col == first ? std::string("0") : cell_ref(rows.sign, col - 1)) + "))",
                      sign_so_far, formats.flag);
        if (col == first) {
          sheet.number(rows.sign_changes, col, 0, formats.flag);
        } else {
          sheet.formula(
              rows.sign_changes, col,
              "=IF(" + cell_ref(rows.sign, col) + "*" + cell_ref(rows.sign, col - 1) + "<0,1,0)",
              flips ? 1 : 0, formats.flag);
        }
        // The engine's cumulative_saving_sign_changes (Norstrom's criterion), with
        // break_even_month's tolerance on the baseline's cumulative cost.
        const double tol_cumulative =
            kComparisonTolerance * std::max(1.0, std::abs(base_cf.cumulative[m]));
        const int cumulative_sign = running_sums[m] > tol_cumulative    ? 1
                                    : running_sums[m] < -tol_cumulative ? -1
                                                                        : 0;
        const bool cumulative_flips = cumulative_sign != 0 && cumulative_sign_so_far != 0 &&
                                      cumulative_sign != cumulative_sign_so_far;
        if (cumulative_flips) ++cumulative_sign_changes;
        if (cumulative_sign != 0) cumulative_sign_so_far = cumulative_sign;
        const std::string tol_cumulative_here =
            tolerance + "*MAX(1,ABS(" + cash_here(base.cumulative, col) + "))";
        sheet.formula(
            rows.cumulative_sign, col,
            "=IF(" + r_here + ">" + tol_cumulative_here + ",1,IF(" + r_here + "<-" +
                tol_cumulative_here + ",-1," +
                (col == first ? std::string("0") : cell_ref(rows.cumulative_sign, col - 1)) + "))",
            cumulative_sign_so_far, formats.flag);
        if (col == first) {
          sheet.number(rows.cumulative_sign_changes, col, 0, formats.flag);
        } else {
          sheet.formula(rows.cumulative_sign_changes, col,
                        "=IF(" + cell_ref(rows.cumulative_sign, col) + "*" +
                            cell_ref(rows.cumulative_sign, col - 1) + "<0,1,0)",
                        cumulative_flips ? 1 : 0, formats.flag);
        }
      }
      const auto range = [&](lxw_row_t monthly) {
        return cell_ref(monthly, first, true, true) + ":" + cell_ref(monthly, last, true, true);
      };
      sheet.formula(rows.saving, 1, "=SUM(" + range(rows.saving) + ")", running, formats.money);
      sheet.formula(rows.sign_changes, 1, "=SUM(" + range(rows.sign_changes) + ")", sign_changes,
                    formats.integer);
      const std::string changes = cell_ref(rows.sign_changes, 1, true, true);
      sheet.formula(rows.cumulative_sign_changes, 1,
                    "=SUM(" + range(rows.cumulative_sign_changes) + ")", cumulative_sign_changes,
                    formats.integer);
      // No unique rate: the saving changes sign more than once (Descartes' rule of signs) and
      // its running sum does not change sign exactly once (Norstrom's criterion).
      const std::string not_unique =
          "AND(" + changes + ">1," + cell_ref(rows.cumulative_sign_changes, 1, true, true) + "<>1)";
      // Break-even month: "n/a" when owning is never dearer, "never" when it does not catch up
      // for good (dearer in the last month).
      const std::string month_formula = "=IF(MAX(" + range(rows.dearer) + ")=0,\"n/a\",IFERROR(" +
                                        "MATCH(1," + range(rows.breaks_even) + ",0)-1,\"never\"))";
      const std::optional<double> month =
          option.break_even_month ? std::optional<double>(*option.break_even_month) : std::nullopt;
      write_either(sheet, r, out.be_month_col, month_formula, month,
                   option.never_dearer_than_baseline ? "n/a" : "never", formats.integer);

      // Payback and IRR do not apply without a saving to pay back with (a baseline that costs
      // nothing), when owning is never dearer, or without an initial outlay.
      const std::string not_applicable = "OR(ABS(" + here(b, out.total_col) + ")<=" + tolerance +
                                         ",MAX(" + range(rows.dearer) + ")=0," +
                                         cell_ref(rows.saving, first) + ">=-" + tolerance + ")";
      write_either(sheet, r, out.paid_back_col,
                   "=IFERROR(MATCH(1," + range(rows.paid_back) + ",0)-1,\"never\")",
                   first_paid_back ? std::optional<double>(*first_paid_back) : std::nullopt,
                   "never", formats.integer);
      const std::string k = ref(out.paid_back_col);
      const std::string before_k = "INDEX(" + range(rows.cumulative) + ",1," + k + ")";
      const std::string saving_k = "INDEX(" + range(rows.saving) + ",1," + k + "+1)";
      const bool na = !option.comparison_na_reason.empty();
      write_either(sheet, r, out.payback_col,
                   "=IF(" + not_applicable + ",\"n/a\",IF(ISNUMBER(" + k + "),IF(" + k +
                       "=0,0,IF(OR(" + before_k + ">=0," + saving_k + "<=0)," + k + "," + k +
                       "-1+MIN(1,-" + before_k + "/" + saving_k + "))),\"never\"))",
                   na ? std::nullopt : option.payback_months, na ? "n/a" : "never",
                   formats.decimal1);

      // IRR: the spreadsheet's IRR from gputco's rate, one Newton step on the NPV of the
      // saving (as exact as the engine's bisection), annualised; not applicable when the
      // rate is not unique (engine irr_is_unique). The start is the engine's rate: with one
      // change of the running sum, the one root above 0.
      const std::optional<double> monthly =
          option.irr ? std::optional<double>(monthly_from_annual(*option.irr)) : std::nullopt;
      sheet.number(r, out.irr_start_col, monthly.value_or(0.0), formats.factor);
      write_either(sheet, r, out.irr_monthly_col,
                   "=IF(" + not_unique + ",\"n/a\",IFERROR(IRR(" + range(rows.saving) + "," +
                       ref(out.irr_start_col) + "),\"n/a\"))",
                   monthly, "n/a", formats.factor);
      const std::string q = ref(out.irr_monthly_col);
      write_either(sheet, r, out.irr_refined_col,
                   "=IF(ISNUMBER(" + q + ")," + q + "-SUMPRODUCT(" + range(rows.saving) + ",(1+" +
                       q + ")^(-" + months_here + "))/SUMPRODUCT(" + range(rows.saving) + ",-" +
                       months_here + "*(1+" + q + ")^(-" + months_here + "-1)),\"n/a\")",
                   monthly, "n/a", formats.factor);
      write_either(sheet, r, out.irr_col,
                   "=IF(" + not_applicable + ",\"n/a\",IF(" + not_unique +
                       ",\"n/a (saving changes sign \"&" + changes + "&\" times)\",IF(ISNUMBER(" +
                       ref(out.irr_refined_col) + "),(1+" + ref(out.irr_refined_col) + ")^" +
                       names.at(kConstantsSection, "months_per_year") + "-1,\"n/a\")))",
                   na ? std::nullopt : option.irr,
                   !na && !irr_is_unique(sign_changes, cumulative_sign_changes)
                       ? irr_not_unique_text(sign_changes)
                       : "n/a",
                   formats.percent);
    }

    // Break-even volume against the API: the gap is linear in the tokens per day while one
    // unit carries the volume (no growth, one unit, no overflow); otherwise gputco's search
    // is needed: rerun it. What scales with the volume (volume_scaled_col) is what scales with
    // the hours of use less an owned unit's idle draw through them, and nothing of an always-on
    // rental: its instance is billed for every hour of availability whatever it serves (engine
    // billed_instance_hours: max(1, ceil(load)) instances, one while one unit carries the
    // volume), so the crossing is where the API's fees reach its total. An autoscaled rental's
    // rent steps with the billing granularity: gputco's search, as a value.
    if (api && option.kind != OptionKind::api && option.feasible) {
      const size_t a = *api;
      const OptionInputs* inputs = find_option_inputs(scenario, option.id);
      const bool hourly_rent = option.kind == OptionKind::rent_hourly && inputs != nullptr &&
                               term_months(inputs->term) == 0;
      const bool steps_in_volume =
          hourly_rent && inputs->hourly_billing.billing == Billing::autoscaled;
      const std::string volume = names.at("workload", "tokens_per_day");
      const std::string gap_fixed =
          "(" + ref(out.volume_fixed_col) + "-" + here(a, out.volume_fixed_col) + ")";
      const std::string gap_scaled =
          "(" + ref(out.volume_scaled_col) + "-" + here(a, out.volume_scaled_col) + ")";
      const std::string upper = names.at(option.id, "capacity_tokens_per_hour") + "*" + hours;
      const bool linear = scenario.plan_inputs.workload.growth_per_month <= 0 && most_units <= 1 &&
                          most_overflow <= 0 && !steps_in_volume && volume_linear &&
                          scenario.plan_inputs.workload.tokens_per_day &&
                          *scenario.plan_inputs.workload.tokens_per_day > 0;
      if (linear) {
        const std::string formula =
            "=IF(OR(" + names.at("workload", "growth_per_month") + ">0," + ref(out.units_col) +
            ">1,MAX(" + cash_row(block.overflow_load) + ")>0," + volume +
            "<=0),\"rerun gputco\",IF(" + upper + "<=0,\"never\",IF(" + gap_fixed + "<0,0,IF(" +
            gap_fixed + "+" + upper + "*" + gap_scaled + "/" + volume + ">0,\"never\",IF(" +
            gap_scaled + "<0,-" + gap_fixed + "*" + volume + "/" + gap_scaled + ",0)))))";
        write_either(sheet, r, out.be_tokens_col, formula, option.break_even_tokens_per_day,
                     "never", formats.integer);
      } else {
        // Units that change with the volume: gputco's search, until an input is edited.
        write_engine_figure(sheet, r, out.be_tokens_col, option.break_even_tokens_per_day, "never",
                            formats.integer, formats.not_available);
      }
    } else {
      sheet.text(r, out.be_tokens_col, kNotAvailable, formats.not_available);
    }
  }
  sheet.width(0, 0, 34);
  sheet.width(1, static_cast<lxw_col_t>(std::max<size_t>(headers.size(), last + 1)), 15);
  worksheet_freeze_panes(sheet.raw(), out.first_option_row, 1);
  return out;
}

}  // namespace gputco::xlsx
