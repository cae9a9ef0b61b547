#include "engine/money/money_totals.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "engine/base/units.hpp"
#include "engine/finance/billing.hpp"
#include "engine/finance/cost_lines.hpp"
#include "engine/finance/finance.hpp"
#include "engine/finance/load_shape.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/money/energy.hpp"
#include "engine/money/timeline.hpp"

namespace gputco {

bool money_totals_direct(const OptionInputs&) {
  // Every kind, financing and cost line since issue #43 (the serving-engine examples carry
  // staff, licences and a loan: the rows path held their Monte Carlo to 0.15 s a 100,000
  // draws).
  return true;
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

namespace {

/// The cost-line amounts of a month, as option_cash_flow's cost_line_flows computes them (0
/// where not entered), recomputed only when the devices or units in service change: the same
/// function of the same values, so the same bits.
class CostLineMonth {
 public:
  explicit CostLineMonth(const OptionInputs& o)
      : lines_(o.cost_lines),
        owned_(o.kind == OptionKind::buy),
        colocated_(owned_ && o.hosting == Hosting::colocation),
        unit_capex_(capex_of(o)),
        staff_(staff_per_month(o.cost_lines)) {}
  /// Month m >= 1 with `devices` devices and `units` units in service.
  void set(double devices, double units) {
    if (devices != devices_) {
      licences = licences_per_month(lines_, devices);
      support = support_per_month(lines_, devices);
      devices_ = devices;
    }
    if (units != units_) {
      insurance = owned_ ? insurance_per_month(lines_, unit_capex_ * units) : 0.0;
      colo_extras = colocated_ ? lines_.colo_extras_per_month.value_or(0.0) * units : 0.0;
      units_ = units;
    }
    staff = staff_;
  }
  /// Month 0: no cost line is paid.
  void none() {
    staff = licences = support = insurance = colo_extras = 0;
    devices_ = units_ = std::numeric_limits<double>::quiet_NaN();
  }
  double staff = 0, licences = 0, support = 0, insurance = 0, colo_extras = 0;

 private:
  const CostLines& lines_;
  bool owned_, colocated_;
  double unit_capex_, staff_;
  double devices_ = std::numeric_limits<double>::quiet_NaN();
  double units_ = std::numeric_limits<double>::quiet_NaN();
};

/// One month's amounts of the rows that enter the total, cost lines apart.
struct MonthParts {
  double capex = 0, energy = 0, maintenance = 0, hosting = 0, failures = 0, rent = 0;
  double financing = 0, resale = 0;
};

/// Writes month totals: CashFlow::total's order (capex, energy, maintenance, hosting,
/// failures, rent, financing, vat, resale, colocation extras, insurance, staff, licences,
/// support), VAT as option_cash_flow's, the terms that are 0 for an option without cost lines
/// or financing left out (x + 0 = x).
struct MonthTotals {
  double* total;
  bool vat;
  double vat_rate;
  bool lease;   ///< a lease's fees carry VAT
  bool extras;  ///< cost lines or financing
  CostLineMonth lines;

  void set(size_t m, const MonthParts& p) const {
    const double base = p.capex + p.energy + p.maintenance + p.hosting + p.failures + p.rent;
    if (!extras) {
      double t = base;
      if (vat) t += vat_rate * base;
      total[m] = t + p.resale;
      return;
    }
    double t = base + p.financing;
    if (vat) {
      t += vat_rate * (base + (lease ? p.financing : 0.0) + lines.colo_extras + lines.licences +
                       lines.support);
    }
    t += p.resale;
    t += lines.colo_extras;
    t += lines.insurance;
    t += lines.staff;
    t += lines.licences;
    t += lines.support;
    total[m] = t;
  }
};

/// What every kind's loop reads: the inputs' rows and the option's constants.
struct DirectInputs {
  const OptionInputs& o;
  const WorkloadInputs& w;
  const FinanceInputs& f;
  const MonthFactors& x;
  const MoneyScratch& scratch;
  size_t last;
};

void owned_months(const DirectInputs& d, const SiteInputs& site, MonthTotals& out) {
  const OptionInputs& o = d.o;
  const MonthFactors& x = d.x;
  const DailyLoadShape& shape = x.shape;
  const bool flat = shape.flat;
  const bool lease = o.financing == Financing::lease;
  const bool loan = o.financing == Financing::loan;
  const double unit_capex = capex_of(o);
  const double ratio = overflow_units_per_load(o, d.w);
  const double hosting_per_unit =
      o.hosting == Hosting::colocation
          ? o.colo_per_kw_month * o.contracted_kw + o.colo_per_rack_unit_month * o.rack_units
          : 0.0;
  const double energy_per_hour = energy_cost_per_hour(o, site);
  const double idle_per_hour =
      o.hosting == Hosting::colocation && !o.power_metered
          ? 0.0
          : o.idle_power_w / kWattsPerKilowatt * tariff_of(o, site) * pue_of(o, site);
  // The same product as option_cash_flow's per month, its left part taken out of the loop
  // (left to right: ((rate / 12 x count) x price) x units).
  const double failures_per_unit =
      o.annual_failure_rate / kMonthsPerYear * o.count * o.price_per_gpu;
  const double* const load_row = d.scratch.load.data();
  const double* const units_row = d.scratch.units.data();
  const int n_months = d.f.horizon_months;
  const double fee_per_unit = o.lease_rate_per_month * unit_capex;
  double principal = 0, rate = 0, payment = 0;
  double previous_units = 0, capex_total = 0;
  // Maintenance depends on the month through the units only: recomputed when they change.
  double maintenance_units = -1, maintenance = 0;
  for (size_t m = 0; m <= d.last; ++m) {
    MonthParts p;
    const double load = load_row[m];
    const double units = units_row[m];
    if (!lease) p.capex = unit_capex * (units - previous_units);
    capex_total += p.capex;
    if (m == 0) {
      out.lines.none();
      if (loan) {
        // option_cash_flow's loan: the month-0 purchase financed, its annuity after.
        principal = p.capex * (1.0 - o.down_payment_fraction);
        rate = o.loan_rate_per_year / kMonthsPerYear;
        payment = annuity_payment(principal, rate, o.loan_term_months);
        p.financing = -principal;
      }
    } else {
      const double hours = x.hours_of_use[m];
      // served_load's own first answer on a flat day, without the call.
      const double served = flat ? std::min(load, units) : served_load(load, units, shape);
      p.energy = served * energy_per_hour * hours * x.tariff_trend[m];
      if (o.idle_power_w > 0) {
        const double powered_hours = o.powered_off_when_idle ? hours : x.hours_in_month[m];
        const double idle_unit_hours = std::max(0.0, units * powered_hours - served * hours);
        p.energy += idle_unit_hours * idle_per_hour * x.tariff_trend[m];
      }
      if (units != maintenance_units) {
        maintenance = unit_capex * units * o.maintenance_per_year / kMonthsPerYear;
        maintenance_units = units;
      }
      p.maintenance = maintenance;
      p.hosting = units * hosting_per_unit;
      if (static_cast<int>(m) > o.warranty_months) p.failures = failures_per_unit * units;
      if (o.overflow == Overflow::rent) {
        const double billed =
            billed_overflow_instance_hours(o.overflow_billing, load, units, ratio, shape,
                                           x.days_of_use[m], x.availability_hours[m]);
        p.rent = billed * o.overflow_rate_per_hour * x.rent_trend[m];
      }
      if (loan && static_cast<int>(m) <= o.loan_term_months) p.financing = payment;
      if (lease) p.financing = fee_per_unit * units;
      if (out.extras) out.lines.set(o.count * units, units);
    }
    if (m == d.last) {
      p.resale = -o.residual_fraction * capex_total;
      if (loan) p.financing += annuity_balance(principal, rate, o.loan_term_months, n_months);
      if (lease && o.lease_term_months > n_months) {
        p.financing += (o.lease_term_months - n_months) * fee_per_unit * units;
      }
    }
    out.set(m, p);
    previous_units = units;
  }
}

void rented_months(const DirectInputs& d, MonthTotals& out) {
  const OptionInputs& o = d.o;
  const MonthFactors& x = d.x;
  const double per_hour = o.rate_per_gpu_hour * o.count;
  const int term = term_months(o.term);
  const int n_months = d.f.horizon_months;
  const double hours_per_average_month = average_hours_per_month(d.w.hours_per_month_convention);
  const bool always_on = term == 0 && o.hourly_billing.billing == Billing::always_on;
  const double peak_multiplier = x.shape.peak_multiplier;
  const double min_instances = o.hourly_billing.min_instances;
  for (size_t m = 0; m <= d.last; ++m) {
    MonthParts p;
    if (m == 0) {
      out.lines.none();
    } else {
      const double units = d.scratch.units[m];
      const double load = d.scratch.load[m];
      if (term > 0) {
        p.rent = per_hour * units * x.hours_in_month[m];
        if (m == d.last) {
          const int committed = (n_months + term - 1) / term * term;
          p.rent += (committed - n_months) * per_hour * units * hours_per_average_month;
        }
      } else {
        // always_on: billed_instance_hours' product, its instances kept in scratch.
        const double billed =
            always_on ? d.scratch.instances[m] * std::max(0.0, x.availability_hours[m])
                      : billed_instance_hours(o.hourly_billing, load, x.shape, x.days_of_use[m],
                                              x.availability_hours[m]);
        p.rent = per_hour * billed / o.goodput * x.rent_trend[m];
      }
      if (out.extras) {
        // devices_in_service: an on-demand rental's instances at its load, at least one.
        const double devices =
            term == 0
                ? o.count * std::max(min_instances, always_on_instances(load * peak_multiplier))
                : o.count * units;
        out.lines.set(devices, units);
      }
    }
    out.set(m, p);
  }
}

void monthly_months(const DirectInputs& d, MonthTotals& out) {
  const OptionInputs& o = d.o;
  double previous_units = 0;
  for (size_t m = 0; m <= d.last; ++m) {
    MonthParts p;
    const double units = d.scratch.units[m];
    if (m == 0) {
      out.lines.none();
      p.rent = o.setup_fee * units;
    } else {
      p.rent = o.price_per_month * units + o.setup_fee * (units - previous_units);
      if (out.extras) out.lines.set(o.count * units, units);
    }
    if (m == d.last) p.rent += o.notice_months * o.price_per_month * units;
    out.set(m, p);
    previous_units = units;
  }
}

void api_months(const DirectInputs& d, MonthTotals& out) {
  const OptionInputs& o = d.o;
  const double output_per_day = d.w.tokens_per_day.value_or(0);
  const double input_per_day = output_per_day * d.w.input_tokens_per_output_token.value_or(0);
  const double per_day =
      (input_per_day * o.input_price_per_million + output_per_day * o.output_price_per_million) /
      kTokensPerMillion;
  for (size_t m = 0; m <= d.last; ++m) {
    MonthParts p;
    if (m == 0) {
      out.lines.none();
    } else {
      p.rent = d.x.days_of_use[m] * d.x.growth[m] * per_day * d.x.api_trend[m];
      if (out.extras) out.lines.set(0.0, 0.0);
    }
    out.set(m, p);
  }
}

/// The months' load and units (and an always-on rental's instances) by option_cash_flow's
/// first loop into `scratch`, unless it holds those of the same inputs (then the same
/// values: e.g. every Monte Carlo draw that does not move the demand or its growth).
void load_and_units(const OptionInputs& o, const WorkloadInputs& w, const MonthFactors& x, size_t n,
                    MoneyScratch& scratch) {
  const double load_1 = base_load(o, w);
  const bool whole_units = adds_units(o);
  const double peak_multiplier = x.shape.peak_multiplier;
  const bool has_units = o.kind == OptionKind::buy || o.kind == OptionKind::rent_monthly ||
                         (o.kind == OptionKind::rent_hourly && term_months(o.term) > 0);
  // An on-demand rental billed always on: its instances per month (billed_instance_hours'
  // always_on_instances(max(0, load) x peak multiplier)) depend on the load alone.
  const bool always_on = o.kind == OptionKind::rent_hourly && term_months(o.term) == 0 &&
                         o.hourly_billing.billing == Billing::always_on;
  if (scratch.load.size() == n && scratch.load_1 == load_1 &&
      scratch.peak_multiplier == peak_multiplier &&
      scratch.growth_per_month == x.growth_per_month && scratch.has_units == has_units &&
      scratch.whole_units == whole_units && scratch.always_on == always_on) {
    return;
  }
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
      scratch.instances[m] = always_on_instances(std::max(0.0, scratch.load[m]) * peak_multiplier);
    }
  }
  scratch.load_1 = load_1;
  scratch.peak_multiplier = peak_multiplier;
  scratch.growth_per_month = x.growth_per_month;
  scratch.has_units = has_units;
  scratch.whole_units = whole_units;
  scratch.always_on = always_on;
}

}  // namespace

