// The Cash flow sheet: one timeline of months 0..horizon, one block of rows per option.
// Every row is ONE formula copied across the months (flag and factor rows of the timeline
// switch its terms on and off), reading the named cells of the Inputs sheet; the engine's
// figure is each cell's cached result, so the file opens right even where nothing
// recalculates. The formulas restate engine/plan/plan.hpp (option_cash_flow) term by term.
#include <algorithm>
#include <cmath>

#include "reports/xlsx/block_formulas.hpp"

namespace gputco::xlsx {
namespace {

/// Writes the physical rows of a block (kWh, idle kWh, kg CO2e; not money, not in the
/// total): live formulas where the engine knows the figure, with the horizon's sum in the
/// sum column; "unknown" text (never 0) and the engine's reason where it does not.
void write_physical_rows(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                         const BlockFormulas& formulas, OptionBlock& block,
                         const CashFlowLayout& layout) {
  const CashFlow& cf = option.cash_flow;
  sheet.text(block.energy_kwh, layout.label_col, "Energy at the wall, kWh (not money)");
  sheet.text(block.idle_kwh, layout.label_col, "of which idle (powered, not serving), kWh");
  sheet.text(block.co2e_kg, layout.label_col, "Emissions, kg CO2e (not money)");
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  const auto unknown = [&](lxw_row_t row, const std::string& reason) {
    sheet.text(row, layout.sum_col, "unknown", formats.not_available);
    // The engine's reasons begin "unknown: "; the sum column already says so.
    const std::string prefix = "unknown: ";
    const std::string why = reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
    if (!why.empty()) sheet.text(row, first, why, formats.note);
  };
  const auto at = [](const std::vector<double>& values, size_t m) {
    return m < values.size() ? values[m] : 0.0;
  };
  const auto row_sum = [&](lxw_row_t row) {
    return "=SUM(" + cell_ref(row, first) + ":" + cell_ref(row, last) + ")";
  };
  block.energy_known = option.energy_kwh_total.has_value();
  block.co2e_known = block.energy_known && option.co2e_kg_total.has_value();
  const auto& split = option.overflow_energy;
  if (block.has_overflow_energy) {
    const std::string rental = split ? split->option_id : std::string("the overflow rental");
    sheet.text(block.overflow_kwh, layout.label_col,
               "of which the overflow rental " + rental + ", kWh");
    sheet.text(block.overflow_co2e_kg, layout.label_col,
               "of which the overflow rental " + rental + ", kg CO2e");
  }
  // Rows written only with the split the engine made (energy known).
  const bool overflow_rows = block.has_overflow_energy;
  if (!split) block.has_overflow_energy = false;
  const bool overflow_co2e_known = block.has_overflow_energy &&
                                   split->overflow_co2e_kg.has_value() &&
                                   !formulas.overflow_co2e_kg(layout.first_month_col).empty();
  if (!block.energy_known) {
    unknown(block.energy_kwh, option.energy_unknown_reason);
    unknown(block.idle_kwh, option.energy_unknown_reason);
    unknown(block.co2e_kg, option.co2e_unknown_reason.empty() ? option.energy_unknown_reason
                                                              : option.co2e_unknown_reason);
    if (overflow_rows) {
      unknown(block.overflow_kwh, option.energy_unknown_reason);
      unknown(block.overflow_co2e_kg, option.energy_unknown_reason);
    }
    return;
  }
  double idle_total = 0;
  for (lxw_col_t col = first; col <= last; ++col) {
    const auto m = static_cast<size_t>(col - first);
    idle_total += at(cf.idle_kwh, m);
    const std::string idle = formulas.idle_kwh(col);
    if (idle.empty()) {
      sheet.number(block.idle_kwh, col, at(cf.idle_kwh, m), formats.decimal2);
    } else {
      sheet.formula(block.idle_kwh, col, idle, at(cf.idle_kwh, m), formats.decimal2);
    }
    if (const std::string kwh = formulas.energy_kwh(col); kwh.empty()) {
      sheet.number(block.energy_kwh, col, at(cf.energy_kwh, m), formats.decimal2);
    } else {
      sheet.formula(block.energy_kwh, col, kwh, at(cf.energy_kwh, m), formats.decimal2);
    }
    if (block.has_overflow_energy) {
      if (const std::string kwh = formulas.overflow_kwh(col); kwh.empty()) {
        sheet.number(block.overflow_kwh, col, at(cf.overflow_kwh, m), formats.decimal2);
      } else {
        sheet.formula(block.overflow_kwh, col, kwh, at(cf.overflow_kwh, m), formats.decimal2);
      }
      if (overflow_co2e_known) {
        sheet.formula(block.overflow_co2e_kg, col, formulas.overflow_co2e_kg(col),
                      at(cf.overflow_co2e_kg, m), formats.decimal2);
      }
    }
    if (block.co2e_known) {
      sheet.formula(block.co2e_kg, col, formulas.co2e_kg(col), at(cf.co2e_kg, m), formats.decimal2);
    }
  }
  if (block.has_overflow_energy) {
    sheet.formula(block.overflow_kwh, layout.sum_col, row_sum(block.overflow_kwh),
                  split->overflow_kwh, formats.decimal1);
    if (overflow_co2e_known) {
      sheet.formula(block.overflow_co2e_kg, layout.sum_col, row_sum(block.overflow_co2e_kg),
                    *split->overflow_co2e_kg, formats.decimal1);
    } else {
      unknown(block.overflow_co2e_kg, split->overflow_co2e_unknown_reason);
    }
  }
  sheet.formula(block.energy_kwh, layout.sum_col, row_sum(block.energy_kwh),
                *option.energy_kwh_total, formats.decimal1);
  sheet.formula(block.idle_kwh, layout.sum_col, row_sum(block.idle_kwh), idle_total,
                formats.decimal1);
  if (block.co2e_known) {
    sheet.formula(block.co2e_kg, layout.sum_col, row_sum(block.co2e_kg), *option.co2e_kg_total,
                  formats.decimal1);
  } else {
    unknown(block.co2e_kg, option.co2e_unknown_reason);
  }
}

/// Writes the rows the Metrics sheet sums (not money in the total): output tokens served, and
/// the part of the total that scales with the hours of use, each with its horizon sum.
void write_metric_rows(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                       const BlockFormulas& formulas, const OptionBlock& block,
                       const CashFlowLayout& layout) {
  sheet.text(block.tokens, layout.label_col, "Output tokens served (not money)");
  sheet.text(block.hours_scaled, layout.label_col,
             "Of the total: what scales with the hours of use");
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  const auto at = [](const std::vector<double>& values, size_t m) {
    return m < values.size() ? values[m] : 0.0;
  };
  double tokens_total = 0, scaled_total = 0;
  for (lxw_col_t col = first; col <= last; ++col) {
    const auto m = static_cast<size_t>(col - first);
    tokens_total += at(option.tokens_served, m);
    scaled_total += at(option.hours_scaled_cost, m);
    if (option.feasible) {
      sheet.formula(block.tokens, col, formulas.tokens(col), at(option.tokens_served, m),
                    formats.integer);
    } else {
      sheet.number(block.tokens, col, at(option.tokens_served, m), formats.integer);
    }
    const std::string scaled = option.feasible ? formulas.hours_scaled(col) : std::string();
    if (scaled.empty()) {
      sheet.number(block.hours_scaled, col, at(option.hours_scaled_cost, m), formats.money_quiet);
    } else {
      sheet.formula(block.hours_scaled, col, scaled, at(option.hours_scaled_cost, m),
                    formats.money);
    }
  }
  const auto row_sum = [&](lxw_row_t row) {
    return "=SUM(" + cell_ref(row, first) + ":" + cell_ref(row, last) + ")";
  };
  sheet.formula(block.tokens, layout.sum_col, row_sum(block.tokens), tokens_total, formats.integer);
  sheet.formula(block.hours_scaled, layout.sum_col, row_sum(block.hours_scaled), scaled_total,
                formats.money);
}

/// How an owned option's overflow is billed: its rental's hourly_billing (the copy in the
/// owned option when the rental is not found; always on without overflow).
HourlyBilling overflow_billing_of(const ResolvedScenario& scenario, const OptionInputs* inputs) {
  if (inputs == nullptr || inputs->overflow != Overflow::rent) return HourlyBilling{};
  const OptionInputs* rental = find_option_inputs(scenario, inputs->overflow_option_id);
  return rental != nullptr ? rental->hourly_billing : inputs->overflow_billing;
}

/// The instance-hours the engine billed each month (index 0 = the start column), before goodput
/// and the rent trend, of an autoscaled rental, or an owned option's autoscaled overflow rental,
/// over an uneven day (BlockFormulas::set_engine_billed_hours); empty otherwise. Recovered from
/// its rent: hourly rent_m = rate x count x H_m / goodput x trend_m (engine rent_hourly_flows),
/// overflow rent_m = H_m x overflow_per_hour x trend_m (engine owned option flows, its
/// overflow_rate_per_hour: the rental's rate x count / goodput, `overflow_per_hour`); 0 where
/// the price per hour or the trend is 0 (the rent is 0 then whatever the hours).
std::vector<double> engine_billed_hours(const OptionResult& option, const OptionInputs* inputs,
                                        const DailyLoadShape& shape,
                                        const HourlyBilling& overflow_billing,
                                        double overflow_per_hour,
                                        const std::vector<double>& rent_factor) {
  if (inputs == nullptr || shape.flat) return {};
  double per_hour = 0;
  if (option.kind == OptionKind::rent_hourly && term_months(inputs->term) == 0 &&
      inputs->hourly_billing.billing == Billing::autoscaled) {
    per_hour =
        inputs->goodput > 0 ? inputs->rate_per_gpu_hour * inputs->count / inputs->goodput : 0.0;
  } else if (option.kind == OptionKind::buy && inputs->overflow == Overflow::rent &&
             overflow_billing.billing == Billing::autoscaled) {
    per_hour = overflow_per_hour;
  } else {
    return {};
  }
  const std::vector<double>& rent = option.cash_flow.rent;
  std::vector<double> hours(rent.size(), 0.0);
  for (size_t m = 0; m < rent.size(); ++m) {
    const double trend = m < rent_factor.size() ? rent_factor[m] : 1.0;
    const double divisor = per_hour * trend;
    if (divisor > 0 && std::isfinite(divisor)) hours[m] = rent[m] / divisor;
  }
  return hours;
}

/// An owned option's overflow rental per instance-hour: the rental's rate x count / goodput
/// (engine OptionInputs::overflow_rate_per_hour, which the plan derives on its own copy); 0
/// without overflow or a rental.
double overflow_per_hour_of(const ResolvedScenario& scenario, const OptionInputs* inputs) {
  if (inputs == nullptr || inputs->overflow != Overflow::rent) return 0;
  const OptionInputs* rental = find_option_inputs(scenario, inputs->overflow_option_id);
  if (rental == nullptr || !(rental->goodput > 0)) return 0;
  return rental->rate_per_gpu_hour * rental->count / rental->goodput;
}

void write_block(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                 const OptionInputs* inputs, const std::string& label, OptionBlock& block,
                 const CashFlowLayout& layout, const InputNames& names,
                 const std::string& site_intensity, Availability availability,
                 const DailyLoadShape& shape, const HourlyBilling& overflow_billing,
                 double overflow_per_hour, const std::vector<double>& rent_factor) {
  const CashFlow& cf = option.cash_flow;
  sheet.text(block.title, layout.label_col, label, formats.subtitle);
  std::string description = kind_label(option.kind, inputs) + ", " + devices_label(inputs);
  // Never priced (issue #43): its rows are 0, values not formulas.
  if (!option.feasible) description += " (not priced: " + option.note + ")";
  sheet.text(block.title, layout.first_month_col, description, formats.note);

  OptionBlock rows = block;
  for (CashFlowRow row : kCashFlowRows)
    sheet.text(cash_flow_row_of(rows, row), layout.label_col, cash_flow_row_label(row));
  sheet.text(block.total, layout.label_col, "Total (sum: total cost)", formats.bold);
  sheet.text(block.cumulative, layout.label_col, "Cumulative");
  sheet.text(block.discounted, layout.label_col, "Discounted (sum: NPV)", formats.bold);

  BlockFormulas formulas(option, inputs, block, layout, names);
  formulas.set_site_intensity_key(site_intensity);
  formulas.set_availability(availability);
  formulas.set_shape(shape);
  formulas.set_overflow_billing(overflow_billing);
  formulas.set_engine_billed_hours(
      engine_billed_hours(option, inputs, shape, overflow_billing, overflow_per_hour, rent_factor));
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  for (lxw_col_t col = first; col <= last; ++col) {
    const auto m = static_cast<size_t>(col - first);
    for (CashFlowRow row : kCashFlowRows) {
      const std::string formula = option.feasible ? formulas.at(row, col) : std::string();
      const double value = cash_flow_row_value(cf, row, m);
      lxw_format* format = is_money_row(row) ? formats.money : formats.decimal2;
      if (formula.empty()) {
        sheet.number(cash_flow_row_of(rows, row), col, value,
                     is_money_row(row) ? formats.money_quiet : formats.decimal2);
      } else {
        sheet.formula(cash_flow_row_of(rows, row), col, formula, value, format);
      }
    }
    sheet.formula(block.total, col,
                  "=SUM(" + cell_ref(block.capex, col) + ":" + cell_ref(block.resale, col) + ")",
                  cf.total[m], formats.money_bold);
    sheet.formula(
        block.cumulative, col,
        "=SUM(" + cell_ref(block.total, first, true, true) + ":" + cell_ref(block.total, col) + ")",
        cf.cumulative[m], formats.money);
    sheet.formula(block.discounted, col,
                  "=" + cell_ref(block.total, col) + "*" + cell_ref(layout.discount_row, col, true),
                  cf.discounted[m], formats.money);
  }
  const auto row_sum = [&](lxw_row_t row) {
    return "=SUM(" + cell_ref(row, first) + ":" + cell_ref(row, last) + ")";
  };
  sheet.formula(block.total, layout.sum_col, row_sum(block.total), option.total_cost,
                formats.money_bold);
  sheet.formula(block.discounted, layout.sum_col, row_sum(block.discounted), option.npv,
                formats.money_bold);
  write_physical_rows(sheet, formats, option, formulas, block, layout);
  write_metric_rows(sheet, formats, option, formulas, block, layout);
}

}  // namespace

namespace {

/// Characters `value` takes printed with thousands separators and `decimals` decimals, a sign
/// and one character of margin.
double printed_width(double value, int decimals) {
  if (!std::isfinite(value) || value < 1) return 0;
  const double digits = std::floor(std::log10(value)) + 1;
  return digits + std::floor((digits - 1) / 3) + (decimals > 0 ? decimals + 1 : 0) + 1 + 1;
}

/// Characters a Cash flow column of numbers needs so that no cell shows ###: the largest
/// horizon sum any row can reach, money (every flow's magnitude summed, two decimals) or a
/// count (the tokens served, the energy: whole numbers); at least 15 (an amount up to 10^9).
double number_column_width(const Plan& plan) {
  double width = 15;
  for (const OptionResult& option : plan.options) {
    const CashFlow& cf = option.cash_flow;
    double flows = 0, tokens = 0, kwh = 0;
    for (size_t m = 0; m < cf.total.size(); ++m) {
      for (const std::vector<double>* row : {&cf.total, &cf.capex, &cf.rent, &cf.resale,
                                             &cf.financing, &cf.energy, &cf.book_value}) {
        if (m < row->size()) flows += std::fabs((*row)[m]);
      }
      if (m < cf.energy_kwh.size()) kwh += std::fabs(cf.energy_kwh[m]);
    }
    for (const double t : option.tokens_served) tokens += std::fabs(t);
    width =
        std::max({width, printed_width(flows, 2), printed_width(tokens, 0), printed_width(kwh, 0)});
  }
  return width;
}

}  // namespace

CashFlowLayout write_cash_flow_sheet(lxw_workbook* /*workbook*/, SheetWriter& sheet,
                                     const Formats& formats, const Plan& plan,
                                     const ResolvedScenario& scenario, const InputNames& names,
                                     const TimelineLayout* timeline) {
  CashFlowLayout layout;
  layout.month_row = 3;
  layout.is_start_row = 4;
  layout.is_running_row = 5;
  layout.is_end_row = 6;
  layout.year_row = 7;
  layout.discount_row = 8;
  layout.hours_in_month_row = 9;
  layout.days_of_use_row = 10;
  layout.hours_of_use_row = 11;
  layout.growth_row = 12;
  layout.rent_factor_row = 13;
  layout.tariff_factor_row = 14;
  // The API price factor row exists only in a plan with an api option (the other plans'
  // rows keep their places).
  for (const OptionResult& option : plan.options) {
    if (option.kind == OptionKind::api) layout.api_factor_row = layout.tariff_factor_row + 1;
  }
  layout.last_month_col = static_cast<lxw_col_t>(layout.first_month_col + plan.horizon_months);

  sheet.text(0, 0, "Cash flow, " + plan.currency, formats.title);
  sheet.text(1, 0,
             "Month 0 is the start of month 1 (purchases, setup fees, loan proceeds); month m is "
             "the end of month m (running costs, paid in arrears; hardware added for growth; "
             "resale and commitments past the horizon at the horizon). Costs are positive, money "
             "coming back negative. Each row is one formula over the named Inputs; the timeline "
             "rows switch its terms on and off. Depreciation and book value are the accounting "
             "view and not part of the total; so are the energy (kWh) and emissions (kg CO2e) "
             "rows below them, which are physical, not money (\"unknown\" where no figure is "
             "published)." +
                 std::string(timeline != nullptr ? " The month, flag, year and discount-factor "
                                                   "rows link to the Timeline sheet."
                                                 : ""),
             formats.note);
  write_cash_flow_timeline(sheet, formats, plan, layout, names, timeline);

  lxw_row_t row =
      (layout.api_factor_row != 0 ? layout.api_factor_row : layout.tariff_factor_row) + 2;
  const std::string site_intensity = site_intensity_key(scenario);
  for (const OptionResult& option : plan.options) {
    OptionBlock block;
    block.title = row++;
    block.load = row++;
    block.units = row++;
    block.overflow_load = row++;
    block.capex = row++;
    block.energy = row++;
    block.maintenance = row++;
    block.hosting = row++;
    block.colo_extras = row++;
    block.failures = row++;
    block.licences = row++;
    block.support = row++;
    block.rent = row++;
    block.financing = row++;
    block.staff = row++;
    block.insurance = row++;
    block.vat = row++;
    block.resale = row++;
    block.total = row++;
    block.cumulative = row++;
    block.discounted = row++;
    block.depreciation = row++;
    block.book_value = row++;
    block.interest = row++;
    block.energy_kwh = row++;
    block.idle_kwh = row++;
    block.co2e_kg = row++;
    const OptionInputs* inputs = find_option_inputs(scenario, option.id);
    if (inputs != nullptr && inputs->overflow == Overflow::rent) {
      block.has_overflow_energy = true;
      block.overflow_kwh = row++;
      block.overflow_co2e_kg = row++;
    }
    block.tokens = row++;
    block.hours_scaled = row++;
    if (plan.tax_rate && option.after_tax) {
      block.has_tax = true;
      block.tax = row++;
      block.after_tax_total = row++;
      block.after_tax_discounted = row++;
    }
    ++row;
    write_block(sheet, formats, option, inputs, option_label(scenario, option.id), block, layout,
                names, site_intensity, scenario.plan_inputs.workload.availability,
                load_shape_of(scenario.plan_inputs.workload), overflow_billing_of(scenario, inputs),
                overflow_per_hour_of(scenario, inputs), plan.timeline.rent_factor);
    layout.blocks.push_back(block);
  }

  sheet.width(layout.label_col, layout.label_col, 38);
  // 15 characters: an amount up to 10^9 never shows ### (formats.money); wider where a sum is
  // larger (newcomer: 27 trillion tokens served over a fleet's horizon showed ###).
  const double width = number_column_width(plan);
  sheet.width(layout.sum_col, layout.sum_col, width);
  sheet.width(layout.first_month_col, layout.last_month_col, width);
  worksheet_freeze_panes(sheet.raw(), layout.month_row + 1, layout.first_month_col);
  check_xlsx(worksheet_repeat_columns(sheet.raw(), layout.label_col, layout.sum_col),
             "setting Cash flow print titles");
  set_print_layout(sheet);
  return layout;
}

void write_cash_flow_tax_rows(SheetWriter& sheet, const Formats& formats, const Plan& plan,
                              const InputNames& names, CashFlowLayout& layout,
                              const ProfitAndLossLayout& profit_and_loss) {
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  const std::string months_per_year = names.at(kConstantsSection, "months_per_year");
  const std::string horizon = names.at("scenario", "horizon_months");
  for (size_t i = 0; i < plan.options.size() && i < layout.blocks.size(); ++i) {
    const OptionResult& option = plan.options[i];
    const OptionBlock& block = layout.blocks[i];
    if (!block.has_tax || !option.after_tax || i >= profit_and_loss.tax_rows.size()) continue;
    const AfterTax& a = *option.after_tax;
    sheet.text(block.tax, layout.label_col, "Tax: saved (-), paid (+), in the year's last month");
    sheet.text(block.after_tax_total, layout.label_col, "After-tax total (sum: after-tax total)",
               formats.bold);
    sheet.text(block.after_tax_discounted, layout.label_col,
               "After-tax discounted (sum: after-tax NPV)", formats.bold);
    const lxw_row_t tax_row = profit_and_loss.tax_rows[i];
    const std::string years =
        sheet_range_ref(kProfitAndLossSheet, tax_row, profit_and_loss.first_year_col, tax_row,
                        profit_and_loss.last_year_col);
    for (lxw_col_t col = first; col <= last; ++col) {
      const auto m = static_cast<size_t>(col - first);
      const std::string month = cell_ref(layout.month_row, col, true);
      const auto value = [&](const std::vector<double>& row) {
        return m < row.size() ? row[m] : 0.0;
      };
      sheet.formula(block.tax, col,
                    "=IF(AND(" + month + ">0," + month + "<=" + horizon + ",OR(MOD(" + month + "," +
                        months_per_year + ")=0," + month + "=" + horizon + ")),INDEX(" + years +
                        ",1," + cell_ref(layout.year_row, col, true) + "),0)",
                    value(a.tax), formats.money);
      sheet.formula(block.after_tax_total, col,
                    "=" + cell_ref(block.total, col) + "+" + cell_ref(block.tax, col),
                    value(a.total), formats.money_bold);
      sheet.formula(block.after_tax_discounted, col,
                    "=" + cell_ref(block.after_tax_total, col) + "*" +
                        cell_ref(layout.discount_row, col, true),
                    value(a.discounted), formats.money);
    }
    const auto row_sum = [&](lxw_row_t row) {
      return "=SUM(" + cell_ref(row, first) + ":" + cell_ref(row, last) + ")";
    };
    double tax_total = 0;
    for (double x : a.tax) tax_total += x;
    sheet.formula(block.tax, layout.sum_col, row_sum(block.tax), tax_total, formats.money);
    sheet.formula(block.after_tax_total, layout.sum_col, row_sum(block.after_tax_total),
                  a.total_cost, formats.money_bold);
    sheet.formula(block.after_tax_discounted, layout.sum_col, row_sum(block.after_tax_discounted),
                  a.npv, formats.money_bold);
  }
}

}  // namespace gputco::xlsx
