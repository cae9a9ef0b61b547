// Does a model fit: weights + KV cache + runtime overhead against usable device memory.
#pragma once

#include <string>

#include "engine/hardware/hardware.hpp"
#include "engine/hardware/model_bytes.hpp"

namespace gputco {

/// What is being served: model, weight format, context and concurrency.
struct FitRequest {
  ModelArch model;
  Quant quant;
  int context_tokens = 8192;   ///< tokens kept in the cache per stream
  int concurrent_streams = 1;  ///< sequences decoded at once; multiplies the cache only
  KvCacheTypes kv_cache;       ///< element types of the K and V cache (llama.cpp -ctk, -ctv)
  /// Flash attention on (llama.cpp `-fa auto`, the default since 2025 on CUDA, Metal and
  /// Vulkan): attention scores are never materialised, so compute buffers barely grow with
  /// context. Off: the f32 score matrix heads x n_kv x ubatch dominates them.
  bool flash_attention = true;
  /// Tokens per micro-batch (llama.cpp `-ub`, default 512); sizes the compute buffers.
  int ubatch_tokens = 512;
  /// llama.cpp keeps the token-embedding matrix in host memory (src/llama-model.cpp
  /// load_tensors: "there is very little benefit to offloading the input layer, so always keep
  /// it on the CPU"), so it takes RAM, not VRAM. false: counted on the devices (a fork's
  /// --offload-input, or an engine that keeps it on the GPU: vLLM, SGLang, TensorRT-LLM).
  bool embeddings_on_host = true;
};

/// Memory needed, in GiB (2^30 bytes). Everything but host_embedding_gib is device memory.
struct MemoryBreakdown {
  /// The weights the devices hold: every parameter at the quant's bits per weight, less the
  /// token embedding when it stays in host memory (FitRequest::embeddings_on_host; a tied
  /// embedding is the output matrix too, so the devices keep a copy and nothing is less).
  double weights_gib = 0;
  double kv_cache_gib = 0;  ///< all streams, full context (sliding layers capped at the window)
  /// Recurrent state of all streams (state-space / linear-attention layers of a hybrid or
  /// recurrent model; 0 for a transformer): f32, one state per stream whatever the context.
  double recurrent_state_gib = 0;
  /// Runtime allocations besides weights and cache: llama.cpp's compute buffers (the
  /// scratch space of one micro-batch's graph, see compute_buffer_bytes), one per device,
  /// summed. The driver/CUDA context is not here: usable_memory_gib subtracts it.
  double overhead_gib = 0;
  /// A multimodal model's vision encoder and projector weights (ModelArch::vision), on the
  /// first device; 0 for a text-only model.
  double projector_gib = 0;
  /// The vision encoder's compute buffer for its largest image, on the first device:
  /// 4 bytes x image_patches x (intermediate + 3 x hidden), f32 activations with flash
  /// attention (llama.cpp's default; without it the score matrix heads x patches^2 would
  /// dominate). Checks: Qwen3.6-27B's mmproj (hidden 1,152, FFN 4,304) at 1,472 x 1,472
  /// (8,464 patches of 16) gives 250.6 MiB where llama.cpp logs "CUDA0 compute buffer size =
  /// 248.10 MiB"; Qwen3.5-2B's (1,024, 4,096) 231.6 MiB against a logged 223.30 MiB.
  double image_buffer_gib = 0;
  /// Device memory: weights + kv_cache + recurrent_state + overhead + projector + image buffer.
  double total_gib = 0;
  /// Host memory (RAM) the model takes besides the devices': the token embedding llama.cpp keeps
  /// there (0 when embeddings_on_host is false or the vocabulary is unknown). Not checked
  /// against any limit: a host has tens of GiB.
  double host_embedding_gib = 0;
};

/// The vision encoder's compute buffer for its largest image, bytes (see
/// MemoryBreakdown::image_buffer_gib). 0 without a vision tower. Never throws.
double image_buffer_bytes(const ModelArch& model);

/// How memory on a device is really available.
struct MemoryPolicy {
  /// Share of installed unified memory a runtime may allocate by default (Apple ~75 %,
  /// DOMAIN M12).
  double unified_usable_fraction = 0.75;
  /// Verdict thresholds: total / usable at or below `fits_max_ratio` fits; above it and
  /// up to 1.0 is tight; above 1.0 does not fit. The default 0.90 leaves ~10 % for longer
  /// conversations (DOMAIN M13 advises sizing +20 % over the context really used).
  double fits_max_ratio = 0.90;
  /// Per discrete device: the driver and CUDA/ROCm context of the serving process with its
  /// BLAS workspace (~300-450 MiB), on a HEADLESS server (DOMAIN "Units"). A card that also
  /// drives a desktop loses several hundred MiB more: ~1500 for a workstation.
  double driver_reserve_mib = 512;
  /// Per discrete device, share of the nameplate the firmware keeps from the driver:
  /// nvidia-smi reports 24,564 of 24,576 MiB on an RTX 4090 (0.05 %), 81,559 of 81,920 on an
  /// H100 (0.44 %), 143,771 of 144,384 on an H200 (0.42 %). 0.45 % covers the worst case.
  double firmware_reserve_fraction = 0.0045;
  /// Per discrete device: free memory the runtime keeps as a safety margin (llama.cpp's
  /// automatic fit keeps 1 GiB per device; Ollama reserves 457 MiB).
  double runtime_margin_mib = 1024;
};

enum class Verdict { fits, tight, does_not_fit };
/// "fits", "tight", "does_not_fit".
std::string to_string(Verdict v);

/// The fit of one request on `count` devices of one kind.
struct FitResult {
  MemoryBreakdown memory;
  double usable_gib = 0;    ///< usable memory of all devices together
  double headroom_gib = 0;  ///< usable - total (negative when it does not fit)
  Verdict verdict = Verdict::does_not_fit;
};

/// Memory needed to serve `request` on `device_count` devices, GiB.
/// Weights: weights_bytes (all parameters, MoE included: capacity follows total parameters).
/// KV cache: kv_cache_bytes x concurrent_streams (streams multiply the cache, not the
/// weights), at request.ubatch_tokens for the sliding-window cells. Recurrent state:
/// recurrent_state_bytes x concurrent_streams. Overhead: one compute buffer per device
/// (compute_buffer_bytes), with the logits only on one device. Throws EngineError on non-positive
/// context, streams, ubatch or device_count, and on an invalid model or quant (validate_model,
/// validate_quant).
MemoryBreakdown estimate_memory(const FitRequest& request, int device_count = 1);

/// The context per stream when none is given: `requested` (8192 tokens, FitRequest's
/// default) capped at the model's trained maximum (ModelArch::max_context; 0 = not stated,
/// no cap; never the RoPE-scaled one). Never throws.
int default_context_tokens(const ModelArch& model, int requested = 8192);

/// Why `context_tokens` cannot be served by `model`, or "" when it can: beyond the model's
/// trained maximum (ModelArch::max_context, 0 = not stated) and beyond what the config's RoPE
/// scaling supports (ModelArch::max_context_scaled) llama.cpp still runs, but the answers
/// degrade, so a plan for it plans a service that does not work. Never throws.
std::string context_beyond_model_reason(const ModelArch& model, int context_tokens);

/// A warning when `context_tokens` is beyond the model's trained maximum but within its RoPE
/// scaling (max_context < context <= max_context_scaled): served, as the model card allows,
/// with quality that may degrade at the longest contexts (YaRN and linear scaling trade some
/// short-context accuracy too). "" otherwise. Never throws.
std::string context_scaling_warning(const ModelArch& model, int context_tokens);

/// Usable memory of `count` devices, GiB: what a runtime can allocate for the model.
/// Discrete GPUs: the nameplate read as GiB (memory chips are binary-sized: a "24 GB" card
/// holds 24 GiB, nvidia-smi 24,564 MiB) less policy.firmware_reserve_fraction of it, less
/// policy.driver_reserve_mib and policy.runtime_margin_mib, per device: 22.39 GiB for a
/// 24 GB card, 78.14 for an 80 GB one.
/// Unified memory (DeviceKind::unified): installed x policy.unified_usable_fraction
/// (Apple's default GPU working-set limit is ~75 %, DOMAIN M12: 192 -> 144).
/// Throws EngineError on count < 1, a non-positive nameplate or a policy out of range.
double usable_memory_gib(const Device& device, int count, const MemoryPolicy& policy = {});

/// Bytes of one device's llama.cpp compute buffer (ggml graph allocator, worst-case
/// micro-batch of request.ubatch_tokens). f32 activations of the largest stage plus the
/// residual stream: 4 x ubatch x (max(logits, attention) + 4 x hidden), where logits =
/// vocab (only on the device holding the output layer, `with_logits`) and attention =
/// heads x head_dim with flash attention, heads x n_kv without (n_kv = context x streams,
/// padded to 256). Checks: Llama 3 8B at 8K without flash attention gives 544 MiB where
/// llama.cpp logs "CUDA0 compute buffer size = 560 MiB"; with it 282 MiB (logged 258.5).
/// Unknown vocabulary: 128,256 (Llama 3). Throws EngineError on a bad request.
double compute_buffer_bytes(const FitRequest& request, bool with_logits = true);

/// Fits `request` on `count` devices of `device`: memory from estimate_memory, usable memory
/// from usable_memory_gib, verdict from total / usable against policy.fits_max_ratio and 1.0
/// (a pooled check: layer granularity across devices is ignored).
/// Throws EngineError on a bad request, device, count or policy.
FitResult fit(const FitRequest& request, const Device& device, int count,
              const MemoryPolicy& policy = {});

/// The smallest device count (1..max_count) for which the request fits or is tight;
/// 0 if none does. Throws EngineError like fit(), or when max_count < 1.
int devices_needed(const FitRequest& request, const Device& device, int max_count = 64,
                   const MemoryPolicy& policy = {});

}  // namespace gputco
