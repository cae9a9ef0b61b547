#include "engine/plan/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "engine/base/error.hpp"
#include "engine/money/money_totals.hpp"
#include "engine/plan/figure_check.hpp"

namespace gputco {

namespace {

double npv_of(const CashFlow& cf) {
  // Summed in the order make_plan sums, so equal inputs give bit-identical figures.
  return std::accumulate(cf.discounted.begin(), cf.discounted.end(), 0.0);
}

/// The inputs as make_plan evaluates them: derived fields (capacity, overflow rate) filled.
PlanInputs prepared(const PlanInputs& inputs) {
  PlanInputs work = inputs;
  prepare_plan_inputs(work);
  return work;
}

/// The workload at `hours` h/day; the plan's own workload, untouched, at its own hours (so a
/// sweep point there reproduces the plan bit for bit).
WorkloadInputs workload_at(const WorkloadInputs& base, double hours) {
  return hours == base.hours_per_day ? base : at_hours_per_day(base, hours);
}

/// NPV of the owned option minus NPV of the rental, through the plan's own cash-flow model.
double difference(const PlanInputs& in, const WorkloadInputs& w, const Comparison& pair) {
  return npv_of(option_cash_flow(in.options[pair.owned], w, in.site, in.finance)) -
         npv_of(option_cash_flow(in.options[pair.rented], w, in.site, in.finance));
}

/// One tornado input: its value in the plan, its physical bounds, and how to set it.
struct Lever {
  const char* input;
  const char* key;
  double base;
  double min_value;
  double max_value;
  std::function<void(PlanInputs&, WorkloadInputs&, double)> set;
};

}  // namespace

std::optional<Comparison> comparison(const PlanInputs& in, const Plan& plan) {
  GPUTCO_REQUIRE(in.options.size() == plan.options.size(),
                 "sensitivity: the plan has " << plan.options.size() << " options, its inputs "
                                              << in.options.size());
  std::optional<size_t> owned, rented, baseline, api;
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    if (!is_candidate(r)) continue;  // an excluded option is no alternative
    if (r.kind == OptionKind::buy) {
      if (!owned || r.npv < plan.options[*owned].npv) owned = i;
    } else if (r.kind == OptionKind::api) {
      if (!api || r.npv < plan.options[*api].npv) api = i;
    } else {
      if (!rented || r.npv < plan.options[*rented].npv) rented = i;
      if (!plan.baseline_option_id.empty() && r.id == plan.baseline_option_id) baseline = i;
    }
  }
  if (baseline) rented = baseline;
  if (!rented) rented = api;  // no rental of devices: owning against the pay-per-token API
  if (!owned || !rented) return std::nullopt;
  return Comparison{*owned, *rented};
}

std::vector<TornadoBar> tornado(const PlanInputs& inputs, const Comparison& pair,
                                double swing_fraction) {
  GPUTCO_REQUIRE(std::isfinite(swing_fraction) && swing_fraction > 0 && swing_fraction <= 1,
                 "tornado swing must be above 0 and at most 1 (100 %), got " << swing_fraction);
  GPUTCO_REQUIRE(pair.owned < inputs.options.size() && pair.rented < inputs.options.size(),
                 "tornado: option index out of range");
  PlanInputs work = prepared(inputs);
  const WorkloadInputs& base_workload = work.workload;
  WorkloadInputs workload = base_workload;
  const size_t own = pair.owned;
  const size_t rent = pair.rented;
  const OptionInputs& owned = work.options[own];
  const OptionInputs& rented = work.options[rent];
  constexpr double kNoLimit = std::numeric_limits<double>::max();
  const bool hourly = rented.kind == OptionKind::rent_hourly;
  const bool api = rented.kind == OptionKind::api;
  const bool own_tariff = owned.tariff_per_kwh.has_value();
  const std::vector<Lever> levers = {
      {"purchase price per GPU", "price_per_gpu", owned.price_per_gpu, 0, kNoLimit,
       [own](PlanInputs& in, WorkloadInputs&, double v) { in.options[own].price_per_gpu = v; }},
      {"host cost", "host_cost", owned.host_cost, 0, kNoLimit,
       [own](PlanInputs& in, WorkloadInputs&, double v) { in.options[own].host_cost = v; }},
      {"resale", "residual_fraction", owned.residual_fraction, 0, 1,
       [own](PlanInputs& in, WorkloadInputs&, double v) { in.options[own].residual_fraction = v; }},
      {"maintenance", "maintenance_per_year", owned.maintenance_per_year, 0, kNoLimit,
       [own](PlanInputs& in, WorkloadInputs&, double v) {
         in.options[own].maintenance_per_year = v;
       }},
      {"failure rate", "annual_failure_rate", owned.annual_failure_rate, 0, 1,
       [own](PlanInputs& in, WorkloadInputs&, double v) {
         in.options[own].annual_failure_rate = v;
       }},
      {"tariff", "tariff_per_kwh", own_tariff ? *owned.tariff_per_kwh : work.site.tariff_per_kwh, 0,
       kNoLimit,
       [own, own_tariff](PlanInputs& in, WorkloadInputs&, double v) {
         if (own_tariff) {
           in.options[own].tariff_per_kwh = v;
         } else {
           in.site.tariff_per_kwh = v;
         }
       }},
      {"hours per day", "hours_per_day", base_workload.hours_per_day, 0, 24,
       [&base_workload](PlanInputs&, WorkloadInputs& w, double v) {
         w = workload_at(base_workload, v);
       }},
      // An api option's "rate": its output price per million tokens, the input price moved
      // by the same factor (the lever's value is the output price).
      {api ? "API price per token" : "rental rate",
       api      ? "output_price_per_million"
       : hourly ? "rate_per_gpu_hour"
                : "price_per_month",
       api      ? rented.output_price_per_million
       : hourly ? rented.rate_per_gpu_hour
                : rented.price_per_month,
       0, kNoLimit,
       [rent, hourly, api, input = rented.input_price_per_million,
        output = rented.output_price_per_million](PlanInputs& in, WorkloadInputs&, double v) {
         if (api) {
           in.options[rent].output_price_per_million = v;
           in.options[rent].input_price_per_million = output > 0 ? input * v / output : input;
           return;
         }
         (hourly ? in.options[rent].rate_per_gpu_hour : in.options[rent].price_per_month) = v;
       }},
      // A rate pushed below -99 % would make the discount factor meaningless.
      {"discount rate", "discount_rate", work.finance.discount_rate_per_year, -0.99, 10,
       [](PlanInputs& in, WorkloadInputs&, double v) { in.finance.discount_rate_per_year = v; }},
  };
  std::vector<TornadoBar> bars;
  for (const auto& lever : levers) {
    TornadoBar bar;
    bar.input = lever.input;
    bar.key = lever.key;
    bar.low_value = std::clamp(lever.base * (1 - swing_fraction), lever.min_value, lever.max_value);
    bar.high_value =
        std::clamp(lever.base * (1 + swing_fraction), lever.min_value, lever.max_value);
    const auto at = [&](double value) {
      lever.set(work, workload, value);
      prepare_plan_inputs(work);  // a rental's rate feeds the owned option's overflow rate
      return difference(work, workload, pair);
    };
    bar.difference_low = at(bar.low_value);
    bar.difference_high = at(bar.high_value);
    at(lever.base);
    bars.push_back(std::move(bar));
  }
  std::stable_sort(bars.begin(), bars.end(), [](const TornadoBar& a, const TornadoBar& b) {
    return std::abs(a.difference_high - a.difference_low) >
           std::abs(b.difference_high - b.difference_low);
  });
  return bars;
}

