#include "engine/money/cash_flow.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/units.hpp"
#include "engine/finance/billing.hpp"
#include "engine/finance/finance.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/energy.hpp"
#include "engine/money/month_factors.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {

/// Capital cost of one unit of an owned option: devices plus host.
double capex_of(const OptionInputs& o) {
  return o.count * o.price_per_gpu + o.host_cost;
}

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

bool any_cost_line(const CostLines& l) {
  return l.staff_hours_per_month || l.staff_rate_per_hour || l.staff_fte ||
         l.staff_salary_per_year || l.licence_per_month || l.licence_per_year ||
         l.licence_per_gpu_per_year || l.support_per_month || l.support_per_year ||
         l.support_per_gpu_per_year || l.insurance_per_year || l.colo_extras_per_month;
}

namespace {

/// Sizes the rows option_cash_flow sets to n months, zeroed where a kind writes only some
/// months (or none); the rows written whole (load, total, discounted, and under
/// CashFlowRows::all cumulative and discount_factor) are zeroed too under CashFlowRows::all
/// only.
void size_rows(CashFlow& cf, size_t n, CashFlowRows rows) {
  for (auto* row : {&cf.capex, &cf.energy, &cf.maintenance, &cf.rent, &cf.resale, &cf.hosting,
                    &cf.failures, &cf.financing, &cf.vat, &cf.units, &cf.overflow_load,
                    &cf.colo_extras, &cf.insurance, &cf.staff, &cf.licences, &cf.support}) {
    row->assign(n, 0.0);
  }
  if (rows == CashFlowRows::money) {
    for (auto* row : {&cf.load, &cf.total, &cf.discounted}) row->resize(n);
    return;
  }
  for (auto* row : {&cf.load, &cf.total, &cf.cumulative, &cf.discount_factor, &cf.discounted,
                    &cf.depreciation, &cf.book_value, &cf.interest, &cf.energy_kwh, &cf.idle_kwh,
                    &cf.co2e_kg, &cf.overflow_kwh, &cf.overflow_co2e_kg}) {
    row->assign(n, 0.0);
  }
}

/// Month m's total: the workbook's Total is SUM(capex:resale) over the rows in this order.
/// The cost lines come last: a plan without them sums exactly as before (x + 0 = x).
double month_total(const CashFlow& cf, size_t m) {
  return cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.hosting[m] + cf.failures[m] +
         cf.rent[m] + cf.financing[m] + cf.vat[m] + cf.resale[m] + cf.colo_extras[m] +
         cf.insurance[m] + cf.staff[m] + cf.licences[m] + cf.support[m];
}

/// Fills the derived rows (total, cumulative, discounted) from the component rows.
/// Under CashFlowRows::money cumulative and discount_factor are left as they were.
void finish_cash_flow(CashFlow& cf, const MonthFactors& factors, CashFlowRows rows) {
  const size_t n = cf.capex.size();
  if (rows == CashFlowRows::money) {
    for (size_t m = 0; m < n; ++m) {
      cf.total[m] = month_total(cf, m);
      // The same product as below: discount_factor[m] is a copy of factors.discount_factor[m].
      cf.discounted[m] = cf.total[m] * factors.discount_factor[m];
    }
    return;
  }
  double running = 0;
  for (size_t m = 0; m < n; ++m) {
    cf.total[m] = month_total(cf, m);
    running += cf.total[m];
    cf.cumulative[m] = running;
    // Monthly discounting with the effective annual rate: a flow at the end of month m is
    // worth (1 + r)^(-m/12) today (MonthFactors::discount_factor).
    cf.discount_factor[m] = factors.discount_factor[m];
    cf.discounted[m] = cf.total[m] * cf.discount_factor[m];
  }
}

void api_flows(const OptionInputs& o, const WorkloadInputs& w, const FinanceInputs& f,
               const MonthFactors& x, CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  const double output_per_day = w.tokens_per_day.value_or(0);
  const double input_per_day = output_per_day * w.input_tokens_per_output_token.value_or(0);
  const double per_day =
      (input_per_day * o.input_price_per_million + output_per_day * o.output_price_per_million) /
      kTokensPerMillion;
  for (size_t m = 1; m <= last; ++m) {
    cf.rent[m] = x.days_of_use[m] * x.growth[m] * per_day * x.api_trend[m];
  }
}

/// Under CashFlowRows::money the accounting rows (interest, depreciation, book_value) are
/// not set: none enters total.
void owned_flows(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                 const FinanceInputs& f, const MonthFactors& x, CashFlowRows rows, CashFlow& cf) {
  const bool accounting = rows == CashFlowRows::all;
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
  const DailyLoadShape& shape = x.shape;
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
    const double hours = x.hours_of_use[m];
    const double served = served_load(cf.load[m], units, shape);
    cf.energy[m] = served * energy_per_hour * hours * x.tariff_trend[m];
    if (o.idle_power_w > 0) {
      // Switched off when idle: powered through the hours of use only, idle where not serving.
      const double powered_hours = o.powered_off_when_idle ? hours : x.hours_in_month[m];
      const double idle_unit_hours = std::max(0.0, units * powered_hours - served * hours);
      cf.energy[m] += idle_unit_hours * idle_per_hour * x.tariff_trend[m];
    }
    cf.maintenance[m] = unit_capex * units * o.maintenance_per_year / kMonthsPerYear;
    cf.hosting[m] = units * hosting_per_unit;
    if (month > o.warranty_months) {
      cf.failures[m] = o.annual_failure_rate / kMonthsPerYear * o.count * o.price_per_gpu * units;
    }
    if (o.overflow == Overflow::rent) {
      cf.overflow_load[m] = std::max(0.0, cf.load[m] - served);  // what the units leave over
      // Billed as the rental bills its instances (issue #21), not per load-hour.
      const double billed =
          billed_overflow_instance_hours(o.overflow_billing, cf.load[m], units, ratio, shape,
                                         x.days_of_use[m], x.availability_hours[m]);
      cf.rent[m] = billed * o.overflow_rate_per_hour * x.rent_trend[m];
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
      if (!accounting) continue;
      // The instalment's interest: the balance owed after the previous one x the rate.
      cf.interest[m] =
          annuity_balance(principal, rate, o.loan_term_months, static_cast<int>(m) - 1) * rate;
    }
    cf.financing[last] += annuity_balance(principal, rate, o.loan_term_months, n_months);
  } else if (lease) {
    const double fee_per_unit = o.lease_rate_per_month * unit_capex;
    for (size_t m = 1; m <= last; ++m) cf.financing[m] = fee_per_unit * cf.units[m];
    if (o.lease_term_months > n_months) {
      cf.financing[last] += (o.lease_term_months - n_months) * fee_per_unit * cf.units[last];
    }
  }

