#include "scenarios/model_shape.hpp"

#include <algorithm>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

bool attends(LayerMixer m) {
  return m == LayerMixer::attention || m == LayerMixer::sliding_attention ||
         m == LayerMixer::attention_and_mamba;
}

bool recurrent(LayerMixer m) {
  return m == LayerMixer::linear_attention || m == LayerMixer::mamba ||
         m == LayerMixer::attention_and_mamba;
}

// Every layer's mixer: the stated ones, or full attention with arch.swa_layers sliding ones
// (which layers slide does not matter to the counts).
std::vector<LayerMixer> mixers_of(const ModelShape& s) {
  if (!s.mixers.empty()) return s.mixers;
  std::vector<LayerMixer> out(static_cast<std::size_t>(s.arch.layers), LayerMixer::attention);
  for (int i = 0; i < s.arch.swa_layers && i < s.arch.layers; ++i) {
    out[static_cast<std::size_t>(i)] = LayerMixer::sliding_attention;
  }
  return out;
}

bool is_moe_layer(const ModelShape& s, int layer) {
  if (s.arch.experts <= 0) return false;
  if (!s.moe_layers.empty()) return s.moe_layers[static_cast<std::size_t>(layer)];
  return layer >= s.dense_layers;
}

double attention_params(const ModelShape& s) {
  const ModelArch& a = s.arch;
  const double hidden = a.hidden;
  const double heads = a.heads;
  if (a.is_mla()) {
    const double qk = s.qk_nope_head_dim + a.mla_rope_dim;
    const double q = s.q_lora_rank > 0
                         ? hidden * s.q_lora_rank + s.q_lora_rank + s.q_lora_rank * heads * qk
                         : hidden * heads * qk;
    const double kv_a = hidden * (a.mla_kv_lora_rank + a.mla_rope_dim) + a.mla_kv_lora_rank;
    const double kv_b =
        static_cast<double>(a.mla_kv_lora_rank) * heads * (s.qk_nope_head_dim + s.v_head_dim);
    const double o = heads * s.v_head_dim * hidden;
    return q + kv_a + kv_b + o;
  }
  const double hd = a.head_dim > 0 ? a.head_dim : hidden / heads;
  const double hd_v = a.head_dim_v > 0 ? a.head_dim_v : hd;
  const double q_width = heads * hd;
  const double kv = a.kv_heads;
  double p = hidden * q_width * (s.gated_attention ? 2 : 1) + hidden * kv * hd +
             hidden * kv * hd_v + heads * hd_v * hidden;
  if (s.attention_bias) p += q_width * (s.gated_attention ? 2 : 1) + kv * hd + kv * hd_v;
  if (s.output_bias) p += hidden;
  if (s.qk_norm) p += 2 * hd;
  if (s.attention_sinks) p += heads;
  return p;
}

double linear_attention_params(const ModelShape& s) {
  const double hidden = s.arch.hidden;
  const double key_dim = static_cast<double>(s.linear_key_heads) * s.linear_key_head_dim;
  const double value_dim = static_cast<double>(s.linear_value_heads) * s.linear_value_head_dim;
  const double in_qkvz = hidden * (2 * key_dim + 2 * value_dim);
  const double in_ba = hidden * 2 * s.linear_value_heads;
  const double conv = (2 * key_dim + value_dim) * s.linear_conv_kernel;
  const double dt_a = 2.0 * s.linear_value_heads;
  const double norm = s.linear_value_head_dim;
  const double out = value_dim * hidden;
  return in_qkvz + in_ba + conv + dt_a + norm + out;
}

