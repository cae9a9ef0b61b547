// Internal to the xlsx report: the formulas of one option block on the Cash flow sheet, one
// month column at a time (BlockFormulas). Every formula restates engine option_cash_flow's
// expression for the same row (engine/money/cash_flow.cpp) and reads the Inputs sheet's named
// cells. Not part of the public API; xlsx_cash_flow.cpp writes the sheet with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/base/units.hpp"
#include "engine/fleet/capacity.hpp"
#include "reports/xlsx/cash_flow_rows.hpp"
#include "reports/xlsx/report.hpp"
#include "reports/xlsx/sheets.hpp"

namespace gputco::xlsx {

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

  std::string at(CashFlowRow row, lxw_col_t col) const;

 private:
  bool owned() const { return option_.kind == OptionKind::buy; }
  bool reserved() const;
  bool adds_units() const;

  std::string in(const char* key) const { return names_.at(option_.id, key); }
  std::string global(const char* section, const char* key) const { return names_.at(section, key); }
  std::string constant(const char* key) const { return names_.at(kConstantsSection, key); }
  std::string here(lxw_row_t row) const { return cell_ref(row, col_); }
  std::string previous(lxw_row_t row) const { return cell_ref(row, col_ - 1); }
  std::string flag(lxw_row_t row) const { return cell_ref(row, col_, true); }
  std::string month() const { return flag(layout_.month_row); }
  std::string horizon() const { return global("scenario", "horizon_months"); }
  std::string whole_row(lxw_row_t row) const;
  std::string from_start(lxw_row_t row) const;
  std::string unit_capex() const;
  /// This option's PUE or tariff when it has its own (colocation), else the site's.
  std::string site_or_own(const char* key) const;

  // Physical rows, written apart from the money rows (write_physical_rows).
 public:
  /// Physical rows (issue #8, engine option_cash_flow): kWh at the wall of the hours at
  /// load, PUE_o = the option's PUE, else the site's (owned); rentals' own PUE input (the
  /// data-centre default when not stated). The idle part is its own row, added here.
  std::string energy_kwh(lxw_col_t col) const;

  /// Idle kWh (engine energy_rows): the unit-hours powered but not serving, x idle_power_w /
  /// 1000 x PUE_o. Powered: all month (units x hours in the month) for a unit that stays on,
  /// the hours of use (units x hours of use) for an owned one switched off outside them; the
  /// served unit-hours are min(load, units) x hours of use. On demand and spot: the billed
  /// instance-hours (hourly_rent's) less load x hours of use, / goodput. "" where the engine's
  /// figures stand in (an uneven day).
  std::string idle_kwh(lxw_col_t col) const;

  /// The unit-hours powered but not serving in the month: MAX(0, units x powered hours -
  /// MIN(load, units) x hours of use); powered all month (hours in the month) for a unit
  /// that stays on, through the hours of use for an owned one switched off outside them
  /// (powered_off_when_idle = 1).
  std::string idle_unit_hours() const;

  /// kg CO2e = kWh x g CO2e/kWh / grams per kg: the option's intensity, else the site's
  /// (owned options).
  std::string co2e_kg(lxw_col_t col) const;

  /// A blend's overflow kWh (engine energy_rows), as the rental's own energy row computes it:
  /// busy, overflow load x r (rental instances per unit of this option's load, as
  /// overflow_rent) x hours of use / its goodput x its count x board power / 1000 x its PUE;
  /// idle, MAX(0, the instance-hours billed - overflow load x r x hours of use) / its goodput
  /// x its idle_power_w / 1000 x its PUE. "" where the rent is the engine's figure (an
  /// autoscaled overflow over an uneven day): the engine's kWh stand in.
  std::string overflow_kwh(lxw_col_t col) const;

  /// A blend's overflow kg CO2e: its kWh x the rental's intensity / grams per kg; "" when the
  /// Inputs sheet has no intensity for the rental (unknown).
  std::string overflow_co2e_kg(lxw_col_t col) const;

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
  /// The engine's billed instance-hours of each month (index 0 = the start column), before
  /// goodput and the rent trend: an autoscaled rental (or an owned option's autoscaled overflow
  /// rental) over an uneven day is billed stretch by stretch of the day (engine
  /// billed_instance_hours over the profile), which no cell formula restates; its rent is then
  /// a formula of the rate, the devices, the goodput and the rent trend over these hours, so an
  /// edited price follows, and an edit of what the hours rest on (the demand, its days and
  /// hours) leaves them stale, as the Checks' estimates status says. Empty: the rent row holds
  /// the engine's figures.
  void set_engine_billed_hours(std::vector<double> hours) {
    engine_billed_hours_ = std::move(hours);
  }

