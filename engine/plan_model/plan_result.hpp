// The plan's results: per option, the monthly cash flows, the fit, speed, totals and metrics;
// the shared timeline; the plan with its recommendation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/speed.hpp"
#include "engine/plan_model/after_tax.hpp"
#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/profit_and_loss.hpp"
#include "engine/serving/serving_load.hpp"

namespace gputco {

/// Monthly cash flows of one option, plan currency. Index 0 is the start of month 1
/// (purchases, setup fees); index m (1..horizon) is the end of month m (running costs,
/// paid in arrears; resale at the horizon). Every vector has horizon_months + 1 entries.
/// total = capex + energy + maintenance + hosting + failures + rent + financing + vat +
/// resale + colo_extras + insurance + staff + licences + support; depreciation, book_value and
/// interest are the accounting view, not cash, not in total.
struct CashFlow {
  std::vector<double> capex;
  std::vector<double> energy;
  std::vector<double> maintenance;
  std::vector<double> rent;
  std::vector<double> resale;  ///< negative: money coming back
  std::vector<double> total;
  std::vector<double> cumulative;
  std::vector<double> discount_factor;  ///< (1 + r)^(-m/12)
  std::vector<double> discounted;       ///< total x discount_factor
  std::vector<double> hosting;          ///< colocation: per kW and per rack unit, per month
  std::vector<double> failures;         ///< expected replacements after the warranty
  std::vector<double> financing;        ///< loan: -principal at 0, then instalments; lease: fees
  std::vector<double> vat;              ///< VAT when not reclaimable
  std::vector<double> depreciation;     ///< straight-line, accounting only (not in total)
  std::vector<double> book_value;       ///< capex to date - depreciation to date (accounting)
  // The cost lines (engine/finance/cost_lines.hpp): 0 where not entered.
  std::vector<double> colo_extras;  ///< colocation extras: per unit in the rack a month
  std::vector<double> insurance;    ///< owned hardware: share of its purchase value a year / 12
  std::vector<double> staff;        ///< staff and operations
  std::vector<double> licences;     ///< software licences (per month, per year, per device)
  std::vector<double> support;      ///< support contracts (per month, per year, per device)
  /// Loan: the interest part of each instalment (balance owed x monthly rate), accounting view
  /// (in financing, not in total again); 0 otherwise.
  std::vector<double> interest;
  std::vector<double> load;           ///< demand in units of this option (index 0: month 1's)
  std::vector<double> units;          ///< units in service (owned, reserved, monthly servers)
  std::vector<double> overflow_load;  ///< load rented from the overflow option
  // Physical rows (not money, not in total). Known only where OptionResult says so
  // (energy_kwh_total / co2e_kg_total set); zeros otherwise (api options: unknown).
  std::vector<double> energy_kwh;  ///< kWh at the wall in month m (load + idle, x PUE)
  std::vector<double> idle_kwh;    ///< of which idle (powered, not serving), x PUE
  std::vector<double> co2e_kg;     ///< energy_kwh x g CO2e/kWh / 1000 (0 when unknown)
  /// Of energy_kwh, a blend's overflow rental (issue #21 H1): overflow_load x rental
  /// instances per load x hours of use / the rental's goodput x its power x its PUE; 0 else.
  std::vector<double> overflow_kwh;
  /// Of co2e_kg, the overflow rental's: overflow_kwh x its g CO2e/kWh / 1000 (0 when unknown).
  std::vector<double> overflow_co2e_kg;
};

/// One row of a CashFlow and its name ("capex", "financing", "kWh"): for code that walks every
/// row (the figure check before any report).
/// Months first..last of the plan (index as CashFlow), both included.
struct MonthSpan {
  int first = 0;
  int last = 0;
};

struct NamedCashFlowRow {
  const char* name;
  const std::vector<double>* values;
};

/// Every row of `cf`, in the order CashFlow declares them. Throws nothing but bad_alloc.
inline std::vector<NamedCashFlowRow> named_cash_flow_rows(const CashFlow& cf) {
  return {{"capex", &cf.capex},
          {"energy", &cf.energy},
          {"maintenance", &cf.maintenance},
          {"rent", &cf.rent},
          {"resale", &cf.resale},
          {"total", &cf.total},
          {"cumulative", &cf.cumulative},
          {"discount factor", &cf.discount_factor},
          {"discounted", &cf.discounted},
          {"hosting", &cf.hosting},
          {"failures", &cf.failures},
          {"financing", &cf.financing},
          {"VAT", &cf.vat},
          {"depreciation", &cf.depreciation},
          {"book value", &cf.book_value},
          {"colocation extras", &cf.colo_extras},
          {"insurance", &cf.insurance},
          {"staff", &cf.staff},
          {"licences", &cf.licences},
          {"support", &cf.support},
          {"interest", &cf.interest},
          {"load", &cf.load},
          {"units", &cf.units},
          {"overflow load", &cf.overflow_load},
          {"kWh", &cf.energy_kwh},
          {"idle kWh", &cf.idle_kwh},
          {"kg CO2e", &cf.co2e_kg},
          {"overflow kWh", &cf.overflow_kwh},
          {"overflow kg CO2e", &cf.overflow_co2e_kg}};
}

/// What users get from an option sized by the serving model at the plan's load (issue #43):
/// one replica at the peak hour and at an hour of mean load of month 1
/// (engine/fleet/fleet_load.hpp).
struct PlanServingLoad {
  double replicas_at_peak = 0;  ///< replicas in service at the peak hour
  double replicas_at_mean = 0;  ///< replicas in service at an hour of mean load
  ServingAtLoad peak;           ///< one replica at the peak hour
  ServingAtLoad mean;           ///< one replica at an hour of mean load
};

struct OptionResult {
  std::string id;
  OptionKind kind = OptionKind::buy;
  FitResult fit;
  /// One unit's speed: its replicas' sum for the aggregate and prefill rates, one replica's
  /// per-stream decode (engine/serving/replicas.hpp box_speed).
  SpeedEstimate speed;
  /// How one unit's devices serve (OptionInputs::gpus_per_replica, replicas, layout_note):
  /// `replicas` instances of `gpus_per_replica` devices; 0 / 1 / "" for api options.
  int gpus_per_replica = 0;
  int replicas = 1;
  std::string layout_note;
  /// The serving model's figures when it sized the option (OptionInputs::serving, engine/
  /// serving_capacity_plan.hpp): engine, batch, latency; nullopt for the llama.cpp model and
  /// api options. `speed` then holds its box output rate and per-user rate.
  std::optional<ServingCapacity> serving;
  std::string serving_note;  ///< OptionInputs::serving_note ("" when `serving` is nullopt)
  /// One replica at the plan's load, peak and mean hour of month 1 (engine/fleet/fleet_load.hpp);
  /// nullopt unless `serving` is set and the option is feasible. `speed.decode_tokens_per_s`
  /// is then the mean hour's per-user speed.
  std::optional<PlanServingLoad> serving_load;
  /// Whole units the peak hour of each month needs (index as CashFlow; engine/fleet/fleet_load.hpp
  /// units_needed): owned units bought, servers or instances rented at the peak. Empty for api
  /// options and options not priced.
  std::vector<double> units_needed;
  int devices_needed = 0;  ///< smallest count of this device that holds the model (0: none)
  /// The option can serve the demand: the model fits (fits or tight) on its devices and, when
  /// the serving model sizes it, a replica holds it and the latency targets are met
  /// (OptionInputs::unservable_reason empty). An option that is not feasible is never
  /// priced: its cash flow rows, totals and costs are 0 and every report shows none, with
  /// `note` saying why.
  bool feasible = false;
  /// OptionInputs::excluded_reason: why the option may not be chosen ("" = allowed). Its
  /// figures are computed and shown; it is never recommended (see is_candidate).
  std::string excluded_reason;
  double power_at_load_w = 0;  ///< devices + host at load (owned options)
  double hours_per_month = 0;  ///< hours of use per month
  /// Owned options: kWh at the wall in a month of full load during the hours of use (power at
  /// load x hours of use x PUE), a capacity figure; what the plan's demand really draws,
  /// idle included, is CashFlow::energy_kwh (JSON energy_kwh).
  double energy_kwh_per_month = 0;
  double tokens_per_month = 0;  ///< generated tokens at full load during the hours of use
  /// Output tokens/s served during the hours of use when the workload states no demand in
  /// tokens: demand_streams_tokens_per_s(concurrent_streams, speed) (engine/hardware/speed.hpp),
  /// the rate tokens_served counts; 0 for an api option and an option that does not hold the model.
  double served_tokens_per_s = 0;
  /// Output tokens served in month m (index 0, the start: 0): tokens_per_day x growth factor x
  /// days of use when the demand is stated, else the option's aggregate decode tokens/s x 3600
  /// x hours_per_day x days of use x growth factor. Their sum is the tokens that
  /// cost_per_million_tokens divides by (the workbook's Metrics sheet sums this row).
  std::vector<double> tokens_served;
  /// The part of each month's total (index as CashFlow) that scales with hours_per_day when
  /// the hours change and everything else stays, tokens_per_day scaled with them (as
  /// at_hours_per_day, the load per hour of use unchanged): the energy at load net of the idle
  /// hours it replaces, hourly rent, an API's fees, and their VAT. total_m at h hours a day =
  /// (total_m - this_m) + this_m x h / hours_per_day (0 < h <= 24; see hours_scaled_costs).
  /// The workbook's break-even hours are a formula of it. All 0 when hours_per_day is 0.
  std::vector<double> hours_scaled_cost;
  /// The part of each month's total that scales with tokens_per_day at the same hours of use
  /// (volume_scaled_costs over the prepared option, its capacity included): 2 x (total_m -
  /// total_m at half the volume). All 0 without a demand in tokens. The workbook's Metrics
  /// caches it.
  std::vector<double> volume_scaled_cost;
  CashFlow cash_flow;
  /// The P&L per plan year beside the cash view, and the tax depreciation schedule.
  ProfitAndLoss profit_and_loss;
  double total_cost = 0;  ///< sum of all flows, resale netted
  double npv = 0;         ///< present value of cost at the discount rate
  /// With a tax rate (FinanceInputs::tax_rate, issue #40): the after-tax cash flow, total and
  /// NPV (engine/plan_model/after_tax.hpp); nullopt without one. Every other figure stays pre-tax.
  std::optional<AfterTax> after_tax;
  std::vector<double> annual_costs;  ///< year 1 = index 0..12, year k = 12(k-1)+1..12k
  /// Hours of use over the horizon at which owning = renting baseline; nullopt: never, or
  /// owning_cheaper_at_any_use.
  std::optional<double> break_even_hours;
  /// Month from which the owned option's cumulative cost, having been above the baseline's,
  /// stays at or below it through the end of the horizon (see break_even_month()); nullopt:
  /// never (dearer at the end of the horizon; ahead_then_behind says when it led), or n/a
  /// when never_dearer_than_baseline.
  std::optional<int> break_even_month;
  /// Owned option with no break-even month that was nonetheless at or below the baseline
  /// (cumulative) for a while after month 0: the last such stretch, dearer from last + 1 to
  /// the end (engine ahead_then_behind). The reports say "never (ahead months 12-40, behind
  /// from 41)". nullopt otherwise.
  std::optional<MonthSpan> ahead_then_behind;
  /// Total cost / generated (output) tokens of the stated demand over the horizon x 1e6: the
  /// same meaning for every option (hardware, rentals, api). Tokens = sum over months of
  /// tokens_per_day x growth factor x days of use when tokens_per_day is given, else (no
  /// stated demand; never with an api option) the option's own aggregate decode capacity
  /// during the hours of use. nullopt when infeasible or no tokens.
  std::optional<double> cost_per_million_tokens;
  std::string note;  ///< why infeasible, or what the break-even is against
  /// On-demand and spot rentals: how the rent is billed (engine/finance/billing.hpp), one sentence
  /// ("always on: 1 instance (up to 2 by month 36) for the 243.3 h of availability a month
  /// ..."); "" for every other option. Every report shows it.
  std::string billing;
  /// On-demand and spot rentals: instance-hours billed over the horizon (before goodput),
  /// the sum of billed_instance_hours month by month; 0 for every other option.
  double billed_instance_hours = 0;
  /// Cost lines the scenario did not enter for this option (cost_lines_not_entered), and
  /// "host system" first for a buy option of gpu and count without host_cost: counted as 0,
  /// and every report says so.
  std::vector<std::string> cost_lines_not_entered;
  double cost_per_year = 0;  ///< total_cost / (horizon_months / 12)
  /// Months until the cumulative saving of owning against the baseline turns non-negative
  /// for good (stays so through the end of the horizon), interpolated within the month
  /// (engine payback_months); nullopt: never within the horizon (or not owned).
  std::optional<double> payback_months;
  /// IRR of owning against the baseline (baseline total - own total by month), annualised
  /// (1 + monthly)^12 - 1; nullopt ("n/a", irr_na_reason says why) when the saving does not
  /// change sign or has no root, when it changes sign more than once and its running sum
  /// does not change sign exactly once (the rate is not unique: Descartes' rule of signs and
  /// Norstrom's criterion, engine irr_is_unique; with one change of the running sum the rate
  /// is the one root above 0), or when comparison_na_reason is set (no initial outlay, no
  /// use).
  std::optional<double> irr;
  /// What `irr` is the return on (issue #40): "project" (the option's own flows: bought for
  /// cash, or no financing) or "equity" (a loan: the saving after the loan's proceeds and
  /// instalments, the return on the down payment); "" for a lease (no outlay: its IRR is n/a)
  /// and an option not compared.
  std::string irr_basis;
  /// A loan-financed option: the project IRR, the IRR of the saving with the loan's flows
  /// taken out (the hardware as if bought for cash: baseline total - (own total - financing)
  /// by month), computed as `irr` is; nullopt otherwise or when that has no unique rate
  /// (project_irr_na_reason says why). For an option bought for cash `irr` is the project IRR.
  std::optional<double> project_irr;
  std::string project_irr_na_reason;  ///< why project_irr is nullopt for a loan ("" else)
  /// Sign changes of the monthly saving against the baseline (engine saving_sign_changes);
  /// 0 for an option not compared with a baseline.
  int saving_sign_changes = 0;
  /// Sign changes of the cumulative saving against the baseline (engine
  /// cumulative_saving_sign_changes); 0 for an option not compared with a baseline.
  int cumulative_saving_sign_changes = 0;
  /// Why irr is nullopt for an owned option compared with the baseline: comparison_na_reason,
  /// "the saving changes sign N times: ...", "the saving never changes sign: ..." or no root
  /// in range; "" when irr has a value or the option is not compared.
  std::string irr_na_reason;
  /// Why payback, IRR and (when nullopt) the break-even month are not applicable rather than
  /// "never" for an owned option compared with the baseline: no initial outlay (a lease, a loan
  /// without down payment: nothing is invested up front to pay back), owning never costs
  /// more than the baseline, or the baseline costs nothing (no hours of use). "" otherwise.
  std::string comparison_na_reason;
  /// Owned option whose cumulative cost is never above the baseline's: its break-even month
  /// is "n/a" (nothing to break even), not "never".
  bool never_dearer_than_baseline = false;
  /// What the figures of this option leave out or assume, one sentence each, for every report
  /// (prefill not counted for a device without FP16 throughput, energy cost left out for a
  /// device without board power, payback and IRR not applicable, ...). Not errors.
  std::vector<std::string> warnings;
  /// The device's board power is unknown (Device::board_power_w 0): energy and CO2e are
  /// unknown, and an owned option's energy cost counts the host's draw only.
  bool power_unknown = false;
  /// Hours of use per day at which owning costs the same as the baseline over the horizon;
  /// nullopt: never (renting is cheaper even at 24 h/day), or owning_cheaper_at_any_use.
  std::optional<double> break_even_hours_per_day;
  /// Owned option whose total cost over the horizon is no more than the baseline's both
  /// unused (0 hours of use a day) and at 24 hours a day, both options at the same hours
  /// (tokens per day scaled with them), e.g. against a rental billed for every hour of a
  /// 24x7 availability whose rent the owned option's energy never reaches: no break-even
  /// number of hours, owning is no dearer from the first hour of use. Set by make_plan when
  /// break_even_hours_per_day() gives 0: its gap (own total - baseline total) is <= 0 at
  /// 24 h/day and at 0 h/day, or at every use from a second a day (kNegligibleHoursPerDay:
  /// with a demand in tokens, 0 h/day sizes one unit where any use sizes the fleet; issue
  /// #43's "0 h" of 4.78e-08). Not "even at 0 hours" alone: owning that is cheaper unused but
  /// dearer at 24 h/day (a flat rent against rising energy) has a break-even of "never". The
  /// reports say "always"; break_even_hours and break_even_hours_per_day are then nullopt
  /// (no break-even number, not 0).
  bool owning_cheaper_at_any_use = false;
  std::optional<double> cost_per_user_per_month;

