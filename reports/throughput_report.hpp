// The throughput command's report: what `trtllm-bench throughput` or `vllm bench serve`
// would measure for one model on one box, as the serving model (engine/serving/serving.hpp)
// estimates it, as text and JSON. It formats what the engine computed, never computes.
#pragma once

#include <string>

#include "engine/serving/serving.hpp"

namespace gputco {

/// What was asked, for the header and the JSON's echo of the request.
struct ThroughputQuery {
  ServingRequest request;
  Device device;
  int count = 1;
  ServingLayout layout;  ///< as given (0 = chosen)
  ServingGoal goal;
};

/// The estimate as text: the request, a device's power limit (when set), the layout (and whether
/// it was chosen), the batch, the throughput of the box and per GPU (output, and input +
/// output), per-user speed and TPOT (mean, p99), TTFT (mean, p99; with or without queueing), the
/// step's parts, what bounds it, memory per GPU, the user's measured runs it rests on
/// ("measured: calibrated on ..."), and the notes.
std::string throughput_text(const ThroughputQuery& query, const ServingCapacity& capacity);

/// The estimate as JSON: { mode: "throughput", model, quant, kv_cache, gpu, count,
/// power_limit_w (W per GPU, null when none), engine,
/// engine_version, input_tokens, output_tokens, goal: {mode, batch, tpot_p99_ms, ttft_p99_ms,
/// user_tokens_per_s}, output_tokens_per_s, output_tokens_per_s_per_gpu,
/// total_tokens_per_s_per_gpu, per_user_tokens_per_s, tpot_ms, tpot_p99_ms, ttft_ms,
/// ttft_p99_ms, ttft_includes_queueing, batch_per_replica, max_batch_per_replica, replicas, tp,
/// pp, gpus_per_replica, layout_chosen, compute_precision, bound, slot_utilization,
/// target_met, step: {total_ms, weights_ms, attention_ms, communication_ms, fixed_ms,
/// per_sequence_ms, memory_roof_ms, compute_roof_ms},
/// prefill_ms_per_token, memory_per_gpu: {device_gib, weights_gib, reserve_gib,
/// kv_budget_gib, kv_per_sequence_gib, recurrent_state_per_sequence_gib (0 but for a
/// hybrid)}, calibration: null or {runs, latest_measured_on, method, in_sample_error,
/// run_ids, measured_run (null, or the run whose figures these are)} (the user's measured runs:
/// engine/serving/serving_measured.hpp), tokens_counted: "output", notes: [] }. Absent values
/// are null; no NaN or infinity.
std::string throughput_json(const ThroughputQuery& query, const ServingCapacity& capacity);

}  // namespace gputco
