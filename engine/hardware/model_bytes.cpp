#include "engine/hardware/model_bytes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

constexpr double kBitsPerByte = 8.0;
constexpr double kQ6K = 6.5625;  // ggml block_q6_K: 210 bytes per 256 weights
constexpr double kQ8_0 = 8.5;    // block_q8_0: 34 bytes per 32 weights

struct Recipe {
  std::string_view id;
  TensorBits bits;
};

// Body bits of the K-quant mixes: repeating-layer averages. llama.cpp gives Q6_K to attn_v
// and ffn_down on about half of the layers in *_M mixes (use_more_bits), Q5_K/Q4_K on the
// first layers in *_S mixes; the averages below reproduce gguf_sizes.csv within 1 % on
// Llama 3.1 8B and Llama 3 70B together (so the same recipe explains Q4_K_M's 4.89 bits on
// 8B and 4.82 on 70B: the output matrix at Q6_K weighs more in a small model).
constexpr std::array<Recipe, 24> kRecipes{{
    {"F32", {32, 32, 32, 32, false}},
    {"F16", {16, 16, 16, 16, false}},
    {"BF16", {16, 16, 16, 16, false}},
    // FP8 checkpoints (vLLM, TensorRT) keep embeddings and lm_head in BF16.
    {"FP8", {8, 16, 16, 8, false}},
    // NVFP4 checkpoints (TensorRT Model Optimizer): every linear layer in 16-value FP4 blocks
    // with an FP8 scale (4 + 8 / 16 = 4.5 bits); embeddings and lm_head stay in BF16.
    {"NVFP4", {4.5, 16, 16, 4.5, false}},
    {"Q8_0", {kQ8_0, kQ8_0, kQ8_0, kQ8_0, false}},
    {"Q6_K", {kQ6K, kQ6K, kQ6K, kQ6K, false}},
    {"Q5_K_M", {5.65, 5.5, kQ6K, 5.65, false}},
    {"Q4_K_M", {4.80, 4.5, kQ6K, 4.80, false}},
    {"Q4_K_S", {4.53, 4.5, kQ6K, 4.53, false}},
    {"Q4_0", {4.5, 4.5, kQ6K, 4.5, false}},
    {"IQ4_XS", {4.29, 4.25, kQ6K, 4.29, false}},
    {"Q3_K_M", {3.85, 3.4375, kQ6K, 3.85, false}},
    {"Q3_K_S", {3.44, 3.4375, kQ6K, 3.44, false}},
    // gpt-oss ships experts in MXFP4 (17 bytes per 32 weights); attention, router, embedding
    // and output in 8 bits (ggml-org GGUF: Q8_0), which reproduces its 59.0 GiB (120B).
    {"MXFP4", {kQ8_0, kQ8_0, kQ8_0, 4.25, true}},
    // AWQ (vLLM): 4-bit groups of 128 with f16 scales; embeddings and lm_head stay in f16.
    {"INT4-AWQ", {4.25, 16, 16, 4.25, false}},
    {"AWQ", {4.25, 16, 16, 4.25, false}},
    // Hugging Face checkpoints as their config.json's quantization_config states them (the
    // embedding and lm_head stay 16-bit in each): gpt-oss's own safetensors (experts MXFP4,
    // attention, router and embeddings BF16: 60.8 GiB for the 120B);
    {"MXFP4-BF16", {16, 16, 16, 4.25, true}},
    // GPTQ groups of 128: an f16 scale and a packed zero point per group (4 + 16/128 + 4/128);
    {"GPTQ-INT4", {4.15625, 16, 16, 4.15625, false}},
    {"GPTQ-INT8", {8.1875, 16, 16, 8.1875, false}},
    // compressed-tensors W4A16 (groups of 128, f16 scales) and W8A8 (per-channel scales);
    {"INT4", {4.125, 16, 16, 4.125, false}},
    {"INT8", {8, 16, 16, 8, false}},
    // bitsandbytes NF4 (blocks of 64 with an f32 absmax) and NVFP4 (an FP8 scale per 16).
    {"NF4", {4.5, 16, 16, 4.5, false}},
    {"NVFP4", {4.5, 16, 16, 4.5, false}},
}};

struct GroupBits {
  ParamGroups params;
  TensorBits bits;
};

// The file's bytes per group when `quant` is the file's own format.
const FileWeights* file_weights_for(const ModelArch& model, const Quant& quant) {
  if (!model.file_weights || !same_id(model.file_weights->quant, quant.id)) {
    return nullptr;
  }
  return &*model.file_weights;
}

