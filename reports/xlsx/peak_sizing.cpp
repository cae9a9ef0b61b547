// The Hardware sheet's sizing block (issue #21 item 5): how the peak demand of month 1 becomes
// replicas, units and billed hours, as live formulas over the Inputs sheet's cells and the
// Cash flow's timeline, each with the engine's figure as its cached result.
#include <cmath>
#include <string>

#include "engine/finance/billing.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {

namespace {

/// max(1, ceil(x - kLoadTolerance)): the spreadsheet's MAX(1,ROUNDUP(x-load_tolerance,0)) (the
/// engine's units and always-on instances, engine/money/cash_flow.cpp).
double units_for(double load) {
  const double up = std::ceil(load - kLoadTolerance);
  return up > 1 ? up : 1;
}

/// Height of one line of text in a row, points (the default font's row).
constexpr double kLineHeightPt = 15;
/// Characters of "How it is billed" a line holds in its 26-wide column, with a margin.
constexpr size_t kCharsPerLine = 24;

/// How an owned option's overflow rental bills it (engine billed_overflow_instance_hours).
std::string overflow_billing_text(const HourlyBilling& b) {
  if (b.billing == Billing::always_on) {
    return "billed always on: the whole instances the peak leaves over, every hour of "
           "availability";
  }
  return "billed autoscaled: min " + std::to_string(b.min_instances) +
         " instance(s) while it overflows, above it hour by hour the whole instances each "
         "hour's overflow needs, billed per " +
         to_string(b.granularity);
}

/// The instance-hours month 1's rent of block `block` pays for, as a formula over the Inputs
/// cells of the hourly rental `rental_id` (its rate, devices and goodput) and the Cash flow:
/// rent x goodput / (rate x devices x price trend), 0 when nothing is paid per hour.
std::string billed_hours_formula(const InputNames& names, const std::string& rental_id,
                                 const CashFlowLayout& layout, size_t block, lxw_col_t month1) {
  const std::string rate = names.at(rental_id, "rate_per_gpu_hour");
  const std::string count = names.at(rental_id, "count");
  const std::string goodput = names.at(rental_id, "goodput");
  const std::string factor = sheet_cell_ref(kCashFlowSheet, layout.rent_factor_row, month1);
  return "=IF(" + rate + "*" + count + "*" + factor + ">0," +
         sheet_cell_ref(kCashFlowSheet, layout.blocks[block].rent, month1) + "*" + goodput + "/(" +
         rate + "*" + count + "*" + factor + "),0)";
}

/// The value billed_hours_formula computes, from the same inputs and `option`'s month-1 rent.
double billed_hours_value(const InputNames& names, const std::string& rental_id, const Plan& plan,
                          const OptionResult& option) {
  const double paid = names.value_of(rental_id, "rate_per_gpu_hour") *
                      names.value_of(rental_id, "count") * plan.timeline.rent_factor[1];
  return paid > 0 ? option.cash_flow.rent[1] * names.value_of(rental_id, "goodput") / paid : 0.0;
}

}  // namespace

