// Plain descriptions of devices, models and quantization formats, as the catalog holds them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

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
  /// Dense FP16/BF16 tensor throughput (no sparsity), TFLOPS; 0 = unknown. Apple GPUs,
  /// which have no matrix units, carry their FP16 ALU rate.
  double fp16_tflops = 0;
  /// Dense FP8 tensor throughput, TFLOPS; 0 = none (no FP8 tensor cores: Ampere, CDNA 2) or
  /// unknown. FP8 weights on such a device save bytes, not FLOPs.
  double fp8_tflops = 0;
  /// Dense FP4 tensor throughput (NVFP4 / MXFP4), TFLOPS; 0 = none (before Blackwell) or
  /// unknown.
  double fp4_tflops = 0;
  /// Device-to-device link, GB/s, both directions summed as vendors state it; 0 = PCIe only.
  double nvlink_gbps = 0;
  /// How many devices one NVLink domain joins where these devices are installed (a catalog
  /// system's nvlink_domain_gpus, or an option's key of that name): 8 on an 8-GPU NVSwitch
  /// board, 2 for cards paired by 2-way bridges, 1 for PCIe only. A group of devices larger
  /// than it talks over PCIe (nvlink_joins). 0 = not stated: the link joins any number of
  /// devices (a catalog device alone, as before systems stated it).
  int nvlink_domain_gpus = 0;
  /// The power limit the card runs under (nvidia-smi -pl, rocm-smi --setpoweroverdrive), W;
  /// 0 = none (the board power). Set by an option's or a [device:] section's power_limit_w, or
  /// --power-limit; engine/hardware/power_limit.hpp says what it does to speed and energy.
  double power_limit_w = 0;
};

/// Weight bytes by tensor group as a model file stores them: a GGUF's tensor table, exact to
/// the byte (every tensor's elements / ggml block size x block bytes). Where a model carries
/// them, the engine counts these bytes instead of estimating parameters x bits of a recipe.
struct FileWeights {
  /// The file's weight format, as llama.cpp names its file type ("Q4_K_M", "F16", "MXFP4");
  /// a request for this format gets the file's bytes, any other the recipe's estimate.
  std::string quant;
  double embedding_bytes = 0;  ///< token_embd.weight (read one row per token)
  double output_bytes = 0;     ///< output.weight; 0 when tied to the embedding
  double experts_bytes = 0;    ///< routed-expert tensors (*_exps), all layers
  double other_bytes = 0;      ///< everything else: attention, dense/shared FFN, norms, router
  double total_bytes() const {
    return embedding_bytes + output_bytes + experts_bytes + other_bytes;
  }
};

/// A multimodal model's vision encoder and projector, as llama.cpp loads them from an mmproj
/// GGUF (tools/mtmd/clip.cpp): weights on the first GPU (--mmproj-offload, the default) and a
/// compute buffer for the largest image it encodes.
struct VisionTower {
  /// Encoder and projector weights as stored, bytes: an mmproj GGUF's tensor bytes; from a
  /// config.json's vision_config, its parameters at 16 bits (mmproj files are F16 or BF16 by
  /// default, convert_hf_to_gguf.py --mmproj).
  double weights_bytes = 0;
  int hidden = 0;  ///< encoder width (vision_config hidden_size, clip.vision.embedding_length)
  int intermediate = 0;  ///< encoder FFN width (intermediate_size, clip.vision.feed_forward_length)
  /// Patches of the largest image the encoder takes: (side / patch_size)^2, side the larger of
  /// the encoder's image_size and the 1,472 x 1,472 image llama.cpp's warmup reserves for
  /// dynamic-resolution encoders (mtmd warmup logs).
  int image_patches = 0;
};