constexpr int kKvPadCells = 256;  // llama.cpp pads KV cells to 256 (see kv_cells_full)

double pad_cells(double cells) {
  return std::ceil(cells / kKvPadCells) * kKvPadCells;
}

// The groups and their bits, with the fallbacks documented in weights_bytes.
GroupBits group_bits(const ModelArch& model, const Quant& quant) {
  validate_quant(quant);
  GroupBits g{param_groups(model), {}};
  const double flat = quant.bits_per_weight;
  const auto recipe = tensor_recipe(quant.id);
  if (!recipe) {
    g.bits = {flat, flat, flat, flat, false};
  } else if (model.vocab_size > 0) {
    g.bits = *recipe;
  } else if (recipe->experts_only) {
    g.bits = *recipe;  // embeddings and output are inside `other`, at the body bits
  } else {
    g.bits = {flat, flat, flat, flat, false};  // the catalog's whole-file figure
  }
  if (g.bits.experts_only && !model.is_moe()) g.bits.body_bits = g.bits.expert_bits;
  return g;
}

}  // namespace

std::optional<TensorBits> tensor_recipe(const std::string& quant_id) {
  for (const auto& r : kRecipes) {
    if (same_id(r.id, quant_id)) return r.bits;
  }
  return std::nullopt;
}

void validate_model(const ModelArch& m) {
  const std::string name = m.id.empty() ? std::string("model") : "model " + m.id;
  GPUTCO_REQUIRE(std::isfinite(m.params_b) && m.params_b > 0,
                 name << ": params_b must be positive, got " << m.params_b);
  GPUTCO_REQUIRE(std::isfinite(m.active_params_b) && m.active_params_b > 0 &&
                     m.active_params_b <= m.params_b * (1 + 1e-9),
                 name << ": active_params_b must be in (0, params_b = " << m.params_b << "], got "
                      << m.active_params_b);
  GPUTCO_REQUIRE(m.layers > 0, name << ": layers must be positive, got " << m.layers);
  GPUTCO_REQUIRE(m.hidden > 0, name << ": hidden must be positive, got " << m.hidden);
  GPUTCO_REQUIRE(
      m.layers_without_kv >= 0 && m.layers_without_kv <= m.layers,
      name << ": layers_without_kv must be in 0.." << m.layers << ", got " << m.layers_without_kv);
  const bool attends = m.layers_without_kv < m.layers;
  GPUTCO_REQUIRE(m.heads > 0 || (!attends && m.heads == 0),
                 name << ": heads must be positive, got " << m.heads);
  GPUTCO_REQUIRE(m.head_dim >= 0, name << ": head_dim must not be negative, got " << m.head_dim);
  GPUTCO_REQUIRE(m.head_dim_v >= 0,
                 name << ": head_dim_v must not be negative, got " << m.head_dim_v);
  GPUTCO_REQUIRE(m.vocab_size >= 0,
                 name << ": vocab_size must not be negative, got " << m.vocab_size);
  if (m.is_mla()) {
    GPUTCO_REQUIRE(m.mla_rope_dim >= 0,
                   name << ": mla_rope_dim must not be negative, got " << m.mla_rope_dim);
  } else if (attends) {
    GPUTCO_REQUIRE(m.kv_heads > 0 && m.kv_heads <= m.heads,
                   name << ": kv_heads must be in 1.." << m.heads << ", got " << m.kv_heads);
  }
  GPUTCO_REQUIRE(m.experts >= 0, name << ": experts must not be negative, got " << m.experts);
  if (m.is_moe()) {
    GPUTCO_REQUIRE(
        m.experts_active > 0 && m.experts_active <= m.experts,
        name << ": experts_active must be in 1.." << m.experts << ", got " << m.experts_active);
  }
  GPUTCO_REQUIRE(m.swa_layers >= 0 && m.swa_layers <= m.layers - m.layers_without_kv,
                 name << ": swa_layers must be in 0.." << m.layers - m.layers_without_kv
                      << " (layers - layers_without_kv), got " << m.swa_layers);
  GPUTCO_REQUIRE(m.swa_layers == 0 || m.swa_window > 0,
                 name << ": " << m.swa_layers << " sliding-window layers need swa_window > 0, got "
                      << m.swa_window);
  GPUTCO_REQUIRE(
      m.recurrent_layers >= 0 && m.recurrent_layers <= m.layers,
      name << ": recurrent_layers must be in 0.." << m.layers << ", got " << m.recurrent_layers);
  GPUTCO_REQUIRE(std::isfinite(m.recurrent_state_elements) &&
                     (m.recurrent_layers == 0 ? m.recurrent_state_elements >= 0
                                              : m.recurrent_state_elements > 0),
                 name << ": " << m.recurrent_layers
                      << " recurrent layers need recurrent_state_elements > 0, got "
                      << m.recurrent_state_elements);
  GPUTCO_REQUIRE(m.max_context >= 0,
                 name << ": max_context must not be negative, got " << m.max_context);
  GPUTCO_REQUIRE(m.max_context_scaled >= 0,
                 name << ": max_context_scaled must not be negative, got " << m.max_context_scaled);
  if (m.vision) {
    const VisionTower& v = *m.vision;
    GPUTCO_REQUIRE(std::isfinite(v.weights_bytes) && v.weights_bytes >= 0 && v.hidden >= 0 &&
                       v.intermediate >= 0 && v.image_patches >= 0,
                   name << ": the vision tower's bytes, widths and patches must not be negative, "
                           "got "
                        << v.weights_bytes << " bytes, hidden " << v.hidden << ", FFN "
                        << v.intermediate << ", " << v.image_patches << " patches");
  }
  if (m.file_weights) {
    const FileWeights& w = *m.file_weights;
    for (const double bytes : {w.embedding_bytes, w.output_bytes, w.experts_bytes, w.other_bytes}) {
      GPUTCO_REQUIRE(std::isfinite(bytes) && bytes >= 0,
                     name << ": file weight bytes must not be negative, got " << bytes);
    }
    GPUTCO_REQUIRE(w.total_bytes() > 0, name << ": the file holds no weight bytes");
  }
}