double mamba_params(const ModelShape& s) {
  const double hidden = s.arch.hidden;
  const double inner = s.ssm_inner;
  const double state = s.ssm_state;
  if (s.ssm_version == 1) {
    // in_proj (x and z), conv1d with bias, x_proj (dt, B, C), dt_proj with bias, A_log, D,
    // out_proj (transformers MambaMixer / JambaMambaMixer, no biases on the projections).
    const double dt_rank = s.ssm_dt_rank;
    return hidden * 2 * inner + inner * s.ssm_conv + inner + inner * (dt_rank + 2 * state) +
           dt_rank * inner + inner + inner * state + inner + inner * hidden;
  }
  // Mamba-2: in_proj (z, x, B, C, dt), conv1d over x, B, C with bias, dt_bias, A_log, D,
  // gated norm, out_proj (transformers Mamba2Mixer).
  const double groups_state = 2.0 * s.ssm_groups * state;
  const double heads = s.ssm_heads;
  const double conv_dim = inner + groups_state;
  return hidden * (2 * inner + groups_state + heads) + conv_dim * s.ssm_conv + conv_dim +
         3 * heads + inner + inner * hidden;
}

double ffn_params(const ModelShape& s, int layer, double& routed) {
  const double hidden = s.arch.hidden;
  const double matrices = s.gated_ffn ? 3 : 2;
  if (!is_moe_layer(s, layer)) return matrices * hidden * s.intermediate_size;
  const double experts = s.arch.experts;
  const double width = s.moe_intermediate_size > 0 ? s.moe_intermediate_size : s.intermediate_size;
  double router = hidden * experts;
  double one_expert = matrices * hidden * width;
  if (s.expert_bias || s.router_bias) router += experts;
  if (s.expert_bias) {
    one_expert += (matrices - 1) * width + hidden;
  }
  routed += experts * one_expert;
  double shared = s.shared_experts * matrices * hidden * width;
  if (s.shared_expert_intermediate_size > 0) {
    shared += matrices * hidden * s.shared_expert_intermediate_size + hidden;  // with its gate
  }
  return router + experts * one_expert + shared;
}

}  // namespace

std::string shape_problem(const ModelShape& s) {
  const ModelArch& a = s.arch;
  if (a.layers <= 0) return "num_hidden_layers";
  if (a.hidden <= 0) return "hidden_size";
  if (a.vocab_size <= 0) return "vocab_size";
  const auto mixers = mixers_of(s);
  const bool any_attention = std::any_of(mixers.begin(), mixers.end(), attends);
  if (any_attention && a.heads <= 0) return "num_attention_heads";
  if (any_attention && !a.is_mla() && a.kv_heads <= 0) return "num_key_value_heads";
  if (a.is_mla() && (s.qk_nope_head_dim <= 0 || s.v_head_dim <= 0)) {
    return s.qk_nope_head_dim <= 0 ? "qk_nope_head_dim" : "v_head_dim";
  }
  if (a.swa_layers > 0 && a.swa_window <= 0) return "sliding_window";
  for (const LayerMixer m : mixers) {
    if (m == LayerMixer::linear_attention &&
        (s.linear_key_heads <= 0 || s.linear_value_heads <= 0 || s.linear_key_head_dim <= 0 ||
         s.linear_value_head_dim <= 0 || s.linear_conv_kernel <= 0)) {
      return "linear_num_key_heads, linear_num_value_heads, linear_key_head_dim, "
             "linear_value_head_dim and linear_conv_kernel_dim";
    }
    if ((m == LayerMixer::mamba || m == LayerMixer::attention_and_mamba) &&
        (s.ssm_inner <= 0 || s.ssm_state <= 0 || s.ssm_conv <= 0 ||
         (s.ssm_version == 2 && s.ssm_heads <= 0) || (s.ssm_version == 1 && s.ssm_dt_rank <= 0))) {
      return "the state-space widths (d_inner, d_state, d_conv and the heads or dt_rank)";
    }
  }
  const bool params_stated = a.params_b > 0;
  if (!params_stated) {
    if (a.experts > 0 && a.experts_active <= 0) return "num_experts_per_tok";
    bool dense = false;
    bool moe = false;
    for (int l = 0; l < a.layers; ++l) {
      if (s.mixer_layers_have_ffn || mixers[static_cast<std::size_t>(l)] == LayerMixer::mlp_only) {
        (is_moe_layer(s, l) ? moe : dense) = true;
      }
    }
    if (dense && s.intermediate_size <= 0) return "intermediate_size";
    if (moe && s.moe_intermediate_size <= 0 && s.intermediate_size <= 0) {
      return "moe_intermediate_size";
    }
  }
  return "";
}

