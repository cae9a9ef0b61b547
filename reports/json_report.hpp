// JSON for machines: the engine's snake_case names, units in the names.
#pragma once

#include <string>
#include <vector>

#include "engine/plan.hpp"
#include "scenarios/resolved.hpp"

namespace gputco {

/// The plan as JSON (pretty-printed, keys in a fixed order):
/// { scenario, currency, horizon_months, as_of, baseline, recommendation,
///   recommendation_reason, options: [{ id, kind, gpu, count, fit: {verdict, weights_gib,
///   kv_cache_gib, overhead_gib, required_gib, usable_gib, headroom_gib}, devices_needed,
///   speed: {decode_tokens_per_s, aggregate_tokens_per_s}, power_at_load_w,
///   energy_kwh_per_month, tokens_per_month, total_cost, npv, annual_costs[],
///   break_even_hours, break_even_month, cost_per_million_tokens, monthly_total[],
///   monthly_cumulative[], note }], sources: [...] }.
/// Absent values (never breaks even, does not fit) are null, never NaN.
std::string plan_json(const Plan& plan, const ResolvedScenario& scenario);

}  // namespace gputco