void validate_quant(const Quant& q) {
  GPUTCO_REQUIRE(
      std::isfinite(q.bits_per_weight) && q.bits_per_weight > 0 && q.bits_per_weight <= 32,
      "quant " << q.id << ": bits_per_weight must be in (0, 32], got " << q.bits_per_weight);
}

ParamGroups param_groups(const ModelArch& m) {
  validate_model(m);
  ParamGroups g;
  const double total = m.params_b;
  if (m.vocab_size > 0) {
    const double matrix_b = static_cast<double>(m.vocab_size) * m.hidden / 1e9;
    // A config whose embeddings would exceed the whole model is inconsistent: ignore vocab.
    const double both = m.tied_embeddings ? matrix_b : 2 * matrix_b;
    if (both < total) {
      g.embedding_b = matrix_b;
      g.output_b = m.tied_embeddings ? 0 : matrix_b;
    }
  }
  if (m.is_moe()) {
    const double active_share = static_cast<double>(m.experts_active) / m.experts;
    const double lookup_only = m.tied_embeddings ? 0 : g.embedding_b;
    if (active_share < 1) {
      const double x = (total - m.active_params_b - lookup_only) / (1 - active_share);
      g.experts_b = std::clamp(x, 0.0, total - g.embedding_b - g.output_b);
    }
  }
  g.other_b = std::max(0.0, total - g.embedding_b - g.output_b - g.experts_b);
  return g;
}

double weights_bytes(const ModelArch& model, const Quant& quant) {
  validate_model(model);
  if (const FileWeights* file = file_weights_for(model, quant)) return file->total_bytes();
  const auto [p, b] = group_bits(model, quant);
  const double bits = p.other_b * b.body_bits + p.embedding_b * b.embedding_bits +
                      p.output_b * b.output_bits + p.experts_b * b.expert_bits;
  return bits * 1e9 / kBitsPerByte;
}

double embedding_bytes(const ModelArch& model, const Quant& quant) {
  validate_model(model);
  if (const FileWeights* file = file_weights_for(model, quant)) return file->embedding_bytes;
  const auto [p, b] = group_bits(model, quant);
  return p.embedding_b * b.embedding_bits * 1e9 / kBitsPerByte;
}

double output_bytes(const ModelArch& model, const Quant& quant) {
  validate_model(model);
  if (model.tied_embeddings) return 0;
  if (const FileWeights* file = file_weights_for(model, quant)) return file->output_bytes;
  const auto [p, b] = group_bits(model, quant);
  return p.output_b * b.output_bits * 1e9 / kBitsPerByte;
}

