#include "engine/serving/replicas.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/error.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "engine/serving/serving.hpp"
#include "engine/serving/serving_profile.hpp"

namespace gputco {

BoxLayout choose_box_layout(const FitRequest& request, const Device& device, int count,
                            Backend backend, const MemoryPolicy& policy) {
  BoxLayout whole;
  whole.gpus_per_replica = count;
  whole.replicas = 1;
  if (count <= 1) return whole;
  ServingRequest serving;
  serving.model = request.model;
  serving.quant = request.quant;
  // The serving model takes one cache type: the larger of K and V (what bounds the batch).
  serving.kv_cache =
      kv_cache_element_bytes(request.kv_cache.k) >= kv_cache_element_bytes(request.kv_cache.v)
          ? request.kv_cache.k
          : request.kv_cache.v;
  serving.backend = backend;
  serving.memory_policy = policy;
  const int context = std::max(2, request.context_tokens);
  serving.input_tokens = context / 2;
  serving.output_tokens = context - context / 2;
  const bool llama_runs_it =
      format_support(ServingEngine::llama_cpp, request.quant.id, serving.kv_cache, device)
          .refusal.empty();
  serving.engine = llama_runs_it ? ServingEngine::llama_cpp : ServingEngine::vllm;
  // The engine whose model lays out the box, as the notes name it: vLLM's stands in where
  // llama.cpp (the option's engine here) cannot run the format, and the notes say so.
  const std::string by = llama_runs_it
                             ? std::string(display_name(serving.engine))
                             : fmt::format("{} (standing in: llama.cpp does not run {})",
                                           display_name(serving.engine), request.quant.id);
  ServingGoal goal;
  goal.mode = ServingGoal::Mode::batch;
  goal.batch = std::max(1, request.concurrent_streams);
  try {
    const ServingCapacity chosen = serving_capacity(serving, device, count, ServingLayout{}, goal);
    if (chosen.replicas <= 1) {
      whole.chosen_by = display_name(serving.engine);
      whole.note = fmt::format(
          "one instance on all {} GPUs (by the serving model of {}, no layout of several "
          "instances holds the model with its streams and serves more)",
          count, by);
      return whole;
    }
    if (fit(request, device, chosen.gpus_per_replica, policy).verdict == Verdict::does_not_fit) {
      whole.note = fmt::format(
          "one instance on all {} GPUs: {} of them would serve it by the memory model of {} but "
          "not by the plan's fit",
          count, chosen.gpus_per_replica, by);
      return whole;
    }
    BoxLayout layout;
    layout.gpus_per_replica = chosen.gpus_per_replica;
    layout.replicas = chosen.replicas;
    layout.chosen_by = display_name(serving.engine);
    layout.note = fmt::format(
        "{} instances of {} GPU(s) each, {} concurrent stream(s) per instance (layout chosen by "
        "the serving model of {} for the highest throughput of the box)",
        layout.replicas, layout.gpus_per_replica, goal.batch, by);
    return layout;
  } catch (const EngineError& e) {
    whole.note = fmt::format("one instance on all {} GPUs ({} lays out no replicas: {})", count, by,
                             e.what());
    return whole;
  }
}

SpeedEstimate box_speed(SpeedRequest request, const Device& device, const BoxLayout& layout) {
  request.device_count = layout.gpus_per_replica;
  SpeedEstimate speed = estimate_speed(request, device);
  speed.aggregate_tokens_per_s *= layout.replicas;
  speed.prefill_tokens_per_s *= layout.replicas;
  return speed;
}

}  // namespace gputco