  if (!accounting) return;
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
                       const MonthFactors& x, CashFlow& cf) {
  const auto last = static_cast<size_t>(f.horizon_months);
  const double per_hour = o.rate_per_gpu_hour * o.count;
  const int term = term_months(o.term);
  for (size_t m = 1; m <= last; ++m) {
    if (term > 0) {
      cf.rent[m] = per_hour * cf.units[m] * x.hours_in_month[m];
    } else {
      const double billed = billed_instance_hours(o.hourly_billing, cf.load[m], x.shape,
                                                  x.days_of_use[m], x.availability_hours[m]);
      cf.rent[m] = per_hour * billed / o.goodput * x.rent_trend[m];
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

/// Devices in service in month m, for per-device licences and support: the units in service
/// (owned, reserved, monthly servers) or the instances an hourly rental runs at its load
/// (at least one), times the devices per unit; none for an api.
double devices_in_service(const OptionInputs& o, double peak_multiplier, const CashFlow& cf,
                          size_t m) {
  switch (o.kind) {
    case OptionKind::api:
      return 0;
    case OptionKind::rent_hourly:
      if (term_months(o.term) == 0) {
        return o.count * std::max(static_cast<double>(o.hourly_billing.min_instances),
                                  always_on_instances(cf.load[m] * peak_multiplier));
      }
      break;
    case OptionKind::buy:
    case OptionKind::rent_monthly:
      break;
  }
  return o.count * cf.units[m];
}

/// The cost lines (engine/finance/cost_lines.hpp), paid in arrears each month 1..N.
void cost_line_flows(const OptionInputs& o, const FinanceInputs& f, const MonthFactors& x,
                     CashFlow& cf) {
  const CostLines& lines = o.cost_lines;
  if (!any_cost_line(lines)) return;  // the rows are sized with zeros
  const auto last = static_cast<size_t>(f.horizon_months);
  const bool owned = o.kind == OptionKind::buy;
  const double staff = staff_per_month(lines);
  const double peak_multiplier = x.shape.peak_multiplier;
  for (size_t m = 1; m <= last; ++m) {
    const double devices = devices_in_service(o, peak_multiplier, cf, m);
    cf.staff[m] = staff;
    cf.licences[m] = licences_per_month(lines, devices);
    cf.support[m] = support_per_month(lines, devices);
    if (owned) cf.insurance[m] = insurance_per_month(lines, capex_of(o) * cf.units[m]);
    if (owned && o.hosting == Hosting::colocation) {
      cf.colo_extras[m] = lines.colo_extras_per_month.value_or(0.0) * cf.units[m];
    }
  }
}

}  // namespace

void option_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                      const FinanceInputs& f, CashFlow& cf) {
  option_cash_flow(o, w, site, f, month_factors(w, site, f), cf);
}

void option_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                      const FinanceInputs& f, const MonthFactors& x, CashFlow& cf,
                      CashFlowRows rows) {
  const auto last = static_cast<size_t>(f.horizon_months);
  size_rows(cf, last + 1, rows);
  // Load and units: index 0 holds month 1's load (what the start must be sized for).
  const double load_1 = base_load(o, w);
  const bool whole_units = adds_units(o);
  // Units are sized for the peak hour's load (issue #21): load x the day's peak multiplier.
  const double peak_multiplier = x.shape.peak_multiplier;
  const bool has_units = o.kind == OptionKind::buy || o.kind == OptionKind::rent_monthly ||
                         (o.kind == OptionKind::rent_hourly && term_months(o.term) > 0);
  double peak = 0;
  for (size_t m = 0; m <= last; ++m) {
    cf.load[m] = load_1 * x.growth[m];
    peak = std::max(peak, cf.load[m] * peak_multiplier);
    if (has_units) {
      cf.units[m] = whole_units ? std::max(1.0, std::ceil(peak - kLoadTolerance)) : 1.0;
    }
  }
  switch (o.kind) {
    case OptionKind::buy:
      owned_flows(o, w, site, f, x, rows, cf);
      break;
    case OptionKind::rent_hourly:
      rent_hourly_flows(o, w, f, x, cf);
      break;
    case OptionKind::rent_monthly:
      rent_monthly_flows(o, f, cf);
      break;
    case OptionKind::api:
      api_flows(o, w, f, x, cf);
      break;
  }
  if (rows == CashFlowRows::all) energy_rows(o, w, site, f, x, cf);  // kWh and CO2e: not money
  cost_line_flows(o, f, x, cf);
  if (!f.vat_reclaimable && f.vat_rate > 0) {
    const bool lease = o.kind == OptionKind::buy && o.financing == Financing::lease;
    // Staff (wages) and insurance (exempt: VAT Directive 2006/112/EC, art. 135(1)(a)) carry
    // no VAT; licences, support and colocation extras do.
    for (size_t m = 0; m <= last; ++m) {
      cf.vat[m] = f.vat_rate * (cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.hosting[m] +
                                cf.failures[m] + cf.rent[m] + (lease ? cf.financing[m] : 0.0) +
                                cf.colo_extras[m] + cf.licences[m] + cf.support[m]);
    }
  }
  finish_cash_flow(cf, x, rows);
}

void clear_cash_flow(CashFlow& cf) {
  for (auto* row :
       {&cf.capex,     &cf.energy,       &cf.maintenance,     &cf.rent,       &cf.resale,
        &cf.total,     &cf.cumulative,   &cf.discounted,      &cf.hosting,    &cf.failures,
        &cf.financing, &cf.vat,          &cf.depreciation,    &cf.book_value, &cf.colo_extras,
        &cf.insurance, &cf.staff,        &cf.licences,        &cf.support,    &cf.interest,
        &cf.load,      &cf.units,        &cf.overflow_load,   &cf.energy_kwh, &cf.idle_kwh,
        &cf.co2e_kg,   &cf.overflow_kwh, &cf.overflow_co2e_kg}) {
    std::fill(row->begin(), row->end(), 0.0);
  }
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

}  // namespace gputco