double weights_read_per_step_bytes(const ModelArch& model, const Quant& quant, int streams) {
  GPUTCO_REQUIRE(streams > 0, "concurrent streams must be positive, got " << streams);
  validate_model(model);
  double expert_share = 0;
  if (model.is_moe()) {
    const double miss = 1.0 - static_cast<double>(model.experts_active) / model.experts;
    expert_share = 1.0 - std::pow(miss, streams);
  }
  if (const FileWeights* file = file_weights_for(model, quant)) {
    const double output = model.tied_embeddings ? file->embedding_bytes : file->output_bytes;
    return file->other_bytes + output + file->experts_bytes * expert_share;
  }
  const auto [p, b] = group_bits(model, quant);
  // A tied embedding is the output matrix: read in full every step.
  const double output_bits =
      model.tied_embeddings ? p.embedding_b * b.embedding_bits : p.output_b * b.output_bits;
  const double bits =
      p.other_b * b.body_bits + output_bits + p.experts_b * expert_share * b.expert_bits;
  return bits * 1e9 / kBitsPerByte;
}

double kv_cache_element_bytes(KvCacheType type) {
  constexpr double kBlock = 32.0;  // values per block of the block formats
  switch (type) {
    case KvCacheType::f32:
      return 4.0;
    case KvCacheType::f16:
    case KvCacheType::bf16:
      return 2.0;
    case KvCacheType::q8_0:
      return 34.0 / kBlock;
    case KvCacheType::q5_1:
      return 24.0 / kBlock;
    case KvCacheType::q5_0:
      return 22.0 / kBlock;
    case KvCacheType::q4_1:
      return 20.0 / kBlock;
    case KvCacheType::q4_0:
    case KvCacheType::iq4_nl:
      return 18.0 / kBlock;
    case KvCacheType::fp8:
      return 1.0;
  }
  return 2.0;
}

int effective_head_dim(const ModelArch& model) {
  validate_model(model);
  if (model.head_dim > 0) return model.head_dim;
  return model.heads > 0 ? model.hidden / model.heads : 0;
}

double kv_cells_full(int context_tokens) {
  GPUTCO_REQUIRE(context_tokens >= 0,
                 "context_tokens must not be negative, got " << context_tokens);
  return pad_cells(context_tokens);
}

double kv_cells_sliding(const ModelArch& model, int context_tokens, int ubatch_tokens) {
  GPUTCO_REQUIRE(ubatch_tokens > 0, "ubatch_tokens must be positive, got " << ubatch_tokens);
  const double full = kv_cells_full(context_tokens);
  return pad_cells(std::min(full, static_cast<double>(model.swa_window) + ubatch_tokens));
}

namespace {

// KV bytes of one stream whose full-attention layers hold `full_cells` cells and whose
// sliding-window layers hold `swa_cells`.
double kv_bytes_of_cells(const ModelArch& model, KvCacheTypes types, double full_cells,
                         double swa_cells) {
  validate_model(model);
  const double k = kv_cache_element_bytes(types.k);
  const double v = kv_cache_element_bytes(types.v);
  double per_layer_cell = 0;
  if (model.is_mla()) {
    per_layer_cell = (model.mla_kv_lora_rank + model.mla_rope_dim) * k;
  } else {
    const int head_dim = effective_head_dim(model);
    const int head_dim_v = model.head_dim_v > 0 ? model.head_dim_v : head_dim;
    per_layer_cell = model.kv_heads * (head_dim * k + head_dim_v * v);
  }
  const double full_layers = model.layers - model.layers_without_kv - model.swa_layers;
  return per_layer_cell * (full_layers * full_cells + model.swa_layers * swa_cells);
}

}  // namespace

double kv_cache_bytes(const ModelArch& model, KvCacheTypes types, int context_tokens,
                      int ubatch_tokens) {
  const double full_cells = kv_cells_full(context_tokens);
  validate_model(model);
  const double swa_cells =
      model.swa_layers > 0 ? kv_cells_sliding(model, context_tokens, ubatch_tokens) : 0.0;
  return kv_bytes_of_cells(model, types, full_cells, swa_cells);
}

double kv_cache_read_bytes(const ModelArch& model, KvCacheTypes types, int context_tokens) {
  GPUTCO_REQUIRE(context_tokens >= 0,
                 "context_tokens must not be negative, got " << context_tokens);
  const double context = context_tokens;
  return kv_bytes_of_cells(model, types, context,
                           std::min(context, static_cast<double>(model.swa_window)));
}

double recurrent_state_bytes(const ModelArch& model) {
  validate_model(model);
  constexpr double kF32Bytes = 4.0;
  return model.recurrent_layers * model.recurrent_state_elements * kF32Bytes;
}

}  // namespace gputco
