// Plain descriptions of devices, models and quantization formats, as the catalog holds them.
#pragma once

#include <optional>
#include <string>

namespace gputco {

enum class Vendor { nvidia, amd, intel, apple };
enum class DeviceKind { consumer, workstation, datacenter, unified };

/// The software backend that runs decode; it sets the fixed per-token cost (kernel
/// launches, synchronisation) and the reachable share of peak bandwidth.
enum class Backend { cuda, metal, rocm, vulkan, sycl };

/// One accelerator (a GPU card, or an SoC with unified memory).
/// Figures from vendor spec sheets; see pricing/data/devices.csv for each row's source.
struct Device {
  std::string id;    ///< catalog id, e.g. "rtx-3090"
  std::string name;  ///< display name, e.g. "GeForce RTX 3090"
  Vendor vendor = Vendor::nvidia;
  DeviceKind kind = DeviceKind::consumer;
  /// Nameplate memory as the vendor states it ("24 GB"). GPU memory is built from
  /// binary-sized chips, so this is really GiB for discrete cards (DOMAIN "Units").
  double memory_nameplate_gb = 0;
  std::string memory_type;    ///< "GDDR6X", "HBM3", "LPDDR5", ...
  double bandwidth_gbps = 0;  ///< peak memory bandwidth, GB/s (10^9 bytes/s)
  double board_power_w = 0;   ///< board power (TGP/TDP) in W; 0 where the vendor gives none
  double fp16_tflops = 0;     ///< dense FP16 tensor throughput, TFLOPS; 0 = unknown
  /// Device-to-device link for tensor parallel, GB/s per direction; 0 = PCIe only.
  double nvlink_gbps = 0;
};

/// A model's architecture, as its config.json gives it. Only what memory and speed need.
struct ModelArch {
  std::string id;
  std::string name;
  double params_b = 0;         ///< total parameters, billions
  double active_params_b = 0;  ///< parameters read per token, billions (== params_b if dense)
  int layers = 0;
  int hidden = 0;
  int heads = 0;     ///< attention (query) heads
  int kv_heads = 0;  ///< key/value heads (GQA); 0 for MLA models
  int head_dim = 0;  ///< from the config; NOT always hidden / heads
  int experts = 0;   ///< routed experts (0 = dense)
  int experts_active = 0;
  int swa_window = 0;        ///< sliding-window size in tokens (0 = none)
  int swa_layers = 0;        ///< how many layers use the sliding window
  int mla_kv_lora_rank = 0;  ///< MLA compressed KV width (0 = not MLA)
  int mla_rope_dim = 0;      ///< MLA decoupled RoPE key width
  int max_context = 0;       ///< the model's maximum context, tokens
  /// Vocabulary size (config.json `vocab_size`); 0 = unknown. With it the engine sizes the
  /// token embedding and output (unembedding) matrices, which quantizers keep at a different
  /// precision than the body and which decode reads differently (one embedding row, the
  /// whole output matrix). Unknown: every weight is counted at the quant's whole-file bits.
  int vocab_size = 0;
  /// True when the output matrix is the token embedding (config.json
  /// `tie_word_embeddings`, e.g. Gemma 3): the matrix is stored once and read every token.
  bool tied_embeddings = false;
  bool is_moe() const { return experts > 0; }
  bool is_mla() const { return mla_kv_lora_rank > 0; }
};

/// A weight format: bits per weight averaged over the whole file.
struct Quant {
  std::string id;              ///< "Q4_K_M", "F16", "MXFP4", ...
  double bits_per_weight = 0;  ///< average bits per weight of the quantized tensors
  std::string kind;            ///< "float", "block", "mix", "group"
};

/// KV cache element type (llama.cpp --cache-type-k/v).
enum class KvCacheType { f16, q8_0, q4_0 };

/// How several devices share one model.
enum class SplitMode {
  layer,  ///< pipeline: layers divided among devices; one device works at a time
  tensor  ///< tensor parallel: every layer divided; all devices work at once
};

/// The default backend for a device: CUDA for NVIDIA, Metal for Apple, ROCm for AMD
/// discrete cards, Vulkan for AMD unified SoCs, SYCL for Intel. Never throws.
Backend default_backend(const Device& device);

/// Why llama.cpp's `backend` cannot run on `device`, or "" when it can: CUDA needs NVIDIA,
/// Metal Apple, ROCm (HIP) AMD; SYCL runs on Intel and, through oneAPI's CUDA plugin, NVIDIA;
/// Vulkan runs on every vendor (MoltenVK on Apple). Source: llama.cpp docs/build.md, the
/// backends and the hardware each targets. Never throws.
std::string backend_unsupported_reason(Backend backend, const Device& device);

/// Text forms: the catalog's and scenario files' lower-case spelling ("nvidia", "datacenter",
/// "cuda", "q8_0", "layer"). Never throw.
std::string to_string(Vendor v);
std::string to_string(DeviceKind k);
std::string to_string(Backend b);
std::string to_string(KvCacheType t);
std::string to_string(SplitMode s);
/// Parses the text forms above (exact, case-sensitive); nullopt for anything else.
/// Never throw.
std::optional<Vendor> parse_vendor(const std::string& text);
std::optional<DeviceKind> parse_device_kind(const std::string& text);
std::optional<Backend> parse_backend(const std::string& text);
std::optional<KvCacheType> parse_kv_cache_type(const std::string& text);
std::optional<SplitMode> parse_split_mode(const std::string& text);

}  // namespace gputco