/// A model's architecture, as its config.json (or GGUF header) gives it. Only what memory and
/// speed need.
struct ModelArch {
  std::string id;
  std::string name;
  /// The model's Hugging Face repository ("meta-llama/Llama-3.1-8B"): in the catalog, an alias
  /// of its id; "" when none.
  std::string hf_repo;
  double params_b = 0;         ///< total parameters, billions
  double active_params_b = 0;  ///< parameters read per token, billions (== params_b if dense)
  int layers = 0;
  int hidden = 0;
  int heads = 0;     ///< attention (query) heads; 0 only for a model without attention (Mamba)
  int kv_heads = 0;  ///< key/value heads (GQA); 0 for MLA models
  int head_dim = 0;  ///< from the config; NOT always hidden / heads
  /// Width of one V head when it differs from K's (GGUF `value_length`); 0 = head_dim.
  int head_dim_v = 0;
  int experts = 0;  ///< routed experts (0 = dense)
  int experts_active = 0;
  int swa_window = 0;        ///< sliding-window size in tokens (0 = none)
  int swa_layers = 0;        ///< how many layers use the sliding window
  int mla_kv_lora_rank = 0;  ///< MLA compressed KV width (0 = not MLA)
  int mla_rope_dim = 0;      ///< MLA decoupled RoPE key width
  int max_context = 0;       ///< the model's trained maximum context, tokens
  /// The longest context the config's RoPE scaling supports (YaRN, linear, dynamic: factor x
  /// the original context), when longer than max_context; 0 = none stated. Beyond
  /// max_context and up to this, a context is served with a warning.
  int max_context_scaled = 0;
  /// Vocabulary size (config.json `vocab_size`); 0 = unknown. With it the engine sizes the
  /// token embedding and output (unembedding) matrices, which quantizers keep at a different
  /// precision than the body and which decode reads differently (one embedding row, the
  /// whole output matrix). Unknown: every weight is counted at the quant's whole-file bits.
  int vocab_size = 0;
  /// True when the output matrix is the token embedding (config.json
  /// `tie_word_embeddings`, e.g. Gemma 3): the matrix is stored once and read every token.
  bool tied_embeddings = false;
  /// Layers without a KV cache: the linear-attention or state-space layers of a hybrid
  /// (Qwen3-Next, Jamba) or every layer of a pure state-space model (Mamba). 0 = every layer
  /// attends. The others are swa_layers sliding-window layers and the rest full attention.
  int layers_without_kv = 0;
  /// Layers that keep a recurrent state per sequence (state-space / linear-attention layers;
  /// all of them in Falcon-H1, whose layers attend too). 0 = none.
  int recurrent_layers = 0;
  /// f32 elements of one recurrent layer's state for one sequence: llama.cpp's conv state
  /// n_embd_r plus its SSM state n_embd_s (src/llama-hparams.cpp). 0 = none.
  double recurrent_state_elements = 0;
  /// Weight bytes as a model file stores them (a GGUF); nullopt for catalog models and
  /// config.json checkpoints (then parameters x the recipe's bits).
  std::optional<FileWeights> file_weights;
  /// The vision tower of a multimodal model (config.json vision_config, or an mmproj GGUF
  /// given beside the model); nullopt for a text-only model or when the projector is not loaded.
  std::optional<VisionTower> vision;
  bool is_moe() const { return experts > 0; }
  bool is_mla() const { return mla_kv_lora_rank > 0; }
};

/// A weight format: bits per weight averaged over the whole file.
struct Quant {
  std::string id;              ///< "Q4_K_M", "F16", "MXFP4", ...
  double bits_per_weight = 0;  ///< average bits per weight of the quantized tensors
  std::string kind;            ///< "float", "block", "mix", "group"
};

/// KV cache element type: llama.cpp's --cache-type-k / --cache-type-v (common/arg.cpp's
/// kv_cache_types: f32, f16, bf16 and the 32-value block formats), and the FP8 cache of the
/// serving engines (vLLM, SGLang `--kv-cache-dtype fp8`, TensorRT-LLM FP8 KV cache; one byte
/// per element with per-tensor scales; llama.cpp has none).
enum class KvCacheType { f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1, fp8 };

/// The element types of the K and of the V cache, set apart in llama.cpp. One type given
/// stands for both.
struct KvCacheTypes {
  KvCacheType k = KvCacheType::f16;
  KvCacheType v = KvCacheType::f16;
  KvCacheTypes() = default;
  KvCacheTypes(KvCacheType both) : k(both), v(both) {}  // NOLINT: one type is both
  KvCacheTypes(KvCacheType k_type, KvCacheType v_type) : k(k_type), v(v_type) {}
  bool operator==(const KvCacheTypes&) const = default;
};

/// How several devices share one model.
enum class SplitMode {
  layer,  ///< pipeline: layers divided among devices; one device works at a time
  tensor  ///< tensor parallel: every layer divided; all devices work at once
};

/// What is wrong with `value` as the figure `column` of a device or model (the catalog's
/// column names: memory_gb, bandwidth_gbps, board_power_w, fp16_tflops, nvlink_gbps,
/// params_b, active_params_b, layers, hidden, heads, kv_heads, head_dim, experts, swa_window,
/// max_context, vocab_size), or "" when it is plausible: not finite, zero or negative
/// ("must be greater than 0, got 0"), or beyond any real part, a unit slip ("must be at most
/// 16384 GB (beyond any device: a unit slip?), got 24000"). The bounds are far above today's
/// largest (a B300 holds 288 GB at 8,000 GB/s and 1,400 W; DeepSeek V3 has 671B parameters):
/// they catch a figure typed in MB, MB/s or mW, not a new part. Columns it does not know: "".
/// Used where users write figures: a [device:NAME] or [model] section, an imported
/// devices.csv or models.csv. Never throws.
std::string figure_problem(std::string_view column, double value);

/// True when two ids are the same ignoring ASCII case ("Q4_K_M" and "q4_k_m", "H100" and
/// "h100"): gputco's ids are case-insensitive everywhere. Never throws.
bool same_id(std::string_view a, std::string_view b);

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
/// "f16" when K and V share a type, else "K/V" ("q8_0/f16").
std::string to_string(const KvCacheTypes& t);
/// Every cache type's text form, comma-separated ("f32, f16, bf16, q8_0, ..."), for messages.
std::string kv_cache_type_list();
std::string to_string(SplitMode s);
/// Parses the text forms above (exact, case-sensitive); nullopt for anything else.
/// Never throw.
std::optional<Vendor> parse_vendor(const std::string& text);
std::optional<DeviceKind> parse_device_kind(const std::string& text);
std::optional<Backend> parse_backend(const std::string& text);
std::optional<KvCacheType> parse_kv_cache_type(const std::string& text);
std::optional<SplitMode> parse_split_mode(const std::string& text);

}  // namespace gputco
