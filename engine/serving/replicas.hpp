// Replicas in a box (issue #21, item 2): a box of N GPUs that holds the model on k of them
// runs N / k model instances (vLLM, SGLang, TensorRT-LLM data parallel; llama.cpp as N / k
// servers, each on its own GPUs with its own `--parallel` slots). The layout is the serving
// model's choice (engine/serving/serving.hpp serving_capacity: every TP x PP dividing the box, the
// highest box throughput at the workload's streams per instance); the plan's speed model
// (engine/hardware/speed.hpp) then estimates one instance on its k GPUs, and the box serves the
// instances' sum.
#pragma once

#include <string>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/speed.hpp"

namespace gputco {

/// How a box's GPUs serve: `replicas` instances of `gpus_per_replica` GPUs each
/// (gpus_per_replica x replicas = the box's count).
struct BoxLayout {
  int gpus_per_replica = 1;
  int replicas = 1;
  /// The serving engine whose model chose the layout ("llama.cpp" for GGUF weights, "vllm"
  /// for the formats llama.cpp does not run); "" when the whole box is one instance because
  /// the box has one GPU or no engine laid it out (`note` says why).
  std::string chosen_by;
  std::string note;  ///< one sentence: the layout and why (shown in every report)
};

/// The layout of `count` GPUs of `device` serving `request` (the plan's model, quant,
/// context_tokens per stream, concurrent_streams per instance, KV cache types) with
/// `backend`: serving_capacity's choice with llama.cpp (vLLM where llama.cpp refuses the
/// weight format), at a batch of request.concurrent_streams, for requests of context / 2
/// prompt and context - context / 2 generated tokens (the whole context resident at the end
/// of a request, as fit() sizes the cache; the demand does not move the layout). The chosen
/// instance must also hold the request by the plan's fit (fit.hpp, not does_not_fit), else
/// the whole box is one instance. count 1, or no engine able to serve it (format refused, no
/// layout, the streams exceed what an instance holds): one instance of `count` GPUs, with the
/// reason in `note`. Never throws for a request fit() accepts.
BoxLayout choose_box_layout(const FitRequest& request, const Device& device, int count,
                            Backend backend, const MemoryPolicy& policy);

/// The box's speed under `layout`: one instance's estimate_speed on layout.gpus_per_replica
/// devices (`request.device_count` is replaced), with aggregate_tokens_per_s and
/// prefill_tokens_per_s multiplied by layout.replicas (the instances decode and prefill side
/// by side); per-stream decode and time to first token are one instance's. Throws what
/// estimate_speed throws.
SpeedEstimate box_speed(SpeedRequest request, const Device& device, const BoxLayout& layout);

}  // namespace gputco
