// The Cash flow sheet: one timeline of months 0..horizon, one block of rows per option.
// Every row is ONE formula copied across the months (flag and factor rows of the timeline
// switch its terms on and off), reading the named cells of the Inputs sheet; the engine's
// figure is each cell's cached result, so the file opens right even where nothing
// recalculates. The formulas restate engine/plan.hpp (option_cash_flow) term by term.
#include "engine/capacity.hpp"
#include "engine/units.hpp"
#include "reports/xlsx_cash_flow_rows.hpp"
#include "reports/xlsx_report.hpp"
#include "reports/xlsx_sheets.hpp"

namespace gputco::xlsx {
namespace {

/// Builds the formulas of one option at one month column. An empty formula means the row
/// does not apply to the option: the engine's value (zero, or a constant unit count) is
/// written as a plain number.
class BlockFormulas {
 public:
  BlockFormulas(const OptionResult& option, const OptionInputs* inputs, const OptionBlock& block,
                const CashFlowLayout& layout, const InputNames& names)
      : option_(option),
        inputs_(inputs != nullptr ? *inputs : none_),
        block_(block),
        layout_(layout),
        names_(names) {}

  std::string at(CashFlowRow row, lxw_col_t col) const {
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
                   ? "=" + unit_capex() + "*(" + here(block_.units) + "-IF(" +
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
               in("staff_rate_per_hour") + "+" + in("staff_fte") + "*" +
               in("staff_salary_per_year") + "/" + constant("months_per_year") + ")";
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

 private:
  bool owned() const { return option_.kind == OptionKind::buy; }
  bool reserved() const {
    return option_.kind == OptionKind::rent_hourly && term_months(inputs_.term) > 0;
  }
  bool adds_units() const {
    return (owned() && inputs_.overflow == Overflow::add_units) || reserved() ||
           option_.kind == OptionKind::rent_monthly;
  }

  std::string in(const char* key) const { return names_.at(option_.id, key); }
  std::string global(const char* section, const char* key) const { return names_.at(section, key); }
  std::string constant(const char* key) const { return names_.at(kConstantsSection, key); }
  std::string here(lxw_row_t row) const { return cell_ref(row, col_); }
  std::string previous(lxw_row_t row) const { return cell_ref(row, col_ - 1); }
  std::string flag(lxw_row_t row) const { return cell_ref(row, col_, true); }
  std::string month() const { return flag(layout_.month_row); }
  std::string horizon() const { return global("scenario", "horizon_months"); }
  std::string whole_row(lxw_row_t row) const {
    return "SUM(" + cell_ref(row, layout_.first_month_col, true, true) + ":" +
           cell_ref(row, layout_.last_month_col, true, true) + ")";
  }
  std::string from_start(lxw_row_t row) const {
    return cell_ref(row, layout_.first_month_col, true, true) + ":" + here(row);
  }
  std::string unit_capex() const {
    return "(" + in("count") + "*" + in("price_per_gpu") + "+" + in("host_cost") + ")";
  }
  /// This option's PUE or tariff when it has its own (colocation), else the site's.
  std::string site_or_own(const char* key) const {
    return names_.has(option_.id, key) ? in(key) : global("site", key);
  }

  // Physical rows, written apart from the money rows (write_physical_rows).
 public:
  /// Physical rows (issue #8, engine option_cash_flow): kWh at the wall of the hours at
  /// load, PUE_o = the option's PUE, else the site's (owned); rentals' own PUE input (the
  /// data-centre default when not stated). The idle part is its own row, added here.
  std::string energy_kwh(lxw_col_t col) const {
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

  /// Idle kWh (engine energy_rows): the unit-hours powered but not serving, x idle_power_w /
  /// 1000 x PUE_o. Powered: all month (units x hours in the month) for a unit that stays on,
  /// the hours of use (units x hours of use) for an owned one switched off outside them; the
  /// served unit-hours are min(load, units) x hours of use. On demand and spot: the billed
  /// instance-hours (hourly_rent's) less load x hours of use, / goodput. "" where the engine's
  /// figures stand in (an uneven day).
  std::string idle_kwh(lxw_col_t col) const {
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

  /// The unit-hours powered but not serving in the month: MAX(0, units x powered hours -
  /// MIN(load, units) x hours of use); powered all month (hours in the month) for a unit
  /// that stays on, through the hours of use for an owned one switched off outside them
  /// (powered_off_when_idle = 1).
  std::string idle_unit_hours() const {
    std::string powered_hours = flag(layout_.hours_in_month_row);
    if (owned()) {
      powered_hours = "(" + flag(layout_.hours_in_month_row) + "*(1-" +
                      in("powered_off_when_idle") + ")+" + flag(layout_.hours_of_use_row) + "*" +
                      in("powered_off_when_idle") + ")";
    }
    return "MAX(0," + here(block_.units) + "*" + powered_hours + "-MIN(" + here(block_.load) + "," +
           here(block_.units) + ")*" + flag(layout_.hours_of_use_row) + ")";
  }

  /// kg CO2e = kWh x g CO2e/kWh / grams per kg: the option's intensity, else the site's
  /// (owned options).
  std::string co2e_kg(lxw_col_t col) const {
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

  /// A blend's overflow kWh (engine energy_rows), as the rental's own energy row computes it:
  /// busy, overflow load x r (rental instances per unit of this option's load, as
  /// overflow_rent) x hours of use / its goodput x its count x board power / 1000 x its PUE;
  /// idle, MAX(0, the instance-hours billed - overflow load x r x hours of use) / its goodput
  /// x its idle_power_w / 1000 x its PUE. "" where the rent is the engine's figure (an
  /// autoscaled overflow over an uneven day): the engine's kWh stand in.
  std::string overflow_kwh(lxw_col_t col) const {
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

  /// A blend's overflow kg CO2e: its kWh x the rental's intensity / grams per kg; "" when the
  /// Inputs sheet has no intensity for the rental (unknown).
  std::string overflow_co2e_kg(lxw_col_t col) const {
    col_ = col;
    const std::string rental = inputs_.overflow_option_id;
    if (!names_.has(rental, "grid_g_co2e_per_kwh")) return "";
    return "=" + here(block_.overflow_kwh) + "*" + names_.at(rental, "grid_g_co2e_per_kwh") + "/" +
           constant("grams_per_kilogram");
  }

  /// The site's intensity key on the Inputs sheet (see site_intensity_key).
  void set_site_intensity_key(std::string key) { site_key_ = std::move(key); }
  /// The workload's hours of availability (an hourly rental's billed hours).
  void set_availability(Availability availability) { availability_ = availability; }
  /// The day of use (engine load_shape_of): units and always-on instances are sized for the
  /// load x Inputs' peak_multiplier when it is not flat.
  void set_shape(const DailyLoadShape& shape) { shape_ = shape; }
  /// How the overflow rental bills (its own hourly_billing, read from the rental's inputs:
  /// the owned option's copy is only as fresh as prepare_plan_inputs left it).
  void set_overflow_billing(const HourlyBilling& billing) { overflow_billing_ = billing; }

  /// Output tokens served in the month (engine OptionResult::tokens_served): tokens_per_day x
  /// growth factor x days of use with a demand in tokens, else MIN(concurrent_streams x the
  /// decode tokens/s per stream, the unit's aggregate decode tokens/s) (engine
  /// demand_streams_tokens_per_s) x 3600 x hours_per_day x days of use x growth factor (an api
  /// always has the demand).
  std::string tokens(lxw_col_t col) const {
    col_ = col;
    const std::string demand = global("workload", "tokens_per_day") + "*" +
                               flag(layout_.growth_row) + "*" + flag(layout_.days_of_use_row);
    if (option_.kind == OptionKind::api) return "=" + demand;
    const std::string served = "MIN(" + global("workload", "concurrent_streams") + "*" +
                               in("decode_tokens_per_s_per_stream") + "," +
                               in("aggregate_decode_tokens_per_s") + ")";
    return "=IF(" + global("workload", "demand_in_tokens") + "=1," + demand + "," + served + "*" +
           constant("seconds_per_hour") + "*" + global("workload", "hours_per_day") + "*" +
           flag(layout_.days_of_use_row) + "*" + flag(layout_.growth_row) + ")";
  }

  /// The part of the month's total that scales with the hours of use (engine
  /// OptionResult::hours_scaled_cost): owned, the energy less the idle draw of every unit-hour
  /// of the month (what an hour of use replaces stays in, as a negative part of the energy) plus
  /// the overflow rent; hourly rentals billed by use and APIs, their rent; with VAT on either.
  /// "" when nothing scales (reserved terms, monthly servers): the engine's zeros.
  std::string hours_scaled(lxw_col_t col) const {
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

 private:
  std::string load() const {
    // An api has no capacity of ours, so no load (engine base_load of an api option: 0).
    if (option_.kind == OptionKind::api) return "";
    const std::string capacity = in("capacity_tokens_per_hour");
    const std::string hours = global("workload", "hours_per_day");
    return "=IF(AND(" + global("workload", "demand_in_tokens") + "=1," + capacity + ">0),IF(" +
           hours + ">0," + global("workload", "tokens_per_day") + "/(" + capacity + "*" + hours +
           "),0),1)*" + flag(layout_.growth_row);
  }

  /// The rent of an on-demand or spot rental in a month (engine option_cash_flow,
  /// billed_instance_hours) at `hours_per_day` hours of use a day and `hours_of_use` in the
  /// month (formulas), without the leading "=": rate x count x billed instance-hours / goodput
  /// x rent trend. Always on: max(1, ceil(load - tol)) x availability hours. Autoscaled:
  /// min_instances x availability + days of use x (INT(X) x RU(h) + RU(frac(X) x h)), X =
  /// max(0, load - min_instances), RU(y) = -INT(-(p - tol x MAX(1, p))) / periods per hour,
  /// p = y x periods per hour (a ceiling that leaves a relative rounding residue out).
  std::string hourly_rent(const std::string& hours_per_day, const std::string& hours_of_use) const {
    return flag(layout_.is_running_row) + "*" + in("rate_per_gpu_hour") + "*" + in("count") + "*" +
           billed_instance_hours(hours_per_day, hours_of_use) + "/" + in("goodput") + "*" +
           flag(layout_.rent_factor_row);
  }

  /// The instance-hours an hourly rental bills in a month (engine billed_instance_hours,
  /// before goodput and trend) at `hours_per_day` and `hours_of_use` (formulas), as a
  /// parenthesised formula without "=". Always on: MAX(1, ROUNDUP(load at the peak - tol)) x
  /// availability hours; autoscaled: min_instances x availability + days of use x (INT(X) x
  /// RU(h) + RU(frac(X) x h)), X = max(0, load - min_instances), RU rounded up to the billing
  /// period.
  std::string billed_instance_hours(const std::string& hours_per_day,
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
        return "(-INT(-(" + p + "-" + constant("load_tolerance") + "*MAX(1," + p + ")))/" +
               periods + ")";
      };
      const std::string x = "MAX(0," + here(block_.load) + "-" + in("min_instances") + ")";
      billed = "(" + in("min_instances") + "*" + availability + "+" +
               flag(layout_.days_of_use_row) + "*(INT(" + x + ")*" + round_up(hours_per_day) + "+" +
               round_up("(" + x + "-INT(" + x + "))*" + hours_per_day) + "))";
    }
    return billed;
  }

  /// The rent of an owned option's overflow in a month (engine option_cash_flow,
  /// billed_overflow_instance_hours) at `hours_per_day` hours of use a day and `hours_of_use`
  /// in the month (formulas), without the leading "=": rate x count x billed instance-hours /
  /// goodput x rent trend, the overflow rental's inputs, with o = max(0, load at the peak -
  /// units) x r instances left over at the peak, r = this option's capacity / the rental's
  /// (1 without a demand in tokens). Always on: IF(o > tol, ROUNDUP(o - tol), 0) x
  /// availability hours. Autoscaled (a flat day: o = overflow load x r): IF(o > tol,
  /// min_instances x availability + days of use x (INT(X) x RU(h) + RU(frac(X) x h)), 0), X =
  /// max(0, o - min_instances), RU as in hourly_rent.
  std::string overflow_rent(const std::string& hours_per_day,
                            const std::string& hours_of_use) const {
    const auto of = [&](const char* key) { return names_.at(inputs_.overflow_option_id, key); };
    return flag(layout_.is_running_row) + "*" + of("rate_per_gpu_hour") + "*" + of("count") + "*" +
           overflow_billed_instance_hours(hours_per_day, hours_of_use) + "/" + of("goodput") + "*" +
           flag(layout_.rent_factor_row);
  }

  /// The instance-hours the overflow rental bills in a month (engine
  /// billed_overflow_instance_hours, before goodput and trend), as in overflow_rent, without
  /// "=".
  std::string overflow_billed_instance_hours(const std::string& hours_per_day,
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
      billed =
          "(IF(" + o + ">" + tol + ",ROUNDUP(" + o + "-" + tol + ",0),0)*" + availability + ")";
    } else {
      const std::string periods = of("billing_periods_per_hour");
      const std::string minimum = of("min_instances");
      const auto round_up = [&](const std::string& y) {
        const std::string p = "(" + y + ")*" + periods;
        return "(-INT(-(" + p + "-" + tol + "*MAX(1," + p + ")))/" + periods + ")";
      };
      const std::string o = "(" + here(block_.overflow_load) + "*" + ratio + ")";
      const std::string x = "MAX(0," + o + "-" + minimum + ")";
      billed = "IF(" + o + ">" + tol + "," + minimum + "*" + availability + "+" +
               flag(layout_.days_of_use_row) + "*(INT(" + x + ")*" + round_up(hours_per_day) + "+" +
               round_up("(" + x + "-INT(" + x + "))*" + hours_per_day) + "),0)";
    }
    return billed;
  }

  /// Rental instances per unit of this option's load: this option's capacity / the overflow
  /// rental's (1 without a demand in tokens), engine overflow_units_per_load.
  std::string overflow_ratio() const {
    const std::string own = in("capacity_tokens_per_hour");
    const std::string theirs = names_.at(inputs_.overflow_option_id, "capacity_tokens_per_hour");
    return "IF(AND(" + global("workload", "demand_in_tokens") + "=1," + own + ">0," + theirs +
           ">0)," + own + "/" + theirs + ",1)";
  }

  std::string units() const {
    if (!adds_units()) return "";
    return "=MAX(1,ROUNDUP(" + at_peak("MAX(" + from_start(block_.load) + ")") + "-" +
           constant("load_tolerance") + ",0))";
  }

  std::string energy() const {
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

  std::string rent() const {
    const std::string running = flag(layout_.is_running_row);
    switch (option_.kind) {
      case OptionKind::buy:
        if (inputs_.overflow != Overflow::rent) return "";
        // Autoscaled over an uneven day: billed stretch by stretch (engine); its figures.
        if (!shape_.flat && overflow_billing_.billing == Billing::autoscaled) return "";
        return "=" +
               overflow_rent(global("workload", "hours_per_day"), flag(layout_.hours_of_use_row));
      case OptionKind::rent_hourly:
        if (reserved()) {
          const std::string per_unit_hour =
              in("rate_per_gpu_hour") + "*" + in("count") + "*" + here(block_.units);
          return "=" + running + "*" + per_unit_hour + "*" + flag(layout_.hours_in_month_row) +
                 "+" + flag(layout_.is_end_row) + "*(ROUNDUP(" + horizon() + "/" +
                 in("term_months") + ",0)*" + in("term_months") + "-" + horizon() + ")*" +
                 per_unit_hour + "*" + global("workload", "hours_per_month");
        }
        // Autoscaled over an uneven day: billed stretch by stretch (engine); its figures.
        if (!shape_.flat && inputs_.hourly_billing.billing == Billing::autoscaled) return "";
        return "=" +
               hourly_rent(global("workload", "hours_per_day"), flag(layout_.hours_of_use_row));
      case OptionKind::api: {
        // Per-token fees: days of use x growth x (output tokens x input per output x input
        // price + output tokens x output price) / tokens per million x API price trend.
        const std::string tokens = global("workload", "tokens_per_day");
        return "=" + flag(layout_.days_of_use_row) + "*" + flag(layout_.growth_row) + "*(" +
               tokens + "*" + global("workload", "input_tokens_per_output_token") + "*" +
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

  std::string financing() const {
    if (!owned()) return "";
    const std::string running = flag(layout_.is_running_row);
    const std::string end = flag(layout_.is_end_row);
    if (inputs_.financing == Financing::loan) {
      return "=-" + flag(layout_.is_start_row) + "*" + loan_principal() + "+" + running + "*IF(" +
             month() + "<=" + in("loan_term_months") + "," + loan_payment() + ",0)+" + end +
             "*IF(" + in("loan_term_months") + ">" + horizon() + "," + loan_balance(horizon()) +
             ",0)";
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

  /// Licences or support (engine licences_per_month): per month + per year / 12 + per device
  /// a year x devices in service / 12; devices = count x units, or for an hourly rental by use
  /// count x the instances at its load (at least one); an api has no per-device term.
  std::string recurring(const std::string& line) const {
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

  /// The interest part of a loan's instalment (engine: the balance after the previous
  /// instalment x the monthly rate): -FV(r, month - 1, -PMT, P) x r within the term.
  std::string interest() const {
    return "=" + flag(layout_.is_running_row) + "*IF(" + month() + "<=" + in("loan_term_months") +
           "," + loan_balance(month() + "-1") + "*" + loan_rate() + ",0)";
  }

  // The loan's annuity (engine: annuity_payment, annuity_balance). A rate that 1 + r rounds
  // away is 0 % (engine: kNegligibleRatePerPeriod): PMT and FV would divide by it.
  std::string loan_principal() const {
    return "(" + cell_ref(block_.capex, layout_.first_month_col, true, true) + "*(1-" +
           in("down_payment") + "))";
  }
  std::string loan_rate() const {
    return "(" + in("loan_rate") + "/" + constant("months_per_year") + ")";
  }
  std::string negligible_loan_rate() const {
    return "ABS(" + loan_rate() + ")<" + constant("negligible_rate_per_period");
  }
  /// The instalment: PMT(r, term, -P), or P / term at a negligible rate.
  std::string loan_payment() const {
    return "IF(" + negligible_loan_rate() + "," + loan_principal() + "/" + in("loan_term_months") +
           ",PMT(" + loan_rate() + "," + in("loan_term_months") + ",-" + loan_principal() + "))";
  }
  /// What is owed after `paid` instalments: -FV(r, paid, -PMT, P), or P - paid x PMT.
  std::string loan_balance(const std::string& paid) const {
    return "IF(" + negligible_loan_rate() + "," + loan_principal() + "-(" + paid + ")*" +
           loan_payment() + ",-FV(" + loan_rate() + "," + paid + ",-" + loan_payment() + "," +
           loan_principal() + "))";
  }

  std::string vat() const {
    std::string base = "SUM(" + here(block_.capex) + ":" + here(block_.rent) + ")";
    if (owned() && inputs_.financing == Financing::lease) base += "+" + here(block_.financing);
    return "=(1-" + global("scenario", "vat_reclaimable") + ")*" + global("scenario", "vat_rate") +
           "*(" + base + ")";
  }

  std::string depreciation() const {
    const std::string capex = cell_ref(block_.capex, layout_.first_month_col, true, true) + ":" +
                              cell_ref(block_.capex, layout_.last_month_col, true, true);
    const std::string months = cell_ref(layout_.month_row, layout_.first_month_col, true, true) +
                               ":" +
                               cell_ref(layout_.month_row, layout_.last_month_col, true, true);
    const std::string life = global("scenario", "useful_life_months");
    return "=" + flag(layout_.is_running_row) + "*SUMIFS(" + capex + "," + months + ",\">=\"&(" +
           month() + "-" + life + ")," + months + ",\"<\"&" + month() + ")/" + life;
  }

  static inline const OptionInputs none_{};
  const OptionResult& option_;
  const OptionInputs& inputs_;
  const OptionBlock& block_;
  const CashFlowLayout& layout_;
  const InputNames& names_;
  std::string site_key_ = "grid_g_co2e_per_kwh";
  Availability availability_ = Availability::hours_of_use;
  DailyLoadShape shape_;
  HourlyBilling overflow_billing_;

  /// `load` at the peak hour: x Inputs' peak_multiplier when the day is not flat.
  std::string at_peak(const std::string& load) const {
    return shape_.flat ? load : "(" + load + ")*" + global("workload", "peak_multiplier");
  }
  /// Whether the hours' shape changes what owned units serve: not flat, and units that do not
  /// follow the peak (overflow rented). Those rows hold the engine's figures (hour by hour
  /// over the profile), not a formula.
  bool shape_bites() const { return !shape_.flat && owned() && !adds_units(); }
  mutable lxw_col_t col_ = 0;
};

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
    sheet.formula(block.tokens, col, formulas.tokens(col), at(option.tokens_served, m),
                  formats.integer);
    const std::string scaled = formulas.hours_scaled(col);
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

void write_block(SheetWriter& sheet, const Formats& formats, const OptionResult& option,
                 const OptionInputs* inputs, const std::string& label, OptionBlock& block,
                 const CashFlowLayout& layout, const InputNames& names,
                 const std::string& site_intensity, Availability availability,
                 const DailyLoadShape& shape, const HourlyBilling& overflow_billing) {
  const CashFlow& cf = option.cash_flow;
  sheet.text(block.title, layout.label_col, label, formats.subtitle);
  std::string description = kind_label(option.kind, inputs) + ", " + devices_label(inputs);
  if (!option.feasible) description += " (the model does not fit)";
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
  const lxw_col_t first = layout.first_month_col;
  const lxw_col_t last = layout.last_month_col;
  for (lxw_col_t col = first; col <= last; ++col) {
    const auto m = static_cast<size_t>(col - first);
    for (CashFlowRow row : kCashFlowRows) {
      const std::string formula = formulas.at(row, col);
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
    ++row;
    write_block(sheet, formats, option, inputs, option_label(scenario, option.id), block, layout,
                names, site_intensity, scenario.plan_inputs.workload.availability,
                load_shape_of(scenario.plan_inputs.workload),
                overflow_billing_of(scenario, inputs));
    layout.blocks.push_back(block);
  }

  sheet.width(layout.label_col, layout.label_col, 38);
  sheet.width(layout.sum_col, layout.sum_col, 15);
  // 15 characters: an amount up to 10^9 never shows ### (formats.money).
  sheet.width(layout.first_month_col, layout.last_month_col, 15);
  worksheet_freeze_panes(sheet.raw(), layout.month_row + 1, layout.first_month_col);
  check_xlsx(worksheet_repeat_columns(sheet.raw(), layout.label_col, layout.sum_col),
             "setting Cash flow print titles");
  set_print_layout(sheet);
  return layout;
}

}  // namespace gputco::xlsx
