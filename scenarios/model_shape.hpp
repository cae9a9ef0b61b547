// A model's shape as its files state it (a Hugging Face config.json, a scenario's [model]
// section), and the parameter count computed from it.
#pragma once

#include <string>
#include <vector>

#include "engine/hardware/hardware.hpp"

namespace gputco {

/// What kind of mixer a layer runs.
enum class LayerMixer {
  attention,            ///< full (global) attention: a KV cache of the whole context
  sliding_attention,    ///< attention over a window (or a chunk, Llama 4): a window's cache
  linear_attention,     ///< Gated DeltaNet (Qwen3-Next, Qwen3.5): a recurrent state, no KV
  mamba,                ///< a state-space (Mamba 1/2) layer: a recurrent state, no KV
  attention_and_mamba,  ///< both side by side (Falcon-H1): a KV cache and a state
  mlp_only,             ///< no mixer (Nemotron-H "-" layers): neither
};

/// The shape of a model: the engine's ModelArch (attention, experts, windows, MLA, context,
/// vocabulary) and what counting its parameters needs. Fields left 0 are not stated.
struct ModelShape {
  ModelArch arch;  ///< params_b and active_params_b 0: computed by count_params
  /// Per layer, what it runs; empty = every layer full attention except arch.swa_layers
  /// sliding ones. When given, arch's swa_layers, layers_without_kv and recurrent_layers
  /// are derived from it (finish_shape).
  std::vector<LayerMixer> mixers;
  // Feed-forward.
  int intermediate_size = 0;      ///< dense FFN width
  int moe_intermediate_size = 0;  ///< one routed expert's width (0: intermediate_size)
  int shared_experts = 0;         ///< DeepSeek n_shared_experts, each moe_intermediate_size wide
  /// Qwen-MoE's one shared expert of this width, with a sigmoid gate (hidden weights).
  int shared_expert_intermediate_size = 0;
  int dense_layers = 0;   ///< the first layers of an MoE model with a dense FFN
  bool gated_ffn = true;  ///< SwiGLU / GeGLU: gate, up and down; false: up and down only
  /// True: every layer has an FFN after its mixer (transformers, Jamba, Falcon-H1). False:
  /// only the mlp_only layers do (Nemotron-H), or none (pure Mamba).
  bool mixer_layers_have_ffn = true;
  bool expert_bias = false;  ///< biases on experts and router (gpt-oss)
  /// A bias on the router's scores (DeepSeek V3's e_score_correction_bias, Kimi K2, GLM-4.5).
  bool router_bias = false;
  // Attention.
  bool attention_bias = false;   ///< q, k, v biases
  bool output_bias = false;      ///< o_proj bias (gpt-oss)
  bool qk_norm = false;          ///< per-head q and k norms (Qwen3, Gemma 3)
  bool attention_sinks = false;  ///< one learned sink per head (gpt-oss)
  bool gated_attention = false;  ///< q_proj doubled for an output gate (Qwen3-Next)
  int norms_per_layer = 2;       ///< RMSNorms of hidden size per layer (Gemma 2/3: 4)
  // Multi-head latent attention (DeepSeek V2/V3, Kimi K2): besides arch.mla_*.
  int q_lora_rank = 0;  ///< 0: queries projected directly
  int qk_nope_head_dim = 0;
  int v_head_dim = 0;
  // Gated DeltaNet linear attention (Qwen3-Next).
  int linear_key_heads = 0;
  int linear_value_heads = 0;
  int linear_key_head_dim = 0;
  int linear_value_head_dim = 0;
  int linear_conv_kernel = 0;
  // State-space (Mamba) layers.
  int ssm_version = 0;  ///< 1 (Mamba, Jamba) or 2 (Mamba-2: Falcon-H1, Nemotron-H, Granite 4)
  int ssm_inner = 0;    ///< d_inner (expand x hidden)
  int ssm_state = 0;    ///< d_state
  int ssm_conv = 0;     ///< d_conv, the convolution kernel
  int ssm_groups = 0;   ///< Mamba-2 n_groups (Mamba 1: 0)
  int ssm_heads = 0;    ///< Mamba-2 heads (d_inner / head dim)
  int ssm_dt_rank = 0;  ///< Mamba 1 dt_rank
  /// Layers with routed experts; empty = every layer from dense_layers on (when experts > 0).
  std::vector<bool> moe_layers;
};

/// Parameters of a shape, counted tensor by tensor.
struct ParamCount {
  double total = 0;      ///< every weight, norm and bias
  double embedding = 0;  ///< vocab x hidden
  double output = 0;     ///< vocab x hidden unless tied
  double experts = 0;    ///< routed experts with their biases, all layers
  /// Read per token: total less the embedding lookup (unless tied) less the routed experts a
  /// token does not use, experts x (1 - active / experts): the engine's convention
  /// (engine/hardware/model_bytes.hpp param_groups), so that it recovers `experts` exactly.
  double active = 0;
};

/// Counts the parameters of `shape` from its architecture: per layer the mixer's projections
/// (GQA q/k/v/o with optional biases, q/k norms and sinks; MLA's q_a/q_b or q, kv_a, kv_b, o
/// with their norms; Gated DeltaNet's in_proj_qkvz, in_proj_ba, conv, A, dt, norm, out_proj;
/// Mamba 1/2's in_proj, conv, x_proj/dt_proj or dt/A/D, norm, out_proj), the FFN (dense:
/// 3 or 2 matrices; MoE: router, routed experts, shared experts) and the norms; then the
/// embedding, the output matrix unless tied, the final norm. The names and shapes are those
/// of the Hugging Face transformers implementations. Checked against published totals:
/// Llama 3.1 8B 8,030,261,248; Mixtral 8x7B 46,702,792,704; Qwen3 30B-A3B 30,532,122,624;
/// gpt-oss 120B 116,829,156,672 (5.13B active); DeepSeek V3 671,026,419,200 (the 671B of
/// its report, without the MTP module). Throws EngineError when a needed width is missing
/// (the caller names the field first: see shape_problem).
ParamCount count_params(const ModelShape& shape);

/// The first field `shape` lacks to count its parameters or size its cache, as the config.json
/// key a user would add ("intermediate_size"), or "" when none is missing.
std::string shape_problem(const ModelShape& shape);

/// Completes `shape.arch` from the shape: swa_layers, layers_without_kv and recurrent_layers
/// from the per-layer mixers; recurrent_state_elements as llama.cpp sizes the state
/// (src/llama-hparams.cpp n_embd_r + n_embd_s: Mamba (d_conv - 1) x (d_inner + 2 x groups x
/// d_state) + d_state x d_inner; Gated DeltaNet the same with d_inner = value heads x value
/// head dim, d_state = key head dim, groups = key heads); params_b and active_params_b from
/// count_params when not stated. Returns the completed architecture; the shape must have
/// passed shape_problem. Throws EngineError on an inconsistent shape.
ModelArch finish_shape(const ModelShape& shape);

}  // namespace gputco
