// The Inputs sheet: every input with its provenance, and the workbook names the Cash flow
// formulas use to read them.
#include <cmath>
#include <set>

#include "engine/units.hpp"
#include "reports/xlsx_names.hpp"
#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {
namespace {

enum class RowKind {
  input,       ///< a row of scenario.inputs
  supplement,  ///< needed by a formula, absent from scenario.inputs: the engine's value
  constant     ///< a definition (months per year), not an input
};

struct DisplayRow {
  std::string section;
  std::string key;
  std::string label;
  std::optional<double> value;
  std::string text;
  std::string unit;
  std::string provenance;
  RowKind kind = RowKind::input;
};

/// An input a Cash flow formula reads, with the value the engine used for it.
struct Required {
  std::string section;
  std::string key;
  std::string label;
  std::string unit;
  double engine_value = 0;
};

std::vector<Required> required_inputs(const Plan& plan, const ResolvedScenario& scenario) {
  const PlanInputs& in = scenario.plan_inputs;
  const std::string& currency = plan.currency;
  std::vector<Required> required = {
      {"scenario", "horizon_months", "Horizon", "months", static_cast<double>(plan.horizon_months)},
      {"scenario", "discount_rate", "Discount rate per year", "fraction",
       in.finance.discount_rate_per_year},
      {"workload", "hours_per_day", "Hours of use per day", "h/day", in.workload.hours_per_day},
      {"workload", "days_per_month", "Days of use per month", "days/month",
       in.workload.days_per_month},
      {"site", "tariff_per_kwh", "Electricity tariff", currency + "/kWh", in.site.tariff_per_kwh},
      {"site", "pue", "PUE (facility power / IT power)", "ratio", in.site.pue},
  };
  for (const OptionResult& result : plan.options) {
    const OptionInputs* o = find_option_inputs(scenario, result.id);
    const auto add = [&](const char* key, const std::string& label, const std::string& unit,
                         double value) {
      required.push_back({result.id, key, label, unit, o != nullptr ? value : 0.0});
    };
    const OptionInputs none;
    const OptionInputs& v = o != nullptr ? *o : none;
    switch (result.kind) {
      case OptionKind::buy:
        add("count", "Devices", "devices", v.count);
        add("price_per_gpu", "Purchase price per device", currency, v.price_per_gpu);
        add("host_cost", "Host system (once)", currency, v.host_cost);
        add("board_power_w", "Board power per device", "W", v.device.board_power_w);
        add("host_power_w", "Host power at load", "W", v.host_power_w);
        add("residual_fraction", "Resale value at the horizon", "fraction of capex",
            v.residual_fraction);
        add("maintenance_per_year", "Maintenance per year", "fraction of capex",
            v.maintenance_per_year);
        break;
      case OptionKind::rent_hourly:
        add("count", "Devices", "devices", v.count);
        add("rate_per_gpu_hour", "Rent per device-hour", currency + "/device-hour",
            v.rate_per_gpu_hour);
        break;
      case OptionKind::rent_monthly:
        add("price_per_month", "Server rent per month", currency + "/month", v.price_per_month);
        add("setup_fee", "Setup fee (once)", currency, v.setup_fee);
        break;
    }
  }
  return required;
}

bool has_numeric_row(const std::vector<DisplayRow>& rows, const std::string& section,
                     const std::string& key) {
  for (const auto& row : rows) {
    if (row.section == section && row.key == key && row.value) return true;
  }
  return false;
}

std::vector<DisplayRow> display_rows(const Plan& plan, const ResolvedScenario& scenario) {
  std::vector<DisplayRow> rows;
  for (const InputRow& in : scenario.inputs) {
    rows.push_back(
        {in.section, in.key, in.label, in.value, in.text, in.unit, in.provenance, RowKind::input});
  }
  // Deduplicate: two options may need the same key, but each (section, key) once.
  std::set<std::pair<std::string, std::string>> added;
  for (const Required& r : required_inputs(plan, scenario)) {
    if (has_numeric_row(rows, r.section, r.key) || !added.insert({r.section, r.key}).second) {
      continue;
    }
    rows.push_back({r.section, r.key, r.label, r.engine_value, "", r.unit,
                    "not in the scenario's input list: the value the engine used",
                    RowKind::supplement});
  }
  rows.push_back({kConstantsSection, "months_per_year", "Months per year",
                  static_cast<double>(kMonthsPerYear), "", "months/year", "definition",
                  RowKind::constant});
  rows.push_back({kConstantsSection, "watts_per_kw", "Watts per kilowatt", kWattsPerKilowatt, "",
                  "W/kW", "definition", RowKind::constant});
  return rows;
}

}  // namespace