  /// Output tokens served in the month (engine OptionResult::tokens_served): tokens_per_day x
  /// growth factor x days of use with a demand in tokens, else MIN(concurrent_streams x the
  /// decode tokens/s per stream, the unit's aggregate decode tokens/s) (engine
  /// demand_streams_tokens_per_s) x 3600 x hours_per_day x days of use x growth factor (an api
  /// always has the demand).
  std::string tokens(lxw_col_t col) const;

  /// The part of the month's total that scales with the hours of use (engine
  /// OptionResult::hours_scaled_cost): owned, the energy less the idle draw of every unit-hour
  /// of the month (what an hour of use replaces stays in, as a negative part of the energy) plus
  /// the overflow rent; hourly rentals billed by use and APIs, their rent; with VAT on either.
  /// "" when nothing scales (reserved terms, monthly servers): the engine's zeros.
  std::string hours_scaled(lxw_col_t col) const;

 private:
  std::string load() const;

  /// The rent of an on-demand or spot rental in a month (engine option_cash_flow,
  /// billed_instance_hours) at `hours_per_day` hours of use a day and `hours_of_use` in the
  /// month (formulas), without the leading "=": rate x count x billed instance-hours / goodput
  /// x rent trend. Always on: max(1, ceil(load - tol)) x availability hours. Autoscaled:
  /// min_instances x availability + days of use x (INT(X) x RU(h) + RU(frac(X) x h)), X =
  /// max(0, load - min_instances), RU(y) = -INT(-(p - tol x MAX(1, p))) / periods per hour,
  /// p = y x periods per hour (a ceiling that leaves a relative rounding residue out).
  std::string hourly_rent(const std::string& hours_per_day, const std::string& hours_of_use) const;

  /// The instance-hours an hourly rental bills in a month (engine billed_instance_hours,
  /// before goodput and trend) at `hours_per_day` and `hours_of_use` (formulas), as a
  /// parenthesised formula without "=". Always on: MAX(1, ROUNDUP(load at the peak - tol)) x
  /// availability hours; autoscaled: min_instances x availability + days of use x (INT(X) x
  /// RU(h) + RU(frac(X) x h)), X = max(0, load - min_instances), RU rounded up to the billing
  /// period.
  std::string billed_instance_hours(const std::string& hours_per_day,
                                    const std::string& hours_of_use) const;

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
                            const std::string& hours_of_use) const;

  /// The instance-hours the overflow rental bills in a month (engine
  /// billed_overflow_instance_hours, before goodput and trend), as in overflow_rent, without
  /// "=".
  std::string overflow_billed_instance_hours(const std::string& hours_per_day,
                                             const std::string& hours_of_use) const;

  /// Rental instances per unit of this option's load: this option's capacity / the overflow
  /// rental's (1 without a demand in tokens), engine overflow_units_per_load.
  std::string overflow_ratio() const;

  std::string units() const;

  std::string energy() const;

  std::string rent() const;

  std::string financing() const;

  /// Licences or support (engine licences_per_month): per month + per year / 12 + per device
  /// a year x devices in service / 12; devices = count x units, or for an hourly rental by use
  /// count x the instances at its load (at least one); an api has no per-device term.
  std::string recurring(const std::string& line) const;

  /// The interest part of a loan's instalment (engine: the balance after the previous
  /// instalment x the monthly rate): -FV(r, month - 1, -PMT, P) x r within the term.
  std::string interest() const;

  // The loan's annuity (engine: annuity_payment, annuity_balance). A rate that 1 + r rounds
  // away is 0 % (engine: kNegligibleRatePerPeriod): PMT and FV would divide by it.
  std::string loan_principal() const;
  std::string loan_rate() const;
  std::string negligible_loan_rate() const;
  /// The instalment: PMT(r, term, -P), or P / term at a negligible rate.
  std::string loan_payment() const;
  /// What is owed after `paid` instalments: -FV(r, paid, -PMT, P), or P - paid x PMT.
  std::string loan_balance(const std::string& paid) const;

  std::string vat() const;

  std::string depreciation() const;
  /// `rate x count x (the engine's billed hours of this month) / goodput x rent trend` of
  /// option `id` (this one or its overflow rental), or "" without those hours.
  std::string engine_hours_rent(const std::string& id) const;

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
  std::vector<double> engine_billed_hours_;

  /// `load` at the peak hour: x Inputs' peak_multiplier when the day is not flat.
  std::string at_peak(const std::string& load) const;
  /// Whether the hours' shape changes what owned units serve: not flat, and units that do not
  /// follow the peak (overflow rented). Those rows hold the engine's figures (hour by hour
  /// over the profile), not a formula.
  bool shape_bites() const { return !shape_.flat && owned() && !adds_units(); }
  mutable lxw_col_t col_ = 0;
};

}  // namespace gputco::xlsx
