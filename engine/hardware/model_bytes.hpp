// Bytes a model occupies and reads: weights by tensor group, and the KV cache.
//
// Sources:
// - Tensor-group precisions follow llama.cpp's quantizer (src/llama-quant.cpp,
//   llama_tensor_get_type): the output matrix goes to Q6_K for the K-quants and Q4_0, the token
//   embedding stays at the base type, some attn_v/ffn_down tensors get more bits in *_M mixes.
//   The body bits of the mixes are the repeating-layer averages that reproduce the published
//   file sizes of tests/data/reference/gguf_sizes.csv (8B and 70B alike, no per-model term).
// - KV cache as llama.cpp allocates it: K and V of kv_heads x head_dim per layer per cell
//   (GQA); MLA caches one compressed latent of kv_lora_rank + rope dims per layer per cell
//   (DeepSeek V2/V3 paper; llama.cpp PR #19067, no V); sliding-window layers keep the window
//   plus one micro-batch; cells padded to 256. Recurrent layers keep an f32 state per stream.
#pragma once

#include <optional>
#include <string>

#include "engine/hardware/hardware.hpp"

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
/// ("Q4_K_M", "MXFP4", "F16", ...; any case), or nullopt for a format without a recipe (then every
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
/// layers > 0, hidden > 0, heads > 0 (unless no layer attends), kv_heads > 0 unless MLA or no
/// layer attends, 0 < experts_active <= experts for MoE, 0 <= swa_layers, layers_without_kv
/// with their sum <= layers, a window when there are sliding layers, 0 <= recurrent_layers <=
/// layers with a positive state when there are any, no negative head_dim_v,
/// max_context_scaled, file weight bytes or vision-tower figures. Throws EngineError naming the
/// model and the field.
void validate_model(const ModelArch& model);

/// Checks quant.bits_per_weight is in (0, 32]. Throws EngineError.
void validate_quant(const Quant& quant);

/// Size of all weights in bytes (what the model file holds and the devices store).
/// A model with FileWeights asked in the file's own format (quant ids compared ignoring case):
/// the file's bytes, exact. Known recipe and known vocabulary: each tensor group at its own
/// bits. Otherwise every
/// weight at Quant::bits_per_weight (the catalog's whole-file figure), except that a recipe
/// applied to experts only (MXFP4) still separates experts from the rest.
/// Throws EngineError on an invalid model or quant.
double weights_bytes(const ModelArch& model, const Quant& quant);

/// Bytes of the token-embedding matrix (vocab x hidden) as stored: the file's token_embd bytes
/// when the model has FileWeights in `quant`'s format, else its parameters at the recipe's
/// embedding bits (the whole-file bits without a recipe or vocabulary); 0 when the vocabulary
/// is unknown. llama.cpp keeps this matrix in host memory (src/llama-model.cpp load_tensors:
/// the input layer always on the CPU), and copies it to the output layer's device when the
/// output is tied to it. Throws EngineError on an invalid model or quant.
double embedding_bytes(const ModelArch& model, const Quant& quant);

/// Bytes of the output (unembedding) matrix as stored, like embedding_bytes: 0 when it is tied
/// to the embedding (then the embedding is the output) or the vocabulary is unknown. Throws
/// EngineError on an invalid model or quant.
double output_bytes(const ModelArch& model, const Quant& quant);

/// Weight bytes read in one decode step that advances `streams` sequences by one token.
/// Read once per step for the whole batch: every non-expert tensor and the output matrix
/// (from the file's bytes per group when the model has FileWeights in the asked format).
/// Not read: the token embedding (one row per token is looked up). Routed experts: the
/// expected share touched by `streams` tokens each picking k of E uniformly,
/// 1 - (1 - k/E)^streams (k/E for one stream). Throws EngineError on bad inputs.
double weights_read_per_step_bytes(const ModelArch& model, const Quant& quant, int streams = 1);

/// Bytes of one cached element (ggml block layouts): f32 4, f16 and bf16 2; the 32-value
/// blocks q8_0 34/32 (8.5 bits), q5_1 24/32, q5_0 22/32, q4_1 20/32, q4_0 and iq4_nl 18/32
/// (ggml/src/ggml-common.h block_q8_0 ... block_iq4_nl); fp8 1 (E4M3 with per-tensor scales,
/// the serving engines' FP8 KV cache).
double kv_cache_element_bytes(KvCacheType type);

/// The head dimension: ModelArch::head_dim from the config, or hidden / heads when the config
/// gives none (0). Never assumes hidden / heads when head_dim is set (Qwen3, Gemma, gpt-oss
/// differ). Throws EngineError on an invalid model.
int effective_head_dim(const ModelArch& model);

/// KV cells llama.cpp allocates per stream (sequence) for `context_tokens` of context: the
/// context padded to a multiple of 256 (src/llama-context.cpp pads n_ctx and n_ctx_seq with
/// GGML_PAD(.., 256)). Throws EngineError when context_tokens < 0.
double kv_cells_full(int context_tokens);

/// KV cells llama.cpp allocates per stream for a sliding-window layer: the window plus one
/// micro-batch, at most the full cache, padded to 256 (src/llama-kv-cache-iswa.cpp:
/// GGML_PAD(min(size_base, n_swa + n_ubatch), 256), with swa_full off, the default since
/// PR #13833; the 256 padding since issue #17037). Throws EngineError on a negative context
/// or a non-positive ubatch.
double kv_cells_sliding(const ModelArch& model, int context_tokens, int ubatch_tokens = 512);

/// KV-cache bytes of ONE stream holding `context_tokens` tokens, as llama.cpp allocates them
/// (llama.cpp master since 2026-01-24, when PR #19067 made the MLA cache V-less):
/// GQA layer: kv_heads x (head_dim x K bytes + head_dim_v x V bytes) per cell;
/// MLA layer: kv_lora_rank + rope_dim elements of K only (the latent; no V, PR #19067);
/// full-attention layers hold kv_cells_full cells, sliding-window layers kv_cells_sliding;
/// layers without KV (ModelArch::layers_without_kv) hold none.
/// Throws EngineError on an invalid model, context_tokens < 0 or ubatch_tokens < 1.
double kv_cache_bytes(const ModelArch& model, KvCacheTypes types, int context_tokens,
                      int ubatch_tokens = 512);

/// KV-cache bytes one decode step of ONE stream reads at `context_tokens` of context: the
/// tokens held, not the cells allocated (llama.cpp's attention reads the used cells, n_kv):
/// full-attention layers `context_tokens`, sliding-window layers min(context, swa_window);
/// per token as kv_cache_bytes. Throws EngineError on an invalid model or context_tokens < 0.
double kv_cache_read_bytes(const ModelArch& model, KvCacheTypes types, int context_tokens);

/// Recurrent-state bytes of ONE stream: recurrent_layers x recurrent_state_elements x 4
/// (llama.cpp keeps the conv and SSM states in f32, one cell per sequence, whatever the
/// context: src/llama-model.cpp create_memory, recurrent_type_k/v = GGML_TYPE_F32,
/// src/llama-memory-recurrent.cpp). 0 for a model without recurrent layers. Throws
/// EngineError on an invalid model.
double recurrent_state_bytes(const ModelArch& model);

}  // namespace gputco