lxw_row_t write_peak_sizing(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                            const ResolvedScenario& scenario, const InputNames& names,
                            const CashFlowLayout& layout, lxw_row_t first_row) {
  const PlanInputs& in = scenario.plan_inputs;
  const bool demand =
      in.workload.tokens_per_day.has_value() && names.has("workload", "tokens_per_day") &&
      names.has("workload", "hours_per_day") && names.has("workload", "peak_multiplier");
  const std::string seconds_per_hour = names.at(kConstantsSection, "seconds_per_hour");
  const std::string tolerance = names.at(kConstantsSection, "load_tolerance");
  const std::string peak_multiplier = names.at("workload", "peak_multiplier");
  const double multiplier = names.value_of("workload", "peak_multiplier");

  lxw_row_t row = first_row;
  sheet.text(row++, 0, "Sizing for the peak, month 1", formats.subtitle);
  sheet.text(row++, 0,
             "Formulas over the Inputs sheet (blue cells there are inputs): the peak hour's "
             "demand over one replica's output rate at the latency target gives the replicas, "
             "over one unit's capacity the units; the Cash flow sizes every month alike.",
             formats.note);
  // The peak hour's demand: tokens per day / hours of use x the peak hour over the mean hour.
  const lxw_row_t peak_row = row;
  const lxw_col_t value_col = 2;
  sheet.text(peak_row, 0, "Peak demand, output tokens/h");
  double peak = 0;
  if (demand) {
    const double tokens_per_day = names.value_of("workload", "tokens_per_day");
    const double hours_per_day = names.value_of("workload", "hours_per_day");
    peak = hours_per_day > 0 ? tokens_per_day / hours_per_day * multiplier : 0.0;
    const std::string hours = names.at("workload", "hours_per_day");
    sheet.formula(peak_row, value_col,
                  "=IF(" + hours + ">0," + names.at("workload", "tokens_per_day") + "/" + hours +
                      "*" + peak_multiplier + ",0)",
                  peak, formats.integer);
    sheet.text(peak_row, value_col + 1,
               "tokens per day / hours of use x peak hour over the mean hour", formats.indented);
  } else {
    sheet.text(peak_row, value_col, "not stated", formats.not_available);
    sheet.text(peak_row, value_col + 1,
               "no demand in tokens: each unit counts at full load x the peak hour over the mean "
               "hour",
               formats.indented);
  }
  const std::string peak_ref = cell_ref(peak_row, value_col, true, true);
  row += 2;

  const char* headers[] = {"Option",
                           "How it is billed",
                           "Replicas per unit",
                           "Output tokens/s per replica at the target",
                           "Replicas the peak needs",
                           "Units the peak needs",
                           "Instance-hours billed in month 1"};
  const lxw_row_t header = row++;
  for (lxw_col_t c = 0; c < 7; ++c) {
    sheet.text(header, c, headers[c], c >= 2 ? formats.header_number : formats.header);
  }
  // Four lines: "Output tokens/s per replica at the target" wraps to four in 11 characters.
  check_xlsx(worksheet_set_row(sheet.raw(), header, 4 * kLineHeightPt, nullptr),
             "sizing the peak header");

  const lxw_col_t month1 = layout.first_month_col + 1;
  for (const OptionResult& option : plan.options) {
    if (option.kind == OptionKind::api) continue;  // the provider sizes it
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    sheet.text(row, 0, option_label(scenario, option.id), formats.bold);
    const OptionInputs* overflow_rental =
        inputs != nullptr && inputs->overflow == Overflow::rent
            ? find_option_inputs(scenario, inputs->overflow_option_id)
            : nullptr;
    std::string how;
    switch (option.kind) {
      case OptionKind::buy:
        how = inputs != nullptr && inputs->overflow == Overflow::rent
                  ? "owned; the overflow is rented from " + inputs->overflow_option_id + ", " +
                        overflow_billing_text(overflow_rental != nullptr
                                                  ? overflow_rental->hourly_billing
                                                  : inputs->overflow_billing)
                  : "owned: units added for the peak";
        break;
      case OptionKind::rent_monthly:
        how = "monthly price per unit";
        break;
      case OptionKind::rent_hourly:
        how = inputs != nullptr && term_months(inputs->term) > 0
                  ? "reserved: every hour of the term"
                  : option.billing;
        break;
      case OptionKind::api:
        break;
    }
    // Wrapped in its column (26 characters wide: about 24 a line), the row as tall as its
    // lines: the billing sentence runs to 150 characters and was cut off in print.
    sheet.text(row, 1, how, formats.wrapped);
    const size_t lines = (how.size() + kCharsPerLine - 1) / kCharsPerLine;
    if (lines > 1) {
      check_xlsx(
          worksheet_set_row(sheet.raw(), row, kLineHeightPt * static_cast<double>(lines), nullptr),
          "sizing a sizing row");
    }
    const double capacity = names.has(option.id, "capacity_tokens_per_hour")
                                ? names.value_of(option.id, "capacity_tokens_per_hour")
                                : 0.0;
    if (inputs == nullptr || !option.feasible || !(capacity > 0)) {
      for (lxw_col_t c = 2; c <= 6; ++c) sheet.text(row, c, kNotAvailable, formats.not_available);
      ++row;
      continue;
    }
    const std::string capacity_name = names.at(option.id, "capacity_tokens_per_hour");
    // Replicas per unit: the Inputs cell when the layout is named there, else one instance.
    double replicas = 1;
    if (names.has(option.id, "replicas")) {
      replicas = names.value_of(option.id, "replicas");
      sheet.formula(row, 2, "=" + names.at(option.id, "replicas"), replicas, formats.integer);
    } else {
      sheet.number(row, 2, 1, formats.input_number);
    }
    const std::string replicas_ref = cell_ref(row, 2, true, true);
    // One replica's output rate: a unit's capacity per second shared by its replicas.
    const double per_replica = replicas > 0 ? capacity / 3600.0 / replicas : 0.0;
    sheet.formula(row, 3,
                  "=IF(" + replicas_ref + ">0," + capacity_name + "/" + seconds_per_hour + "/" +
                      replicas_ref + ",0)",
                  per_replica, formats.decimal1);
    const std::string per_replica_ref = cell_ref(row, 3, true, true);
    double units = 0;
    if (demand) {
      const double replicas_needed =
          per_replica > 0 ? units_for(peak / (per_replica * 3600.0)) : 0.0;
      sheet.formula(row, 4,
                    "=IF(" + per_replica_ref + ">0,MAX(1,ROUNDUP(" + peak_ref + "/(" +
                        per_replica_ref + "*" + seconds_per_hour + ")-" + tolerance + ",0)),0)",
                    replicas_needed, formats.integer);
      units = units_for(peak / capacity);
      sheet.formula(row, 5,
                    "=MAX(1,ROUNDUP(" + peak_ref + "/" + capacity_name + "-" + tolerance + ",0))",
                    units, formats.integer);
    } else {
      sheet.text(row, 4, "full load", formats.not_available);
      units = units_for(multiplier);
      sheet.formula(row, 5, "=MAX(1,ROUNDUP(" + peak_multiplier + "-" + tolerance + ",0))", units,
                    formats.integer);
    }
    const std::string units_ref = cell_ref(row, 5, true, true);
    const bool has_month1 = plan.horizon_months >= 1 && plan.timeline.hours_of_use.size() > 1 &&
                            plan.timeline.hours_in_month.size() > 1 &&
                            plan.timeline.rent_factor.size() > 1 &&
                            option.cash_flow.rent.size() > 1;
    const size_t block = static_cast<size_t>(&option - plan.options.data());
    const bool overflow_named =
        overflow_rental != nullptr && names.has(overflow_rental->id, "rate_per_gpu_hour") &&
        names.has(overflow_rental->id, "count") && names.has(overflow_rental->id, "goodput");
    if (option.kind == OptionKind::buy && overflow_named && has_month1 &&
        block < layout.blocks.size()) {
      // Owned + overflow: the instance-hours month 1's overflow rent pays for, as for an
      // autoscaled rental below, at the overflow rental's rate, devices and goodput (engine
      // billed_overflow_instance_hours; 0 when the owned units carry month 1 alone).
      sheet.formula(row, 6, billed_hours_formula(names, overflow_rental->id, layout, block, month1),
                    billed_hours_value(names, overflow_rental->id, plan, option), formats.decimal1);
    } else if (option.kind != OptionKind::rent_hourly || !has_month1 ||
               block >= layout.blocks.size()) {
      sheet.text(row, 6, option.kind == OptionKind::buy ? "owned" : "by the month",
                 formats.not_available);
    } else if (term_months(inputs->term) > 0) {
      // Reserved: the units for every hour of the month (24-hour billing).
      sheet.formula(
          row, 6,
          "=" + units_ref + "*" + sheet_cell_ref(kCashFlowSheet, layout.hours_in_month_row, month1),
          units * plan.timeline.hours_in_month[1], formats.integer);
    } else if (inputs->hourly_billing.billing == Billing::always_on) {
      // Always on: the instances the peak needs for the hours of availability.
      const bool all_day = in.workload.availability == Availability::around_the_clock;
      const lxw_row_t hours_row = all_day ? layout.hours_in_month_row : layout.hours_of_use_row;
      const double hours =
          all_day ? plan.timeline.hours_in_month[1] : plan.timeline.hours_of_use[1];
      sheet.formula(row, 6,
                    "=" + units_ref + "*" + sheet_cell_ref(kCashFlowSheet, hours_row, month1),
                    units * hours, formats.integer);
    } else {
      // Autoscaled: what month 1's rent pays for, rent / (rate x devices x price trend) x
      // goodput (billed hour by hour, whole instances, with min_instances and the
      // granularity).
      sheet.formula(row, 6, billed_hours_formula(names, option.id, layout, block, month1),
                    billed_hours_value(names, option.id, plan, option), formats.decimal1);
    }
    ++row;
  }
  return row;
}

}  // namespace gputco::xlsx
