// Serving engines as GPUs are really run: llama.cpp, vLLM, SGLang and TensorRT-LLM. Each has a
// profile: how it allocates memory (the share of device memory it takes, paged KV blocks, how
// it sizes sliding-window layers), how many sequences it batches by default, how many tokens
// one step schedules, which weight and KV-cache formats it runs on which device, and the
// efficiency constants of its step model (engine/serving/serving.hpp), fitted on published
// measurements (engine/serving/serving_calibration.hpp).
#pragma once

#include <optional>
#include <string>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// An inference engine that serves a model with continuous batching.
enum class ServingEngine {
  llama_cpp,    ///< llama.cpp's server (GGUF; its calibrated decode model,
                ///< engine/hardware/calibration.hpp)
  vllm,         ///< vLLM (paged attention, chunked prefill)
  sglang,       ///< SGLang (radix cache, token-granular KV pages)
  tensorrt_llm  ///< NVIDIA TensorRT-LLM (PyTorch backend, trtllm-bench / trtllm-serve)
};

/// "llama.cpp", "vllm", "sglang", "tensorrt-llm". Never throws.
std::string to_string(ServingEngine engine);
/// The display name: "llama.cpp", "vLLM", "SGLang", "TensorRT-LLM". Never throws.
std::string display_name(ServingEngine engine);
/// Parses the text forms of to_string (exact, case-sensitive); nullopt otherwise.
std::optional<ServingEngine> parse_serving_engine(const std::string& text);

/// The precision the matrix multiplications of a step run in: the tensor-core peak that
/// bounds them (Device::fp16_tflops, fp8_tflops, fp4_tflops).
enum class ComputePrecision { fp16, fp8, fp4 };
/// "16-bit", "FP8", "FP4". Never throws.
std::string to_string(ComputePrecision precision);
/// The device's dense tensor peak at `precision`, TFLOPS; 0 when it has none. Never throws.
double peak_tflops(const Device& device, ComputePrecision precision);

/// The efficiency constants of the engines' step model (engine/serving/serving.hpp). A decode step
/// is the GEMMs, max(weight bytes / (bandwidth_efficiency x peak bandwidth), FLOPs /
/// (compute_efficiency x tensor peak)), plus attention, max(KV bytes / (bandwidth_efficiency x
/// peak bandwidth), FLOPs / (compute_efficiency x 16-bit peak)), plus communication (TP
/// all-reduces, MoE all-to-alls, PP sends: calibration.hpp's collective model) plus
/// step_fixed_s per micro-batch pass; prefill per prompt token = FLOPs / (compute_efficiency x
/// tensor peak x GPUs). The factors multiply the efficiencies where they apply. Fitted
/// jointly for vLLM, SGLang and TensorRT-LLM (engine/serving/serving_calibration.hpp): the engines
/// differ in their profiles (memory share, batch caps), not in these constants.
struct ServingConstants {
  double bandwidth_efficiency = 0.8;  ///< share of peak bandwidth a step's reads reach
  double compute_efficiency = 0.6;    ///< share of the tensor peak GEMMs and attention reach
  double step_fixed_s = 0;            ///< fixed cost per micro-batch pass of a step, seconds
  /// Cost per sequence in flight per step, seconds: the engine's host-side work for each
  /// sequence (scheduling, sampling, detokenisation, the output queue), which a faster GPU does
  /// not shrink.
  double step_per_sequence_s = 0;
  double amd_factor = 1;  ///< on AMD devices: ROCm's kernels' share of the same peaks
  /// On the weight reads of an MoE model's routed experts (the experts a step touches, read
  /// by grouped GEMMs after the tokens are routed and permuted): their share of the dense
  /// reads' bandwidth efficiency. Attention, the KV-cache reads and the dense GEMMs run at the
  /// dense efficiencies.
  double moe_read_factor = 1;
  /// On the FLOPs of the routed experts' GEMMs, in decode and prefill: their share of the dense
  /// GEMMs' compute efficiency (grouped GEMMs of a few tokens per expert, the routing, the
  /// permutation and the per-token quantisation around them). Apart from the reads because
  /// the measured rows part them: at a small batch (latency targets) the experts' reads run
  /// near the dense ones' speed, at thousands of sequences their FLOPs far below.
  double moe_compute_factor = 1;
  /// Of a vendor-tuned benchmark submission (MLPerf Inference closed: the submitter's own
  /// engine builds, kernels and settings) over the released engine with its defaults; applies
  /// only to requests marked `tuned`.
  double tuned_factor = 1;
  /// On GEMMs in FP4 (NVFP4 on Blackwell): the FP4 peak is twice FP8's and the kernels reach
  /// a smaller share of it.
  double fp4_factor = 1;
  /// Per doubling of tensor parallelism on a dense model (tp_factor^log2(TP)): narrower GEMMs
  /// per GPU and the synchronisation of every all-reduce.
  double tp_factor = 1;
  bool calibrated = false;  ///< fitted on measured rows
};

