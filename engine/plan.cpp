#include "engine/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <locale>
#include <numeric>
#include <sstream>

#include "engine/error.hpp"
#include "engine/finance.hpp"
#include "engine/units.hpp"

namespace gputco {

std::string to_string(OptionKind k) {
  switch (k) {
    case OptionKind::buy:
      return "buy";
    case OptionKind::rent_hourly:
      return "rent_hourly";
    case OptionKind::rent_monthly:
      return "rent_monthly";
    case OptionKind::api:
      return "api";
  }
  return "unknown";
}

std::string to_string(Condition c) {
  return c == Condition::used ? "used" : "new";
}

std::string to_string(RentTerm t) {
  switch (t) {
    case RentTerm::on_demand:
      return "on_demand";
    case RentTerm::spot:
      return "spot";
    case RentTerm::reserved_1y:
      return "reserved_1y";
    case RentTerm::reserved_3y:
      return "reserved_3y";
  }
  return "unknown";
}

std::string to_string(Hosting h) {
  return h == Hosting::colocation ? "colocation" : "on_site";
}

std::string to_string(Overflow o) {
  return o == Overflow::rent ? "rent" : "buy";
}

std::string to_string(Financing f) {
  switch (f) {
    case Financing::cash:
      return "cash";
    case Financing::loan:
      return "loan";
    case Financing::lease:
      return "lease";
  }
  return "unknown";
}

std::string to_string(HoursConvention c) {
  switch (c) {
    case HoursConvention::h730:
      return "730";
    case HoursConvention::h720:
      return "720";
    case HoursConvention::calendar:
      return "calendar";
  }
  return "unknown";
}

int term_months(RentTerm t) {
  switch (t) {
    case RentTerm::reserved_1y:
      return 12;
    case RentTerm::reserved_3y:
      return 36;
    case RentTerm::on_demand:
    case RentTerm::spot:
      return 0;
  }
  return 0;
}

namespace {

constexpr double kHoursPerDay = kHoursPerFullDay;

bool finite_non_negative(double x) {
  return std::isfinite(x) && x >= 0;
}

bool is_leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_calendar_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

/// Does the option add whole units when its load grows (owned hardware bought, reserved
/// commitments, monthly servers)?
bool adds_units(const OptionInputs& o) {
  switch (o.kind) {
    case OptionKind::buy:
      return o.overflow == Overflow::add_units;
    case OptionKind::rent_hourly:
      return term_months(o.term) > 0;
    case OptionKind::rent_monthly:
      return true;
    case OptionKind::api:
      return false;
  }
  return false;
}

void size_rows(CashFlow& cf, size_t n) {
  for (auto* row : {&cf.capex,      &cf.energy,        &cf.maintenance, &cf.rent,
                    &cf.resale,     &cf.total,         &cf.cumulative,  &cf.discount_factor,
                    &cf.discounted, &cf.hosting,       &cf.failures,    &cf.financing,
                    &cf.vat,        &cf.depreciation,  &cf.book_value,  &cf.load,
                    &cf.units,      &cf.overflow_load, &cf.energy_kwh,  &cf.idle_kwh,
                    &cf.co2e_kg}) {
    row->assign(n, 0.0);
  }
}

/// Fills the derived rows (total, cumulative, discounted) from the component rows.
void finish_cash_flow(CashFlow& cf, double discount_rate_per_year) {
  const size_t n = cf.capex.size();
  double running = 0;
  for (size_t m = 0; m < n; ++m) {
    // The workbook's Total is SUM(capex:resale) over the rows in this order.
    cf.total[m] = cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.hosting[m] + cf.failures[m] +
                  cf.rent[m] + cf.financing[m] + cf.vat[m] + cf.resale[m];
    running += cf.total[m];
    cf.cumulative[m] = running;
    // Monthly discounting with the effective annual rate: a flow at the end of month m is
    // worth (1 + r)^(-m/12) today.
    cf.discount_factor[m] =
        std::pow(1.0 + discount_rate_per_year, -static_cast<double>(m) / kMonthsPerYear);
    cf.discounted[m] = cf.total[m] * cf.discount_factor[m];
  }
}

/// Capital cost of one unit of an owned option: devices plus host.
double capex_of(const OptionInputs& o) {
  return o.count * o.price_per_gpu + o.host_cost;
}

double pue_of(const OptionInputs& o, const SiteInputs& site) {
  return o.pue.value_or(site.pue);
}

double tariff_of(const OptionInputs& o, const SiteInputs& site) {
  return o.tariff_per_kwh.value_or(site.tariff_per_kwh);
}

/// Electricity cost per hour of use of one unit of an owned option: power x tariff x PUE
/// (zero when a colocation's power is in its kW fee).
double energy_cost_per_hour(const OptionInputs& o, const SiteInputs& site) {
  if (o.hosting == Hosting::colocation && !o.power_metered) return 0;
  const double power_w = o.count * o.device.board_power_w + o.host_power_w;
  return power_w / kWattsPerKilowatt * tariff_of(o, site) * pue_of(o, site);
}

/// PUE of the place an option's energy is drawn: its own, else the site's (owned) or the
/// default data centre's (rentals).
double energy_pue_of(const OptionInputs& o, const SiteInputs& site) {
  if (o.kind == OptionKind::buy) return pue_of(o, site);
  return o.pue.value_or(kDefaultDataCentrePue);
}

/// Power of one unit at load, W: devices + host (rentals: devices only, the host unknown).
double load_power_w(const OptionInputs& o) {
  const double devices = o.count * o.device.board_power_w;
  return o.kind == OptionKind::buy ? devices + o.host_power_w : devices;
}

/// Does the unit draw idle power in the unit-hours it does not serve?
bool stays_on(const OptionInputs& o) {
  switch (o.kind) {
    case OptionKind::buy:
      return !o.powered_off_when_idle;
    case OptionKind::rent_hourly:
      return term_months(o.term) > 0;
    case OptionKind::rent_monthly:
      return true;
    case OptionKind::api:
      return false;
  }
  return false;
}

/// The intensity an option's electricity carries, g CO2e/kWh: its own, else the site's for
/// owned hardware; nullopt when unknown (and for api options).
std::optional<double> intensity_of(const OptionInputs& o, const SiteInputs& site) {
  if (o.kind == OptionKind::api) return std::nullopt;
  if (o.grid_g_co2e_per_kwh) return o.grid_g_co2e_per_kwh;
  if (o.kind == OptionKind::buy) return site.grid_g_co2e_per_kwh;
  return std::nullopt;
}

/// Fills the physical rows energy_kwh, idle_kwh and co2e_kg from load and units (see
/// option_cash_flow); api options keep zeros.
void energy_rows(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                 const FinanceInputs& f, CashFlow& cf) {
  if (o.kind == OptionKind::api) return;
  const auto last = static_cast<size_t>(f.horizon_months);
  const double pue = energy_pue_of(o, site);
  const double load_kw = load_power_w(o) / kWattsPerKilowatt;
  const double idle_kw = o.idle_power_w / kWattsPerKilowatt;
  const bool on = stays_on(o);
  const bool by_use = o.kind == OptionKind::rent_hourly && term_months(o.term) == 0;
  const auto intensity = intensity_of(o, site);
  for (size_t m = 1; m <= last; ++m) {
    const int month = static_cast<int>(m);
    const double hours = w.hours_per_day * days_of_use(w, f, month);
    double load_kwh = 0, idle_unit_hours = 0;
    if (by_use) {
      load_kwh = load_kw * hours * cf.load[m] / o.goodput * pue;
    } else {
      const double served = std::min(cf.load[m], cf.units[m]);
      load_kwh = served * load_kw * hours * pue;
      if (on) {
        idle_unit_hours = std::max(0.0, cf.units[m] * hours_in_month(w, f, month) - served * hours);
      }
    }
    cf.idle_kwh[m] = idle_unit_hours * idle_kw * pue;
    cf.energy_kwh[m] = load_kwh + cf.idle_kwh[m];
    if (intensity) cf.co2e_kg[m] = cf.energy_kwh[m] * *intensity / kGramsPerKilogram;
  }
}

void api_flows(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
               CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  const double output_per_day = w.tokens_per_day.value_or(0);
  const double input_per_day = output_per_day * w.input_tokens_per_output_token.value_or(0);
  const double per_day =
      (input_per_day * o.input_price_per_million + output_per_day * o.output_price_per_million) /
      kTokensPerMillion;
  for (size_t m = 1; m <= last; ++m) {
    const int month = static_cast<int>(m);
    cf.rent[m] = days_of_use(w, f, month) * growth_factor(w.growth_per_month, month) * per_day *
                 trend_factor(f.api_price_trend_per_year, month);
  }
}

void owned_flows(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                 const FinanceInputs& f, CashFlow& cf) {
  const int n_months = f.horizon_months;
  const auto last = static_cast<size_t>(n_months);
  const double unit_capex = capex_of(o);
  const bool lease = o.financing == Financing::lease;
  const double ratio = overflow_units_per_load(o, w);
  const double hosting_per_unit =
      o.hosting == Hosting::colocation
          ? o.colo_per_kw_month * o.contracted_kw + o.colo_per_rack_unit_month * o.rack_units
          : 0.0;
  const double energy_per_hour = energy_cost_per_hour(o, site);
  // Idle energy's cost per unit-hour (zero when colocated power is in the kW fee).
  const double idle_per_hour =
      o.hosting == Hosting::colocation && !o.power_metered
          ? 0.0
          : o.idle_power_w / kWattsPerKilowatt * tariff_of(o, site) * pue_of(o, site);
  for (size_t m = 0; m <= last; ++m) {
    const double previous_units = m == 0 ? 0.0 : cf.units[m - 1];
    if (!lease) cf.capex[m] = unit_capex * (cf.units[m] - previous_units);
    if (m == 0) continue;
    const int month = static_cast<int>(m);
    const double units = cf.units[m];
    const double hours = w.hours_per_day * days_of_use(w, f, month);
    cf.energy[m] = std::min(cf.load[m], units) * energy_per_hour * hours *
                   trend_factor(site.tariff_trend_per_year, month);
    if (!o.powered_off_when_idle && o.idle_power_w > 0) {
      const double idle_unit_hours =
          std::max(0.0, units * hours_in_month(w, f, month) - std::min(cf.load[m], units) * hours);
      cf.energy[m] +=
          idle_unit_hours * idle_per_hour * trend_factor(site.tariff_trend_per_year, month);
    }
    cf.maintenance[m] = unit_capex * units * o.maintenance_per_year / kMonthsPerYear;
    cf.hosting[m] = units * hosting_per_unit;
    if (month > o.warranty_months) {
      cf.failures[m] = o.annual_failure_rate / kMonthsPerYear * o.count * o.price_per_gpu * units;
    }
    if (o.overflow == Overflow::rent) {
      cf.overflow_load[m] = std::max(0.0, cf.load[m] - units);
      cf.rent[m] = cf.overflow_load[m] * ratio * hours * o.overflow_rate_per_hour *
                   trend_factor(f.rent_trend_per_year, month);
    }
  }
  double capex_total = 0;
  for (size_t m = 0; m <= last; ++m) capex_total += cf.capex[m];
  cf.resale[last] = -o.residual_fraction * capex_total;

  if (o.financing == Financing::loan) {
    const double principal = cf.capex[0] * (1.0 - o.down_payment_fraction);
    const double rate = o.loan_rate_per_year / kMonthsPerYear;
    const double payment = annuity_payment(principal, rate, o.loan_term_months);
    cf.financing[0] = -principal;
    for (size_t m = 1; m <= last && static_cast<int>(m) <= o.loan_term_months; ++m) {
      cf.financing[m] = payment;
    }
    cf.financing[last] += annuity_balance(principal, rate, o.loan_term_months, n_months);
  } else if (lease) {
    const double fee_per_unit = o.lease_rate_per_month * unit_capex;
    for (size_t m = 1; m <= last; ++m) cf.financing[m] = fee_per_unit * cf.units[m];
    if (o.lease_term_months > n_months) {
      cf.financing[last] += (o.lease_term_months - n_months) * fee_per_unit * cf.units[last];
    }
  }

  // Straight-line depreciation: a lot bought at index k depreciates in months k+1..k+life.
  const auto life = static_cast<size_t>(f.useful_life_months);
  double window = 0, capex_to_date = cf.capex[0], depreciation_to_date = 0;
  cf.book_value[0] = cf.capex[0];
  for (size_t m = 1; m <= last; ++m) {
    window += cf.capex[m - 1];
    if (m - 1 >= life) window -= cf.capex[m - 1 - life];
    cf.depreciation[m] = window / static_cast<double>(life);
    capex_to_date += cf.capex[m];
    depreciation_to_date += cf.depreciation[m];
    cf.book_value[m] = capex_to_date - depreciation_to_date;
  }
}

void rent_hourly_flows(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
                       CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  const double per_hour = o.rate_per_gpu_hour * o.count;
  const int term = term_months(o.term);
  for (size_t m = 1; m <= last; ++m) {
    const int month = static_cast<int>(m);
    if (term > 0) {
      cf.rent[m] = per_hour * cf.units[m] * hours_in_month(w, f, month);
    } else {
      const double hours = w.hours_per_day * days_of_use(w, f, month);
      cf.rent[m] =
          per_hour * hours * cf.load[m] / o.goodput * trend_factor(f.rent_trend_per_year, month);
    }
  }
  if (term > 0) {
    // Terms are renewed at the same rate; the unexpired part of the last one is owed.
    const int n_months = f.horizon_months;
    const int committed = (n_months + term - 1) / term * term;
    cf.rent[last] += (committed - n_months) * per_hour * cf.units[last] *
                     average_hours_per_month(w.hours_per_month_convention);
  }
}

void rent_monthly_flows(const OptionInputs& o, const FinanceInputs& f, CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  cf.rent[0] = o.setup_fee * cf.units[0];
  for (size_t m = 1; m <= last; ++m) {
    cf.rent[m] = o.price_per_month * cf.units[m] + o.setup_fee * (cf.units[m] - cf.units[m - 1]);
  }
  cf.rent[last] += o.notice_months * o.price_per_month * cf.units[last];
}

}  // namespace

double hours_in_month(const WorkloadInputs& w, const FinanceInputs& f, int month) {
  switch (w.hours_per_month_convention) {
    case HoursConvention::h730:
      return 730.0;
    case HoursConvention::h720:
      return 720.0;
    case HoursConvention::calendar: {
      // Month 1 is the start month.
      const int index = f.start_year * kMonthsPerYear + (f.start_month - 1) + (month - 1);
      return days_in_calendar_month(index / kMonthsPerYear, index % kMonthsPerYear + 1) *
             kHoursPerDay;
    }
  }
  return 730.0;
}

double days_of_use(const WorkloadInputs& w, const FinanceInputs& f, int month) {
  const double days_in_month = hours_in_month(w, f, month) / kHoursPerDay;
  return w.days_follow_convention ? days_in_month : std::min(w.days_per_month, days_in_month);
}

double capacity_tokens_per_hour(double aggregate_decode_tokens_per_s, double prefill_tokens_per_s,
                                double input_tokens_per_output_token) {
  if (!(aggregate_decode_tokens_per_s > 0) || !std::isfinite(aggregate_decode_tokens_per_s)) {
    return 0.0;
  }
  // Device-seconds per output token: its decode share plus its prompt tokens' prefill.
  double seconds = 1.0 / aggregate_decode_tokens_per_s;
  if (prefill_tokens_per_s > 0 && std::isfinite(prefill_tokens_per_s) &&
      input_tokens_per_output_token > 0) {
    seconds += input_tokens_per_output_token / prefill_tokens_per_s;
  }
  return kSecondsPerHour / seconds;
}

int prefill_prompt_tokens(const WorkloadInputs& w) {
  double prompt = w.context_tokens;
  if (w.tokens_per_day && w.input_tokens_per_output_token && w.requests_per_day &&
      *w.requests_per_day > 0) {
    prompt = *w.tokens_per_day * *w.input_tokens_per_output_token / *w.requests_per_day;
  }
  if (!std::isfinite(prompt)) prompt = w.context_tokens;
  return static_cast<int>(
      std::clamp(std::round(prompt), 1.0, std::max(1.0, static_cast<double>(w.context_tokens))));
}

Timeline plan_timeline(const WorkloadInputs& w, const SiteInputs& site, const FinanceInputs& f) {
  Timeline t;
  const auto n = static_cast<size_t>(f.horizon_months) + 1;
  for (auto* row : {&t.hours_in_month, &t.days_of_use, &t.hours_of_use, &t.growth_factor,
                    &t.rent_factor, &t.tariff_factor, &t.api_factor}) {
    row->assign(n, 0.0);
  }
  for (size_t m = 0; m < n; ++m) {
    const int month = static_cast<int>(m);
    if (m > 0) {
      t.hours_in_month[m] = hours_in_month(w, f, month);
      t.days_of_use[m] = days_of_use(w, f, month);
      t.hours_of_use[m] = w.hours_per_day * t.days_of_use[m];
    }
    t.growth_factor[m] = growth_factor(w.growth_per_month, month);
    t.rent_factor[m] = trend_factor(f.rent_trend_per_year, month);
    t.tariff_factor[m] = trend_factor(site.tariff_trend_per_year, month);
    t.api_factor[m] = trend_factor(f.api_price_trend_per_year, month);
  }
  return t;
}

double average_hours_per_month(HoursConvention convention) {
  switch (convention) {
    case HoursConvention::h730:
      return 730.0;
    case HoursConvention::h720:
      return 720.0;
    case HoursConvention::calendar:
      return 365.25 * kHoursPerDay / kMonthsPerYear;
  }
  return 730.0;
}

double base_load(const OptionInputs& o, const WorkloadInputs& w) {
  if (o.kind == OptionKind::api) return 0.0;
  if (!w.tokens_per_day || o.capacity_tokens_per_hour <= 0) return 1.0;
  if (w.hours_per_day <= 0) return 0.0;
  return *w.tokens_per_day / (o.capacity_tokens_per_hour * w.hours_per_day);
}

double overflow_units_per_load(const OptionInputs& o, const WorkloadInputs& w) {
  if (!w.tokens_per_day || o.capacity_tokens_per_hour <= 0 ||
      o.overflow_capacity_tokens_per_hour <= 0) {
    return 1.0;
  }
  return o.capacity_tokens_per_hour / o.overflow_capacity_tokens_per_hour;
}

WorkloadInputs at_hours_per_day(const WorkloadInputs& w, double hours_per_day) {
  WorkloadInputs out = w;
  if (out.tokens_per_day && w.hours_per_day > 0) {
    out.tokens_per_day = *w.tokens_per_day * hours_per_day / w.hours_per_day;
  }
  if (out.requests_per_day && w.hours_per_day > 0) {
    out.requests_per_day = *w.requests_per_day * hours_per_day / w.hours_per_day;
  }
  out.hours_per_day = hours_per_day;
  return out;
}

WorkloadInputs at_tokens_per_day(const WorkloadInputs& w, double tokens_per_day) {
  WorkloadInputs out = w;
  if (out.requests_per_day) {
    out.requests_per_day = w.tokens_per_day && *w.tokens_per_day > 0
                               ? *w.requests_per_day * tokens_per_day / *w.tokens_per_day
                               : 0.0;
  }
  out.tokens_per_day = tokens_per_day;
  return out;
}

void validate_plan_inputs(const PlanInputs& in) {
  const auto& f = in.finance;
  GPUTCO_REQUIRE(f.horizon_months >= 1 && f.horizon_months <= 600,
                 "horizon_months must be between 1 and 600, got " << f.horizon_months);
  GPUTCO_REQUIRE(std::isfinite(f.discount_rate_per_year) && f.discount_rate_per_year > -1 &&
                     f.discount_rate_per_year <= 10,
                 "discount_rate must be above -100% and at most 1000% per year, got "
                     << f.discount_rate_per_year);
  GPUTCO_REQUIRE(
      std::isfinite(f.rent_trend_per_year) && f.rent_trend_per_year > -1 &&
          f.rent_trend_per_year <= 10,
      "rent_trend_per_year must be above -100% and at most 1000%, got " << f.rent_trend_per_year);
  GPUTCO_REQUIRE(std::isfinite(f.vat_rate) && f.vat_rate >= 0 && f.vat_rate <= 1,
                 "vat_rate must be between 0 and 1, got " << f.vat_rate);
  GPUTCO_REQUIRE(f.useful_life_months >= 1 && f.useful_life_months <= 600,
                 "useful_life_months must be between 1 and 600, got " << f.useful_life_months);
  GPUTCO_REQUIRE(
      f.start_month >= 1 && f.start_month <= 12 && f.start_year >= 1900 && f.start_year <= 9999,
      "the start month must be a month of the years 1900-9999, got " << f.start_year << "-"
                                                                     << f.start_month);
  const auto& w = in.workload;
  GPUTCO_REQUIRE(std::isfinite(w.hours_per_day) && w.hours_per_day >= 0 && w.hours_per_day <= 24,
                 "hours_per_day must be between 0 and 24, got " << w.hours_per_day);
  GPUTCO_REQUIRE(std::isfinite(w.days_per_month) && w.days_per_month >= 0 && w.days_per_month <= 31,
                 "days_per_month must be between 0 and 31, got " << w.days_per_month);
  GPUTCO_REQUIRE(
      std::isfinite(w.growth_per_month) && w.growth_per_month > -1 && w.growth_per_month <= 1,
      "growth_per_month must be above -100% and at most 100%, got " << w.growth_per_month);
  // Growth compounds: the last month's load must stay a finite number of units.
  GPUTCO_REQUIRE(std::isfinite(std::pow(1.0 + w.growth_per_month, f.horizon_months)) &&
                     std::pow(1.0 + w.growth_per_month, f.horizon_months) <= 1e6,
                 "growth_per_month " << w.growth_per_month << " over " << f.horizon_months
                                     << " months multiplies the demand by more than a million");
  GPUTCO_REQUIRE(!w.tokens_per_day || finite_non_negative(*w.tokens_per_day),
                 "tokens_per_day must be a non-negative number");
  // At 0 hours a day a demand would be served at no cost (hourly rentals bill hours x load).
  GPUTCO_REQUIRE(!w.tokens_per_day || *w.tokens_per_day <= 0 || w.hours_per_day > 0 ||
                     (!w.days_follow_convention && w.days_per_month <= 0),
                 "hours_per_day is 0 but the demand is "
                     << *w.tokens_per_day << " tokens a day: no hours to serve it in");
  GPUTCO_REQUIRE(!w.users || (std::isfinite(*w.users) && *w.users > 0),
                 "users must be a positive number");
  GPUTCO_REQUIRE(
      !w.input_tokens_per_output_token || (finite_non_negative(*w.input_tokens_per_output_token) &&
                                           *w.input_tokens_per_output_token <= 1e6),
      "input_tokens_per_output_token must be a number between 0 and 1e6");
  GPUTCO_REQUIRE(!w.requests_per_day || finite_non_negative(*w.requests_per_day),
                 "requests_per_day must be a non-negative number");
  GPUTCO_REQUIRE(std::isfinite(f.api_price_trend_per_year) && f.api_price_trend_per_year > -1 &&
                     f.api_price_trend_per_year <= 10,
                 "api_price_trend_per_year must be above -100% and at most 1000%, got "
                     << f.api_price_trend_per_year);
  GPUTCO_REQUIRE(
      !in.site.grid_g_co2e_per_kwh || (finite_non_negative(*in.site.grid_g_co2e_per_kwh) &&
                                       *in.site.grid_g_co2e_per_kwh <= 5000),
      "grid_g_co2e_per_kwh must be between 0 and 5000 g/kWh");
  GPUTCO_REQUIRE(finite_non_negative(in.site.tariff_per_kwh),
                 "tariff_per_kwh must be a non-negative number, got " << in.site.tariff_per_kwh);
  GPUTCO_REQUIRE(std::isfinite(in.site.pue) && in.site.pue >= 1 && in.site.pue <= 5,
                 "pue must be between 1 and 5, got " << in.site.pue);
  GPUTCO_REQUIRE(std::isfinite(in.site.tariff_trend_per_year) &&
                     in.site.tariff_trend_per_year > -1 && in.site.tariff_trend_per_year <= 10,
                 "tariff_trend_per_year must be above -100% and at most 1000%, got "
                     << in.site.tariff_trend_per_year);
  GPUTCO_REQUIRE(!in.options.empty(), "a plan needs at least one option");
  for (const auto& o : in.options) {
    GPUTCO_REQUIRE(o.count >= 1 && o.count <= 4096,
                   "option " << o.id << ": count must be between 1 and 4096, got " << o.count);
    GPUTCO_REQUIRE(
        finite_non_negative(o.price_per_gpu) && finite_non_negative(o.host_cost) &&
            finite_non_negative(o.host_power_w) && finite_non_negative(o.rate_per_gpu_hour) &&
            finite_non_negative(o.price_per_month) && finite_non_negative(o.setup_fee) &&
            finite_non_negative(o.maintenance_per_year) &&
            finite_non_negative(o.colo_per_kw_month) && finite_non_negative(o.contracted_kw) &&
            finite_non_negative(o.colo_per_rack_unit_month) && finite_non_negative(o.rack_units) &&
            finite_non_negative(o.lease_rate_per_month) &&
            finite_non_negative(o.capacity_tokens_per_hour) &&
            finite_non_negative(o.overflow_rate_per_hour) &&
            finite_non_negative(o.overflow_capacity_tokens_per_hour) &&
            finite_non_negative(o.input_price_per_million) &&
            finite_non_negative(o.output_price_per_million) && finite_non_negative(o.idle_power_w),
        "option " << o.id << ": prices, power and rates must be non-negative numbers");
    GPUTCO_REQUIRE(
        std::isfinite(o.residual_fraction) && o.residual_fraction >= 0 && o.residual_fraction <= 1,
        "option " << o.id << ": residual_fraction must be between 0 and 1, got "
                  << o.residual_fraction);
    GPUTCO_REQUIRE(std::isfinite(o.annual_failure_rate) && o.annual_failure_rate >= 0 &&
                       o.annual_failure_rate <= 1,
                   "option " << o.id << ": annual_failure_rate must be between 0 and 1, got "
                             << o.annual_failure_rate);
    GPUTCO_REQUIRE(o.warranty_months >= 0 && o.warranty_months <= 600,
                   "option " << o.id << ": warranty_months must be between 0 and 600, got "
                             << o.warranty_months);
    GPUTCO_REQUIRE(
        std::isfinite(o.goodput) && o.goodput > 0 && o.goodput <= 1,
        "option " << o.id << ": goodput must be above 0 and at most 1, got " << o.goodput);
    GPUTCO_REQUIRE(
        o.notice_months >= 0 && o.notice_months <= 120,
        "option " << o.id << ": notice_months must be between 0 and 120, got " << o.notice_months);
    GPUTCO_REQUIRE(!o.pue || (std::isfinite(*o.pue) && *o.pue >= 1 && *o.pue <= 5),
                   "option " << o.id << ": pue must be between 1 and 5");
    GPUTCO_REQUIRE(!o.tariff_per_kwh || finite_non_negative(*o.tariff_per_kwh),
                   "option " << o.id << ": tariff_per_kwh must be a non-negative number");
    GPUTCO_REQUIRE(std::isfinite(o.down_payment_fraction) && o.down_payment_fraction >= 0 &&
                       o.down_payment_fraction <= 1,
                   "option " << o.id << ": down_payment must be between 0 and 1, got "
                             << o.down_payment_fraction);
    GPUTCO_REQUIRE(std::isfinite(o.loan_rate_per_year) && o.loan_rate_per_year >= 0 &&
                       o.loan_rate_per_year <= 1,
                   "option " << o.id << ": loan_rate must be between 0 and 1 per year, got "
                             << o.loan_rate_per_year);
    GPUTCO_REQUIRE(o.loan_term_months >= 1 && o.loan_term_months <= 600 &&
                       o.lease_term_months >= 1 && o.lease_term_months <= 600,
                   "option " << o.id << ": loan and lease terms must be 1-600 months");
    GPUTCO_REQUIRE(o.overflow != Overflow::rent || o.kind == OptionKind::buy,
                   "option " << o.id << ": only owned options rent their overflow");
    GPUTCO_REQUIRE(!o.grid_g_co2e_per_kwh || (finite_non_negative(*o.grid_g_co2e_per_kwh) &&
                                              *o.grid_g_co2e_per_kwh <= 5000),
                   "option " << o.id << ": grid_g_co2e_per_kwh must be between 0 and 5000 g/kWh");
    GPUTCO_REQUIRE(!o.requests_per_minute_limit || (std::isfinite(*o.requests_per_minute_limit) &&
                                                    *o.requests_per_minute_limit > 0),
                   "option " << o.id << ": requests_per_minute_limit must be a positive number");
    GPUTCO_REQUIRE(!o.tokens_per_minute_limit || (std::isfinite(*o.tokens_per_minute_limit) &&
                                                  *o.tokens_per_minute_limit > 0),
                   "option " << o.id << ": tokens_per_minute_limit must be a positive number");
    if (o.kind == OptionKind::api) {
      GPUTCO_REQUIRE(w.tokens_per_day && w.input_tokens_per_output_token,
                     "option " << o.id
                               << ": an api option is billed per token: the workload needs "
                                  "tokens_per_day and input_tokens_per_output_token (or "
                                  "requests_per_day with prompt and output tokens per request)");
    }
  }
}

void option_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                      const FinanceInputs& f, CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  size_rows(cf, last + 1);
  // Load and units: index 0 holds month 1's load (what the start must be sized for).
  const double load_1 = base_load(o, w);
  const bool whole_units = adds_units(o);
  const bool has_units = o.kind == OptionKind::buy || o.kind == OptionKind::rent_monthly ||
                         (o.kind == OptionKind::rent_hourly && term_months(o.term) > 0);
  double peak = 0;
  for (size_t m = 0; m <= last; ++m) {
    cf.load[m] = load_1 * growth_factor(w.growth_per_month, static_cast<int>(m));
    peak = std::max(peak, cf.load[m]);
    if (has_units) {
      cf.units[m] = whole_units ? std::max(1.0, std::ceil(peak - kLoadTolerance)) : 1.0;
    }
  }
  switch (o.kind) {
    case OptionKind::buy:
      owned_flows(o, w, site, f, cf);
      break;
    case OptionKind::rent_hourly:
      rent_hourly_flows(o, w, f, cf);
      break;
    case OptionKind::rent_monthly:
      rent_monthly_flows(o, f, cf);
      break;
    case OptionKind::api:
      api_flows(o, w, f, cf);
      break;
  }
  energy_rows(o, w, site, f, cf);
  if (!f.vat_reclaimable && f.vat_rate > 0) {
    const bool lease = o.kind == OptionKind::buy && o.financing == Financing::lease;
    for (size_t m = 0; m <= last; ++m) {
      cf.vat[m] = f.vat_rate * (cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.hosting[m] +
                                cf.failures[m] + cf.rent[m] + (lease ? cf.financing[m] : 0.0));
    }
  }
  finish_cash_flow(cf, f.discount_rate_per_year);
}

