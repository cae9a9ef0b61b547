#include "reports/json_report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/fleet/capacity.hpp"
#include "engine/money/instalment.hpp"

namespace gputco {

namespace {

using ordered = nlohmann::ordered_json;

/// A number, or null when it is not finite (never NaN or infinity in the output).
ordered number(double x) {
  return std::isfinite(x) ? ordered(x) : ordered(nullptr);
}

template <typename T>
ordered optional(const std::optional<T>& x) {
  if (!x) return nullptr;
  if constexpr (std::is_floating_point_v<T>) return number(*x);
  return *x;
}

ordered numbers(const std::vector<double>& xs) {
  ordered out = ordered::array();
  for (double x : xs) out.push_back(number(x));
  return out;
}

/// The option's variant of its kind: the billing term, the hosting, the financing.
std::string variant(const OptionInputs& in) {
  switch (in.kind) {
    case OptionKind::buy: {
      std::string v = in.blend ? "blend" : to_string(in.condition);
      if (in.hosting == Hosting::colocation) v += ", colocation";
      if (in.financing != Financing::cash) v += ", " + to_string(in.financing);
      return v;
    }
    case OptionKind::rent_hourly:
      return in.hourly_billing.billing == Billing::autoscaled && term_months(in.term) == 0
                 ? to_string(in.term) + ", autoscaled"
                 : to_string(in.term);
    case OptionKind::rent_monthly:
      return "monthly";
    case OptionKind::api:
      return "per token";
  }
  return "";
}

/// A physical row (kWh, kg) that exists only when its total is known: the months (index 0 =
/// the start, always 0), else null.
ordered known_rows(const std::optional<double>& total, const std::vector<double>& row) {
  return total ? numbers(row) : ordered(nullptr);
}

ordered reason(const std::string& text) {
  return text.empty() ? ordered(nullptr) : ordered(text);
}

/// The fleet an option's demand needs (issue #43): replicas per unit, the whole units the peak
/// hour of each month needs, and one replica at the peak and the mean hour of month 1 (null
/// where the serving model did not size it).
ordered fleet_json(const OptionResult& r) {
  const auto at = [](const ServingAtLoad& a, double replicas) {
    return ordered{{"replicas_in_service", number(replicas)},
                   {"in_flight_per_replica", number(a.in_flight)},
                   {"batch_per_step", number(a.batch)},
                   {"output_tokens_per_s_per_replica", number(a.output_tokens_per_s)},
                   {"utilization", number(a.utilization)},
                   {"per_user_tokens_per_s", number(a.per_user_tokens_per_s)},
                   {"tpot_ms", number(a.tpot_ms)},
                   {"tpot_p99_ms", number(a.tpot_p99_ms)},
                   {"ttft_ms", number(a.ttft_ms)},
                   {"ttft_p99_ms", number(a.ttft_p99_ms)}};
  };
  const auto& l = r.serving_load;
  return ordered{{"replicas_per_unit", r.replicas},
                 {"gpus_per_replica", r.gpus_per_replica},
                 {"units_needed", numbers(r.units_needed)},
                 {"peak_hour", l ? at(l->peak, l->replicas_at_peak) : ordered(nullptr)},
                 {"mean_hour", l ? at(l->mean, l->replicas_at_mean) : ordered(nullptr)}};
}

}  // namespace

std::string plan_json(const Plan& plan, const ResolvedScenario& scenario, const JsonStamp& stamp) {
  ordered j;
  j["gputco"] = stamp_json(stamp);
  j["scenario"] = scenario.name;
  j["customer"] = scenario.customer;
  j["quote_id"] = scenario.quote_id;
  j["currency"] = plan.currency;
  j["as_of"] = scenario.as_of;
  j["start"] = scenario.start;
  j["horizon_months"] = plan.horizon_months;
  j["baseline"] =
      plan.baseline_option_id.empty() ? ordered(nullptr) : ordered(plan.baseline_option_id);
  j["recommendation"] = optional(plan.recommendation);
  j["proposed"] =
      scenario.proposed_option_id.empty() ? ordered(nullptr) : ordered(scenario.proposed_option_id);
  j["recommendation_reason"] = plan.recommendation_reason;
  if (plan.tax_rate) {
    // The after-tax view (issue #40): only with [tax] rate, so plans without one are unchanged.
    j["tax_rate"] = number(*plan.tax_rate);
    j["pre_tax_recommendation"] = optional(plan.pre_tax_recommendation);
    j["tax_assumption"] = kAfterTaxAssumption;
  }
  const auto& inputs = scenario.plan_inputs;
  j["hours_per_month_convention"] = to_string(inputs.workload.hours_per_month_convention);
  j["vat_rate"] = number(inputs.finance.vat_rate);
  j["vat_reclaimable"] = inputs.finance.vat_reclaimable;
  j["useful_life_months"] = inputs.finance.useful_life_months;
  j["api_reference"] = plan.api_reference_option_id.empty() ? ordered(nullptr)
                                                            : ordered(plan.api_reference_option_id);
  j["tokens_per_day"] = optional(inputs.workload.tokens_per_day);
  j["input_tokens_per_output_token"] = optional(inputs.workload.input_tokens_per_output_token);
  j["requests_per_day"] = optional(inputs.workload.requests_per_day);
  // The demand's peak (issue #21): what units and always-on instances are sized for.
  const DailyLoadShape shape = load_shape_of(inputs.workload);
  j["peak"] = {{"peak_multiplier", number(shape.peak_multiplier)},
               {"source", !inputs.workload.hourly_profile.empty() ? "hourly_profile"
                          : shape.flat ? "default: the demand spread evenly over the hours of use"
                                       : "peak_factor"},
               {"hourly_profile", inputs.workload.hourly_profile.empty()
                                      ? ordered(nullptr)
                                      : numbers(inputs.workload.hourly_profile)}};
  ordered options = ordered::array();
  for (size_t i = 0; i < plan.options.size(); ++i) {
    const auto& r = plan.options[i];
    const auto& in = scenario.plan_inputs.options.at(i);
    ordered o;
    o["id"] = r.id;
    o["label"] = option_label(scenario, r.id);
    o["kind"] = to_string(r.kind);
    o["variant"] = variant(in);
    o["gpu"] = in.device.id;
    o["count"] = in.count;
    // The catalog system it buys (`system = ID`); null: devices and host described apart.
    o["system_id"] = in.system_id.empty() ? ordered(nullptr) : ordered(in.system_id);
    // The links its devices' tensor-parallel and pipeline traffic takes (a system's
    // interconnect, the option's nvlink_domain_gpus); null: not stated (the device's own link).
    o["interconnect"] = in.interconnect.empty() ? ordered(nullptr) : ordered(in.interconnect);
    o["nvlink_domain_gpus"] =
        in.device.nvlink_domain_gpus > 0 ? ordered(in.device.nvlink_domain_gpus) : ordered(nullptr);
    // Why a constraint excludes it (never recommended; its figures still shown); null: allowed.
    o["excluded_reason"] = reason(r.excluded_reason);
    const bool api = r.kind == OptionKind::api;
    // An API has no devices: its memory, speed and power are not 0 but not applicable
    // (null), and its energy is unknown (null, as energy_kwh below).
    const auto device = [&](double x) { return api ? ordered(nullptr) : number(x); };
    o["fit"] = {{"verdict", api ? std::string("hosted") : to_string(r.fit.verdict)},
                {"weights_gib", device(r.fit.memory.weights_gib)},
                {"kv_cache_gib", device(r.fit.memory.kv_cache_gib)},
                {"recurrent_state_gib", device(r.fit.memory.recurrent_state_gib)},
                {"overhead_gib", device(r.fit.memory.overhead_gib)},
                {"required_gib", device(r.fit.memory.total_gib)},
                {"usable_gib", device(r.fit.usable_gib)},
                {"headroom_gib", device(r.fit.headroom_gib)}};
    o["devices_needed"] = r.devices_needed;
    o["speed"] = {{"decode_tokens_per_s", device(r.speed.decode_tokens_per_s)},
                  {"aggregate_tokens_per_s", device(r.speed.aggregate_tokens_per_s)},
                  {"served_tokens_per_s", device(r.served_tokens_per_s)}};
    if (api || r.gpus_per_replica <= 0) {
      o["layout"] = nullptr;
    } else {
      o["layout"] = {{"gpus_per_replica", r.gpus_per_replica},
                     {"replicas", r.replicas},
                     {"note", r.layout_note}};
    }
    if (r.serving) {
      // The serving model sized the option (engine/fleet/serving_capacity_plan.hpp).
      const ServingCapacity& c = *r.serving;
      o["serving"] = {{"engine", to_string(c.engine)},
                      {"engine_version", c.engine_version},
                      {"tp", c.tp},
                      {"pp", c.pp},
                      {"batch_per_replica", c.batch_per_replica},
                      {"max_batch_per_replica", c.max_batch_per_replica},
                      {"output_tokens_per_s", number(c.output_tokens_per_s)},
                      {"per_user_tokens_per_s", number(c.per_user_tokens_per_s)},
                      {"tpot_p99_ms", number(c.tpot_p99_ms)},
                      {"ttft_p99_ms", number(c.ttft_p99_ms)},
                      {"bound", to_string(c.bound)},
                      {"note", r.serving_note}};
    } else {
      o["serving"] = nullptr;
    }
    // The fleet the demand needs and what users get at the plan's load (issue #43).
    o["fleet"] = api || !r.feasible ? ordered(nullptr) : fleet_json(r);
    o["power_at_load_w"] = device(r.power_at_load_w);
    o["hours_per_month"] = number(r.hours_per_month);
    if (r.billing.empty()) {
      o["billing"] = nullptr;
    } else {
      // An owned option's overflow is billed as its rental bills (engine
      // describe_overflow_billing).
      const bool overflow = in.kind == OptionKind::buy && in.overflow == Overflow::rent;
      const HourlyBilling& b = overflow ? in.overflow_billing : in.hourly_billing;
      const bool autoscaled = b.billing == Billing::autoscaled;
      o["billing"] = {
          {"rented_from", overflow ? ordered(in.overflow_option_id) : ordered(nullptr)},
          {"mode", to_string(b.billing)},
          {"availability", to_string(inputs.workload.availability)},
          {"min_instances", autoscaled ? ordered(b.min_instances) : ordered(nullptr)},
          {"granularity", autoscaled ? ordered(to_string(b.granularity)) : ordered(nullptr)},
          {"billed_instance_hours", number(r.billed_instance_hours)},
          {"assumption", r.billing}};
    }
    o["full_load_kwh_per_month"] = device(r.energy_kwh_per_month);
    o["tokens_per_month"] = number(r.tokens_per_month);
    // Never priced: an option that cannot serve the demand has no cost (null; `note` says why).
    const auto priced = [&](double x) { return r.feasible ? number(x) : ordered(nullptr); };
    o["total_cost"] = priced(r.total_cost);
    o["npv"] = priced(r.npv);
    if (r.after_tax) {
      // The after-tax view (issue #40): tax saved (< 0) or paid (> 0) per plan year and month,
      // the after-tax flows, total and NPV; every other figure of the option stays pre-tax.
      const AfterTax& a = *r.after_tax;
      o["after_tax"] = {{"tax_rate", number(a.tax_rate)},
                        {"total_cost", priced(a.total_cost)},
                        {"npv", priced(a.npv)},
                        {"pre_tax_total_cost", priced(r.total_cost)},
                        {"pre_tax_npv", priced(r.npv)},
                        {"tax_by_year", numbers(a.tax_by_year)},
                        {"monthly_tax", numbers(a.tax)},
                        {"monthly_total", r.feasible ? numbers(a.total) : ordered(nullptr)}};
    }
    o["annual_costs"] = r.feasible ? numbers(r.annual_costs) : ordered(nullptr);
    o["break_even_hours"] = optional(r.break_even_hours);
    o["break_even_month"] = optional(r.break_even_month);
    o["cost_per_million_tokens"] = optional(r.cost_per_million_tokens);
    o["monthly_total"] = r.feasible ? numbers(r.cash_flow.total) : ordered(nullptr);
    o["monthly_cumulative"] = r.feasible ? numbers(r.cash_flow.cumulative) : ordered(nullptr);
    o["cost_per_year"] = priced(r.cost_per_year);
    o["payback_months"] = optional(r.payback_months);
    o["irr"] = optional(r.irr);
    // What `irr` is the return on (issue #40): "project" (bought for cash) or "equity" (a loan:
    // on the down payment; a lease), null when not compared; the project IRR beside it (a
    // loan: the saving with the loan's flows taken out), and the equity IRR of a financed one.
    o["irr_basis"] = reason(r.irr_basis);
    o["project_irr"] = r.irr_basis == "project" ? optional(r.irr) : optional(r.project_irr);
    o["equity_irr"] = r.irr_basis == "equity" ? optional(r.irr) : ordered(nullptr);
    o["project_irr_na_reason"] = reason(r.project_irr_na_reason);
    // Why the IRR is null for an owned option compared with the baseline (the saving changes
    // sign more than once: no unique rate; no initial outlay; ...), else null.
    o["irr_na_reason"] = reason(r.irr_na_reason);
    o["saving_sign_changes"] = r.saving_sign_changes;
    o["cumulative_saving_sign_changes"] = r.cumulative_saving_sign_changes;
    // No break-even month although owning led for a while: when, and when it fell behind.
    if (r.ahead_then_behind) {
      o["ahead_then_behind"] = {{"ahead_first_month", r.ahead_then_behind->first},
                                {"ahead_last_month", r.ahead_then_behind->last},
                                {"behind_from_month", r.ahead_then_behind->last + 1}};
    } else {
      o["ahead_then_behind"] = nullptr;
    }
    o["break_even_hours_per_day"] = optional(r.break_even_hours_per_day);
    // Owning cheaper even unused: both break-even hours are null, this says why (not "never").
    o["owning_cheaper_at_any_use"] = r.owning_cheaper_at_any_use;
    o["cost_per_user_per_month"] = optional(r.cost_per_user_per_month);
    const auto& cf = r.cash_flow;
    o["cash_flow"] = {{"capex", numbers(cf.capex)},
                      {"energy", numbers(cf.energy)},
                      {"maintenance", numbers(cf.maintenance)},
                      {"hosting", numbers(cf.hosting)},
                      {"colo_extras", numbers(cf.colo_extras)},
                      {"failures", numbers(cf.failures)},
                      {"licences", numbers(cf.licences)},
                      {"support", numbers(cf.support)},
                      {"rent", numbers(cf.rent)},
                      {"financing", numbers(cf.financing)},
                      {"staff", numbers(cf.staff)},
                      {"insurance", numbers(cf.insurance)},
                      {"vat", numbers(cf.vat)},
                      {"resale", numbers(cf.resale)},
                      {"total", numbers(cf.total)},
                      {"discounted", numbers(cf.discounted)},
                      // An api has no capacity of ours: no load (null), never its tokens.
                      {"load", api ? ordered(nullptr) : numbers(cf.load)},
                      {"units", numbers(cf.units)},
                      {"overflow_load", numbers(cf.overflow_load)}};
    o["break_even_tokens_per_day"] = optional(r.break_even_tokens_per_day);
    // A loan's or a lease's monthly instalment (engine/money/instalment.hpp), null otherwise.
    const OptionInputs* option_inputs = nullptr;
    for (const OptionInputs& candidate : scenario.plan_inputs.options) {
      if (candidate.id == r.id) option_inputs = &candidate;
    }
    const std::optional<FinancingInstalment> instalment =
        option_inputs != nullptr ? financing_instalment(*option_inputs, r.cash_flow) : std::nullopt;
    if (instalment) {
      o["instalment"] = {{"financing", to_string(instalment->financing)},
                         {"per_month", number(instalment->per_month)},
                         {"months", instalment->months},
                         {"down_payment", number(instalment->down_payment)},
                         {"rate", number(instalment->rate)}};
    } else {
      o["instalment"] = nullptr;
    }
    // Energy and carbon: totals over the horizon and per month (index 0 = the start); null
    // with a reason where unknown, never 0.
    o["energy_kwh"] = {{"total", optional(r.energy_kwh_total)},
                       {"per_month", known_rows(r.energy_kwh_total, cf.energy_kwh)},
                       {"idle_per_month", known_rows(r.energy_kwh_total, cf.idle_kwh)},
                       {"unknown_reason", reason(r.energy_unknown_reason)}};
    o["co2e_kg"] = {{"total", optional(r.co2e_kg_total)},
                    {"per_month", known_rows(r.co2e_kg_total, cf.co2e_kg)},
                    {"per_million_tokens", optional(r.co2e_kg_per_million_tokens)},
                    {"grid_g_co2e_per_kwh", optional(r.grid_g_co2e_per_kwh)},
                    {"unknown_reason", reason(r.co2e_unknown_reason)}};
    // A blend's overflow rental (issue #21 H1): its part of the totals above, computed as that
    // rental computes its own; the owned units' part. null for other options.
    if (const auto& split = r.overflow_energy; split && r.energy_kwh_total) {
      o["energy_kwh"]["owned"] = number(split->owned_kwh);
      o["energy_kwh"]["overflow"] = {{"option", split->option_id},
                                     {"total", number(split->overflow_kwh)},
                                     {"per_month", numbers(cf.overflow_kwh)}};
      const bool known = split->overflow_co2e_kg.has_value();
      o["co2e_kg"]["owned"] = optional(split->owned_co2e_kg);
      o["co2e_kg"]["overflow"] = {
          {"option", split->option_id},
          {"total", optional(split->overflow_co2e_kg)},
          {"per_month", known ? numbers(cf.overflow_co2e_kg) : ordered(nullptr)},
          {"grid_g_co2e_per_kwh", optional(split->overflow_grid_g_co2e_per_kwh)},
          {"unknown_reason", reason(split->overflow_co2e_unknown_reason)}};
    } else {
      o["energy_kwh"]["owned"] = nullptr;
      o["energy_kwh"]["overflow"] = nullptr;
      o["co2e_kg"]["owned"] = nullptr;
      o["co2e_kg"]["overflow"] = nullptr;
    }
    if (api) {
      o["api"] = {{"model", in.api_model},
                  {"input_price_per_million", number(in.input_price_per_million)},
                  {"output_price_per_million", number(in.output_price_per_million)},
                  {"requests_per_minute_limit", optional(in.requests_per_minute_limit)},
                  {"tokens_per_minute_limit", optional(in.tokens_per_minute_limit)},
                  {"peak_requests_per_minute", optional(r.peak_requests_per_minute)},
                  {"peak_tokens_per_minute", optional(r.peak_tokens_per_minute)},
                  {"rate_limit_exceeded", r.rate_limit_exceeded}};
    }
    o["depreciation"] = numbers(cf.depreciation);
    o["book_value"] = numbers(cf.book_value);
    o["interest"] = numbers(cf.interest);
    // The P&L per plan year beside the cash view (leases as operating leases), the items that
    // reconcile it with the cash, and the tax depreciation schedule.
    const ProfitAndLoss& pl = r.profit_and_loss;
    o["profit_and_loss"] = {{"operating_expenses", numbers(pl.operating_expenses)},
                            {"vat", numbers(pl.vat)},
                            {"depreciation", numbers(pl.depreciation)},
                            {"interest", numbers(pl.interest)},
                            {"disposal", numbers(pl.disposal)},
                            {"total", numbers(pl.total)},
                            {"cash", numbers(pl.cash)},
                            {"capex", numbers(pl.capex)},
                            {"loan_principal", numbers(pl.loan_principal)},
                            {"book_value_written_off", numbers(pl.book_value_written_off)},
                            {"book_value", numbers(pl.book_value)},
                            {"tax_depreciation_devices", numbers(pl.tax_depreciation_devices)},
                            {"tax_depreciation_host", numbers(pl.tax_depreciation_host)},
                            {"tax_depreciation", numbers(pl.tax_depreciation)},
                            {"tax_written_down_value", numbers(pl.tax_written_down_value)}};
    if (r.after_tax) {
      o["profit_and_loss"]["tax_disposal"] = numbers(pl.tax_disposal);
      o["profit_and_loss"]["tax_deductible"] = numbers(pl.tax_deductible);
      o["profit_and_loss"]["tax"] = numbers(r.after_tax->tax_by_year);
    }
    // Cost lines the scenario did not enter (counted as 0): the report says so, never hides it.
    o["cost_lines_not_entered"] = r.cost_lines_not_entered;
    ordered events = ordered::array();
    for (const auto& e : r.events) events.push_back({{"month", e.month}, {"what", e.what}});
    o["events"] = std::move(events);
    o["note"] = r.note;
    o["comparison_na_reason"] = reason(r.comparison_na_reason);
    o["warnings"] = r.warnings;
    options.push_back(std::move(o));
  }
  j["options"] = std::move(options);
  j["warnings"] = plan.warnings;
  ordered sources = ordered::array();
  for (const auto& s : scenario.sources) {
    sources.push_back({{"what", s.what},
                       {"amount", number(s.amount)},
                       {"currency", s.currency},
                       {"unit", s.unit},
                       {"observed_on", s.observed_on},
                       {"source", s.source},
                       {"age_days", s.age_days},
                       {"stale", s.stale}});
  }
  j["sources"] = std::move(sources);
  // Every input with its provenance, as on the Inputs sheet: which catalog price was taken
  // and why (price_basis, freshness), which resale curves, the defaults.
  ordered inputs_out = ordered::array();
  for (const auto& row : scenario.inputs) {
    inputs_out.push_back({{"section", row.section},
                          {"key", row.key},
                          {"label", row.label},
                          {"value", optional(row.value)},
                          {"text", row.text},
                          {"unit", row.unit},
                          {"provenance", row.provenance}});
  }
  j["inputs"] = std::move(inputs_out);
  return j.dump(2) + "\n";
}

}  // namespace gputco
