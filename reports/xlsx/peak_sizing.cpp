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

/// How an option is billed, for the block's second column: owned (with the overflow rental's
/// billing, overflow_billing_text), by the month, reserved, or the hourly rental's billing.
std::string billing_text(const OptionResult& option, const OptionInputs* inputs,
                         const OptionInputs* overflow_rental) {
  switch (option.kind) {
    case OptionKind::buy:
      return inputs != nullptr && inputs->overflow == Overflow::rent
                 ? "owned; the overflow is rented from " + inputs->overflow_option_id + ", " +
                       overflow_billing_text(overflow_rental != nullptr
                                                 ? overflow_rental->hourly_billing
                                                 : inputs->overflow_billing)
                 : "owned: units added for the peak";
    case OptionKind::rent_monthly:
      return "monthly price per unit";
    case OptionKind::rent_hourly:
      return inputs != nullptr && term_months(inputs->term) > 0 ? "reserved: every hour of the term"
                                                                : option.billing;
    case OptionKind::api:
      break;
  }
  return "";
}

/// The sizing block's writer: the Inputs names every row reads, the peak demand once written,
/// then one row per option.
class PeakSizingWriter {
 public:
  /// Reads the constants' and the workload's names (XlsxError when one is missing).
  PeakSizingWriter(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                   const ResolvedScenario& scenario, const InputNames& names,
                   const CashFlowLayout& layout)
      : sheet_(sheet),
        formats_(formats),
        plan_(plan),
        scenario_(scenario),
        names_(names),
        layout_(layout),
        demand_(scenario.plan_inputs.workload.tokens_per_day.has_value() &&
                names.has("workload", "tokens_per_day") && names.has("workload", "hours_per_day") &&
                names.has("workload", "peak_multiplier")),
        seconds_per_hour_(names.at(kConstantsSection, "seconds_per_hour")),
        tolerance_(names.at(kConstantsSection, "load_tolerance")),
        peak_multiplier_(names.at("workload", "peak_multiplier")),
        multiplier_(names.value_of("workload", "peak_multiplier")),
        month1_(layout.first_month_col + 1) {}

  /// The block's title and note, and the peak hour's demand (tokens per day / hours of use x
  /// the peak hour over the mean hour; "not stated" without a demand in tokens) from `first_row`.
  /// Returns the row of the table's header.
  lxw_row_t write_peak_demand(lxw_row_t first_row) {
    lxw_row_t row = first_row;
    sheet_.text(row++, 0, "Sizing for the peak, month 1", formats_.subtitle);
    sheet_.text(row++, 0,
                "Formulas over the Inputs sheet (blue cells there are inputs): the peak hour's "
                "demand over one replica's output rate at the latency target gives the replicas, "
                "over one unit's capacity the units; the Cash flow sizes every month alike.",
                formats_.note);
    const lxw_row_t peak_row = row;
    const lxw_col_t value_col = 2;
    sheet_.text(peak_row, 0, "Peak demand, output tokens/h");
    if (demand_) {
      const double tokens_per_day = names_.value_of("workload", "tokens_per_day");
      const double hours_per_day = names_.value_of("workload", "hours_per_day");
      peak_ = hours_per_day > 0 ? tokens_per_day / hours_per_day * multiplier_ : 0.0;
      const std::string hours = names_.at("workload", "hours_per_day");
      sheet_.formula(peak_row, value_col,
                     "=IF(" + hours + ">0," + names_.at("workload", "tokens_per_day") + "/" +
                         hours + "*" + peak_multiplier_ + ",0)",
                     peak_, formats_.integer);
      sheet_.text(peak_row, value_col + 1,
                  "tokens per day / hours of use x peak hour over the mean hour",
                  formats_.indented);
    } else {
      sheet_.text(peak_row, value_col, "not stated", formats_.not_available);
      sheet_.text(peak_row, value_col + 1,
                  "no demand in tokens: each unit counts at full load x the peak hour over the "
                  "mean hour",
                  formats_.indented);
    }
    peak_ref_ = cell_ref(peak_row, value_col, true, true);
    return row + 2;
  }

  /// The table's header at `header`, four lines tall.
  void write_header(lxw_row_t header) {
    const char* headers[] = {"Option",
                             "How it is billed",
                             "Replicas per unit",
                             "Output tokens/s per replica at the target",
                             "Replicas the peak needs",
                             "Units the peak needs",
                             "Instance-hours billed in month 1"};
    for (lxw_col_t c = 0; c < 7; ++c) {
      sheet_.text(header, c, headers[c], c >= 2 ? formats_.header_number : formats_.header);
    }
    // Four lines: "Output tokens/s per replica at the target" wraps to four in 11 characters.
    check_xlsx(worksheet_set_row(sheet_.raw(), header, 4 * kLineHeightPt, nullptr),
               "sizing the peak header");
  }

