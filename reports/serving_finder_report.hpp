// The serving finder's report (`gputco fit --engine E` without --gpu): one row per device with
// its box, layout, batch, throughput and latency at the goal, its hourly rate and the cost of a
// million tokens, as text and JSON. It formats what the engine computed, never computes.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_finder.hpp"

namespace gputco {

/// How the finder's rates were chosen: as a plan chooses them (scenarios/price_choice.hpp).
struct ServingPrices {
  std::string as_of;         ///< YYYY-MM-DD: the date the rates are taken as of
  bool as_of_given = false;  ///< --as-of given; else the catalog's newest observation
  int max_age_days = 90;     ///< older rates are stale (a fresher one is taken first)
};

/// The table: a header naming the request, the goal and the cost formula (which tokens are
/// counted), then the ranked rows (device, GPUs, layout TPxPP, batch per replica, output
/// tokens/s per GPU, per-user tokens/s, p99 TPOT and TTFT, rate per GPU-hour, cost per million
/// output and input + output tokens; "-" where unknown), rows missing the target marked, the
/// devices the engine does not serve with the reason, then the stale rates taken (older than
/// prices.max_age_days at prices.as_of, with their age) and the notes of the choices.
std::string serving_finder_text(const ServingRequest& request, const ServingGoal& goal,
                                const std::vector<ServingFinderRow>& rows,
                                const ServingPrices& prices);

/// The same as JSON: { mode: "serving_finder", model, quant, kv_cache, engine, engine_version,
/// input_tokens, output_tokens, goal: {mode, tpot_p99_ms, ttft_p99_ms, user_tokens_per_s},
/// tokens_counted: "output", cost_formula, prices: {as_of, as_of_given, max_price_age_days,
/// price_basis: "street"}, results: [{ gpu, count, tp, pp, replicas,
/// batch_per_replica, output_tokens_per_s_per_gpu, total_tokens_per_s_per_gpu,
/// per_user_tokens_per_s, tpot_p99_ms, ttft_p99_ms, bound, target_met, rate_per_gpu_hour:
/// {amount, currency} | null, rate_source, rate_observed_on, rate_stale, rate_notes: [text],
/// cost_per_million_output_tokens, cost_per_million_total_tokens, refusal }] }. Absent values
/// are null.
std::string serving_finder_json(const ServingRequest& request, const ServingGoal& goal,
                                const std::vector<ServingFinderRow>& rows,
                                const ServingPrices& prices);

}  // namespace gputco