CashFlow option_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                          const FinanceInputs& f) {
  CashFlow cf;
  option_cash_flow(o, w, site, f, cf);
  return cf;
}

std::vector<double> annual_costs(const CashFlow& cf) {
  std::vector<double> years;
  const size_t n = cf.total.size();
  for (size_t m = 0; m < n; ++m) {
    // Month 0 (the start) belongs to year 1; month m >= 1 to year ceil(m / 12).
    const size_t year = m == 0 ? 0 : (m - 1) / kMonthsPerYear;
    if (years.size() <= year) years.resize(year + 1, 0.0);
    years[year] += cf.total[m];
  }
  return years;
}

std::optional<double> break_even_hours(const OptionInputs& owned, const OptionInputs& rented,
                                       const SiteInputs& site, const FinanceInputs& f) {
  GPUTCO_REQUIRE(owned.kind == OptionKind::buy, "break-even hours need an owned option");
  GPUTCO_REQUIRE(rented.kind == OptionKind::rent_hourly,
                 "break-even hours need an hourly rental baseline");
  const double capex = capex_of(owned);
  const double fixed = capex * (1.0 - owned.residual_fraction) +
                       capex * owned.maintenance_per_year / kMonthsPerYear * f.horizon_months;
  const double rent_per_hour = rented.rate_per_gpu_hour * rented.count / rented.goodput;
  const double saving_per_hour = rent_per_hour - energy_cost_per_hour(owned, site);
  if (saving_per_hour <= 0) return std::nullopt;  // renting is cheaper per hour: never
  return fixed / saving_per_hour;
}