void money_month_totals(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                        const FinanceInputs& f, const MonthFactors& x, MoneyScratch& scratch) {
  // Every expression below is option_cash_flow's (engine/money/cash_flow.cpp) for the same amount:
  // the load and units of its first loop, then its kind's flows, the cost lines, then VAT.
  const auto last = static_cast<size_t>(f.horizon_months);
  const size_t n = last + 1;
  load_and_units(o, w, x, n, scratch);
  // The months' totals go to scratch.rows.total and are summed by sum_money_totals.
  scratch.rows.total.resize(n);
  const bool owned = o.kind == OptionKind::buy;
  const bool extras = any_cost_line(o.cost_lines) || (owned && o.financing != Financing::cash);
  MonthTotals out{scratch.rows.total.data(),
                  !f.vat_reclaimable && f.vat_rate > 0,
                  f.vat_rate,
                  owned && o.financing == Financing::lease,
                  extras,
                  CostLineMonth(o)};
  const DirectInputs d{o, w, f, x, scratch, last};
  switch (o.kind) {
    case OptionKind::buy:
      owned_months(d, site, out);
      break;
    case OptionKind::rent_hourly:
      rented_months(d, out);
      break;
    case OptionKind::rent_monthly:
      monthly_months(d, out);
      break;
    case OptionKind::api:
      api_months(d, out);
      break;
  }
}

}  // namespace gputco