  /// `option`'s row at `row` (an element of the plan's options, not an api one): its label,
  /// its billing, and the figures of columns 2 to 6, n/a where it is not priced or has no
  /// capacity.
  void write_option(const OptionResult& option, lxw_row_t row) {
    const OptionInputs* inputs = find_option_inputs(scenario_, option.id);
    sheet_.text(row, 0, option_label(scenario_, option.id), formats_.bold);
    const OptionInputs* overflow_rental =
        inputs != nullptr && inputs->overflow == Overflow::rent
            ? find_option_inputs(scenario_, inputs->overflow_option_id)
            : nullptr;
    write_billing(billing_text(option, inputs, overflow_rental), row);
    const double capacity = names_.has(option.id, "capacity_tokens_per_hour")
                                ? names_.value_of(option.id, "capacity_tokens_per_hour")
                                : 0.0;
    if (inputs == nullptr || !option.feasible || !(capacity > 0)) {
      for (lxw_col_t c = 2; c <= 6; ++c) {
        sheet_.text(row, c, kNotAvailable, formats_.not_available);
      }
      return;
    }
    const Units units = write_units(option, capacity, row);
    write_billed_hours(option, *inputs, overflow_rental, units, row);
  }

 private:
  /// The units the peak needs, written in column 5, and that cell.
  struct Units {
    double count = 0;
    std::string ref;
  };

  /// How it is billed, wrapped in its column (26 characters wide: about 24 a line), the row as
  /// tall as its lines: the billing sentence runs to 150 characters and was cut off in print.
  void write_billing(const std::string& how, lxw_row_t row) {
    sheet_.text(row, 1, how, formats_.wrapped);
    const size_t lines = (how.size() + kCharsPerLine - 1) / kCharsPerLine;
    if (lines > 1) {
      check_xlsx(
          worksheet_set_row(sheet_.raw(), row, kLineHeightPt * static_cast<double>(lines), nullptr),
          "sizing a sizing row");
    }
  }

  /// Columns 2 to 5: the replicas per unit, one replica's output rate, and the replicas and
  /// units the peak needs (at full load x the peak multiplier without a demand in tokens).
  Units write_units(const OptionResult& option, double capacity, lxw_row_t row) {
    const std::string capacity_name = names_.at(option.id, "capacity_tokens_per_hour");
    // Replicas per unit: the Inputs cell when the layout is named there, else one instance.
    double replicas = 1;
    if (names_.has(option.id, "replicas")) {
      replicas = names_.value_of(option.id, "replicas");
      sheet_.formula(row, 2, "=" + names_.at(option.id, "replicas"), replicas, formats_.integer);
    } else {
      sheet_.number(row, 2, 1, formats_.input_number);
    }
    const std::string replicas_ref = cell_ref(row, 2, true, true);
    // One replica's output rate: a unit's capacity per second shared by its replicas.
    const double per_replica = replicas > 0 ? capacity / 3600.0 / replicas : 0.0;
    sheet_.formula(row, 3,
                   "=IF(" + replicas_ref + ">0," + capacity_name + "/" + seconds_per_hour_ + "/" +
                       replicas_ref + ",0)",
                   per_replica, formats_.decimal1);
    const std::string per_replica_ref = cell_ref(row, 3, true, true);
    Units units;
    if (demand_) {
      const double replicas_needed =
          per_replica > 0 ? units_for(peak_ / (per_replica * 3600.0)) : 0.0;
      sheet_.formula(row, 4,
                     "=IF(" + per_replica_ref + ">0,MAX(1,ROUNDUP(" + peak_ref_ + "/(" +
                         per_replica_ref + "*" + seconds_per_hour_ + ")-" + tolerance_ + ",0)),0)",
                     replicas_needed, formats_.integer);
      units.count = units_for(peak_ / capacity);
      sheet_.formula(
          row, 5, "=MAX(1,ROUNDUP(" + peak_ref_ + "/" + capacity_name + "-" + tolerance_ + ",0))",
          units.count, formats_.integer);
    } else {
      sheet_.text(row, 4, "full load", formats_.not_available);
      units.count = units_for(multiplier_);
      sheet_.formula(row, 5, "=MAX(1,ROUNDUP(" + peak_multiplier_ + "-" + tolerance_ + ",0))",
                     units.count, formats_.integer);
    }
    units.ref = cell_ref(row, 5, true, true);
    return units;
  }

