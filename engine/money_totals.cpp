#include "engine/money_totals.hpp"

#include <algorithm>
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

MoneyTotals money_totals(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                         const FinanceInputs& f, const MonthFactors& x, MoneyScratch& scratch) {
  MoneyTotals out;
  if (!money_totals_direct(o)) {
    CashFlow& rows = scratch.rows;
    option_cash_flow(o, w, site, f, x, rows, CashFlowRows::money);
    out.total = std::accumulate(rows.total.begin(), rows.total.end(), 0.0);
    out.npv = std::accumulate(rows.discounted.begin(), rows.discounted.end(), 0.0);
    return out;
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
  if (!(scratch.load.size() == n && scratch.load_1 == load_1 &&
        scratch.peak_multiplier == peak_multiplier &&
        scratch.growth_per_month == x.growth_per_month && scratch.has_units == has_units &&
        scratch.whole_units == whole_units)) {
    scratch.load.resize(n);
    scratch.units.resize(n);
    double peak = 0;
    for (size_t m = 0; m < n; ++m) {
      scratch.load[m] = load_1 * x.growth[m];
      peak = std::max(peak, scratch.load[m] * peak_multiplier);
      scratch.units[m] =
          has_units ? (whole_units ? std::max(1.0, std::ceil(peak - kLoadTolerance)) : 1.0) : 0.0;
    }
    scratch.load_1 = load_1;
    scratch.peak_multiplier = peak_multiplier;
    scratch.growth_per_month = x.growth_per_month;
    scratch.has_units = has_units;
    scratch.whole_units = whole_units;
  }
  // The months' totals go to scratch.rows.total and are summed after the loop: two sums
  // carried through the loop were paired by GCC in a vector kept on the stack, a store and a
  // load a month.
  std::vector<double>& month_total = scratch.rows.total;
  month_total.resize(n);
  double previous_units = 0, capex_total = 0;
  // Maintenance depends on the month through the units only: recomputed when they change.
  double maintenance_units = -1, maintenance = 0;
  for (size_t m = 0; m <= last; ++m) {
    const double load = scratch.load[m];
    const double units = scratch.units[m];
    double capex = 0, energy = 0, hosting = 0, failures = 0, rent = 0, resale = 0;
    double maintenance_m = 0;
    switch (o.kind) {
      case OptionKind::buy: {
        capex = unit_capex * (units - previous_units);
        capex_total += capex;
        if (m == 0) break;
        const double hours = x.hours_of_use[m];
        const double served = served_load(load, units, x.shape);
        energy = served * energy_per_hour * hours * x.tariff_trend[m];
        if (o.idle_power_w > 0) {
          const double powered_hours = o.powered_off_when_idle ? hours : x.hours_in_month[m];
          const double idle_unit_hours = std::max(0.0, units * powered_hours - served * hours);
          energy += idle_unit_hours * idle_per_hour * x.tariff_trend[m];
        }
        if (units != maintenance_units) {
          maintenance = unit_capex * units * o.maintenance_per_year / kMonthsPerYear;
          maintenance_units = units;
        }
        maintenance_m = maintenance;
        hosting = units * hosting_per_unit;
        if (static_cast<int>(m) > o.warranty_months) failures = failures_per_unit * units;
        if (o.overflow == Overflow::rent) {
          const double billed =
              billed_overflow_instance_hours(o.overflow_billing, load, units, ratio, x.shape,
                                             x.days_of_use[m], x.availability_hours[m]);
          rent = billed * o.overflow_rate_per_hour * x.rent_trend[m];
        }
        break;
      }
      case OptionKind::rent_hourly:
        if (m == 0) break;
        if (term > 0) {
          rent = per_hour * units * x.hours_in_month[m];
          if (m == last) {
            const int committed = (n_months + term - 1) / term * term;
            rent += (committed - n_months) * per_hour * units *
                    average_hours_per_month(w.hours_per_month_convention);
          }
        } else {
          const double billed = billed_instance_hours(o.hourly_billing, load, x.shape,
                                                      x.days_of_use[m], x.availability_hours[m]);
          rent = per_hour * billed / o.goodput * x.rent_trend[m];
        }
        break;
      case OptionKind::rent_monthly:
        rent = m == 0 ? o.setup_fee * units
                      : o.price_per_month * units + o.setup_fee * (units - previous_units);
        if (m == last) rent += o.notice_months * o.price_per_month * units;
        break;
      case OptionKind::api:
        if (m > 0) rent = x.days_of_use[m] * x.growth[m] * api_per_day * x.api_trend[m];
        break;
    }
    if (owned && m == last) resale = -o.residual_fraction * capex_total;
    // CashFlow::total's order (capex, energy, maintenance, hosting, failures, rent,
    // financing, vat, resale, cost lines) without the rows that are 0 here; VAT's the same.
    double total = capex + energy + maintenance_m + hosting + failures + rent;
    if (vat) total += f.vat_rate * (capex + energy + maintenance_m + hosting + failures + rent);
    total += resale;
    month_total[m] = total;
    previous_units = units;
  }
  // Two loops, as make_plan sums them: in one, GCC pairs the two sums in a vector kept on the
  // stack (a store and a load a month, the loop's bottleneck).
  out.total = std::accumulate(month_total.begin(), month_total.end(), 0.0);
  double npv = 0;
  for (size_t m = 0; m <= last; ++m) npv += month_total[m] * x.discount_factor[m];
  out.npv = npv;
  return out;
}

}  // namespace gputco