std::vector<SweepPoint> utilization_sweep(const PlanInputs& inputs, double from, double to,
                                          double step) {
  GPUTCO_REQUIRE(
      std::isfinite(from) && std::isfinite(to) && from >= 0 && from <= to && to <= 24,
      "utilization sweep needs 0 <= from <= to <= 24 h/day, got " << from << " to " << to);
  GPUTCO_REQUIRE(std::isfinite(step) && step > 0,
                 "utilization sweep step must be above 0 h/day, got " << step);
  const double intervals = std::floor((to - from) / step + 1e-9);
  GPUTCO_REQUIRE(intervals < 100000,
                 "utilization sweep: at most 100,000 points, got " << intervals + 1);
  const auto points = static_cast<size_t>(intervals) + 1;
  const PlanInputs work = prepared(inputs);
  std::vector<SweepPoint> sweep;
  sweep.reserve(points);
  MoneyScratch cf;
  MonthFactors factors;  // the finance's once; the workload's per point
  set_finance_factors(work.site, work.finance, factors);
  for (size_t i = 0; i < points; ++i) {
    SweepPoint point;
    // from + i x step, not a running sum: no drift over many steps.
    point.hours_per_day = std::min(from + static_cast<double>(i) * step, to);
    const WorkloadInputs workload = workload_at(work.workload, point.hours_per_day);
    set_workload_factors(workload, work.finance, factors);
    for (const auto& option : work.options) {
      // Only the total (money_totals: the same figure as every row's, issue #19).
      point.total_cost.push_back(
          money_totals(option, workload, work.site, work.finance, factors, cf).total);
    }
    sweep.push_back(std::move(point));
  }
  return sweep;
}

Sensitivity analyse(const PlanInputs& inputs, const Plan& plan, const SensitivityOptions& options) {
  GPUTCO_REQUIRE(options.draws >= 0,
                 "Monte Carlo draws must not be negative, got " << options.draws);
  Sensitivity s;
  s.swing_fraction = options.swing_fraction;
  s.risk_model = options.risk_model;
  s.utilization_sweep =
      utilization_sweep(inputs, options.sweep_from_hours_per_day, options.sweep_to_hours_per_day,
                        options.sweep_step_hours_per_day);
  const auto pair = comparison(inputs, plan);
  if (!pair) {
    bool any_owned = false;
    for (const auto& r : plan.options)
      any_owned = any_owned || (r.feasible && r.kind == OptionKind::buy);
    s.note = any_owned ? "no rental holds the model: nothing to compare owning with"
                       : "no owned option holds the model: nothing to compare renting with";
    check_finite_figures(s);
    return s;
  }
  s.owned_option_id = plan.options[pair->owned].id;
  s.rented_option_id = plan.options[pair->rented].id;
  s.base_difference = plan.options[pair->owned].npv - plan.options[pair->rented].npv;
  s.tornado = tornado(inputs, *pair, options.swing_fraction);
  if (options.draws > 0) {
    s.risk = monte_carlo(inputs, plan, *pair, options.draws, options.seed, options.risk_model, {},
                         options.threads);
  }
  check_finite_figures(s);
  return s;
}

}  // namespace gputco