/// How one engine runs. Figures are the engine's defaults at `version`, each with its source
/// in engine_profile's comments; the constants are fitted (calibrated) or borrowed.
struct EngineProfile {
  ServingEngine engine = ServingEngine::vllm;
  std::string version;  ///< the version whose defaults and measured rows these are
  /// Share of device memory the engine takes for weights, activations and KV cache (vLLM
  /// gpu_memory_utilization, SGLang mem_fraction_static), or of the memory left free after the
  /// weights when `share_of_free_memory` (TensorRT-LLM kv_cache_free_gpu_mem_fraction).
  double memory_share = 0.9;
  bool share_of_free_memory = false;
  /// Memory per GPU outside weights and KV cache: activations of a full step, CUDA graphs,
  /// the communication and GEMM workspaces, the CUDA context, GiB.
  double runtime_reserve_gib = 2.0;
  /// Tokens per KV-cache block: a sequence holds whole blocks (vLLM 16, TensorRT-LLM 32,
  /// SGLang 1; llama.cpp pads its cache to 256 cells).
  int kv_block_tokens = 16;
  /// Sliding-window layers are given the whole context, not the window.
  bool sliding_window_in_full = true;
  /// Default cap on sequences in flight per replica (vLLM max_num_seqs, TensorRT-LLM
  /// max_batch_size); 0 = only memory caps it.
  int max_batch = 0;
  /// Tokens one step schedules, prefill chunks and decode tokens together (vLLM
  /// max_num_batched_tokens, TensorRT-LLM max_num_tokens, SGLang chunked_prefill_size).
  int step_token_budget = 8192;
  ServingConstants constants;
  std::string note;  ///< where the constants come from, one sentence
};

/// The constants compiled in for vLLM, SGLang and TensorRT-LLM: the fit on the measured rows
/// (see serving_profile.cpp for the figures and their errors). Never throws.
ServingConstants fitted_serving_constants();

/// The profile of `engine` for a device of `device_memory_gib` nameplate memory (vLLM raises
/// its batch defaults on GPUs of 70 GiB or more). Never throws.
EngineProfile engine_profile(ServingEngine engine, double device_memory_gib = 80);

/// Families of weight formats as the engines name them.
enum class WeightFormat {
  float16,   ///< F16 / BF16
  fp8,       ///< FP8 (E4M3) weights, with FP8 activations where the device computes in FP8
  nvfp4,     ///< NVFP4: FP4 in 16-value blocks with FP8 scales (Blackwell)
  mxfp4,     ///< MXFP4: FP4 in 32-value blocks with E8M0 scales (gpt-oss)
  int4_awq,  ///< 4-bit integer weights with group scales, 16-bit compute (AWQ)
  gguf       ///< a llama.cpp block quant (Q8_0, Q4_K_M, IQ4_XS, ...): GGUF files only
};
/// The family of a catalog quant id ("BF16", "FP8", "NVFP4", "MXFP4", "INT4-AWQ", "Q4_K_M").
/// Never throws.
WeightFormat weight_format(const std::string& quant_id);

/// How `engine` runs weight format `format` with a `kv_cache` on `device`: the compute
/// precision, and a sentence saying what fell back (FP8 weights on an A100 run weight-only,
/// in 16-bit compute: bytes saved, not FLOPs), or `refusal` saying why it cannot run at all.
struct FormatSupport {
  ComputePrecision compute = ComputePrecision::fp16;
  std::string fallback;  ///< "" when the format runs natively
  std::string refusal;   ///< "" when it runs
};

/// What `engine` does with `quant_id` weights and a `kv_cache` on `device`:
/// - llama.cpp: GGUF types only (F16/BF16, the block quants, MXFP4), cache f16/q8_0/q4_0; its
///   kernels compute in 16 bits (no FP8/FP4 tensor-core path). Refuses FP8, NVFP4, INT4-AWQ and
///   an FP8 cache (no GGUF type).
/// - vLLM, SGLang: BF16, FP8, NVFP4, MXFP4, INT4-AWQ; cache f16 or fp8. FP8 computes in FP8
///   where the device has FP8 tensor cores, else runs weight-only (Marlin kernels, 16-bit
///   compute); NVFP4 in FP4 on Blackwell, else weight-only; MXFP4 with FP8 activations where
///   FP8 exists, else 16-bit. GGUF refused; F32 (a float32 checkpoint's dtype) refused with
///   the advice to plan BF16 or F16, as these engines load float32 weights cast to 16 bits.
///   NVIDIA and AMD GPUs only; on NVIDIA, what their support matrices require of the
///   compute capability (engine/hardware/compute_capability.hpp): vLLM 7.0 on, SGLang 7.5 on; BF16
///   from 8.0, FP8 and AWQ from 7.5, NVFP4 from 8.0 (a Tesla P40 runs neither engine, a V100
///   runs vLLM in F16 only).
/// - TensorRT-LLM: as vLLM on NVIDIA GPUs of compute capability 8.0 on (Ampere to Blackwell)
///   only, but refuses FP8 weights or cache on a device without FP8 tensor cores and NVFP4
///   without FP4 ones (no weight-only fallback).
/// Never throws.
FormatSupport format_support(ServingEngine engine, const std::string& quant_id,
                             KvCacheType kv_cache, const Device& device);

}  // namespace gputco
