// The formulas of one option block on the Cash flow sheet (reports/xlsx/block_formulas.hpp):
// each restates engine option_cash_flow's expression for its row (engine/money/cash_flow.cpp).
#include "reports/xlsx/block_formulas.hpp"

#include <fmt/format.h>

namespace gputco::xlsx {

std::string BlockFormulas::at(CashFlowRow row, lxw_col_t col) const {
  col_ = col;
  switch (row) {
    case CashFlowRow::load:
      return load();
    case CashFlowRow::units:
      return units();
    case CashFlowRow::overflow_load:
      return owned() && inputs_.overflow == Overflow::rent && !shape_bites()
                 ? "=" + flag(layout_.is_running_row) + "*MAX(0," + here(block_.load) + "-" +
                       here(block_.units) + ")"
                 : "";
    case CashFlowRow::capex:
      return owned() && inputs_.financing != Financing::lease
                 // Within the horizon only (the start and the running months): the units
                 // row grows on past a horizon edited shorter, and buys nothing there.
                 ? "=(" + flag(layout_.is_start_row) + "+" + flag(layout_.is_running_row) + ")*" +
                       unit_capex() + "*(" + here(block_.units) + "-IF(" +
                       flag(layout_.is_start_row) + "=1,0," + previous(block_.units) + "))"
                 : "";
    case CashFlowRow::energy:
      return owned() && !shape_bites() ? energy() : "";
    case CashFlowRow::maintenance:
      return owned() ? "=" + flag(layout_.is_running_row) + "*" + here(block_.units) + "*" +
                           unit_capex() + "*" + in("maintenance_per_year") + "/" +
                           constant("months_per_year")
                     : "";
    case CashFlowRow::hosting:
      return owned() && inputs_.hosting == Hosting::colocation
                 ? "=" + flag(layout_.is_running_row) + "*" + here(block_.units) + "*(" +
                       in("colo_per_kw_month") + "*" + in("contracted_kw") + "+" +
                       in("colo_per_rack_unit_month") + "*" + in("rack_units") + ")"
                 : "";
    case CashFlowRow::colo_extras:
      return owned() && inputs_.hosting == Hosting::colocation
                 ? "=" + flag(layout_.is_running_row) + "*" + here(block_.units) + "*" +
                       in("colo_extras_per_month")
                 : "";
    case CashFlowRow::licences:
      return recurring("licence");
    case CashFlowRow::support:
      return recurring("support");
    case CashFlowRow::staff:
      // Hours x rate + share of employees x yearly cost / 12 (engine staff_per_month).
      return "=" + flag(layout_.is_running_row) + "*(" + in("staff_hours_per_month") + "*" +
             in("staff_rate_per_hour") + "+" + in("staff_fte") + "*" + in("staff_salary_per_year") +
             "/" + constant("months_per_year") + ")";
    case CashFlowRow::insurance:
      return owned()
                 ? "=" + flag(layout_.is_running_row) + "*" + in("insurance_per_year") + "/" +
                       constant("months_per_year") + "*" + unit_capex() + "*" + here(block_.units)
                 : "";
    case CashFlowRow::interest:
      return owned() && inputs_.financing == Financing::loan ? interest() : "";
    case CashFlowRow::failures:
      return owned() ? "=" + flag(layout_.is_running_row) + "*IF(" + month() + ">" +
                           in("warranty_months") + ",1,0)*" + in("annual_failure_rate") + "/" +
                           constant("months_per_year") + "*" + in("count") + "*" +
                           in("price_per_gpu") + "*" + here(block_.units)
                     : "";
    case CashFlowRow::rent:
      return rent();
    case CashFlowRow::financing:
      return financing();
    case CashFlowRow::vat:
      return vat();
    case CashFlowRow::resale:
      return owned() ? "=-" + flag(layout_.is_end_row) + "*" + in("residual_fraction") + "*" +
                           whole_row(block_.capex)
                     : "";
    case CashFlowRow::depreciation:
      return owned() ? depreciation() : "";
    case CashFlowRow::book_value:
      return owned() ? "=SUM(" + from_start(block_.capex) + ")-SUM(" +
                           from_start(block_.depreciation) + ")"
                     : "";
  }
  return "";
}

bool BlockFormulas::reserved() const {
  return option_.kind == OptionKind::rent_hourly && term_months(inputs_.term) > 0;
}

bool BlockFormulas::adds_units() const {
  return (owned() && inputs_.overflow == Overflow::add_units) || reserved() ||
         option_.kind == OptionKind::rent_monthly;
}

std::string BlockFormulas::whole_row(lxw_row_t row) const {
  return "SUM(" + cell_ref(row, layout_.first_month_col, true, true) + ":" +
         cell_ref(row, layout_.last_month_col, true, true) + ")";
}

std::string BlockFormulas::from_start(lxw_row_t row) const {
  return cell_ref(row, layout_.first_month_col, true, true) + ":" + here(row);
}

std::string BlockFormulas::unit_capex() const {
  return "(" + in("count") + "*" + in("price_per_gpu") + "+" + in("host_cost") + ")";
}

std::string BlockFormulas::site_or_own(const char* key) const {
  return names_.has(option_.id, key) ? in(key) : global("site", key);
}

std::string BlockFormulas::energy_kwh(lxw_col_t col) const {
  col_ = col;
  const std::string running = flag(layout_.is_running_row);
  const std::string pue = names_.has(option_.id, "pue") ? in("pue") : global("site", "pue");
  std::string idle = "+" + here(block_.idle_kwh);
  if (block_.has_overflow_energy) idle += "+" + here(block_.overflow_kwh);
  if (option_.kind == OptionKind::rent_hourly && !reserved()) {
    return "=" + running + "*" + in("count") + "*" + in("board_power_w") + "/" +
           constant("watts_per_kw") + "*" + flag(layout_.hours_of_use_row) + "*" +
           here(block_.load) + "/" + in("goodput") + "*" + pue + idle;
  }
  if (shape_bites()) return "";
  std::string power = in("count") + "*" + in("board_power_w");
  if (owned()) power = "(" + power + "+" + in("host_power_w") + ")";
  return "=" + running + "*MIN(" + here(block_.load) + "," + here(block_.units) + ")*" + power +
         "/" + constant("watts_per_kw") + "*" + flag(layout_.hours_of_use_row) + "*" + pue + idle;
}

std::string BlockFormulas::idle_kwh(lxw_col_t col) const {
  col_ = col;
  if (!names_.has(option_.id, "idle_power_w") || shape_bites()) return "";
  const std::string pue = names_.has(option_.id, "pue") ? in("pue") : global("site", "pue");
  const std::string per_unit_hour =
      "*" + in("idle_power_w") + "/" + constant("watts_per_kw") + "*" + pue;
  if (option_.kind == OptionKind::rent_hourly && !reserved()) {
    if (!shape_.flat && inputs_.hourly_billing.billing == Billing::autoscaled) return "";
    return "=" + flag(layout_.is_running_row) + "*MAX(0," +
           billed_instance_hours(global("workload", "hours_per_day"),
                                 flag(layout_.hours_of_use_row)) +
           "-" + here(block_.load) + "*" + flag(layout_.hours_of_use_row) + ")/" + in("goodput") +
           per_unit_hour;
  }
  return "=" + flag(layout_.is_running_row) + "*" + idle_unit_hours() + per_unit_hour;
}

std::string BlockFormulas::idle_unit_hours() const {
  std::string powered_hours = flag(layout_.hours_in_month_row);
  if (owned()) {
    powered_hours = "(" + flag(layout_.hours_in_month_row) + "*(1-" + in("powered_off_when_idle") +
                    ")+" + flag(layout_.hours_of_use_row) + "*" + in("powered_off_when_idle") + ")";
  }
  return "MAX(0," + here(block_.units) + "*" + powered_hours + "-MIN(" + here(block_.load) + "," +
         here(block_.units) + ")*" + flag(layout_.hours_of_use_row) + ")";
}

std::string BlockFormulas::co2e_kg(lxw_col_t col) const {
  col_ = col;
  const std::string intensity = names_.has(option_.id, "grid_g_co2e_per_kwh")
                                    ? in("grid_g_co2e_per_kwh")
                                    : global("site", site_key_.c_str());
  if (block_.has_overflow_energy) {
    // A blend: the owned units' kWh at their intensity + the overflow rental's kg.
    return "=(" + here(block_.energy_kwh) + "-" + here(block_.overflow_kwh) + ")*" + intensity +
           "/" + constant("grams_per_kilogram") + "+" + here(block_.overflow_co2e_kg);
  }
  return "=" + here(block_.energy_kwh) + "*" + intensity + "/" + constant("grams_per_kilogram");
}

std::string BlockFormulas::overflow_kwh(lxw_col_t col) const {
  col_ = col;
  if (!shape_.flat && overflow_billing_.billing == Billing::autoscaled) return "";
  const std::string rental = inputs_.overflow_option_id;
  const auto of = [&](const char* key) { return names_.at(rental, key); };
  const std::string pue = names_.has(rental, "pue") ? of("pue") : global("site", "pue");
  const std::string busy_hours =
      here(block_.overflow_load) + "*" + overflow_ratio() + "*" + flag(layout_.hours_of_use_row);
  const std::string billed = overflow_billed_instance_hours(global("workload", "hours_per_day"),
                                                            flag(layout_.hours_of_use_row));
  return "=" + flag(layout_.is_running_row) + "*(" + busy_hours + "*" + of("count") + "*" +
         of("board_power_w") + "+MAX(0," + billed + "-" + busy_hours + ")*" + of("idle_power_w") +
         ")/" + of("goodput") + "/" + constant("watts_per_kw") + "*" + pue;
}

std::string BlockFormulas::overflow_co2e_kg(lxw_col_t col) const {
  col_ = col;
  const std::string rental = inputs_.overflow_option_id;
  if (!names_.has(rental, "grid_g_co2e_per_kwh")) return "";
  return "=" + here(block_.overflow_kwh) + "*" + names_.at(rental, "grid_g_co2e_per_kwh") + "/" +
         constant("grams_per_kilogram");
}

std::string BlockFormulas::tokens(lxw_col_t col) const {
  col_ = col;
  const std::string demand = global("workload", "tokens_per_day") + "*" + flag(layout_.growth_row) +
                             "*" + flag(layout_.days_of_use_row);
  if (option_.kind == OptionKind::api) return "=" + demand;
  const std::string served = "MIN(" + global("workload", "concurrent_streams") + "*" +
                             in("decode_tokens_per_s_per_stream") + "," +
                             in("aggregate_decode_tokens_per_s") + ")";
  return "=IF(" + global("workload", "demand_in_tokens") + "=1," + demand + "," + served + "*" +
         constant("seconds_per_hour") + "*" + global("workload", "hours_per_day") + "*" +
         flag(layout_.days_of_use_row) + "*" + flag(layout_.growth_row) + ")";
}

std::string BlockFormulas::hours_scaled(lxw_col_t col) const {
  col_ = col;
  const std::string vat_factor = "(1+(1-" + global("scenario", "vat_reclaimable") + ")*" +
                                 global("scenario", "vat_rate") + ")";
  // An uneven day (issue #21): the engine's 2 x (total - total at half the hours) is not
  // the rows' sum when the peak is capped at the hours (a peak factor above half of them):
  // its figures.
  if (!shape_.flat && option_.kind != OptionKind::api) return "";
  if (option_.kind == OptionKind::rent_hourly && !reserved()) {
    // The rent at h hours a day less the rent at h / 2, twice (engine hours_scaled_costs):
    // the whole rent when it is linear in the hours (always on for the hours of use).
    if (inputs_.hourly_billing.billing == Billing::always_on &&
        availability_ == Availability::hours_of_use) {
      return "=" + here(block_.rent) + "*" + vat_factor;
    }
    const std::string half_day = "(" + global("workload", "hours_per_day") + "/2)";
    const std::string half_use = "(" + flag(layout_.hours_of_use_row) + "/2)";
    return "=2*(" + here(block_.rent) + "-" + hourly_rent(half_day, half_use) + ")*" + vat_factor;
  }
  if (option_.kind == OptionKind::api) {
    return "=" + here(block_.rent) + "*" + vat_factor;
  }
  if (!owned()) return "";
  std::string idle_fixed = "0";
  if (names_.has(option_.id, "powered_off_when_idle") && names_.has(option_.id, "idle_power_w")) {
    idle_fixed = flag(layout_.is_running_row) + "*(1-" + in("powered_off_when_idle") + ")*" +
                 here(block_.units) + "*" + flag(layout_.hours_in_month_row) + "*" +
                 in("idle_power_w") + "/" + constant("watts_per_kw") + "*" +
                 site_or_own("tariff_per_kwh") + "*" + site_or_own("pue") + "*" +
                 flag(layout_.tariff_factor_row);
    if (inputs_.hosting == Hosting::colocation) {
      idle_fixed = "(" + idle_fixed + ")*" + in("power_metered");
    }
  }
  // The overflow rent scales with the hours only where it is linear in them (always on for
  // the hours of use); else, as for a rental, 2 x (the rent - the rent at h / 2).
  std::string rent = here(block_.rent);
  if (inputs_.overflow == Overflow::rent && (overflow_billing_.billing != Billing::always_on ||
                                             availability_ != Availability::hours_of_use)) {
    const std::string half_day = "(" + global("workload", "hours_per_day") + "/2)";
    const std::string half_use = "(" + flag(layout_.hours_of_use_row) + "/2)";
    rent = "2*(" + rent + "-" + overflow_rent(half_day, half_use) + ")";
  }
  return "=(" + here(block_.energy) + "-" + idle_fixed + "+" + rent + ")*" + vat_factor;
}

std::string BlockFormulas::load() const {
  // An api has no capacity of ours, so no load (engine base_load of an api option: 0).
  if (option_.kind == OptionKind::api) return "";
  const std::string capacity = in("capacity_tokens_per_hour");
  const std::string hours = global("workload", "hours_per_day");
  return "=IF(AND(" + global("workload", "demand_in_tokens") + "=1," + capacity + ">0),IF(" +
         hours + ">0," + global("workload", "tokens_per_day") + "/(" + capacity + "*" + hours +
         "),0),1)*" + flag(layout_.growth_row);
}

std::string BlockFormulas::hourly_rent(const std::string& hours_per_day,
                                       const std::string& hours_of_use) const {
  return flag(layout_.is_running_row) + "*" + in("rate_per_gpu_hour") + "*" + in("count") + "*" +
         billed_instance_hours(hours_per_day, hours_of_use) + "/" + in("goodput") + "*" +
         flag(layout_.rent_factor_row);
}

std::string BlockFormulas::billed_instance_hours(const std::string& hours_per_day,
                                                 const std::string& hours_of_use) const {
  const std::string availability = availability_ == Availability::around_the_clock
                                       ? flag(layout_.hours_in_month_row)
                                       : hours_of_use;
  std::string billed;
  if (inputs_.hourly_billing.billing == Billing::always_on) {
    billed = "(MAX(1,ROUNDUP(" + at_peak(here(block_.load)) + "-" + constant("load_tolerance") +
             ",0))*" + availability + ")";
  } else {
    const std::string periods = in("billing_periods_per_hour");
    const auto round_up = [&](const std::string& y) {
      const std::string p = "(" + y + ")*" + periods;
      return "(-INT(-(" + p + "-" + constant("load_tolerance") + "*MAX(1," + p + ")))/" + periods +
             ")";
    };
    // Whole instances hour by hour (engine billed_instance_hours): those above the minimum
    // run the hours of use.
    const std::string above = "MAX(0,ROUNDUP(" + here(block_.load) + "-" +
                              constant("load_tolerance") + ",0)-" + in("min_instances") + ")";
    billed = "(" + in("min_instances") + "*" + availability + "+" + flag(layout_.days_of_use_row) +
             "*" + above + "*" + round_up(hours_per_day) + ")";
  }
  return billed;
}

std::string BlockFormulas::overflow_rent(const std::string& hours_per_day,
                                         const std::string& hours_of_use) const {
  const auto of = [&](const char* key) { return names_.at(inputs_.overflow_option_id, key); };
  return flag(layout_.is_running_row) + "*" + of("rate_per_gpu_hour") + "*" + of("count") + "*" +
         overflow_billed_instance_hours(hours_per_day, hours_of_use) + "/" + of("goodput") + "*" +
         flag(layout_.rent_factor_row);
}

std::string BlockFormulas::overflow_billed_instance_hours(const std::string& hours_per_day,
                                                          const std::string& hours_of_use) const {
  const std::string rental = inputs_.overflow_option_id;
  const auto of = [&](const char* key) { return names_.at(rental, key); };
  const std::string ratio = overflow_ratio();
  const std::string availability = availability_ == Availability::around_the_clock
                                       ? flag(layout_.hours_in_month_row)
                                       : hours_of_use;
  const std::string tol = constant("load_tolerance");
  std::string billed;
  if (overflow_billing_.billing == Billing::always_on) {
    const std::string o =
        "MAX(0," + at_peak(here(block_.load)) + "-" + here(block_.units) + ")*" + ratio;
    billed = "(IF(" + o + ">" + tol + ",ROUNDUP(" + o + "-" + tol + ",0),0)*" + availability + ")";
  } else {
    const std::string periods = of("billing_periods_per_hour");
    const std::string minimum = of("min_instances");
    const auto round_up = [&](const std::string& y) {
      const std::string p = "(" + y + ")*" + periods;
      return "(-INT(-(" + p + "-" + tol + "*MAX(1," + p + ")))/" + periods + ")";
    };
    const std::string o = "(" + here(block_.overflow_load) + "*" + ratio + ")";
    const std::string above = "MAX(0,ROUNDUP(" + o + "-" + tol + ",0)-" + minimum + ")";
    billed = "IF(" + o + ">" + tol + "," + minimum + "*" + availability + "+" +
             flag(layout_.days_of_use_row) + "*" + above + "*" + round_up(hours_per_day) + ",0)";
  }
  return billed;
}

std::string BlockFormulas::overflow_ratio() const {
  const std::string own = in("capacity_tokens_per_hour");
  const std::string theirs = names_.at(inputs_.overflow_option_id, "capacity_tokens_per_hour");
  return "IF(AND(" + global("workload", "demand_in_tokens") + "=1," + own + ">0," + theirs +
         ">0)," + own + "/" + theirs + ",1)";
}

std::string BlockFormulas::units() const {
  if (!adds_units()) return "";
  return "=MAX(1,ROUNDUP(" + at_peak("MAX(" + from_start(block_.load) + ")") + "-" +
         constant("load_tolerance") + ",0))";
}

std::string BlockFormulas::energy() const {
  std::string f = "=" + flag(layout_.is_running_row) + "*MIN(" + here(block_.load) + "," +
                  here(block_.units) + ")*(" + in("count") + "*" + in("board_power_w") + "+" +
                  in("host_power_w") + ")/" + constant("watts_per_kw") + "*" +
                  flag(layout_.hours_of_use_row) + "*" + site_or_own("tariff_per_kwh") + "*" +
                  site_or_own("pue") + "*" + flag(layout_.tariff_factor_row);
  // Idle energy (issue #8, engine option_cash_flow): idle_power_w in the unit-hours powered
  // but not serving (idle_unit_hours), at the same tariff, PUE and trend.
  if (names_.has(option_.id, "powered_off_when_idle") && names_.has(option_.id, "idle_power_w")) {
    f += "+" + flag(layout_.is_running_row) + "*" + idle_unit_hours() + "*" + in("idle_power_w") +
         "/" + constant("watts_per_kw") + "*" + site_or_own("tariff_per_kwh") + "*" +
         site_or_own("pue") + "*" + flag(layout_.tariff_factor_row);
  }
  if (inputs_.hosting == Hosting::colocation) f = "=(" + f.substr(1) + ")*" + in("power_metered");
  return f;
}

std::string BlockFormulas::rent() const {
  const std::string running = flag(layout_.is_running_row);
  switch (option_.kind) {
    case OptionKind::buy:
      if (inputs_.overflow != Overflow::rent) return "";
      // Autoscaled over an uneven day: billed stretch by stretch (engine); its hours.
      if (!shape_.flat && overflow_billing_.billing == Billing::autoscaled) {
        return engine_hours_rent(inputs_.overflow_option_id);
      }
      return "=" +
             overflow_rent(global("workload", "hours_per_day"), flag(layout_.hours_of_use_row));
    case OptionKind::rent_hourly:
      if (reserved()) {
        const std::string per_unit_hour =
            in("rate_per_gpu_hour") + "*" + in("count") + "*" + here(block_.units);
        return "=" + running + "*" + per_unit_hour + "*" + flag(layout_.hours_in_month_row) + "+" +
               flag(layout_.is_end_row) + "*(ROUNDUP(" + horizon() + "/" + in("term_months") +
               ",0)*" + in("term_months") + "-" + horizon() + ")*" + per_unit_hour + "*" +
               global("workload", "hours_per_month");
      }
      // Autoscaled over an uneven day: billed stretch by stretch (engine); its hours.
      if (!shape_.flat && inputs_.hourly_billing.billing == Billing::autoscaled) {
        return engine_hours_rent(option_.id);
      }
      return "=" + hourly_rent(global("workload", "hours_per_day"), flag(layout_.hours_of_use_row));
    case OptionKind::api: {
      // Per-token fees: days of use x growth x (output tokens x input per output x input
      // price + output tokens x output price) / tokens per million x API price trend.
      const std::string tokens = global("workload", "tokens_per_day");
      return "=" + flag(layout_.days_of_use_row) + "*" + flag(layout_.growth_row) + "*(" + tokens +
             "*" + global("workload", "input_tokens_per_output_token") + "*" +
             in("input_price_per_million") + "+" + tokens + "*" + in("output_price_per_million") +
             ")/" + constant("tokens_per_million") + "*" + flag(layout_.api_factor_row);
    }
    case OptionKind::rent_monthly:
      return "=" + flag(layout_.is_start_row) + "*" + in("setup_fee") + "*" + here(block_.units) +
             "+" + running + "*(" + in("price_per_month") + "*" + here(block_.units) + "+" +
             in("setup_fee") + "*(" + here(block_.units) + "-" + previous(block_.units) + "))+" +
             flag(layout_.is_end_row) + "*" + in("notice_months") + "*" + in("price_per_month") +
             "*" + here(block_.units);
  }
  return "";
}

std::string BlockFormulas::financing() const {
  if (!owned()) return "";
  const std::string running = flag(layout_.is_running_row);
  const std::string end = flag(layout_.is_end_row);
  if (inputs_.financing == Financing::loan) {
    return "=-" + flag(layout_.is_start_row) + "*" + loan_principal() + "+" + running + "*IF(" +
           month() + "<=" + in("loan_term_months") + "," + loan_payment() + ",0)+" + end + "*IF(" +
           in("loan_term_months") + ">" + horizon() + "," + loan_balance(horizon()) + ",0)";
  }
  if (inputs_.financing == Financing::lease) {
    const std::string fee =
        in("lease_rate_per_month") + "*" + unit_capex() + "*" + here(block_.units);
    const std::string term = in("lease_term_months");
    return "=" + running + "*" + fee + "+" + end + "*IF(" + term + ">" + horizon() + ",(" + term +
           "-" + horizon() + ")*" + fee + ",0)";
  }
  return "";
}

std::string BlockFormulas::recurring(const std::string& line) const {
  const auto key = [&](const char* suffix) { return names_.at(option_.id, line + suffix); };
  std::string f = "=" + flag(layout_.is_running_row) + "*(" + key("_per_month") + "+" +
                  key("_per_year") + "/" + constant("months_per_year");
  if (option_.kind != OptionKind::api) {
    const std::string units = option_.kind == OptionKind::rent_hourly && !reserved()
                                  ? "MAX(1,ROUNDUP(" + at_peak(here(block_.load)) + "-" +
                                        constant("load_tolerance") + ",0))"
                                  : here(block_.units);
    f += "+" + key("_per_gpu_per_year") + "*" + in("count") + "*" + units + "/" +
         constant("months_per_year");
  }
  return f + ")";
}

std::string BlockFormulas::interest() const {
  return "=" + flag(layout_.is_running_row) + "*IF(" + month() + "<=" + in("loan_term_months") +
         "," + loan_balance(month() + "-1") + "*" + loan_rate() + ",0)";
}

std::string BlockFormulas::loan_principal() const {
  return "(" + cell_ref(block_.capex, layout_.first_month_col, true, true) + "*(1-" +
         in("down_payment") + "))";
}

std::string BlockFormulas::loan_rate() const {
  return "(" + in("loan_rate") + "/" + constant("months_per_year") + ")";
}

std::string BlockFormulas::negligible_loan_rate() const {
  return "ABS(" + loan_rate() + ")<" + constant("negligible_rate_per_period");
}

std::string BlockFormulas::loan_payment() const {
  return "IF(" + negligible_loan_rate() + "," + loan_principal() + "/" + in("loan_term_months") +
         ",PMT(" + loan_rate() + "," + in("loan_term_months") + ",-" + loan_principal() + "))";
}

std::string BlockFormulas::loan_balance(const std::string& paid) const {
  return "IF(" + negligible_loan_rate() + "," + loan_principal() + "-(" + paid + ")*" +
         loan_payment() + ",-FV(" + loan_rate() + "," + paid + ",-" + loan_payment() + "," +
         loan_principal() + "))";
}

std::string BlockFormulas::vat() const {
  std::string base = "SUM(" + here(block_.capex) + ":" + here(block_.rent) + ")";
  if (owned() && inputs_.financing == Financing::lease) base += "+" + here(block_.financing);
  return "=(1-" + global("scenario", "vat_reclaimable") + ")*" + global("scenario", "vat_rate") +
         "*(" + base + ")";
}

std::string BlockFormulas::depreciation() const {
  const std::string capex = cell_ref(block_.capex, layout_.first_month_col, true, true) + ":" +
                            cell_ref(block_.capex, layout_.last_month_col, true, true);
  const std::string months = cell_ref(layout_.month_row, layout_.first_month_col, true, true) +
                             ":" + cell_ref(layout_.month_row, layout_.last_month_col, true, true);
  const std::string life = global("scenario", "useful_life_months");
  return "=" + flag(layout_.is_running_row) + "*SUMIFS(" + capex + "," + months + ",\">=\"&(" +
         month() + "-" + life + ")," + months + ",\"<\"&" + month() + ")/" + life;
}

std::string BlockFormulas::at_peak(const std::string& load) const {
  return shape_.flat ? load : "(" + load + ")*" + global("workload", "peak_multiplier");
}

std::string BlockFormulas::engine_hours_rent(const std::string& id) const {
  const auto m = static_cast<size_t>(col_ - layout_.first_month_col);
  if (m >= engine_billed_hours_.size()) return "";
  return "=" + flag(layout_.is_running_row) + "*" + names_.at(id, "rate_per_gpu_hour") + "*" +
         names_.at(id, "count") + "*" + fmt::format("{:.17g}", engine_billed_hours_[m]) + "/" +
         names_.at(id, "goodput") + "*" + flag(layout_.rent_factor_row);
}

}  // namespace gputco::xlsx