std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented) {
  const size_t n = std::min(owned.cumulative.size(), rented.cumulative.size());
  bool was_above = false;
  for (size_t m = 0; m < n; ++m) {
    // A tiny tolerance keeps two equal running sums from missing each other by rounding.
    const double tolerance = 1e-9 * std::max(1.0, std::abs(rented.cumulative[m]));
    const bool at_or_below = owned.cumulative[m] <= rented.cumulative[m] + tolerance;
    if (at_or_below && was_above) return static_cast<int>(m);
    if (!at_or_below) was_above = true;
  }
  return std::nullopt;
}

bool has_initial_outlay(const std::vector<double>& saving) {
  if (saving.empty()) return false;
  // Rounding of two equal month-0 flows (a lease's 0 against a rental's 0) is no outlay.
  return saving[0] < -1e-9;
}

std::optional<double> payback_months(const std::vector<double>& saving) {
  if (!has_initial_outlay(saving)) return std::nullopt;
  double running = 0;
  for (size_t m = 0; m < saving.size(); ++m) {
    const double before = running;
    running += saving[m];
    // Tolerance: equal running sums must not miss each other by rounding.
    const double tolerance = 1e-9 * std::max(1.0, std::abs(before) + std::abs(saving[m]));
    if (running >= -tolerance) {
      if (m == 0 || before >= 0 || saving[m] <= 0) return static_cast<double>(m);
      // Linear within the month: the saving accrues evenly from m - 1 to m.
      return static_cast<double>(m - 1) + std::min(1.0, -before / saving[m]);
    }
  }
  return std::nullopt;
}

