// A plan option's capacity from the serving model (issue #21 items 3C/4): an option served by
// vLLM, SGLang or TensorRT-LLM (or any option when the workload states latency targets) is
// sized by serving_capacity() (engine/serving/serving.hpp), the model `gputco throughput` prints,
// in place of the llama.cpp model at concurrent_streams (box_speed, engine/hardware/speed.hpp).
#pragma once

#include <string>

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/serving/serving.hpp"

namespace gputco {

/// Whether `option` is sized by the serving model: its engine is not llama.cpp, or the
/// workload states a latency target (tpot_p99_ms, ttft_p99_ms or user_tokens_per_s; the
/// llama.cpp model at concurrent_streams has no latency to meet). api options never. Throws
/// nothing.
bool sized_by_serving_model(const OptionInputs& option, const WorkloadInputs& workload);

/// The goal the plan's options are sized for: ServingGoal::Mode::latency with the workload's
/// targets when any is stated, else max_batch (as many sequences as memory and the engine's
/// cap allow). Throws nothing.
ServingGoal plan_serving_goal(const WorkloadInputs& workload);

/// What `option` serves, as serving_capacity() takes it: the plan's model, the option's weight
/// format (OptionInputs::quant) or the plan's,
/// the K cache type of the workload (f32 and bf16 as f16: the engines keep a 16-bit cache),
/// the option's engine and backend, the request shape (prompt and output tokens per request,
/// rounded, at least 1: a prompt of 0 tokens counts as 1) and the memory policy. Throws EngineError
/// naming the option and the keys when the workload states no request shape
/// (prompt_tokens_per_request, output_tokens_per_request).
ServingRequest plan_serving_request(const PlanInputs& inputs, const OptionInputs& option);

/// Sizes `option` with the serving model: serving_capacity(plan_serving_request, the option's
/// device and count, a chosen layout, plan_serving_goal). Sets capacity_tokens_per_hour =
/// ServingCapacity::output_tokens_per_s x 3600 (the box: every replica; the prompts' prefill
/// is inside the serving model's throughput, DOMAIN V4, so prefill_tokens_per_s is 0),
/// gpus_per_replica and replicas from the capacity, layout_note, `serving` and serving_note.
/// An option that cannot serve the demand (issue #43) gets OptionInputs::unservable_reason
/// instead, and no capacity: "does not fit: ..." when no layout of the box holds one replica
/// with one sequence (serving_capacity's reason), "cannot meet the targets: [workload]
/// tpot_ms = 5 ... the best achievable is ..." when no batch and no layout meets a latency
/// target (naming the key and the best figure). Throws EngineError, prefixed with the option,
/// when the engine does not run the weight format on the device (format_support's refusal,
/// with the scenario's keys: a mistake of the scenario).
void size_with_serving_model(const PlanInputs& inputs, OptionInputs& option);

/// `message` (a serving_capacity refusal) with `gputco throughput`'s flags replaced by the
/// scenario keys a plan sets: "--engine llama.cpp" -> "engine = llama.cpp in [option:ID]"
/// (also --quant, --count), "--kv-cache f16" -> "kv_cache = f16 in [workload]"; the rest
/// unchanged. Throws nothing but std::bad_alloc.
std::string with_scenario_keys(const std::string& message, const std::string& option_id);

/// One sentence of `capacity`'s engine, batch and latency figures, as every report shows it:
/// "vLLM 0.10.1: batch 64 per replica (memory and the engine's cap allow 256), 2 replica(s) of
/// TP1 x PP1, 2400 output tokens/s per unit; TPOT p99 31.2 ms, TTFT p99 420 ms, 25.0 tokens/s
/// per user; bound: latency_target". Throws nothing.
std::string serving_note(const ServingCapacity& capacity);

}  // namespace gputco
