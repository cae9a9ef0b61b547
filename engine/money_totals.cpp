#include "engine/money_totals.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "engine/billing.hpp"
#include "engine/capacity.hpp"
#include "engine/energy.hpp"
#include "engine/load_shape.hpp"
#include "engine/timeline.hpp"
#include "engine/units.hpp"

namespace gputco {

bool money_totals_direct(const OptionInputs& o) {
  if (any_cost_line(o.cost_lines)) return false;
  return o.kind != OptionKind::buy || o.financing == Financing::cash;
}

namespace {

/// The two sums of G options' month totals, month by month, each option's in its own order.
template <std::size_t G>
void sum_group(const MoneyScratch* scratches, const double* discount, std::size_t n,
               MoneyTotals* out) {
  std::array<const double*, G> t{};
  for (std::size_t j = 0; j < G; ++j) t[j] = scratches[j].rows.total.data();
  std::array<double, G> total{};
  std::array<double, G> npv{};
  for (std::size_t m = 0; m < n; ++m) {
    for (std::size_t j = 0; j < G; ++j) {
      total[j] += t[j][m];
      npv[j] += t[j][m] * discount[m];
    }
  }
  for (std::size_t j = 0; j < G; ++j) out[j] = {total[j], npv[j]};
}

}  // namespace

void sum_money_totals(const MoneyScratch* scratches, std::size_t count,
                      const std::vector<double>& discount_factor, MoneyTotals* out) {
  const std::size_t n = discount_factor.size();
  const double* discount = discount_factor.data();
  std::size_t k = 0;
  for (; k + 4 <= count; k += 4) sum_group<4>(scratches + k, discount, n, out + k);
  switch (count - k) {
    case 3:
      sum_group<3>(scratches + k, discount, n, out + k);
      break;
    case 2:
      sum_group<2>(scratches + k, discount, n, out + k);
      break;
    case 1:
      sum_group<1>(scratches + k, discount, n, out + k);
      break;
    default:
      break;
  }
}

MoneyTotals money_totals(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                         const FinanceInputs& f, const MonthFactors& x, MoneyScratch& scratch) {
  money_month_totals(o, w, site, f, x, scratch);
  MoneyTotals out;
  sum_money_totals(&scratch, 1, x.discount_factor, &out);
  return out;
}

void money_month_totals(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                        const FinanceInputs& f, const MonthFactors& x, MoneyScratch& scratch) {
  if (!money_totals_direct(o)) {
    option_cash_flow(o, w, site, f, x, scratch.rows, CashFlowRows::money);
    return;
  }
  // Every expression below is option_cash_flow's (engine/cash_flow.cpp) for the same amount:
  // the load and units of its first loop, then its kind's flows, then VAT.
  const int n_months = f.horizon_months;
  const auto last = static_cast<size_t>(n_months);
  const double load_1 = base_load(o, w);
  const bool whole_units = adds_units(o);
  const double peak_multiplier = x.shape.peak_multiplier;
  const bool has_units = o.kind == OptionKind::buy || o.kind == OptionKind::rent_monthly ||
                         (o.kind == OptionKind::rent_hourly && term_months(o.term) > 0);
  const bool vat = !f.vat_reclaimable && f.vat_rate > 0;
  // Owned (bought for cash: no financing row).
  const bool owned = o.kind == OptionKind::buy;
  const double unit_capex = owned ? capex_of(o) : 0.0;
  const double ratio = owned ? overflow_units_per_load(o, w) : 0.0;
  const double hosting_per_unit =
      o.hosting == Hosting::colocation
          ? o.colo_per_kw_month * o.contracted_kw + o.colo_per_rack_unit_month * o.rack_units
          : 0.0;
  const double energy_per_hour = owned ? energy_cost_per_hour(o, site) : 0.0;
  const double idle_per_hour =
      !owned || (o.hosting == Hosting::colocation && !o.power_metered)
          ? 0.0
          : o.idle_power_w / kWattsPerKilowatt * tariff_of(o, site) * pue_of(o, site);
  // The same product as option_cash_flow's per month, its left part taken out of the loop
  // (left to right: ((rate / 12 x count) x price) x units).
  const double failures_per_unit =
      o.annual_failure_rate / kMonthsPerYear * o.count * o.price_per_gpu;
  // Hourly rentals.
  const double per_hour = o.rate_per_gpu_hour * o.count;
  const int term = o.kind == OptionKind::rent_hourly ? term_months(o.term) : 0;
  // An api's fees per day.
  double api_per_day = 0;
  if (o.kind == OptionKind::api) {
    const double output_per_day = w.tokens_per_day.value_or(0);
    const double input_per_day = output_per_day * w.input_tokens_per_output_token.value_or(0);
    api_per_day =
        (input_per_day * o.input_price_per_million + output_per_day * o.output_price_per_million) /
        kTokensPerMillion;
  }

  // The load and units of every month, by option_cash_flow's first loop, unless scratch holds
  // those of the same inputs (then the same values: e.g. every Monte Carlo draw that does not
  // move the demand or its growth).
  const size_t n = last + 1;
  // An on-demand rental billed always on: its instances per month (billed_instance_hours'
  // always_on_instances(max(0, load) x peak multiplier)) depend on the load alone.
  const bool always_on = o.kind == OptionKind::rent_hourly && term == 0 &&
                         o.hourly_billing.billing == Billing::always_on;
  if (!(scratch.load.size() == n && scratch.load_1 == load_1 &&
        scratch.peak_multiplier == peak_multiplier &&
        scratch.growth_per_month == x.growth_per_month && scratch.has_units == has_units &&
        scratch.whole_units == whole_units && scratch.always_on == always_on)) {
    scratch.load.resize(n);
    scratch.units.resize(n);
    scratch.instances.resize(always_on ? n : 0);
    double peak = 0;
    for (size_t m = 0; m < n; ++m) {
      scratch.load[m] = load_1 * x.growth[m];
      peak = std::max(peak, scratch.load[m] * peak_multiplier);
      scratch.units[m] =
          has_units ? (whole_units ? std::max(1.0, std::ceil(peak - kLoadTolerance)) : 1.0) : 0.0;
      if (always_on) {
        scratch.instances[m] =
            always_on_instances(std::max(0.0, scratch.load[m]) * peak_multiplier);
      }
    }
    scratch.load_1 = load_1;
    scratch.peak_multiplier = peak_multiplier;
    scratch.growth_per_month = x.growth_per_month;
    scratch.has_units = has_units;
    scratch.whole_units = whole_units;
    scratch.always_on = always_on;
  }
  // The months' totals go to scratch.rows.total and are summed by sum_money_totals: two sums
  // carried through the loop were paired by GCC in a vector kept on the stack, a store and a
  // load a month.
  scratch.rows.total.resize(n);
  // Everything the loop reads, in locals: the calls some paths make (served_load on a day
  // with a peak, the billing of autoscaled and overflow rentals) would otherwise have every
  // field and row pointer read again from memory each month. The same values, so the same
  // expressions give the same bits.
  double* const month_total = scratch.rows.total.data();
  const double* const load_row = scratch.load.data();
  const double* const units_row = scratch.units.data();
  const double* const instances = scratch.instances.data();
  const double* const hours_of_use = x.hours_of_use.data();
  const double* const hours_in = x.hours_in_month.data();
  const double* const days_of_use = x.days_of_use.data();
  const double* const availability = x.availability_hours.data();
  const double* const growth = x.growth.data();
  const double* const tariff_trend = x.tariff_trend.data();
  const double* const rent_trend = x.rent_trend.data();
  const double* const api_trend = x.api_trend.data();
  const DailyLoadShape& shape = x.shape;
  const bool flat = shape.flat;
  const OptionKind kind = o.kind;
  const double idle_power_w = o.idle_power_w;
  const bool powered_off_when_idle = o.powered_off_when_idle;
  const double maintenance_per_year = o.maintenance_per_year;
  const int warranty_months = o.warranty_months;
  const bool rents_overflow = o.overflow == Overflow::rent;
  const double overflow_rate_per_hour = o.overflow_rate_per_hour;
  const double goodput = o.goodput;
  const double setup_fee = o.setup_fee;
  const double price_per_month = o.price_per_month;
  const int notice_months = o.notice_months;
  const double residual_fraction = o.residual_fraction;
  const double vat_rate = f.vat_rate;
  const double hours_per_average_month = average_hours_per_month(w.hours_per_month_convention);
  // CashFlow::total's order (capex, energy, maintenance, hosting, failures, rent,
  // financing, vat, resale, cost lines) without the rows that are 0 here; VAT's the same.
  const auto set_month = [month_total, vat, vat_rate](size_t m, double capex, double energy,
                                                      double maintenance_m, double hosting,
                                                      double failures, double rent, double resale) {
    double total = capex + energy + maintenance_m + hosting + failures + rent;
    if (vat) total += vat_rate * (capex + energy + maintenance_m + hosting + failures + rent);
    total += resale;
    month_total[m] = total;
  };
  // One loop per kind (the kind's amounts, the others 0 as option_cash_flow leaves them).
  switch (kind) {
    case OptionKind::buy: {
      double previous_units = 0, capex_total = 0;
      // Maintenance depends on the month through the units only: recomputed when they change.
      double maintenance_units = -1, maintenance = 0;
      for (size_t m = 0; m <= last; ++m) {
        const double load = load_row[m];
        const double units = units_row[m];
        const double capex = unit_capex * (units - previous_units);
        capex_total += capex;
        double energy = 0, maintenance_m = 0, hosting = 0, failures = 0, rent = 0;
        if (m > 0) {
          const double hours = hours_of_use[m];
          // served_load's own first answer on a flat day, without the call.
          const double served = flat ? std::min(load, units) : served_load(load, units, shape);
          energy = served * energy_per_hour * hours * tariff_trend[m];
          if (idle_power_w > 0) {
            const double powered_hours = powered_off_when_idle ? hours : hours_in[m];
            const double idle_unit_hours = std::max(0.0, units * powered_hours - served * hours);
            energy += idle_unit_hours * idle_per_hour * tariff_trend[m];
          }
          if (units != maintenance_units) {
            maintenance = unit_capex * units * maintenance_per_year / kMonthsPerYear;
            maintenance_units = units;
          }
          maintenance_m = maintenance;
          hosting = units * hosting_per_unit;
          if (static_cast<int>(m) > warranty_months) failures = failures_per_unit * units;
          if (rents_overflow) {
            const double billed = billed_overflow_instance_hours(
                o.overflow_billing, load, units, ratio, shape, days_of_use[m], availability[m]);
            rent = billed * overflow_rate_per_hour * rent_trend[m];
          }
        }
        const double resale = m == last ? -residual_fraction * capex_total : 0.0;
        set_month(m, capex, energy, maintenance_m, hosting, failures, rent, resale);
        previous_units = units;
      }
      break;
    }
    case OptionKind::rent_hourly:
      for (size_t m = 0; m <= last; ++m) {
        double rent = 0;
        if (m > 0) {
          const double units = units_row[m];
          if (term > 0) {
            rent = per_hour * units * hours_in[m];
            if (m == last) {
              const int committed = (n_months + term - 1) / term * term;
              rent += (committed - n_months) * per_hour * units * hours_per_average_month;
            }
          } else {
            // always_on: billed_instance_hours' product, its instances kept in scratch.
            const double billed = always_on
                                      ? instances[m] * std::max(0.0, availability[m])
                                      : billed_instance_hours(o.hourly_billing, load_row[m], shape,
                                                              days_of_use[m], availability[m]);
            rent = per_hour * billed / goodput * rent_trend[m];
          }
        }
        set_month(m, 0, 0, 0, 0, 0, rent, 0);
      }
      break;
    case OptionKind::rent_monthly: {
      double previous_units = 0;
      for (size_t m = 0; m <= last; ++m) {
        const double units = units_row[m];
        double rent = m == 0 ? setup_fee * units
                             : price_per_month * units + setup_fee * (units - previous_units);
        if (m == last) rent += notice_months * price_per_month * units;
        set_month(m, 0, 0, 0, 0, 0, rent, 0);
        previous_units = units;
      }
      break;
    }
    case OptionKind::api:
      for (size_t m = 0; m <= last; ++m) {
        const double rent = m > 0 ? days_of_use[m] * growth[m] * api_per_day * api_trend[m] : 0.0;
        set_month(m, 0, 0, 0, 0, 0, rent, 0);
      }
      break;
  }
}

}  // namespace gputco