ParamCount count_params(const ModelShape& s) {
  const std::string missing = shape_problem(s);
  GPUTCO_REQUIRE(missing.empty(), "model " << s.arch.id << ": " << missing << " is missing");
  const ModelArch& a = s.arch;
  const auto mixers = mixers_of(s);
  GPUTCO_REQUIRE(
      mixers.size() == static_cast<std::size_t>(a.layers),
      "model " << a.id << ": " << mixers.size() << " layer types for " << a.layers << " layers");
  ParamCount c;
  for (int l = 0; l < a.layers; ++l) {
    const LayerMixer m = mixers[static_cast<std::size_t>(l)];
    double layer = s.norms_per_layer * static_cast<double>(a.hidden);
    if (attends(m)) layer += attention_params(s);
    if (m == LayerMixer::linear_attention) layer += linear_attention_params(s);
    if (m == LayerMixer::mamba || m == LayerMixer::attention_and_mamba) layer += mamba_params(s);
    if (m == LayerMixer::mlp_only || s.mixer_layers_have_ffn) layer += ffn_params(s, l, c.experts);
    c.total += layer;
  }
  c.embedding = static_cast<double>(a.vocab_size) * a.hidden;
  c.output = a.tied_embeddings ? 0 : c.embedding;
  c.total += c.embedding + c.output + a.hidden;  // and the final norm
  const double unused_share =
      a.experts > 0 ? 1.0 - static_cast<double>(a.experts_active) / a.experts : 0.0;
  c.active = c.total - (a.tied_embeddings ? 0 : c.embedding) - c.experts * unused_share;
  return c;
}

ModelArch finish_shape(const ModelShape& s) {
  ModelArch a = s.arch;
  if (!s.mixers.empty()) {
    GPUTCO_REQUIRE(s.mixers.size() == static_cast<std::size_t>(a.layers),
                   "model " << a.id << ": " << s.mixers.size() << " layer types for " << a.layers
                            << " layers");
    a.swa_layers = static_cast<int>(
        std::count(s.mixers.begin(), s.mixers.end(), LayerMixer::sliding_attention));
    a.layers_without_kv = static_cast<int>(
        std::count_if(s.mixers.begin(), s.mixers.end(), [](LayerMixer m) { return !attends(m); }));
    a.recurrent_layers =
        static_cast<int>(std::count_if(s.mixers.begin(), s.mixers.end(), recurrent));
  }
  if (a.recurrent_layers > 0) {
    // llama.cpp's n_embd_r + n_embd_s (src/llama-hparams.cpp), with the Gated DeltaNet
    // mapped as its converter maps it: d_inner = value heads x value head dim, d_state = key
    // head dim, groups = key heads, d_conv = the conv kernel.
    const bool delta_net =
        std::find(s.mixers.begin(), s.mixers.end(), LayerMixer::linear_attention) != s.mixers.end();
    const double inner = delta_net
                             ? static_cast<double>(s.linear_value_heads) * s.linear_value_head_dim
                             : s.ssm_inner;
    const double state = delta_net ? s.linear_key_head_dim : s.ssm_state;
    const double groups = delta_net ? s.linear_key_heads : (s.ssm_version == 2 ? s.ssm_groups : 0);
    const double conv = delta_net ? s.linear_conv_kernel : s.ssm_conv;
    a.recurrent_state_elements = (conv - 1) * (inner + 2 * groups * state) + state * inner;
  }
  if (a.params_b <= 0) {
    const ParamCount c = count_params(s);
    a.params_b = c.total / 1e9;
    a.active_params_b = c.active / 1e9;
  } else if (a.active_params_b <= 0) {
    a.active_params_b = a.params_b;
  }
  return a;
}

}  // namespace gputco
