// The quote's Assumptions sheet: every price, rate and term the figures rest on (the plan's,
// the workload's, the site's, and each option's: unit price, rent, lease rate, loan terms,
// tariff, discount rate...), with where each comes from in words a customer reads.
#include <algorithm>
#include <cmath>
#include <string>

#include "reports/source_citation.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {
namespace {

bool is_fraction(const std::string& unit) {
  return unit.rfind("fraction", 0) == 0 || unit == "per year";
}

/// Where an option's per-stream decode speed comes from, as the Assumptions sheet says it: the
/// serving model (refitted to the user's measured runs where there are any) or llama.cpp's
/// bandwidth model.
std::string speed_source(const OptionResult& option) {
  if (!option.serving) return "gputco estimate from memory bandwidth (not a measurement)";
  const ServingCalibrationSummary& c = option.serving->calibration;
  if (c.runs == 0) {
    return "gputco serving model at the mean hour's batch (published constants; not a "
           "measurement)";
  }
  return "gputco serving model at the mean hour's batch, refitted to your " +
         std::to_string(c.runs) + " measured run(s)" +
         (c.latest_measured_on.empty() ? std::string() : " (latest " + c.latest_measured_on + ")");
}

}  // namespace

void write_assumptions_sheet(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                             const ResolvedScenario& scenario) {
  const lxw_col_t c_what = 0, c_value = 1, c_unit = 2, c_source = 3;
  sheet.text(0, 0, "Assumptions", formats.title);
  sheet.text(1, 0,
             "Every price, rate and term the figures rest on, as used for this quote, and where "
             "each comes from (publishers and dates on the Sources sheet). Amounts in " +
                 plan.currency + " " + vat_basis_label(scenario.plan_inputs.finance) + ".",
             formats.note);
  const lxw_row_t header = 3;
  sheet.text(header, c_what, "What", formats.header);
  sheet.text(header, c_value, "Value", formats.header_number);
  sheet.text(header, c_unit, "Unit", formats.header_indented);
  sheet.text(header, c_source, "Where it comes from", formats.header);
  lxw_row_t row = header + 1;

  // A row as tall as its wrapped text: about 15 characters a line in the value column, 55 in
  // the source column.
  const auto fit_row = [&](size_t value_chars, size_t source_chars) {
    const size_t lines = std::max({size_t{1}, (value_chars + 14) / 15, (source_chars + 54) / 55});
    if (lines > 1) {
      check_xlsx(worksheet_set_row(sheet.raw(), row, 15.0 * static_cast<double>(lines), nullptr),
                 "sizing an Assumptions row");
    }
  };
  const auto write_rows = [&](const std::string& section) {
    for (const InputRow& in : scenario.inputs) {
      if (in.section != section) continue;
      const std::string source = customer_provenance(in.provenance);
      sheet.text(row, c_what, in.label, formats.wrapped);
      if (in.value) {
        // Whole numbers without decimals, the others with up to four, fractions as percent.
        const bool whole = std::abs(*in.value - std::round(*in.value)) < 1e-9;
        // A rate as typed: two decimals where one would round it (3.05 %, not 3.1 %).
        const double per_mille = *in.value * 1000;
        const bool one_decimal = std::abs(per_mille - std::round(per_mille)) < 1e-6;
        sheet.number(row, c_value, *in.value,
                     is_fraction(in.unit) ? (one_decimal ? formats.percent : formats.percent2)
                     : whole              ? formats.integer
                                          : formats.amount);
        sheet.text(row, c_unit, is_fraction(in.unit) ? "" : in.unit, formats.indented);
        fit_row(0, source.size());
      } else {
        sheet.text(row, c_value, in.text, formats.wrapped);
        fit_row(in.text.size(), source.size());
      }
      sheet.text(row, c_source, source, formats.wrapped);
      ++row;
    }
  };
  const auto section = [&](const std::string& title) {
    ++row;
    sheet.text(row++, 0, title, formats.subtitle);
  };
  section("The plan");
  write_rows("scenario");
  section("The workload");
  write_rows("workload");
  section("The site");
  write_rows("site");
  // Tax depreciation per asset class (the [tax] section; issue #16).
  if (std::any_of(scenario.inputs.begin(), scenario.inputs.end(),
                  [](const InputRow& in) { return in.section == "tax"; })) {
    section("Tax depreciation");
    write_rows("tax");
  }
  // The exchange rates the plan converts at (the [fx] section or the catalog's; issue #16).
  if (std::any_of(scenario.inputs.begin(), scenario.inputs.end(),
                  [](const InputRow& in) { return in.section == "fx"; })) {
    section("Exchange rates");
    write_rows("fx");
  }
  for (const OptionResult& option : plan.options) {
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    section(option_label(scenario, option.id) + ": " + kind_label(option.kind, inputs) + ", " +
            devices_label(inputs));
    write_rows(option.id);
    if (option.kind != OptionKind::api && option.feasible) {
      // The engine's estimate the figures also rest on.
      sheet.text(row, c_what, "Decode speed per stream");
      sheet.number(row, c_value, option.speed.decode_tokens_per_s, formats.decimal1);
      sheet.text(row, c_unit, "tokens/s", formats.indented);
      sheet.text(row, c_source, speed_source(option));
      ++row;
    }
  }
  // 44 + 16 + 24 + 56 characters print one page wide at 80 % or more on A4 and Letter
  // (landscape); a value up to 10^9 fits its 16.
  sheet.width(c_what, c_what, 44);
  sheet.width(c_value, c_value, 16);
  sheet.width(c_unit, c_unit, 24);
  sheet.width(c_source, c_source, 56);
  worksheet_freeze_panes(sheet.raw(), header + 1, 0);
  check_xlsx(worksheet_repeat_rows(sheet.raw(), header, header),
             "setting Assumptions print titles");
}

}  // namespace gputco::xlsx