InputNames write_inputs_sheet(lxw_workbook* workbook, SheetWriter& sheet, const Formats& formats,
                              const Plan& plan, const ResolvedScenario& scenario) {
  std::set<std::string> option_ids;
  for (const auto& o : plan.options) option_ids.insert(o.id);
  for (const auto& o : scenario.plan_inputs.options) option_ids.insert(o.id);

  DefinedNames names;
  DefinedNames prefixes;  // one distinct "opt_<id>" per option id
  std::map<std::string, std::string> prefix_of;
  for (const auto& id : option_ids) prefix_of[id] = prefixes.claim("opt_" + id);

  constexpr lxw_col_t kSection = 0, kLabel = 1, kKey = 2, kValue = 3, kUnit = 4, kProvenance = 5,
                      kName = 6;
  sheet.text(0, 0, "Inputs", formats.title);
  sheet.text(1, 0,
             "Inputs are blue on yellow. The Cash flow formulas read them through the workbook "
             "names in column G: change a value and the workbook recalculates.",
             formats.note);
  const lxw_row_t header = 3;
  const char* headers[] = {"Section", "Label", "Key", "Value", "Unit", "Provenance", "Name"};
  for (lxw_col_t c = 0; c < 7; ++c) {
    sheet.text(header, c, headers[c],
               c == kValue  ? formats.header_number
               : c == kUnit ? formats.header_indented
                            : formats.header);
  }

  InputNames result;
  lxw_row_t row = header + 1;
  RowKind previous = RowKind::input;
  for (const DisplayRow& r : display_rows(plan, scenario)) {
    if (r.kind != previous) {
      ++row;
      sheet.text(row++, 0,
                 r.kind == RowKind::supplement
                     ? "Used by the formulas, not in the scenario's input list"
                     : "Constants (definitions, not inputs)",
                 formats.subtitle);
      previous = r.kind;
    }
    sheet.text(row, kSection, r.section);
    sheet.text(row, kLabel, r.label);
    sheet.text(row, kKey, r.key);
    lxw_format* value_format =
        r.kind == RowKind::constant ? formats.constant_number : formats.input_number;
    if (r.value) {
      sheet.number(row, kValue, *r.value, value_format);
    } else {
      sheet.text(row, kValue, r.text, formats.input_text);
    }
    sheet.text(row, kUnit, r.unit, formats.indented);
    sheet.text(row, kProvenance, r.provenance);
    if (r.value && std::isfinite(*r.value) && !result.has(r.section, r.key)) {
      const auto prefix = prefix_of.find(r.section);
      const std::string name =
          names.claim(prefix != prefix_of.end() ? prefix->second + "_" + r.key : r.key);
      check_xlsx(workbook_define_name(workbook, name.c_str(),
                                      ("=" + sheet_cell_ref(kInputsSheet, row, kValue)).c_str()),
                 "defining the workbook name " + name);
      result.add(r.section, r.key, name);
      sheet.text(row, kName, name);
    }
    ++row;
  }

  sheet.width(kSection, kSection, 16);
  sheet.width(kLabel, kLabel, 34);
  sheet.width(kKey, kKey, 22);
  sheet.width(kValue, kValue, 14);
  sheet.width(kUnit, kUnit, 18);
  sheet.width(kProvenance, kProvenance, 52);
  sheet.width(kName, kName, 36);
  worksheet_freeze_panes(sheet.raw(), header + 1, 0);
  check_xlsx(worksheet_repeat_rows(sheet.raw(), header, header), "setting Inputs print titles");
  set_print_layout(sheet);
  return result;
}

}  // namespace gputco::xlsx
