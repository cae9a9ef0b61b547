// A model from its Hugging Face config.json, read locally (nlohmann-json); never fetched.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "scenarios/model_shape.hpp"

namespace gputco {

/// What a config.json says: the shape, the checkpoint's own weight format, and what was
/// assumed where the file was silent.
struct HfConfig {
  ModelShape shape;
  /// The weight format of the checkpoint the config describes: "BF16", "F16", "F32" from
  /// torch_dtype (or dtype); "FP8", "MXFP4-BF16" (gpt-oss: experts MXFP4, the rest BF16),
  /// "AWQ", "GPTQ-INT4", "GPTQ-INT8", "INT4", "INT8", "NF4" from quantization_config.
  std::string native_format;
  std::vector<std::string> notes;  ///< assumptions, one sentence each
};

/// Reads the config.json at `path` (a folder: its config.json). A multimodal config's
/// text_config (or llm_config) describes the language model and wins over the top level.
/// Read: layers (num_hidden_layers | n_layer | num_layers), hidden size, attention and KV heads
/// (GQA; multi_query = 1), head_dim (when given, never hidden / heads), vocab_size, the FFN
/// widths (intermediate_size, moe_intermediate_size, shared experts), the experts (num_experts
/// | n_routed_experts | num_local_experts, num_experts_per_tok, first_k_dense_replace,
/// decoder_sparse_step, mlp_only_layers, interleave_moe_layer_step), MLA ranks (kv_lora_rank,
/// q_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim), the layer pattern (layer_types;
/// Gemma 2/3 and Cohere 2 sliding_window with sliding_window_pattern; Llama 4 chunked
/// attention; Qwen3-Next full_attention_interval; Jamba attn_layer_period/offset; Falcon-H1;
/// Mamba 1/2; Nemotron-H hybrid_override_pattern), the state-space widths, the maximum
/// context (max_position_embeddings) and rope_scaling (factor x
/// original_max_position_embeddings beyond the maximum: max_context_scaled), tie_word_embeddings
/// (absent: true for Gemma and Mamba, as their transformers configs default, else false),
/// torch_dtype and quantization_config. A sliding_window that llama.cpp does not apply
/// (Mistral, Qwen2) is ignored, with a note. The id is the config's folder name.
/// Throws ModelFileError naming the file and the field: not JSON, a needed field missing
/// ("num_hidden_layers: missing"), a field of the wrong type or out of range.
HfConfig read_hf_config(const std::string& path);

/// The same from a config's JSON text (a scenario's `[model]` section), `where` naming it in
/// errors and standing for the path (the id is its stem). `keys_read`, when given, receives
/// every key the reader looked at, so that a caller can refuse keys it never reads. Throws
/// ModelFileError(where, ...) as read_hf_config does.
HfConfig read_hf_config_text(const std::string& json_text, const std::string& where,
                             std::set<std::string>* keys_read = nullptr);

}  // namespace gputco
