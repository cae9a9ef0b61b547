#include "engine/serving/serving_profile.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "engine/hardware/compute_capability.hpp"

namespace gputco {

namespace {

constexpr std::array<std::pair<ServingEngine, const char*>, 4> kEngines{{
    {ServingEngine::llama_cpp, "llama.cpp"},
    {ServingEngine::vllm, "vllm"},
    {ServingEngine::sglang, "sglang"},
    {ServingEngine::tensorrt_llm, "tensorrt-llm"},
}};

/// vLLM raises its defaults on GPUs of at least this much memory (see engine_profile).
constexpr double kVllmLargeGpuGib = 70;

bool is_nvidia_or_amd(const Device& device) {
  return device.vendor == Vendor::nvidia || device.vendor == Vendor::amd;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

}  // namespace

std::string to_string(ServingEngine engine) {
  for (const auto& [e, name] : kEngines) {
    if (e == engine) return name;
  }
  return "unknown";
}

std::string display_name(ServingEngine engine) {
  switch (engine) {
    case ServingEngine::llama_cpp:
      return "llama.cpp";
    case ServingEngine::vllm:
      return "vLLM";
    case ServingEngine::sglang:
      return "SGLang";
    case ServingEngine::tensorrt_llm:
      return "TensorRT-LLM";
  }
  return "unknown";
}

std::optional<ServingEngine> parse_serving_engine(const std::string& text) {
  for (const auto& [e, name] : kEngines) {
    if (text == name) return e;
  }
  return std::nullopt;
}

std::string to_string(ComputePrecision precision) {
  switch (precision) {
    case ComputePrecision::fp16:
      return "16-bit";
    case ComputePrecision::fp8:
      return "FP8";
    case ComputePrecision::fp4:
      return "FP4";
  }
  return "unknown";
}

double peak_tflops(const Device& device, ComputePrecision precision) {
  switch (precision) {
    case ComputePrecision::fp16:
      return device.fp16_tflops;
    case ComputePrecision::fp8:
      return device.fp8_tflops;
    case ComputePrecision::fp4:
      return device.fp4_tflops;
  }
  return 0;
}

ServingConstants fitted_serving_constants() {
  // Fitted jointly on the 26 rows of tests/data/reference/serving_configs.csv marked `fit`
  // (fit_serving_constants; scripts/calibrate-serving recomputes them and the errors:
  // in-sample MAPE 15.7 %, leave-one-out 31.3 %). Each factor rests on several rows: AMD 5,
  // MoE (read and compute) 11, tuned (MLPerf submissions) 7, FP4 6, dense TP 3.
  ServingConstants c;
  c.bandwidth_efficiency = 0.655956;
  c.compute_efficiency = 0.627976;
  c.step_fixed_s = 4.500000e-3;
  c.amd_factor = 0.523883;
  c.moe_read_factor = 0.469607;
  c.moe_compute_factor = 0.206765;
  c.tuned_factor = 1.530786;
  c.fp4_factor = 0.611289;
  c.tp_factor = 0.794162;
  c.calibrated = true;
  return c;
}

EngineProfile engine_profile(ServingEngine engine, double device_memory_gib) {
  EngineProfile p;
  p.engine = engine;
  if (engine != ServingEngine::llama_cpp) {
    p.constants = fitted_serving_constants();
    p.note =
        "constants fitted jointly on 26 published vLLM, SGLang and TensorRT-LLM "
        "measurements (20 TensorRT-LLM, 4 vLLM, 2 SGLang): the engines differ by their "
        "profiles (memory share, batch cap, KV blocks), not by their efficiencies";
  }
  switch (engine) {
    case ServingEngine::llama_cpp:
      // llama-server: the whole usable memory (fit.hpp's usable_memory_gib: llama.cpp keeps 1 GiB
      // free per device), its compute buffer as the reserve (fit.hpp compute_buffer_bytes),
      // cells padded to 256 (llama-kv-cache), sliding layers capped at the window (llama.cpp
      // allocates SWA layers for the window only). Slots: `--parallel`, no default cap here;
      // `--batch-size` 2048 tokens per step. The step model takes the calibrated decode
      // constants of the backend (engine/hardware/calibration.hpp) and its prefill efficiency.
      p.version = "b6000+ (2025)";
      p.memory_share = 1.0;
      p.runtime_reserve_gib = 0;
      p.kv_block_tokens = 256;
      p.sliding_window_in_full = false;
      p.max_batch = 0;
      p.step_token_budget = 2048;
      p.constants.calibrated = true;
      p.note =
          "llama.cpp's decode constants per backend (engine/hardware/calibration.hpp, fitted on "
          "measured llama.cpp decode rows)";
      break;
    case ServingEngine::vllm:
      // vLLM 0.10 (V1 engine): gpu_memory_utilization 0.90 of total memory
      // (vllm/config/cache.py); block_size 16; max_num_seqs 1024 and max_num_batched_tokens
      // 8192 (OpenAI server) on GPUs of >= 70 GiB, 256 and 2048 below
      // (vllm/engine/arg_utils.py, _set_default_max_num_seqs_and_batched_tokens_args).
      // Sliding-window layers are reserved for the whole context unless the hybrid KV cache
      // manager (V1, 2025) handles the model: the conservative case.
      p.version = "0.10";
      p.memory_share = 0.90;
      p.runtime_reserve_gib = 2.0;
      p.kv_block_tokens = 16;
      p.sliding_window_in_full = true;
      p.max_batch = device_memory_gib >= kVllmLargeGpuGib ? 1024 : 256;
      p.step_token_budget = device_memory_gib >= kVllmLargeGpuGib ? 8192 : 2048;
      break;
    case ServingEngine::sglang:
      // SGLang: mem_fraction_static ~0.88 on 80 GB-class GPUs (server_args.py picks it from
      // the GPU's memory), token-granular KV pages (page_size 1), max_running_requests from
      // memory, chunked_prefill_size 8192 on large GPUs; sliding layers in full.
      p.version = "0.4";
      p.memory_share = 0.88;
      p.runtime_reserve_gib = 2.0;
      p.kv_block_tokens = 1;
      p.sliding_window_in_full = true;
      p.max_batch = 0;
      p.step_token_budget = 8192;
      break;
    case ServingEngine::tensorrt_llm:
      // TensorRT-LLM 1.0 (PyTorch backend): kv_cache_free_gpu_mem_fraction 0.90 of the memory
      // free after weights and activations (docs/source/performance/perf-overview.md: 0.90
      // default, 0.95 in many published runs); tokens_per_block 32; max_batch_size 2048 and
      // max_num_tokens 8192 (LLM API defaults); sliding windows as cyclic per-layer caches.
      p.version = "1.0";
      p.memory_share = 0.90;
      p.share_of_free_memory = true;
      p.runtime_reserve_gib = 2.0;
      p.kv_block_tokens = 32;
      p.sliding_window_in_full = false;
      p.max_batch = 2048;
      p.step_token_budget = 8192;
      break;
  }
  return p;
}

WeightFormat weight_format(const std::string& quant_id) {
  const std::string id = upper(quant_id);
  if (id == "F16" || id == "BF16" || id == "FP16") return WeightFormat::float16;
  if (id == "FP8") return WeightFormat::fp8;
  if (id == "NVFP4") return WeightFormat::nvfp4;
  if (id == "MXFP4") return WeightFormat::mxfp4;
  if (id == "INT4-AWQ" || id == "AWQ") return WeightFormat::int4_awq;
  return WeightFormat::gguf;
}

namespace {

// What the engines' documented support matrices refuse on an NVIDIA device by its compute
// capability (x 10), "" when they run it (the precision's fallbacks are format_support's):
// - vLLM: compute capability 7.0 or more (docs.vllm.ai, Installation, GPU: "compute
//   capability 7.0 or higher (e.g., V100, T4, RTX20xx, A100, L4, H100)"); BF16 from 8.0 (its
//   check: "Bfloat16 is only supported on GPUs with compute capability of at least 8.0 ...
//   You can use float16 instead"); FP8 runs weight-only from 7.5 (Quantization, FP8 W8A8:
//   "FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16,
//   utilizing FP8 Marlin"); AWQ from 7.5 (Quantization, Supported Hardware: AWQ not on Volta);
//   NVFP4 weight-only in the Marlin kernels, from 8.0 (same table: Marlin from Ampere).
// - SGLang: sm75 and above (docs.sglang.io, Quickstart: "NVIDIA GPU with CUDA support (sm75
//   and above, e.g., T4, A10, A100, L4, L40S, H100)"); its precisions as vLLM's kernels.
// - TensorRT-LLM: Ampere (SM80, SM86) and later (Support Matrix, Hardware; precision: Ampere
//   FP16, BF16, INT8, INT4; FP8 from Ada, which format_support checks by FP8 tensor cores).
std::string compute_capability_refusal(ServingEngine engine, WeightFormat format,
                                       const std::string& quant_id, const Device& device) {
  const auto cc = nvidia_compute_capability(device);
  if (!cc) return "";
  const std::string who = display_name(engine);
  const auto version = [](int c) { return std::to_string(c / 10) + "." + std::to_string(c % 10); };
  const std::string is =
      device.id + " is " + nvidia_architecture(*cc) + ", compute capability " + version(*cc);
  const int least = engine == ServingEngine::vllm ? 70 : engine == ServingEngine::sglang ? 75 : 80;
  if (*cc < least) {
    return who + " runs on NVIDIA GPUs of compute capability " + version(least) +
           " or more (its support matrix); " + is + " (use --engine llama.cpp)";
  }
  const bool bf16 = upper(quant_id) == "BF16";
  if (bf16 && *cc < 80) {
    return who + " runs BF16 from compute capability 8.0 (Ampere) on; " + is +
           ": plan F16 weights (--quant F16), which it runs";
  }
  if (format == WeightFormat::fp8 && *cc < 75) {
    return who + " runs FP8 weights from compute capability 7.5 (weight-only FP8 Marlin) on; " +
           is + ": use F16 weights";
  }
  if (format == WeightFormat::int4_awq && *cc < 75) {
    return who + " runs AWQ from compute capability 7.5 (Turing) on; " + is + ": use F16 weights";
  }
  if (format == WeightFormat::nvfp4 && *cc < 80) {
    return who + " runs NVFP4 weight-only from compute capability 8.0 (Marlin) on; " + is +
           ": use F16 or FP8 weights";
  }
  return "";
}

/// What llama.cpp refuses: a checkpoint format of the other engines (FP8, NVFP4, INT4-AWQ)
/// or an FP8 KV cache; "" when it runs them.
std::string llama_cpp_refusal(WeightFormat format, const std::string& quant_id,
                              KvCacheType kv_cache) {
  if (format == WeightFormat::fp8 || format == WeightFormat::nvfp4 ||
      format == WeightFormat::int4_awq) {
    return "llama.cpp runs GGUF files only; " + quant_id +
           " is a checkpoint format of vLLM, SGLang and TensorRT-LLM (use a GGUF quant "
           "such as Q8_0 or Q4_K_M, or another engine)";
  }
  if (kv_cache == KvCacheType::fp8) {
    return "llama.cpp has no FP8 KV cache (its cache types are f16, q8_0 and q4_0)";
  }
  return "";
}

/// What vLLM, SGLang or TensorRT-LLM refuse before the weights' precision is looked at:
/// F32 and GGUF weights, llama.cpp's block KV caches, a vendor they do not serve on, what the
/// compute capability rules out (compute_capability_refusal) and TensorRT-LLM's FP8 KV cache
/// without FP8 tensor cores; "" when none applies.
std::string serving_engine_refusal(ServingEngine engine, WeightFormat format,
                                   const std::string& quant_id, KvCacheType kv_cache,
                                   const Device& device) {
  const std::string who = display_name(engine);
  if (format == WeightFormat::gguf && (upper(quant_id) == "F32" || upper(quant_id) == "FP32")) {
    // A config.json whose torch_dtype is float32 gives F32: a checkpoint's dtype, not a GGUF.
    return who + " does not serve " + quant_id +
           " weights: F32 is the checkpoint's dtype (float32, as in a config.json's "
           "torch_dtype), which the serving engines load cast to 16 bits; plan the model "
           "with quant BF16 or F16 (--quant BF16), or F32 with --engine llama.cpp";
  }
  if (format == WeightFormat::gguf) {
    return who + " does not run GGUF quants such as " + quant_id +
           " (GGUF is llama.cpp's format; use BF16, FP8, NVFP4, MXFP4 or INT4-AWQ weights, "
           "or --engine llama.cpp)";
  }
  if (kv_cache == KvCacheType::q8_0 || kv_cache == KvCacheType::q4_0) {
    return who + " has no " + to_string(kv_cache) +
           " KV cache (llama.cpp's block formats); use f16 or fp8";
  }
  const bool trt = engine == ServingEngine::tensorrt_llm;
  if (trt && device.vendor != Vendor::nvidia) {
    return "TensorRT-LLM runs on NVIDIA GPUs only; " + device.id + " is " +
           to_string(device.vendor) +
           (device.vendor == Vendor::amd ? " (use --engine vllm or sglang)"
                                         : " (use --engine llama.cpp)");
  }
  if (!is_nvidia_or_amd(device)) {
    return who + " serves on NVIDIA and AMD GPUs; " + device.id + " is " +
           to_string(device.vendor) + " (use --engine llama.cpp)";
  }
  if (std::string why = compute_capability_refusal(engine, format, quant_id, device);
      !why.empty()) {
    return why;
  }
  const bool fp8_cores = device.fp8_tflops > 0;
  if (kv_cache == KvCacheType::fp8 && trt && !fp8_cores) {
    return "TensorRT-LLM's FP8 KV cache needs FP8 tensor cores (Ada, Hopper, Blackwell); " +
           device.id + " has none: use --kv-cache f16";
  }
  return "";
}

/// The precision vLLM, SGLang or TensorRT-LLM compute `format` in on `device`, with the
/// weight-only fallback (FP8, NVFP4 without their tensor cores) or TensorRT-LLM's refusal
/// (it has no such fallback); `format` is not GGUF (serving_engine_refusal refused it).
FormatSupport serving_engine_precision(ServingEngine engine, WeightFormat format,
                                       const Device& device) {
  FormatSupport s;
  const bool fp8_cores = device.fp8_tflops > 0;
  const bool fp4_cores = device.fp4_tflops > 0;
  const bool trt = engine == ServingEngine::tensorrt_llm;
  switch (format) {
    case WeightFormat::float16:
    case WeightFormat::int4_awq:
    case WeightFormat::gguf:
      s.compute = ComputePrecision::fp16;
      break;
    case WeightFormat::fp8:
      if (fp8_cores) {
        s.compute = ComputePrecision::fp8;
      } else if (trt) {
        s.refusal = "TensorRT-LLM runs FP8 weights on FP8 tensor cores (Ada, Hopper, Blackwell); " +
                    device.id +
                    " has none (an A100 has no FP8): use BF16 or INT4-AWQ weights, or vLLM's "
                    "weight-only FP8";
      } else {
        s.compute = ComputePrecision::fp16;
        s.fallback = "FP8 weights run weight-only on " + device.id +
                     " (no FP8 tensor cores: Marlin kernels, 16-bit compute): FP8 saves bytes, "
                     "not FLOPs";
      }
      break;
    case WeightFormat::nvfp4:
      if (device.vendor != Vendor::nvidia) {
        s.refusal = "NVFP4 is an NVIDIA format; " + device.id + " cannot run it (use FP8 or MXFP4)";
      } else if (fp4_cores) {
        s.compute = ComputePrecision::fp4;
      } else if (trt) {
        s.refusal = "TensorRT-LLM runs NVFP4 on Blackwell's FP4 tensor cores only; " + device.id +
                    " has none: use FP8 weights";
      } else {
        s.compute = ComputePrecision::fp16;
        s.fallback = "NVFP4 weights run weight-only on " + device.id +
                     " (no FP4 tensor cores: 16-bit compute): FP4 saves bytes, not FLOPs";
      }
      break;
    case WeightFormat::mxfp4:
      // gpt-oss's MXFP4 experts run with FP8 activations where FP8 exists (W4A8), else BF16.
      s.compute = fp8_cores ? ComputePrecision::fp8 : ComputePrecision::fp16;
      break;
  }
  return s;
}

}  // namespace

FormatSupport format_support(ServingEngine engine, const std::string& quant_id,
                             KvCacheType kv_cache, const Device& device) {
  const WeightFormat format = weight_format(quant_id);
  if (engine == ServingEngine::llama_cpp) {
    // 16-bit compute: llama.cpp's kernels do not use FP8/FP4 tensor cores.
    FormatSupport s;
    s.refusal = llama_cpp_refusal(format, quant_id, kv_cache);
    return s;
  }
  if (std::string why = serving_engine_refusal(engine, format, quant_id, kv_cache, device);
      !why.empty()) {
    FormatSupport s;
    s.refusal = std::move(why);
    return s;
  }
  return serving_engine_precision(engine, format, device);
}

}  // namespace gputco
