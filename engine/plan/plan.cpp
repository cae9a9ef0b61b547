#include "engine/plan/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <locale>
#include <numeric>
#include <sstream>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/finance/billing.hpp"
#include "engine/finance/finance.hpp"
#include "engine/fleet/capacity.hpp"
#include "engine/fleet/fleet_load.hpp"
#include "engine/fleet/serving_capacity_plan.hpp"
#include "engine/hardware/power_limit.hpp"
#include "engine/money/billing_description.hpp"
#include "engine/money/books.hpp"
#include "engine/money/energy.hpp"
#include "engine/money/metrics.hpp"
#include "engine/plan/figure_check.hpp"
#include "engine/plan/plan_comparison.hpp"
#include "engine/serving/replicas.hpp"

namespace gputco {

namespace {

/// The option of `options` whose id is `id`; nullptr when none is.
const OptionInputs* option_named(const std::vector<OptionInputs>& options, const std::string& id) {
  const auto it = std::find_if(options.begin(), options.end(),
                               [&](const OptionInputs& o) { return o.id == id; });
  return it == options.end() ? nullptr : &*it;
}

/// What fit and speed take for option `o`: the plan's model and workload, the option's weight
/// format (OptionInputs::quant) or the plan's.
FitRequest option_fit_request(const PlanInputs& in, const OptionInputs& o) {
  FitRequest request;
  request.model = in.model;
  request.quant = o.quant.value_or(in.quant);
  request.context_tokens = in.workload.context_tokens;
  request.concurrent_streams = in.workload.concurrent_streams;
  request.kv_cache = in.workload.kv_cache;
  return request;
}

}  // namespace

void prepare_plan_inputs(PlanInputs& in) {
  // Input tokens per output token that take device time: only with a stated demand.
  const double input_per_output =
      in.workload.tokens_per_day ? in.workload.input_tokens_per_output_token.value_or(0) : 0.0;
  const int prompt_tokens = prefill_prompt_tokens(in.workload);
  for (auto& o : in.options) {
    // A capacity already derived or given (a measured figure) stays, and so does its layout.
    if (o.capacity_tokens_per_hour > 0 || o.kind == OptionKind::api) continue;
    const FitRequest request = option_fit_request(in, o);
    const FitResult f = fit(request, o.device, o.count, in.memory_policy);
    if (f.verdict == Verdict::does_not_fit) continue;
    if (sized_by_serving_model(o, in.workload)) {
      size_with_serving_model(in, o);
      continue;
    }
    if (o.replicas == 0) {
      const BoxLayout layout =
          choose_box_layout(request, o.device, o.count, o.backend, in.memory_policy);
      o.gpus_per_replica = layout.gpus_per_replica;
      o.replicas = layout.replicas;
      o.layout_note = layout.note;
    }
    const SpeedEstimate speed =
        box_speed(SpeedRequest{request, o.count, o.split, o.backend, prompt_tokens}, o.device,
                  BoxLayout{o.gpus_per_replica, o.replicas, "", ""});
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
    const OptionInputs* rental = option_named(in.options, o.overflow_option_id);
    GPUTCO_REQUIRE(rental != nullptr, "option " << o.id << ": the overflow option '"
                                                << o.overflow_option_id
                                                << "' is not an option of the plan");
    GPUTCO_REQUIRE(rental->kind == OptionKind::rent_hourly && term_months(rental->term) == 0,
                   "option " << o.id << ": the overflow option '" << rental->id
                             << "' must be a rent_hourly option billed by use (on_demand or "
                                "spot)");
    o.overflow_rate_per_hour = rental->rate_per_gpu_hour * rental->count / rental->goodput;
    o.overflow_billing = rental->hourly_billing;
    o.overflow_capacity_tokens_per_hour = rental->capacity_tokens_per_hour;
    o.overflow_device_id = rental->device.id;
    o.overflow_power_w = rental->count * load_power_w(rental->device);
    o.overflow_idle_power_w = rental->idle_power_w;
    o.overflow_goodput = rental->goodput;
    o.overflow_pue = energy_pue_of(*rental, in.site);
    o.overflow_grid_g_co2e_per_kwh = intensity_of(*rental, in.site);
    o.overflow_carbon_unknown_reason = rental->carbon_unknown_reason;
  }
}

namespace {

/// GPUs of one option from which the plan says its demand may be a typo (engine/plan/plan.cpp).
constexpr double kGpusWorthAWarning = 10'000;

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

/// The hours of use every option of the plan shares.
struct UseHours {
  /// Hours of use a month: the same days every month unless they follow the calendar or
  /// exceed a month's days (capped month by month), then the average month.
  double per_month = 0;
  double days_total = 0;  ///< days of use over the horizon
};

/// The plan before its options: currency, horizon, timeline and the whole plan's warnings (the
/// resolver's, and days of use capped at the days of a month: see days_of_use); `use` gets
/// the hours of use.
Plan plan_frame(const PlanInputs& in, UseHours& use) {
  Plan plan;
  plan.currency = in.finance.currency;
  plan.horizon_months = in.finance.horizon_months;
  plan.timeline = plan_timeline(in.workload, in.site, in.finance);
  const int horizon = in.finance.horizon_months;
  bool days_capped = false;
  if (!in.workload.days_follow_convention && in.workload.hours_per_day > 0) {
    for (int m = 1; m <= horizon; ++m) {
      const double days_in_month = hours_in_month(in.workload, in.finance, m) / kHoursPerFullDay;
      if (in.workload.days_per_month > days_in_month) {
        days_capped = true;
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
  use.days_total = 0;
  for (int m = 1; m <= horizon; ++m) use.days_total += days_of_use(in.workload, in.finance, m);
  const bool same_days = !in.workload.days_follow_convention && !days_capped;
  use.per_month = in.workload.hours_per_day *
                  (same_days ? in.workload.days_per_month : use.days_total / horizon);
  plan.warnings.insert(plan.warnings.end(), in.warnings.begin(), in.warnings.end());
  return plan;
}

/// An option's result before any figure: its id, kind, exclusion and resolution warnings.
OptionResult option_header(const OptionInputs& o) {
  OptionResult r;
  r.id = o.id;
  r.kind = o.kind;
  r.excluded_reason = o.excluded_reason;
  if (!o.excluded_reason.empty()) {
    r.warnings.push_back("excluded, never recommended: " + o.excluded_reason);
  }
  // What resolution said about its inputs, first after an exclusion.
  r.warnings.insert(r.warnings.end(), o.input_warnings.begin(), o.input_warnings.end());
  return r;
}

/// Fit, layout and speed of an option with devices; feasible when it holds the model and can
/// serve the demand (OptionInputs::unservable_reason).
void fit_and_speed(const PlanInputs& in, const OptionInputs& o, OptionResult& r) {
  const double input_per_output =
      in.workload.tokens_per_day ? in.workload.input_tokens_per_output_token.value_or(0) : 0.0;
  const int prompt_tokens = input_per_output > 0 ? prefill_prompt_tokens(in.workload) : 0;
  const FitRequest request = option_fit_request(in, o);
  r.fit = fit(request, o.device, o.count, in.memory_policy);
  r.devices_needed = devices_needed(request, o.device, 64, in.memory_policy);
  r.feasible = r.fit.verdict != Verdict::does_not_fit && o.unservable_reason.empty();
  r.gpus_per_replica = o.gpus_per_replica > 0 ? o.gpus_per_replica : o.count;
  r.replicas = std::max(1, o.replicas);
  r.layout_note = o.layout_note;
  if (!r.feasible) return;
  if (o.serving) {
    // The serving model sized it: the box's output rate; one user's speed at the plan's load
    // is set with the load (plan_option); the prompts' prefill is inside the throughput
    // (engine/fleet/serving_capacity_plan.hpp).
    r.speed.aggregate_tokens_per_s = o.serving->output_tokens_per_s;
    r.speed.decode_tokens_per_s = o.serving->per_user_tokens_per_s;
    r.serving = o.serving;
    r.serving_note = o.serving_note;
    return;
  }
  r.speed = box_speed(SpeedRequest{request, o.count, o.split, o.backend, prompt_tokens}, o.device,
                      BoxLayout{r.gpus_per_replica, r.replicas, "", ""});
  if (input_per_output > 0 && !(o.prefill_tokens_per_s > 0)) {
    r.warnings.push_back("prefill not counted: FP16 throughput unknown for " + o.device.id +
                         " (its capacity counts decode only, so its load, hours and energy "
                         "leave out the prompts' " +
                         fixed_text(input_per_output, 1) + " input tokens per output token)");
  }
}

/// What an option with devices says about its power and life, and its energy at full load.
void power_and_life(const PlanInputs& in, const OptionInputs& o, const UseHours& use,
                    OptionResult& r) {
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
  const int horizon = in.finance.horizon_months;
  if (o.kind == OptionKind::buy && o.financing != Financing::lease &&
      horizon > in.finance.useful_life_months) {
    r.warnings.push_back(
        "in service for all " + std::to_string(horizon) + " months, past its useful life of " +
        std::to_string(in.finance.useful_life_months) +
        " months (useful_life_months): no replacement is bought; the plan assumes the "
        "hardware keeps running at the same speed and running cost (shorten horizon_months "
        "to compare within its life)");
  }
  if (o.kind == OptionKind::buy && o.financing == Financing::lease &&
      o.lease_term_months < horizon) {
    // The hardware serves the whole horizon, so the lease runs on past its term (engine
    // option_cash_flow charges the fee every month): say so, since a quote's "12 instalments"
    // would otherwise read as the whole cost.
    r.warnings.push_back(
        "lease_term_months " + std::to_string(o.lease_term_months) +
        " is shorter than the horizon of " + std::to_string(horizon) +
        " months: the plan renews the lease at the same fee for the other " +
        std::to_string(horizon - o.lease_term_months) +
        " months (the hardware stays in service); set horizon_months to the term to compare "
        "the term alone");
  }
  r.power_at_load_w = o.count * load_power_w(o.device) + o.host_power_w;
  r.energy_kwh_per_month =
      r.power_at_load_w / kWattsPerKilowatt * use.per_month * pue_of(o, in.site);
}

/// The option's money: cash flow (all 0 when it cannot serve the demand: never priced),
/// billing, totals, NPV, years and P&L.
void price_option(const PlanInputs& in, const OptionInputs& o, OptionResult& r) {
  r.cash_flow = option_cash_flow(o, in.workload, in.site, in.finance);
  if (!r.feasible) {
    clear_cash_flow(r.cash_flow);
  } else if (o.kind == OptionKind::rent_hourly && term_months(o.term) == 0) {
    describe_billing(o, in.workload, in.finance, r);
  } else if (o.kind == OptionKind::buy && o.overflow == Overflow::rent) {
    // prepare_plan_inputs checked that the rental exists.
    describe_overflow_billing(o, *option_named(in.options, o.overflow_option_id), in.workload,
                              in.finance, r);
  }
  r.total_cost = std::accumulate(r.cash_flow.total.begin(), r.cash_flow.total.end(), 0.0);
  r.npv = std::accumulate(r.cash_flow.discounted.begin(), r.cash_flow.discounted.end(), 0.0);
  r.annual_costs = annual_costs(r.cash_flow);
  r.profit_and_loss = profit_and_loss(o, r.cash_flow, in.finance);
  if (in.finance.tax_rate)
    r.after_tax = after_tax(r.cash_flow, r.profit_and_loss, *in.finance.tax_rate);
  r.cost_per_year =
      r.total_cost / (static_cast<double>(in.finance.horizon_months) / kMonthsPerYear);
  if (r.feasible && o.kind != OptionKind::api) {
    r.units_needed = units_needed(r.cash_flow.load, load_shape_of(in.workload).peak_multiplier);
  }
}

/// The tokens the option serves month by month, and what they cost: the demand when stated in
/// tokens; else the demand's concurrent streams at the option's per-user speed at that load,
/// never more than the unit serves (a box of two instances, or a datacenter engine at its
/// largest batch, has room for more streams than the workload has, and that spare room
/// serves no tokens). Returns the tokens over the horizon.
double serve_tokens(const PlanInputs& in, OptionResult& r) {
  const WorkloadInputs& w = in.workload;
  const int horizon = in.finance.horizon_months;
  if (r.feasible)
    r.served_tokens_per_s = demand_streams_tokens_per_s(w.concurrent_streams, r.speed);
  r.tokens_served.assign(static_cast<size_t>(horizon) + 1, 0.0);
  double tokens = 0;
  for (int m = 1; m <= horizon && r.feasible; ++m) {
    const double served =
        w.tokens_per_day ? *w.tokens_per_day * growth_factor(w.growth_per_month, m) *
                               days_of_use(w, in.finance, m)
                         : r.served_tokens_per_s * kSecondsPerHour * w.hours_per_day *
                               days_of_use(w, in.finance, m) * growth_factor(w.growth_per_month, m);
    r.tokens_served[static_cast<size_t>(m)] = served;
    tokens += served;
  }
  r.tokens_per_month = tokens / horizon;
  // A speed target may change the fleet, never this arithmetic: total cost / tokens served.
  if (r.feasible && tokens > 0) r.cost_per_million_tokens = r.total_cost / tokens * 1e6;
  if (r.feasible && w.users) r.cost_per_user_per_month = r.total_cost / (*w.users * horizon);
  return tokens;
}

/// Ten thousand GPUs or more for one model's demand is a datacenter: more often a demand typed
/// a thousand times too large (tokens_per_day = 1e12 bought 117,668 RTX 3090s for an office)
/// than a plan; said, not refused.
void warn_of_huge_fleet(const OptionInputs& o, OptionResult& r) {
  if (!r.feasible || o.kind == OptionKind::api) return;
  // Units bought or contracted; an hourly rental's instances follow its load.
  double most_units = 0;
  for (const double u : r.cash_flow.units) most_units = std::max(most_units, u);
  for (const double l : r.cash_flow.load) most_units = std::max(most_units, l);
  if (const double gpus = most_units * o.count; gpus >= kGpusWorthAWarning) {
    r.warnings.push_back("the demand takes up to " + fixed_text(std::ceil(gpus), 0) + " GPUs (" +
                         units_text(std::ceil(most_units)) + " units of " +
                         std::to_string(o.count) + " x " + o.device.id +
                         "): check tokens_per_day or requests_per_day and growth_per_month");
  }
}

/// Why an option is not priced: its devices do not hold the model, or it cannot serve the
/// demand (OptionInputs::unservable_reason).
std::string unpriced_note(const OptionInputs& o, const OptionResult& r) {
  if (!o.unservable_reason.empty()) return o.unservable_reason + "; not priced";
  std::string note = "the model does not fit on " + std::to_string(o.count) + " x " + o.device.id;
  if (r.devices_needed > 0) note += "; needs " + std::to_string(r.devices_needed);
  return note + "; not priced";
}

/// One option of the plan: fit and speed, money, the load on its replicas, the tokens it
/// serves, energy and carbon, and what the reports say about it.
OptionResult plan_option(const PlanInputs& in, const OptionInputs& o, const UseHours& use) {
  OptionResult r = option_header(o);
  const bool api = o.kind == OptionKind::api;
  if (api) {
    // The provider serves the model: nothing to fit, no devices, no decode speed of ours.
    // The verdict says "fits" so that checks on the recommended option hold; the memory
    // figures stay 0 (reports show "hosted").
    r.feasible = true;
    r.fit.verdict = Verdict::fits;
  } else {
    fit_and_speed(in, o, r);
    power_and_life(in, o, use, r);
  }
  r.hours_per_month = use.per_month;
  price_option(in, o, r);
  if (r.feasible) {
    r.serving_load = plan_serving_load(in, o, r.cash_flow);
    // What users get is the replica at the plan's load, the hour of mean load (issue #43).
    if (r.serving_load) r.speed.decode_tokens_per_s = r.serving_load->mean.per_user_tokens_per_s;
  }
  const double tokens = serve_tokens(in, r);
  r.hours_scaled_cost = hours_scaled_costs(o, in.workload, in.site, in.finance, r.cash_flow);
  // Over the prepared option (its capacity derived above), as the cash flow it halves: the
  // scenario's own option has no capacity yet and serves a whole unit at any volume.
  r.volume_scaled_cost = volume_scaled_costs(o, in.workload, in.site, in.finance, r.cash_flow);
  if (!r.feasible) std::fill(r.hours_scaled_cost.begin(), r.hours_scaled_cost.end(), 0.0);
  if (api) std::fill(r.cash_flow.load.begin(), r.cash_flow.load.end(), 0.0);
  energy_and_carbon(o, in.site, tokens, r);
  if (!r.feasible) {
    r.energy_kwh_total.reset();
    r.co2e_kg_total.reset();
    r.energy_unknown_reason = r.co2e_unknown_reason = "n/a: the option is not priced";
  }
  if (api) api_rate_limits(o, in.workload, in.finance, r);
  r.events = events_of(o, r.cash_flow);
  warn_of_huge_fleet(o, r);
  r.cost_lines_not_entered = cost_lines_not_entered(
      o.cost_lines, {!api, o.kind == OptionKind::buy,
                     o.kind == OptionKind::buy && o.hosting == Hosting::colocation});
  // newcomer6: a rig's host (chassis, CPU, PSU) left out was a silent 0.
  if (o.kind == OptionKind::buy && !o.host_cost_entered) {
    r.cost_lines_not_entered.insert(r.cost_lines_not_entered.begin(), "host system");
  }
  if (!r.feasible) r.note = unpriced_note(o, r);
  return r;
}

}  // namespace

Plan make_plan(const PlanInputs& given) {
  validate_plan_inputs(given);
  PlanInputs in = given;
  prepare_plan_inputs(in);
  UseHours use;
  Plan plan = plan_frame(in, use);
  for (const auto& o : in.options) plan.options.push_back(plan_option(in, o, use));
  compare_with_baseline(in, use.days_total, plan);
  compare_with_api(in, plan);
  recommend(in, plan);
  check_finite_figures(plan);
  return plan;
}

}  // namespace gputco
