// How fast: decode (memory-bandwidth bound) and prefill (compute bound).
#pragma once

#include <string>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/hardware.hpp"

namespace gputco {

/// Decode and prefill estimate for one configuration.
struct SpeedEstimate {
  /// Weights + KV cache read per decode step (one token for every stream), GB (10^9 bytes),
  /// summed over devices.
  double bytes_per_token_gb = 0;
  double decode_tokens_per_s = 0;     ///< per stream
  double aggregate_tokens_per_s = 0;  ///< all streams together
  double prefill_tokens_per_s = 0;    ///< prompt tokens per second (0 if compute unknown)
  double time_to_first_token_s = 0;   ///< for SpeedRequest::prompt_tokens (0 if unknown)
  /// The split actually modelled: SpeedRequest::split, or layer when a tensor split was
  /// asked with a device count that does not divide the attention heads.
  SplitMode split_used = SplitMode::layer;
  /// Why the split fell back, and a power limit's warning (power_limit_effect); "" otherwise.
  std::string note;
};

/// What to estimate: the served request, how many devices and how they share the model.
struct SpeedRequest {
  FitRequest fit;  ///< fit.context_tokens is the context at which decode is estimated
  int device_count = 1;
  SplitMode split = SplitMode::layer;
  Backend backend = Backend::cuda;
  int prompt_tokens = 0;  ///< for time to first token; 0 = not asked
};

/// FLOPs of the matrix multiplications of one token: 2 x the active parameters without the
/// token-embedding lookup (one row is read, not multiplied; a tied embedding is the output
/// matrix and counts). Throws EngineError on an invalid model.
double matmul_flops_per_token(const ModelArch& model);

/// FLOPs of attention for one token attending `attended_tokens` cached tokens: QK^T and AV,
/// 2 x 2 x heads x head_dim per attended token per layer, sliding-window layers attending at
/// most their window. Throws EngineError on an invalid model or negative tokens.
double attention_flops_per_token(const ModelArch& model, double attended_tokens);

/// Estimates decode and prefill speed of `request` on `device`.
/// Decode (memory bound, DOMAIN S2): one step advances every stream by one token and reads
/// W + s x KV bytes: W = weights_read_per_step_bytes (weights once for the whole batch; MoE:
/// non-expert tensors + the experts the batch touches), KV = kv_cache_read_bytes at
/// fit.context_tokens (the cache at the END of a conversation of that length: the slowest
/// step) + recurrent_state_bytes (read and written every step). Time per step: bytes / (eta x
/// bandwidth) + fixed, with eta = decode_eta (the backend family's share of peak for the device's
/// memory class, HBM or not) and fixed = decode_fixed_s (a cost per layer, larger for MoE layers),
/// both from decode_constants (calibrated on measured llama.cpp rows, see calibration.hpp).
///   layer split over n devices: one device works at a time, so the same bytes at ONE
///   device's bandwidth, plus (n - 1) x layer_split_boundary_s(backend).
///   tensor split: bytes / (n x eta x bandwidth) + fixed + 2 all-reduces per layer
///   (tensor_parallel_allreduce_s; NVLink when nvlink_joins(device, n), else PCIe). n must
///   divide the attention heads; otherwise the estimate falls back to a layer split and says
///   so in split_used and note (no throw: a plan can still compare the option).
/// decode_tokens_per_s is per stream (1 / step time); aggregate_tokens_per_s = streams / step.
/// Prefill (compute bound, DOMAIN S12): 2 x active parameters (without the embedding lookup)
/// + attention 4 x heads x head_dim x (tokens attended, sliding layers capped) FLOPs per
/// prompt token, at Device::fp16_tflops x prefill_efficiency x (n for tensor split, 1 for
/// layer split); time_to_first_token_s = prompt_tokens / prefill rate. Both 0 when
/// fp16_tflops is 0 (unknown). A power limit (Device::power_limit_w,
/// engine/hardware/power_limit.hpp) divides the fixed part of the decode step and multiplies the
/// prefill rate by the compute share c(limit / board power); below 60 % of board power `note` says
/// the sweeps disagree. Throws EngineError on a bad fit request (see estimate_memory), device_count
/// < 1, prompt_tokens < 0, a device without positive bandwidth, or a power limit power_limit_effect
/// refuses.
SpeedEstimate estimate_speed(const SpeedRequest& request, const Device& device);

/// Output tokens/s a unit serves to a demand of `concurrent_streams` streams that decode at
/// once (a workload without a demand in tokens): the streams at `speed`'s per-stream rate,
/// never more than the unit's aggregate rate, min(streams x decode_tokens_per_s,
/// aggregate_tokens_per_s). A unit with room for more streams than the demand has (a box of
/// several instances, an engine at its largest batch) serves no tokens with the spare room.
/// 0 when either rate is not a positive finite number (the model does not fit). Throws nothing.
double demand_streams_tokens_per_s(int concurrent_streams, const SpeedEstimate& speed);

}  // namespace gputco
