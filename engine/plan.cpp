#include "engine/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/error.hpp"
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
  }
  return "unknown";
}

std::string to_string(Condition c) {
  return c == Condition::used ? "used" : "new";
}

namespace {

bool finite_non_negative(double x) {
  return std::isfinite(x) && x >= 0;
}

void validate(const PlanInputs& in) {
  const auto& f = in.finance;
  GPUTCO_REQUIRE(f.horizon_months >= 1 && f.horizon_months <= 600,
                 "horizon_months must be between 1 and 600, got " << f.horizon_months);
  GPUTCO_REQUIRE(std::isfinite(f.discount_rate_per_year) && f.discount_rate_per_year > -1 &&
                     f.discount_rate_per_year <= 10,
                 "discount_rate must be above -100% and at most 1000% per year, got "
                     << f.discount_rate_per_year);
  const auto& w = in.workload;
  GPUTCO_REQUIRE(std::isfinite(w.hours_per_day) && w.hours_per_day >= 0 && w.hours_per_day <= 24,
                 "hours_per_day must be between 0 and 24, got " << w.hours_per_day);
  GPUTCO_REQUIRE(std::isfinite(w.days_per_month) && w.days_per_month >= 0 && w.days_per_month <= 31,
                 "days_per_month must be between 0 and 31, got " << w.days_per_month);
  GPUTCO_REQUIRE(finite_non_negative(in.site.tariff_per_kwh),
                 "tariff_per_kwh must be a non-negative number, got " << in.site.tariff_per_kwh);
  GPUTCO_REQUIRE(std::isfinite(in.site.pue) && in.site.pue >= 1 && in.site.pue <= 5,
                 "pue must be between 1 and 5, got " << in.site.pue);
  GPUTCO_REQUIRE(!in.options.empty(), "a plan needs at least one option");
  for (const auto& o : in.options) {
    GPUTCO_REQUIRE(o.count >= 1 && o.count <= 4096,
                   "option " << o.id << ": count must be between 1 and 4096, got " << o.count);
    GPUTCO_REQUIRE(finite_non_negative(o.price_per_gpu) && finite_non_negative(o.host_cost) &&
                       finite_non_negative(o.host_power_w) &&
                       finite_non_negative(o.rate_per_gpu_hour) &&
                       finite_non_negative(o.price_per_month) && finite_non_negative(o.setup_fee) &&
                       finite_non_negative(o.maintenance_per_year),
                   "option " << o.id << ": prices, power and rates must be non-negative numbers");
    GPUTCO_REQUIRE(
        std::isfinite(o.residual_fraction) && o.residual_fraction >= 0 && o.residual_fraction <= 1,
        "option " << o.id << ": residual_fraction must be between 0 and 1, got "
                  << o.residual_fraction);
  }
}

/// Fills the derived rows (total, cumulative, discounted) from the component rows.
void finish_cash_flow(CashFlow& cf, double discount_rate_per_year) {
  const size_t n = cf.capex.size();
  cf.total.assign(n, 0);
  cf.cumulative.assign(n, 0);
  cf.discount_factor.assign(n, 0);
  cf.discounted.assign(n, 0);
  double running = 0;
  for (size_t m = 0; m < n; ++m) {
    cf.total[m] = cf.capex[m] + cf.energy[m] + cf.maintenance[m] + cf.rent[m] + cf.resale[m];
    running += cf.total[m];
    cf.cumulative[m] = running;
    // Monthly discounting with the effective annual rate: a flow at the end of month m is
    // worth (1 + r)^(-m/12) today.
    cf.discount_factor[m] =
        std::pow(1.0 + discount_rate_per_year, -static_cast<double>(m) / kMonthsPerYear);
    cf.discounted[m] = cf.total[m] * cf.discount_factor[m];
  }
}

CashFlow empty_cash_flow(int horizon_months) {
  const auto n = static_cast<size_t>(horizon_months) + 1;
  CashFlow cf;
  cf.capex.assign(n, 0);
  cf.energy.assign(n, 0);
  cf.maintenance.assign(n, 0);
  cf.rent.assign(n, 0);
  cf.resale.assign(n, 0);
  return cf;
}

/// Capital cost of an owned option: devices plus host, once.
double capex_of(const OptionInputs& o) {
  return o.count * o.price_per_gpu + o.host_cost;
}

/// Electricity cost per hour of use of an owned option: power x tariff x PUE.
double energy_cost_per_hour(const OptionInputs& o, const SiteInputs& site) {
  const double power_w = o.count * o.device.board_power_w + o.host_power_w;
  return power_w / kWattsPerKilowatt * site.tariff_per_kwh * site.pue;
}

}  // namespace