  /// Column 6: the instance-hours billed in month 1 (owned + overflow, reserved, always on or
  /// autoscaled), or what bills it instead ("owned", "by the month").
  void write_billed_hours(const OptionResult& option, const OptionInputs& inputs,
                          const OptionInputs* overflow_rental, const Units& units, lxw_row_t row) {
    const Plan& plan = plan_;
    const bool has_month1 = plan.horizon_months >= 1 && plan.timeline.hours_of_use.size() > 1 &&
                            plan.timeline.hours_in_month.size() > 1 &&
                            plan.timeline.rent_factor.size() > 1 &&
                            option.cash_flow.rent.size() > 1;
    const size_t block = static_cast<size_t>(&option - plan.options.data());
    const bool overflow_named =
        overflow_rental != nullptr && names_.has(overflow_rental->id, "rate_per_gpu_hour") &&
        names_.has(overflow_rental->id, "count") && names_.has(overflow_rental->id, "goodput");
    if (option.kind == OptionKind::buy && overflow_named && has_month1 &&
        block < layout_.blocks.size()) {
      // Owned + overflow: the instance-hours month 1's overflow rent pays for, as for an
      // autoscaled rental below, at the overflow rental's rate, devices and goodput (engine
      // billed_overflow_instance_hours; 0 when the owned units carry month 1 alone).
      sheet_.formula(
          row, 6, billed_hours_formula(names_, overflow_rental->id, layout_, block, month1_),
          billed_hours_value(names_, overflow_rental->id, plan, option), formats_.decimal1);
    } else if (option.kind != OptionKind::rent_hourly || !has_month1 ||
               block >= layout_.blocks.size()) {
      sheet_.text(row, 6, option.kind == OptionKind::buy ? "owned" : "by the month",
                  formats_.not_available);
    } else if (term_months(inputs.term) > 0) {
      // Reserved: the units for every hour of the month (24-hour billing).
      sheet_.formula(row, 6,
                     "=" + units.ref + "*" +
                         sheet_cell_ref(kCashFlowSheet, layout_.hours_in_month_row, month1_),
                     units.count * plan.timeline.hours_in_month[1], formats_.integer);
    } else if (inputs.hourly_billing.billing == Billing::always_on) {
      // Always on: the instances the peak needs for the hours of availability.
      const bool all_day =
          scenario_.plan_inputs.workload.availability == Availability::around_the_clock;
      const lxw_row_t hours_row = all_day ? layout_.hours_in_month_row : layout_.hours_of_use_row;
      const double hours =
          all_day ? plan.timeline.hours_in_month[1] : plan.timeline.hours_of_use[1];
      sheet_.formula(row, 6,
                     "=" + units.ref + "*" + sheet_cell_ref(kCashFlowSheet, hours_row, month1_),
                     units.count * hours, formats_.integer);
    } else {
      // Autoscaled: what month 1's rent pays for, rent / (rate x devices x price trend) x
      // goodput (billed hour by hour, whole instances, with min_instances and the
      // granularity).
      sheet_.formula(row, 6, billed_hours_formula(names_, option.id, layout_, block, month1_),
                     billed_hours_value(names_, option.id, plan, option), formats_.decimal1);
    }
  }

  SheetWriter& sheet_;
  const Formats& formats_;
  const Plan& plan_;
  const ResolvedScenario& scenario_;
  const InputNames& names_;
  const CashFlowLayout& layout_;
  const bool demand_;  ///< the workload states its demand in tokens, and the Inputs name it
  const std::string seconds_per_hour_, tolerance_, peak_multiplier_;  ///< Inputs names
  const double multiplier_;                                           ///< the peak multiplier
  const lxw_col_t month1_;  ///< month 1's column on the Cash flow
  double peak_ = 0;         ///< the peak hour's demand, output tokens/h (0: not stated)
  std::string peak_ref_;    ///< its cell
};

}  // namespace

lxw_row_t write_peak_sizing(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                            const ResolvedScenario& scenario, const InputNames& names,
                            const CashFlowLayout& layout, lxw_row_t first_row) {
  PeakSizingWriter writer(sheet, formats, plan, scenario, names, layout);
  lxw_row_t row = writer.write_peak_demand(first_row);
  writer.write_header(row++);
  for (const OptionResult& option : plan.options) {
    if (option.kind == OptionKind::api) continue;  // the provider sizes it
    writer.write_option(option, row++);
  }
  return row;
}

}  // namespace gputco::xlsx