std::optional<double> break_even_hours_per_day(const OptionInputs& owned,
                                               const OptionInputs& rented,
                                               const WorkloadInputs& workload,
                                               const SiteInputs& site,
                                               const FinanceInputs& finance) {
  CashFlow own_cf, rent_cf;
  const auto gap = [&](double hours_per_day) {
    const WorkloadInputs w = at_hours_per_day(workload, hours_per_day);
    option_cash_flow(owned, w, site, finance, own_cf);
    option_cash_flow(rented, w, site, finance, rent_cf);
    const double own = std::accumulate(own_cf.total.begin(), own_cf.total.end(), 0.0);
    const double rent = std::accumulate(rent_cf.total.begin(), rent_cf.total.end(), 0.0);
    return own - rent;
  };
  // With tokens_per_day, the load per hour of use must come from the stated hours.
  if (workload.tokens_per_day && workload.hours_per_day <= 0) return std::nullopt;
  double lo = 0, hi = kHoursPerDay;
  if (gap(lo) <= 0) return 0.0;
  if (gap(hi) > 0) return std::nullopt;
  for (int i = 0; i < 100 && hi - lo > 1e-10; ++i) {
    const double mid = 0.5 * (lo + hi);
    (gap(mid) > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

void prepare_plan_inputs(PlanInputs& in) {
  FitRequest request;
  request.model = in.model;
  request.quant = in.quant;
  request.context_tokens = in.workload.context_tokens;
  request.concurrent_streams = in.workload.concurrent_streams;
  request.kv_cache = in.workload.kv_cache;
  // Input tokens per output token that take device time: only with a stated demand.
  const double input_per_output =
      in.workload.tokens_per_day ? in.workload.input_tokens_per_output_token.value_or(0) : 0.0;
  const int prompt_tokens = prefill_prompt_tokens(in.workload);
  for (auto& o : in.options) {
    if (o.capacity_tokens_per_hour > 0 || o.kind == OptionKind::api) continue;
    const FitResult f = fit(request, o.device, o.count, in.memory_policy);
    if (f.verdict == Verdict::does_not_fit) continue;
    const SpeedEstimate speed =
        estimate_speed(SpeedRequest{request, o.count, o.split, o.backend, prompt_tokens}, o.device);
    if (std::isfinite(speed.aggregate_tokens_per_s) && speed.aggregate_tokens_per_s > 0) {
      o.prefill_tokens_per_s = input_per_output > 0 ? speed.prefill_tokens_per_s : 0.0;
      o.capacity_tokens_per_hour = capacity_tokens_per_hour(
          speed.aggregate_tokens_per_s, o.prefill_tokens_per_s, input_per_output);
    }
  }
  for (auto& o : in.options) {
    if (o.overflow != Overflow::rent) continue;
    GPUTCO_REQUIRE(o.kind == OptionKind::buy,
                   "option " << o.id << ": only owned options rent their overflow");
    const OptionInputs* rental = nullptr;
    for (const auto& other : in.options) {
      if (other.id == o.overflow_option_id) rental = &other;
    }
    GPUTCO_REQUIRE(rental != nullptr, "option " << o.id << ": the overflow option '"
                                                << o.overflow_option_id
                                                << "' is not an option of the plan");
    GPUTCO_REQUIRE(rental->kind == OptionKind::rent_hourly && term_months(rental->term) == 0,
                   "option " << o.id << ": the overflow option '" << rental->id
                             << "' must be a rent_hourly option billed by use (on_demand or "
                                "spot)");
    o.overflow_rate_per_hour = rental->rate_per_gpu_hour * rental->count / rental->goodput;
    o.overflow_capacity_tokens_per_hour = rental->capacity_tokens_per_hour;
  }
}

namespace {

/// A number with `decimals` decimals; fmt formats without the locale.
std::string fixed_text(double x, int decimals) {
  return fmt::format("{:.{}f}", x, decimals);
}

/// A count of units or a load, as text: whole numbers plain, others with two decimals.
std::string units_text(double units) {
  return fixed_text(units, units == std::floor(units) ? 0 : 2);
}

/// What the model added month by month: units bought or contracted, overflow rented.
std::vector<OptionResult::Event> events_of(const OptionInputs& o, const CashFlow& cf) {
  std::vector<OptionResult::Event> events;
  const std::string unit = std::to_string(o.count) + " x " + o.device.id;
  bool renting = false;
  if (!cf.units.empty() && cf.units[0] > 1) {
    events.push_back({0, "started with " + units_text(cf.units[0]) + " units of " + unit +
                             " (month-1 load " + units_text(cf.load[0]) + ")"});
  }
  for (size_t m = 1; m < cf.units.size(); ++m) {
    const double added = cf.units[m] - cf.units[m - 1];
    if (added > 0) {
      const std::string what = o.kind == OptionKind::buy
                                   ? (o.financing == Financing::lease ? "leased" : "bought")
                               : o.kind == OptionKind::rent_monthly ? "rented"
                                                                    : "reserved";
      events.push_back({static_cast<int>(m), what + " " + units_text(added) + " more unit(s) of " +
                                                 unit + ": " + units_text(cf.units[m]) +
                                                 " in service (load " + units_text(cf.load[m]) +
                                                 ")"});
    }
    const bool overflow = cf.overflow_load[m] > 0;
    if (overflow && !renting) {
      events.push_back({static_cast<int>(m), "load " + units_text(cf.load[m]) +
                                                 " exceeds the owned capacity: renting the "
                                                 "overflow from " +
                                                 o.overflow_option_id});
    }
    renting = overflow;
  }
  return events;
}

/// Energy and carbon totals of one option from its physical rows; `tokens` = the tokens of
/// its cost per million tokens.
void energy_and_carbon(const OptionInputs& o, const SiteInputs& site, double tokens,
                       OptionResult& r) {
  const CashFlow& cf = r.cash_flow;
  if (o.kind == OptionKind::api) {
    r.energy_unknown_reason = "unknown: the provider publishes no energy per token for " +
                              (o.api_model.empty() ? std::string("this API") : o.api_model);
    r.co2e_unknown_reason = r.energy_unknown_reason;
    return;
  }
  if (!(o.device.board_power_w > 0)) {
    // Unknown, never 0: the kWh rows hold only what is known (an owned host's draw).
    r.energy_unknown_reason = "unknown: the catalog has no board power for " + o.device.id;
    r.co2e_unknown_reason = r.energy_unknown_reason;
    r.grid_g_co2e_per_kwh = intensity_of(o, site);
    return;
  }
  r.energy_kwh_total = std::accumulate(cf.energy_kwh.begin(), cf.energy_kwh.end(), 0.0);
  r.grid_g_co2e_per_kwh = intensity_of(o, site);
  if (!r.grid_g_co2e_per_kwh) {
    r.co2e_unknown_reason =
        !o.carbon_unknown_reason.empty() ? o.carbon_unknown_reason
        : o.kind == OptionKind::buy
            ? "unknown: no grid carbon intensity for the site (set grid_region or "
              "grid_g_co2e_per_kwh)"
            : "unknown: the provider's region has no grid carbon intensity (set "
              "grid_region or grid_g_co2e_per_kwh on the option)";
    return;
  }
  r.co2e_kg_total = std::accumulate(cf.co2e_kg.begin(), cf.co2e_kg.end(), 0.0);
  if (r.feasible && tokens > 0) {
    r.co2e_kg_per_million_tokens = *r.co2e_kg_total / tokens * kTokensPerMillion;
  }
}

/// The api option's peak demand per minute against its published limits.
void api_rate_limits(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
                     OptionResult& r) {
  if (w.hours_per_day <= 0 || !w.tokens_per_day) return;
  double peak_growth = 1;
  for (int m = 1; m <= f.horizon_months; ++m) {
    peak_growth = std::max(peak_growth, growth_factor(w.growth_per_month, m));
  }
  const double minutes = w.hours_per_day * 60.0;
  r.peak_tokens_per_minute = (1.0 + w.input_tokens_per_output_token.value_or(0)) *
                             *w.tokens_per_day * peak_growth / minutes;
  if (w.requests_per_day) r.peak_requests_per_minute = *w.requests_per_day * peak_growth / minutes;
  std::ostringstream note;
  note.imbue(std::locale::classic());
  note.setf(std::ios::fixed);
  note.precision(0);
  if (o.tokens_per_minute_limit && *r.peak_tokens_per_minute > *o.tokens_per_minute_limit) {
    note << "rate limit: the peak " << *r.peak_tokens_per_minute
         << " tokens/min in the hours of use exceed the published " << *o.tokens_per_minute_limit
         << " tokens/min";
  }
  if (o.requests_per_minute_limit && r.peak_requests_per_minute &&
      *r.peak_requests_per_minute > *o.requests_per_minute_limit) {
    note << (note.tellp() > 0 ? "; " : "rate limit: ") << "the peak " << *r.peak_requests_per_minute
         << " requests/min exceed the published " << *o.requests_per_minute_limit
         << " requests/min";
  }
  if (note.tellp() > 0) {
    r.rate_limit_exceeded = true;
    r.note = note.str() + " (a higher tier, batching or spreading the load is needed)";
  }
}

}  // namespace

std::optional<double> break_even_tokens_per_day(const OptionInputs& option, const OptionInputs& api,
                                                const WorkloadInputs& workload,
                                                const SiteInputs& site,
                                                const FinanceInputs& finance) {
  if (option.kind == OptionKind::api || api.kind != OptionKind::api) return std::nullopt;
  const double upper = option.capacity_tokens_per_hour * workload.hours_per_day;
  if (!(upper > 0) || !std::isfinite(upper)) return std::nullopt;
  CashFlow own_cf, api_cf;
  const auto gap = [&](double tokens_per_day) {
    const WorkloadInputs w = at_tokens_per_day(workload, tokens_per_day);
    option_cash_flow(option, w, site, finance, own_cf);
    option_cash_flow(api, w, site, finance, api_cf);
    return std::accumulate(own_cf.total.begin(), own_cf.total.end(), 0.0) -
           std::accumulate(api_cf.total.begin(), api_cf.total.end(), 0.0);
  };
  if (gap(0) < 0) return 0.0;
  // The lowest crossing: scan (steps of units and servers make the gap non-monotone), then
  // bisect within the first interval where the option is no dearer.
  constexpr int kScanPoints = 200;
  double previous = 0;
  for (int i = 1; i <= kScanPoints; ++i) {
    const double t = upper * i / kScanPoints;
    if (gap(t) > 0) {
      previous = t;
      continue;
    }
    double lo = previous, hi = t;
    for (int k = 0; k < 100 && hi - lo > 1e-12 * upper; ++k) {
      const double mid = 0.5 * (lo + hi);
      (gap(mid) > 0 ? lo : hi) = mid;
    }
    return hi;
  }
  return std::nullopt;
}

Plan make_plan(const PlanInputs& given) {
  validate_plan_inputs(given);
  PlanInputs in = given;
  prepare_plan_inputs(in);
  Plan plan;
  plan.currency = in.finance.currency;
  plan.horizon_months = in.finance.horizon_months;
  plan.timeline = plan_timeline(in.workload, in.site, in.finance);

  FitRequest request;
  request.model = in.model;
  request.quant = in.quant;
  request.context_tokens = in.workload.context_tokens;
  request.concurrent_streams = in.workload.concurrent_streams;
  request.kv_cache = in.workload.kv_cache;

  const int horizon = in.finance.horizon_months;
  const double input_per_output =
      in.workload.tokens_per_day ? in.workload.input_tokens_per_output_token.value_or(0) : 0.0;
  const int prompt_tokens = input_per_output > 0 ? prefill_prompt_tokens(in.workload) : 0;
  // Days of use capped at the days of a month (see days_of_use): say so once.
  if (!in.workload.days_follow_convention && in.workload.hours_per_day > 0) {
    for (int m = 1; m <= horizon; ++m) {
      const double days_in_month = hours_in_month(in.workload, in.finance, m) / kHoursPerDay;
      if (in.workload.days_per_month > days_in_month) {
        plan.warnings.push_back(
            "hours of use capped: " + fixed_text(in.workload.days_per_month, 2) +
            " days of use a month exceed the " + fixed_text(days_in_month, 2) + " days of month " +
            std::to_string(m) + " under the " + to_string(in.workload.hours_per_month_convention) +
            "-hour convention; each month counts at most its own days (hours of use at most its " +
            "hours), for billing, energy and tokens alike");
        break;
      }
    }
  }
  double days_of_use_total = 0;
  for (int m = 1; m <= horizon; ++m) days_of_use_total += days_of_use(in.workload, in.finance, m);
  // The same days every month unless they follow the calendar: then the average month.
  const double hours_per_month =
      in.workload.hours_per_day * (in.workload.days_follow_convention ? days_of_use_total / horizon
                                                                      : in.workload.days_per_month);
  for (const auto& o : in.options) {
    OptionResult r;
    r.id = o.id;
    r.kind = o.kind;
    const bool api = o.kind == OptionKind::api;
    if (api) {
      // The provider serves the model: nothing to fit, no devices, no decode speed of ours.
      // The verdict says "fits" so that checks on the recommended option hold; the memory
      // figures stay 0 (reports show "hosted").
      r.feasible = true;
      r.fit.verdict = Verdict::fits;
    } else {
      r.fit = fit(request, o.device, o.count, in.memory_policy);
      r.devices_needed = devices_needed(request, o.device, 64, in.memory_policy);
      r.feasible = r.fit.verdict != Verdict::does_not_fit;
      SpeedRequest speed_request{request, o.count, o.split, o.backend, prompt_tokens};
      if (r.feasible) r.speed = estimate_speed(speed_request, o.device);
      if (r.feasible && input_per_output > 0 && !(o.prefill_tokens_per_s > 0)) {
        r.warnings.push_back("prefill not counted: FP16 throughput unknown for " + o.device.id +
                             " (its capacity counts decode only, so its load, hours and energy "
                             "leave out the prompts' " +
                             fixed_text(input_per_output, 1) + " input tokens per output token)");
      }
      r.power_unknown = !(o.device.board_power_w > 0);
      if (r.power_unknown) {
        r.warnings.push_back(o.kind == OptionKind::buy
                                 ? "energy cost not included: the board power of " + o.device.id +
                                       " is unknown (the energy row counts the host's " +
                                       fixed_text(o.host_power_w, 0) +
                                       " W only); energy and CO2e unknown"
                                 : "energy and CO2e unknown: the board power of " + o.device.id +
                                       " is unknown (the money is in the rent)");
      }
      r.power_at_load_w = o.count * o.device.board_power_w + o.host_power_w;
      r.energy_kwh_per_month =
          r.power_at_load_w / kWattsPerKilowatt * hours_per_month * pue_of(o, in.site);
    }
    r.hours_per_month = hours_per_month;
    r.cash_flow = option_cash_flow(o, in.workload, in.site, in.finance);
    r.total_cost = std::accumulate(r.cash_flow.total.begin(), r.cash_flow.total.end(), 0.0);
    r.npv = std::accumulate(r.cash_flow.discounted.begin(), r.cash_flow.discounted.end(), 0.0);
    r.annual_costs = annual_costs(r.cash_flow);
    r.cost_per_year = r.total_cost / (static_cast<double>(horizon) / kMonthsPerYear);
    // Tokens served: the demand (load x capacity during the hours of use), month by month.
    double tokens = 0;
    if (in.workload.tokens_per_day) {
      for (int m = 1; m <= horizon; ++m) {
        tokens += *in.workload.tokens_per_day * growth_factor(in.workload.growth_per_month, m) *
                  days_of_use(in.workload, in.finance, m);
      }
    } else {
      for (int m = 1; m <= horizon; ++m) {
        tokens += r.speed.aggregate_tokens_per_s * kSecondsPerHour * in.workload.hours_per_day *
                  days_of_use(in.workload, in.finance, m) *
                  growth_factor(in.workload.growth_per_month, m);
      }
    }
    if (o.kind == OptionKind::api) std::fill(r.cash_flow.load.begin(), r.cash_flow.load.end(), 0.0);
    r.tokens_per_month = tokens / horizon;
    if (r.feasible && tokens > 0) r.cost_per_million_tokens = r.total_cost / tokens * 1e6;
    if (r.feasible && in.workload.users) {
      r.cost_per_user_per_month = r.total_cost / (*in.workload.users * horizon);
    }
    energy_and_carbon(o, in.site, tokens, r);
    if (api) api_rate_limits(o, in.workload, in.finance, r);
    r.events = events_of(o, r.cash_flow);
    if (!r.feasible) {
      r.note = "the model does not fit on " + std::to_string(o.count) + " x " + o.device.id;
      if (r.devices_needed > 0) r.note += "; needs " + std::to_string(r.devices_needed);
    }
    plan.options.push_back(std::move(r));
  }

  // The rental baseline: the named one, else the feasible on-demand hourly rental that
  // costs the least per hour of use.
  std::optional<size_t> baseline;
  for (size_t i = 0; i < in.options.size(); ++i) {
    const auto& o = in.options[i];
    if (o.kind != OptionKind::rent_hourly || !plan.options[i].feasible) continue;
    if (!in.baseline_option_id.empty()) {
      if (o.id == in.baseline_option_id) baseline = i;
      continue;
    }
    if (o.term != RentTerm::on_demand) continue;
    const double per_hour = o.rate_per_gpu_hour * o.count;
    if (!baseline ||
        per_hour < in.options[*baseline].rate_per_gpu_hour * in.options[*baseline].count) {
      baseline = i;
    }
  }
  GPUTCO_REQUIRE(in.baseline_option_id.empty() || baseline,
                 "baseline " << in.baseline_option_id
                             << " is not a feasible rent_hourly option of the scenario");
  if (baseline) {
    plan.baseline_option_id = in.options[*baseline].id;
    const CashFlow& rented = plan.options[*baseline].cash_flow;
    for (size_t i = 0; i < in.options.size(); ++i) {
      if (in.options[i].kind != OptionKind::buy || !plan.options[i].feasible) continue;
      auto& r = plan.options[i];
      r.break_even_month = break_even_month(r.cash_flow, rented);
      r.break_even_hours_per_day = break_even_hours_per_day(in.options[i], in.options[*baseline],
                                                            in.workload, in.site, in.finance);
      // Hours of use over the horizon at the break-even utilization (DOMAIN E2's hours when
      // nothing but the purchase and the rent counts).
      if (r.break_even_hours_per_day) {
        r.break_even_hours = *r.break_even_hours_per_day * days_of_use_total;
      }
      std::vector<double> saving(rented.total.size());
      for (size_t m = 0; m < saving.size(); ++m) saving[m] = rented.total[m] - r.cash_flow.total[m];
      const double rented_total = plan.options[*baseline].total_cost;
      bool ever_dearer = false;
      for (size_t m = 0; m < saving.size(); ++m) {
        const double tolerance = 1e-9 * std::max(1.0, std::abs(rented.cumulative[m]));
        ever_dearer = ever_dearer || r.cash_flow.cumulative[m] > rented.cumulative[m] + tolerance;
      }
      r.never_dearer_than_baseline = !ever_dearer;
      if (!(std::abs(rented_total) > 1e-9)) {
        r.comparison_na_reason = "the baseline " + plan.baseline_option_id +
                                 " costs nothing (no hours of use): there is no saving to pay "
                                 "back an investment with";
      } else if (!ever_dearer) {
        r.comparison_na_reason = "owning never costs more than " + plan.baseline_option_id +
                                 " (cumulative): nothing to break even or pay back";
      } else if (!has_initial_outlay(saving)) {
        r.comparison_na_reason = std::string("no initial outlay (") +
                                 (in.options[i].financing == Financing::lease ? "a lease"
                                  : in.options[i].financing == Financing::loan
                                      ? "a loan without down payment"
                                      : "nothing paid up front beyond " + plan.baseline_option_id) +
                                 "): nothing invested to pay back; compare the totals and NPV";
      }
      if (r.comparison_na_reason.empty()) {
        r.payback_months = payback_months(saving);
        if (const auto monthly = internal_rate_of_return(saving)) {
          r.irr = annual_from_monthly(*monthly);
        }
      } else {
        r.warnings.push_back("payback and IRR n/a: " + r.comparison_na_reason);
      }
      r.note = "break-even against " + plan.baseline_option_id;
    }
  }

  // Break-even volume against the cheapest feasible api option (by total cost).
  std::optional<size_t> api_reference;
  for (size_t i = 0; i < in.options.size(); ++i) {
    if (in.options[i].kind != OptionKind::api || !plan.options[i].feasible) continue;
    if (!api_reference || plan.options[i].total_cost < plan.options[*api_reference].total_cost) {
      api_reference = i;
    }
  }
  if (api_reference) {
    plan.api_reference_option_id = in.options[*api_reference].id;
    for (size_t i = 0; i < in.options.size(); ++i) {
      if (in.options[i].kind == OptionKind::api || !plan.options[i].feasible) continue;
      plan.options[i].break_even_tokens_per_day = break_even_tokens_per_day(
          in.options[i], in.options[*api_reference], in.workload, in.site, in.finance);
    }
  }

  // Recommendation: the feasible option with the lowest NPV of cost; ties keep file order.
  std::optional<size_t> best;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    if (!plan.options[i].feasible) continue;
    if (!best || plan.options[i].npv < plan.options[*best].npv) best = i;
  }
  if (best) {
    plan.recommendation = plan.options[*best].id;
    plan.recommendation_reason = "lowest NPV of cost among the options that hold the model";
    const OptionResult& chosen = plan.options[*best];
    if (chosen.power_unknown && chosen.kind == OptionKind::buy) {
      plan.recommendation_reason += "; its energy cost is not included: the board power of " +
                                    in.options[*best].device.id + " is unknown";
    }
  } else {
    plan.recommendation_reason = "no option holds the model";
  }
  return plan;
}

}  // namespace gputco
