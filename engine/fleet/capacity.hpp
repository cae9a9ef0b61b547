// Capacity and demand: what one unit of an option serves per hour (decode and the prompts'
// prefill), the demand in units of that capacity, and the workload at another volume or
// utilization.
#pragma once

#include "engine/finance/load_shape.hpp"
#include "engine/plan_model/plan_inputs.hpp"

namespace gputco {

/// Output tokens one unit serves per hour of device time when every output token brings
/// `input_tokens_per_output_token` prompt tokens with it:
///   3600 / (1 / aggregate_decode_tokens_per_s + input_tokens_per_output_token /
///   prefill_tokens_per_s).
/// Decode is bound by memory bandwidth, prefill by compute (DOMAIN S12; speed.hpp); both
/// take the same device's time, because llama.cpp's server runs a prompt's prefill and the
/// streams' decode steps on the same GPUs in one batch schedule. A simplification: it counts
/// them one after the other, where a batch that mixes them overlaps a little (decode leaves
/// compute idle, so this is the conservative end), and a prompt cache that reuses a shared
/// prefix would need less prefill. prefill_tokens_per_s <= 0 (unknown) or no input tokens:
/// decode only, aggregate_decode_tokens_per_s x 3600. Returns 0 when the decode rate is not
/// positive. Throws nothing.
double capacity_tokens_per_hour(double aggregate_decode_tokens_per_s, double prefill_tokens_per_s,
                                double input_tokens_per_output_token);

/// Prompt length (tokens per request) at which the plan estimates prefill FLOPs (attention
/// grows with the position): prompt_tokens_per_request when given (the stated mean request,
/// whether the demand is in requests or tokens per day), else input tokens per day /
/// requests_per_day when both are known, else context_tokens (the longest prompt a
/// conversation holds: the conservative end); rounded, at least 1 and at most
/// context_tokens. Throws nothing.
int prefill_prompt_tokens(const WorkloadInputs& workload);

/// Month-1 load of an option in units of its own capacity: tokens_per_day /
/// (capacity_tokens_per_hour x hours_per_day) when tokens_per_day is given and the capacity
/// known (0 when hours_per_day is 0), else 1 (the stated workload). api: 0 (a provider's
/// capacity is not ours to measure: no load; its bill follows tokens_per_day).
double base_load(const OptionInputs& option, const WorkloadInputs& workload);

/// The workload's day of use (engine/finance/load_shape.hpp daily_load_shape of hours_per_day,
/// peak_factor and hourly_profile). Throws nothing.
DailyLoadShape load_shape_of(const WorkloadInputs& workload);

/// Overflow rental units per unit of the option's load: own capacity / the rental's capacity
/// when tokens_per_day is given and both are known, else 1 (both carry the stated workload).
double overflow_units_per_load(const OptionInputs& option, const WorkloadInputs& workload);

/// The workload at another volume: tokens_per_day = t, requests_per_day scaled by t / the
/// old tokens_per_day (the token mix stays); hours and everything else unchanged.
WorkloadInputs at_tokens_per_day(const WorkloadInputs& workload, double tokens_per_day);

/// The workload at another utilization: hours_per_day = h, tokens_per_day (and
/// requests_per_day) scaled by h / the old hours_per_day (the load per hour of use stays),
/// unchanged when the old hours were 0. An api option's fees therefore rise in proportion to
/// h in the crossover sweep and the hours tornado bar (its volume moves with the hours).
WorkloadInputs at_hours_per_day(const WorkloadInputs& workload, double hours_per_day);

/// Sets hours_per_day, tokens_per_day and requests_per_day of `out` (a copy of `base` in every
/// other field) to those of `base` when hours_per_day equals base's (its figures untouched,
/// no scaling by h / h), else to at_hours_per_day(base, hours_per_day)'s; writes no other
/// field and allocates nothing (for the Monte Carlo's draws). Throws nothing.
void set_hours_per_day(const WorkloadInputs& base, double hours_per_day, WorkloadInputs& out);

}  // namespace gputco