  // Pay-per-token API (kind api) and the break-even volume against it. An api option is
  // feasible with fit.verdict = fits and zero memory figures (the provider serves the model),
  // devices_needed 0, speed 0, power 0.
  /// Owned and rented options: the output tokens per day of use (same token mix, growth and
  /// hours; requests scaled alike) at which this option's total cost over the horizon equals
  /// Plan::api_reference_option_id's (the feasible api option with the lowest total cost),
  /// both recomputed through option_cash_flow at that volume. The lowest such volume in [0,
  /// capacity_tokens_per_hour x hours_per_day] (one unit's output in the stated hours of use),
  /// found by a 200-point scan then bisection; 0 when this option is no dearer even at (near)
  /// zero volume; nullopt ("never") when the api stays cheaper up to that capacity, when there
  /// is no api option, or for api options themselves.
  std::optional<double> break_even_tokens_per_day = std::nullopt;
  /// api: the demand's peak tokens per minute (input + output, the month with the highest
  /// growth factor) spread over the hours of use: (1 + input_tokens_per_output_token) x
  /// tokens_per_day x max growth factor / (hours_per_day x 60); nullopt when not computable.
  std::optional<double> peak_tokens_per_minute = std::nullopt;
  /// api: requests_per_day x max growth factor / (hours_per_day x 60); nullopt without
  /// requests_per_day.
  std::optional<double> peak_requests_per_minute = std::nullopt;
  /// api: the peak tokens or requests per minute exceed a published limit (the workbook's
  /// Checks sheet shows it; the option stays comparable: batch, spread, or buy a higher tier).
  bool rate_limit_exceeded = false;