CashFlow option_cash_flow(const OptionInputs& o, const WorkloadInputs& w, const SiteInputs& site,
                          const FinanceInputs& f) {
  CashFlow cf = empty_cash_flow(f.horizon_months);
  const double hours_per_month = w.hours_per_day * w.days_per_month;
  const auto last = static_cast<size_t>(f.horizon_months);
  switch (o.kind) {
    case OptionKind::buy: {
      const double capex = capex_of(o);
      cf.capex[0] = capex;
      for (size_t m = 1; m <= last; ++m) {
        cf.energy[m] = energy_cost_per_hour(o, site) * hours_per_month;
        cf.maintenance[m] = capex * o.maintenance_per_year / kMonthsPerYear;
      }
      cf.resale[last] = -o.residual_fraction * capex;
      break;
    }
    case OptionKind::rent_hourly:
      for (size_t m = 1; m <= last; ++m) {
        cf.rent[m] = o.rate_per_gpu_hour * o.count * hours_per_month;
      }
      break;
    case OptionKind::rent_monthly:
      cf.rent[0] = o.setup_fee;
      for (size_t m = 1; m <= last; ++m) cf.rent[m] = o.price_per_month;
      break;
  }
  finish_cash_flow(cf, f.discount_rate_per_year);
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
  const double rent_per_hour = rented.rate_per_gpu_hour * rented.count;
  const double saving_per_hour = rent_per_hour - energy_cost_per_hour(owned, site);
  if (saving_per_hour <= 0) return std::nullopt;  // renting is cheaper per hour: never
  return fixed / saving_per_hour;
}

std::optional<int> break_even_month(const CashFlow& owned, const CashFlow& rented) {
  const size_t n = std::min(owned.cumulative.size(), rented.cumulative.size());
  for (size_t m = 0; m < n; ++m) {
    // A tiny tolerance keeps two equal running sums from missing each other by rounding.
    const double tolerance = 1e-9 * std::max(1.0, std::abs(rented.cumulative[m]));
    if (owned.cumulative[m] <= rented.cumulative[m] + tolerance) return static_cast<int>(m);
  }
  return std::nullopt;
}

Plan make_plan(const PlanInputs& in) {
  validate(in);
  Plan plan;
  plan.currency = in.finance.currency;
  plan.horizon_months = in.finance.horizon_months;

  FitRequest request;
  request.model = in.model;
  request.quant = in.quant;
  request.context_tokens = in.workload.context_tokens;
  request.concurrent_streams = in.workload.concurrent_streams;
  request.kv_cache = in.workload.kv_cache;

  const double hours_per_month = in.workload.hours_per_day * in.workload.days_per_month;
  for (const auto& o : in.options) {
    OptionResult r;
    r.id = o.id;
    r.kind = o.kind;
    r.fit = fit(request, o.device, o.count, in.memory_policy);
    r.devices_needed = devices_needed(request, o.device, 64, in.memory_policy);
    r.feasible = r.fit.verdict != Verdict::does_not_fit;
    SpeedRequest speed_request{request, o.count, o.split, o.backend, 0};
    if (r.feasible) r.speed = estimate_speed(speed_request, o.device);
    r.hours_per_month = hours_per_month;
    r.power_at_load_w = o.count * o.device.board_power_w + o.host_power_w;
    r.energy_kwh_per_month = r.power_at_load_w / kWattsPerKilowatt * hours_per_month * in.site.pue;
    r.tokens_per_month = r.speed.aggregate_tokens_per_s * kSecondsPerHour * hours_per_month;
    r.cash_flow = option_cash_flow(o, in.workload, in.site, in.finance);
    r.total_cost = std::accumulate(r.cash_flow.total.begin(), r.cash_flow.total.end(), 0.0);
    r.npv = std::accumulate(r.cash_flow.discounted.begin(), r.cash_flow.discounted.end(), 0.0);
    r.annual_costs = annual_costs(r.cash_flow);
    const double tokens = r.tokens_per_month * in.finance.horizon_months;
    if (r.feasible && tokens > 0) r.cost_per_million_tokens = r.total_cost / tokens * 1e6;
    if (!r.feasible) {
      r.note = "the model does not fit on " + std::to_string(o.count) + " x " + o.device.id;
      if (r.devices_needed > 0) r.note += "; needs " + std::to_string(r.devices_needed);
    }
    plan.options.push_back(std::move(r));
  }

  // The rental baseline: the named one, else the feasible hourly rental that costs the
  // least per hour of use.
  std::optional<size_t> baseline;
  for (size_t i = 0; i < in.options.size(); ++i) {
    const auto& o = in.options[i];
    if (o.kind != OptionKind::rent_hourly || !plan.options[i].feasible) continue;
    if (!in.baseline_option_id.empty()) {
      if (o.id == in.baseline_option_id) baseline = i;
      continue;
    }
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
    for (size_t i = 0; i < in.options.size(); ++i) {
      if (in.options[i].kind != OptionKind::buy || !plan.options[i].feasible) continue;
      auto& r = plan.options[i];
      r.break_even_hours =
          break_even_hours(in.options[i], in.options[*baseline], in.site, in.finance);
      r.break_even_month = break_even_month(r.cash_flow, plan.options[*baseline].cash_flow);
      r.note = "break-even against " + plan.baseline_option_id;
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
  } else {
    plan.recommendation_reason = "no option holds the model";
  }
  return plan;
}

}  // namespace gputco
