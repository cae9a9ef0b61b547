// JSON for machines: the engine's snake_case names, units in the names.
#pragma once

#include <string>
#include <vector>

#include "engine/plan/plan.hpp"
#include "reports/json_stamp.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// The plan as JSON (pretty-printed, keys in a fixed order):
/// { gputco (stamp_json(stamp)), scenario, currency, horizon_months, as_of, baseline,
/// recommendation,
///   recommendation_reason, options: [{ id, kind, gpu, count, fit: {verdict, weights_gib,
///   kv_cache_gib, overhead_gib, required_gib, usable_gib, headroom_gib}, devices_needed,
///   speed: {decode_tokens_per_s, aggregate_tokens_per_s}, power_at_load_w,
///   energy_kwh_per_month, tokens_per_month, total_cost, npv, annual_costs[],
///   break_even_hours, break_even_month, cost_per_million_tokens, payback_months, irr,
///   irr_na_reason (why irr is null for a compared owned option, e.g. "the saving changes
///   sign 3 times: ..."), saving_sign_changes, cumulative_saving_sign_changes
///   (Norstrom: one change keeps the IRR unique), ahead_then_behind ({ahead_first_month,
///   ahead_last_month, behind_from_month} when there is no break-even month although owning
///   led for a while, else null), break_even_hours_per_day, owning_cheaper_at_any_use (true:
///   owning costs no more than the baseline unused and at 24 h/day; both break-even hours are
///   then null, "always"), monthly_total[],
///   monthly_cumulative[], break_even_tokens_per_day, energy_kwh: {total, per_month[],
///   idle_per_month[], unknown_reason}, co2e_kg: {total, per_month[], per_million_tokens,
///   grid_g_co2e_per_kwh, unknown_reason}, api: {model, input_price_per_million,
///   output_price_per_million, requests_per_minute_limit, tokens_per_minute_limit,
///   peak_requests_per_minute, peak_tokens_per_minute, rate_limit_exceeded} (api options
///   only), note }], api_reference, tokens_per_day, input_tokens_per_output_token,
///   requests_per_day, sources: [...], inputs: [{section, key, label, value (number or
///   null), text, unit, provenance}] (the Inputs sheet's rows: "scenario file line 12",
///   "config file PATH line 3", "--set KEY=VALUE", "default: ...", "catalog: ...") }. Options
///   carry their display `label` beside the `id`; `proposed` is the seller's option (null when
///   none). Energy and CO2e that are unknown (api options; a rental region without an
///   intensity) are null with the reason, never 0.
/// Absent values (never breaks even, does not fit) are null, never NaN.
std::string plan_json(const Plan& plan, const ResolvedScenario& scenario, const JsonStamp& stamp);

}  // namespace gputco