  // Energy and carbon over the horizon (physical; the money of energy is CashFlow::energy).
  /// kWh at the wall over the horizon (sum of CashFlow::energy_kwh): owned options' load and
  /// idle energy x PUE; rentals' estimate from the rented devices' board power (x their
  /// idle share when billed all month) x the data centre's PUE. nullopt for api options: no
  /// provider publishes energy per token (energy_unknown_reason says so), never 0.
  std::optional<double> energy_kwh_total = std::nullopt;
  std::string energy_unknown_reason;  ///< why energy_kwh_total is nullopt ("" when known)
  /// Carbon intensity used, g CO2e/kWh (the option's, else the site's for owned options).
  std::optional<double> grid_g_co2e_per_kwh = std::nullopt;
  /// kg CO2e over the horizon = energy_kwh_total x grid_g_co2e_per_kwh / 1000 (sum of
  /// CashFlow::co2e_kg); nullopt when the energy or the intensity is unknown.
  std::optional<double> co2e_kg_total = std::nullopt;
  /// co2e_kg_total / the tokens of cost_per_million_tokens x 1e6 (kg per million output
  /// tokens); nullopt when either is unknown.
  std::optional<double> co2e_kg_per_million_tokens = std::nullopt;
  std::string co2e_unknown_reason;  ///< why co2e_kg_total is nullopt ("" when known)
  /// A blend's split of its energy and CO2e (issue #21 H1): energy_kwh_total and
  /// co2e_kg_total include the overflow rental's part, computed as that rental computes its
  /// own (engine/money/energy.cpp). Set for owned options with overflow = rent whose energy is
  /// known.
  struct OverflowEnergy {
    std::string option_id;    ///< the overflow rental
    double owned_kwh = 0;     ///< the owned units' kWh over the horizon (load + idle)
    double overflow_kwh = 0;  ///< the rental's kWh over the horizon
    std::optional<double> owned_co2e_kg = std::nullopt;     ///< nullopt: intensity unknown
    std::optional<double> overflow_co2e_kg = std::nullopt;  ///< nullopt: intensity unknown
    /// The rental's intensity, g CO2e/kWh (grid_g_co2e_per_kwh is the owned units').
    std::optional<double> overflow_grid_g_co2e_per_kwh = std::nullopt;
    std::string overflow_co2e_unknown_reason;  ///< why overflow_co2e_kg is nullopt
  };
  std::optional<OverflowEnergy> overflow_energy = std::nullopt;
  /// What the model added month by month (units bought, overflow rented).
  struct Event {
    int month = 0;
    std::string what;
  };
  std::vector<Event> events;
};

/// Whether an option may be recommended, or taken as the automatic rental baseline or API
/// reference: it holds the model and no constraint excludes it.
inline bool is_candidate(const OptionResult& option) {
  return option.feasible && option.excluded_reason.empty();
}

/// The plan's calendar month by month (index 0..horizon, as CashFlow), shared by every
/// option's flows; the workbook's timeline rows show it.
struct Timeline {
  std::vector<double> hours_in_month;  ///< 24-hour billing hours of month m (0 at index 0)
  std::vector<double> days_of_use;     ///< days of use in month m (0 at index 0)
  std::vector<double> hours_of_use;    ///< hours_per_day x days_of_use
  std::vector<double> growth_factor;   ///< demand factor (1 + growth)^max(0, m - 1)
  std::vector<double> rent_factor;     ///< hourly rental trend (1 + trend)^(max(0, m - 1) / 12)
  std::vector<double> tariff_factor;   ///< electricity trend (1 + trend)^(max(0, m - 1) / 12)
  std::vector<double> api_factor;      ///< API price trend (1 + trend)^(max(0, m - 1) / 12)
};

struct Plan {
  Timeline timeline;
  std::string currency;
  int horizon_months = 0;
  std::string baseline_option_id;  ///< the rental baseline actually used ("" if none)
  std::vector<OptionResult> options;
  /// The candidate option (is_candidate) with the lowest NPV: the after-tax NPV when the plan
  /// has a tax rate.
  std::optional<std::string> recommendation;
  /// The tax rate of the after-tax view (FinanceInputs::tax_rate); nullopt: none, pre-tax only.
  std::optional<double> tax_rate;
  /// With a tax rate: the candidate with the lowest pre-tax NPV (the recommendation without
  /// the tax view), kept beside the after-tax recommendation; nullopt without a rate.
  std::optional<std::string> pre_tax_recommendation;
  std::string recommendation_reason;
  /// The api option the others' break_even_tokens_per_day is against: the feasible api
  /// option with the lowest total cost ("" when the plan has none).
  std::string api_reference_option_id;
  /// What the whole plan adjusted or assumes (e.g. days of use capped at the days of a
  /// month), one sentence each, for every report.
  std::vector<std::string> warnings;
};

/// The option of `plan` whose id is `id`, or nullptr when it has none. Throws nothing.
inline const OptionResult* find_option_result(const Plan& plan, const std::string& id) {
  for (const OptionResult& option : plan.options) {
    if (option.id == id) return &option;
  }
  return nullptr;
}

}  // namespace gputco
