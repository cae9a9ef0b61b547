// Bytes a model occupies and reads: weights by tensor group, and the KV cache.
//
// Sources:
// - Tensor-group precisions follow llama.cpp's quantizer (src/llama-quant.cpp,
//   llama_tensor_get_type): the output matrix goes to Q6_K for the K-quants and Q4_0, the token
//   embedding stays at the base type, some attn_v/ffn_down tensors get more bits in *_M mixes.
//   The body bits of the mixes are the repeating-layer averages that reproduce the published
//   file sizes of tests/data/reference/gguf_sizes.csv (8B and 70B alike, no per-model term).
// - KV cache: K and V of kv_heads x head_dim per layer per token (GQA); MLA caches one
//   compressed latent of kv_lora_rank + rope dims per layer per token (llama.cpp's MLA cache,
//   DeepSeek V2/V3 paper); sliding-window layers keep at most `swa_window` tokens per stream.
#pragma once

#include <optional>
#include <string>

#include "engine/hardware.hpp"

namespace gputco {

/// Bits per weight of each tensor group under one quantization recipe.
struct TensorBits {
  double body_bits = 0;       ///< attention and dense FFN tensors of the repeating layers
  double embedding_bits = 0;  ///< token embedding matrix (vocab x hidden)
  double output_bits = 0;     ///< output (unembedding) matrix (hidden x vocab)
  double expert_bits = 0;     ///< routed-expert FFN tensors of MoE layers
  /// True when the format is applied to expert tensors only (MXFP4 in gpt-oss: attention,
  /// embeddings and router stay at 8 bits); a dense model then stores its body at expert_bits.
  bool experts_only = false;
};

/// The tensor-group recipe of a weight format known by its llama.cpp / checkpoint name
/// ("Q4_K_M", "MXFP4", "F16", ...), or nullopt for a format without a recipe (then every
/// tensor is counted at Quant::bits_per_weight). Never throws.
std::optional<TensorBits> tensor_recipe(const std::string& quant_id);

/// Parameters by tensor group, billions. They add up to ModelArch::params_b.
struct ParamGroups {
  double embedding_b = 0;  ///< vocab x hidden; 0 when the vocabulary is unknown
  double output_b = 0;     ///< vocab x hidden unless tied to the embedding (then 0)
  double experts_b = 0;    ///< all routed experts, all layers (0 for dense models)
  double other_b = 0;      ///< everything else: attention, dense/shared FFN, norms, router
};

/// Splits a model's parameters into tensor groups.
/// Routed experts E with k active: total = other + emb + out + X and
/// active = other + out + X k / E (active counts exclude the token-embedding lookup, as
/// gpt-oss's model card does; the difference is < 0.2 % of X for Qwen3 and DeepSeek), so
/// X = (total - active - emb) / (1 - k / E). This reproduces the configs' expert counts:
/// gpt-oss 120B 114.7B (36 x 128 x 3 x 2880^2 = 114.65B), DeepSeek V3 653.5B (653.9B).
/// Throws EngineError on an invalid architecture (see validate_model).
ParamGroups param_groups(const ModelArch& model);

/// Checks the fields the estimators need: params_b > 0, 0 < active_params_b <= params_b,
/// layers > 0, hidden > 0, heads > 0, kv_heads > 0 unless MLA, 0 < experts_active <= experts
/// for MoE, 0 <= swa_layers <= layers, a window when there are sliding layers.
/// Throws EngineError naming the model and the field.
void validate_model(const ModelArch& model);

/// Checks quant.bits_per_weight is in (0, 32]. Throws EngineError.
void validate_quant(const Quant& quant);

/// Size of all weights in bytes (what the model file holds and the devices store).
/// Known recipe and known vocabulary: each tensor group at its own bits. Otherwise every
/// weight at Quant::bits_per_weight (the catalog's whole-file figure), except that a recipe
/// applied to experts only (MXFP4) still separates experts from the rest.
/// Throws EngineError on an invalid model or quant.
double weights_bytes(const ModelArch& model, const Quant& quant);

/// Weight bytes read in one decode step that advances `streams` sequences by one token.
/// Read once per step for the whole batch: every non-expert tensor and the output matrix.
/// Not read: the token embedding (one row per token is looked up). Routed experts: the
/// expected share touched by `streams` tokens each picking k of E uniformly,
/// 1 - (1 - k/E)^streams (k/E for one stream). Throws EngineError on bad inputs.
double weights_read_per_step_bytes(const ModelArch& model, const Quant& quant, int streams = 1);

/// Bytes of one cached element: f16 2, q8_0 34/32 (8.5 bits), q4_0 18/32 (4.5 bits)
/// (ggml block layouts: 32 values + one f16 scale).
double kv_cache_element_bytes(KvCacheType type);

/// The head dimension: ModelArch::head_dim from the config, or hidden / heads when the config
/// gives none (0). Never assumes hidden / heads when head_dim is set (Qwen3, Gemma, gpt-oss
/// differ). Throws EngineError on an invalid model.
int effective_head_dim(const ModelArch& model);

/// KV-cache bytes of ONE stream holding `context_tokens` tokens.
/// GQA: 2 (K and V) x kv_heads x head_dim elements per layer per token.
/// MLA: kv_lora_rank + rope_dim elements per layer per token (one shared latent "head").
/// Sliding-window layers hold min(context, swa_window) tokens.
/// Throws EngineError on an invalid model or context_tokens < 0.
double kv_cache_bytes(const ModelArch& model, KvCacheType type, int context_tokens);

}  // namespace gputco
