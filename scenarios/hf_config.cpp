#include "scenarios/hf_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "pricing/input_file.hpp"
#include "scenarios/json_nesting.hpp"
#include "scenarios/model_file_error.hpp"
#include "scenarios/scenario_text.hpp"

namespace gputco {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The widest dimension read (a hidden size, an FFN or state width, a vocabulary): 10^8, a
// hundred times the widest published (a 256K vocabulary, a 73,728 FFN); it keeps every
// count, and products of two in 64 bits, far inside the 32 bits the shape holds.
constexpr long long kMaxWidth = 100'000'000;

// Reads the fields of one config object, naming the file and key in every error.
class Fields {
 public:
  // `asked`, when given, collects every key looked at (read_hf_config_text's keys_read).
  Fields(std::string path, json object, std::set<std::string>* asked = nullptr)
      : path_(std::move(path)), j_(std::move(object)), asked_(asked) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw ModelFileError(path_, key + ": " + problem);
  }

  const json* find(const std::string& key) const {
    if (asked_ != nullptr) asked_->insert(key);
    const auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  // The first of `keys` present; its name in `which`.
  const json* first(std::initializer_list<const char*> keys, std::string* which = nullptr) const {
    for (const char* key : keys) {
      if (const json* v = find(key)) {
        if (which) *which = key;
        return v;
      }
    }
    return nullptr;
  }

  /// The name of `keys` the file uses (the first present), else the first of them: what a
  /// message about the value names.
  std::string name_used(std::initializer_list<const char*> keys) const {
    std::string key = *keys.begin();
    first(keys, &key);
    return key;
  }

  std::optional<long long> integer(std::initializer_list<const char*> keys) const {
    std::string key;
    const json* v = first(keys, &key);
    if (!v) return std::nullopt;
    return whole_number(*v, key);
  }

  /// `v` as a whole number: JSON integers (an unsigned one above 2^63 refused, never wrapped)
  /// and floats with no fraction below 1e15; else fails naming `key`.
  long long whole_number(const json& v, const std::string& key) const {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) {
        fail(key, "expected a whole number, got " + v.dump() + ", beyond any model's");
      }
      return static_cast<long long>(u);
    }
    if (v.is_number_integer()) return v.get<long long>();
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 1e15) {
        return static_cast<long long>(d);
      }
    }
    fail(key, "expected a whole number, got " + v.dump());
  }

  /// The layer numbers of the list `key` (mlp_only_layers, moe_layers): each a whole number
  /// in 0..layers - 1, checked in 64 bits before it indexes anything (an index of 2^32 + 1
  /// read as a 32-bit int was 1 to the check and 4294967297 to the vector: a crash).
  std::vector<std::size_t> layer_list(const char* key, int layers) const {
    const json* list = find(key);
    if (!list) return {};
    if (!list->is_array()) fail(key, "expected a list of layer numbers, got " + list->dump());
    std::vector<std::size_t> out;
    for (const json& l : *list) {
      const long long n = l.is_number() ? whole_number(l, key) : -1;
      if (n < 0 || n >= layers) {
        fail(key, "expected layer numbers 0.." + std::to_string(layers - 1) + ", got " + l.dump());
      }
      out.push_back(static_cast<std::size_t>(n));
    }
    return out;
  }

  // A whole number in [lo, hi]; nullopt when absent.
  std::optional<int> count(std::initializer_list<const char*> keys, long long lo = 0,
                           long long hi = kMaxWidth) const {
    const auto v = integer(keys);
    if (!v) return std::nullopt;
    if (*v < lo || *v > hi) {
      std::string key;
      first(keys, &key);
      fail(key, fmt::format("expected a whole number between {} and {}, got {}", lo, hi, *v));
    }
    return static_cast<int>(*v);
  }

  int required(std::initializer_list<const char*> keys, const std::string& what, long long lo = 1,
               long long hi = kMaxWidth) const {
    const auto v = count(keys, lo, hi);
    if (!v) fail(*keys.begin(), "missing (" + what + ")");
    return *v;
  }

  /// A width that is the product of two (d_inner = expand x hidden size, heads x head width),
  /// multiplied in 64 bits and held to kMaxWidth like a width read directly: a Mamba d_inner
  /// of 64 x 10^8 wrapped to 2,105,032,704 in 32 bits. `keys` names the two fields.
  int product(long long a, long long b, const std::string& keys) const {
    const long long p = a * b;  // each at most kMaxWidth: below 2^63
    if (p > kMaxWidth) {
      fail(keys,
           fmt::format("{} x {} = {} is wider than any model (at most {})", a, b, p, kMaxWidth));
    }
    return static_cast<int>(p);
  }

  std::optional<double> number(std::initializer_list<const char*> keys) const {
    std::string key;
    const json* v = first(keys, &key);
    if (!v) return std::nullopt;
    if (!v->is_number()) fail(key, "expected a number, got " + v->dump());
    return v->get<double>();
  }

  std::optional<bool> boolean(const char* key) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) fail(key, "expected true or false, got " + v->dump());
    return v->get<bool>();
  }

  std::string text(std::initializer_list<const char*> keys) const {
    std::string key;
    const json* v = first(keys, &key);
    if (!v) return "";
    if (!v->is_string()) fail(key, "expected a string, got " + v->dump());
    return v->get<std::string>();
  }

  const json& object() const { return j_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  json j_;
  std::set<std::string>* asked_ = nullptr;
};

json parse_file(const std::string& path) {
  std::string text;
  try {
    // A config.json is a few KiB; 16 MiB as for a scenario. A FIFO or a device is refused.
    text = read_input_file(path, kMaxScenarioBytes, "config.json file");
  } catch (const InputFileError& e) {
    throw ModelFileError(path, e.what());
  }
  try {
    return parse_json_bounded(text);
  } catch (const JsonTooDeep& e) {
    throw ModelFileError(path, std::string(e.what()) + " (a config.json has three or four)");
  } catch (const JsonDuplicateKey& e) {
    throw ModelFileError(path, e.what());
  } catch (const json::out_of_range& e) {
    throw ModelFileError(path, "out of range: " + json_problem(e));
  } catch (const json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 4: syntax error ...":
    // the byte says where; keep what was wrong.
    std::string what = e.what();
    if (const auto column = what.find("column"); column != std::string::npos) {
      if (const auto colon = what.find(": ", column); colon != std::string::npos) {
        what = what.substr(colon + 2);
      }
    }
    throw ModelFileError(path, fmt::format("byte {}: not JSON: {}", e.byte, what));
  }
}

// The language model's fields: text_config (or llm_config) over the top level.
json language_config(const json& top) {
  for (const char* nested : {"text_config", "llm_config", "language_config"}) {
    const auto it = top.find(nested);
    if (it == top.end() || !it->is_object()) continue;
    json merged = top;
    for (const auto& [key, value] : it->items()) merged[key] = value;
    return merged;
  }
  return top;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// llama.cpp's set_swa_pattern(n): layer il slides when il % n < n - 1 (n = 0: every layer).
std::vector<LayerMixer> swa_pattern(int layers, int pattern) {
  std::vector<LayerMixer> out(static_cast<std::size_t>(layers), LayerMixer::attention);
  for (int l = 0; l < layers; ++l) {
    if (pattern == 0 || l % pattern < pattern - 1) {
      out[static_cast<std::size_t>(l)] = LayerMixer::sliding_attention;
    }
  }
  return out;
}

std::vector<LayerMixer> layer_types(const Fields& f, int layers) {
  const json* types = f.find("layer_types");
  if (!types) return {};
  if (!types->is_array() || types->size() != static_cast<std::size_t>(layers)) {
    f.fail("layer_types", fmt::format("expected one entry per layer ({}), got {}", layers,
                                      types->dump().substr(0, 80)));
  }
  std::vector<LayerMixer> out;
  for (const json& t : *types) {
    const std::string name = t.is_string() ? t.get<std::string>() : "";
    if (name == "full_attention" || name == "attention" || name == "global_attention") {
      out.push_back(LayerMixer::attention);
    } else if (name == "sliding_attention" || name == "chunked_attention" ||
               name == "local_attention") {
      out.push_back(LayerMixer::sliding_attention);
    } else if (name == "linear_attention") {
      out.push_back(LayerMixer::linear_attention);
    } else if (name == "mamba") {
      out.push_back(LayerMixer::mamba);
    } else {
      f.fail("layer_types", "unknown layer type " + t.dump() +
                                " (known: full_attention, sliding_attention, chunked_attention, "
                                "linear_attention, mamba)");
    }
  }
  return out;
}

// The checkpoint's weight format: quantization_config, else torch_dtype / dtype.
std::string native_format(const Fields& top, const Fields& f, HfConfig& out) {
  const json* q = top.find("quantization_config");
  if (!q) q = f.find("quantization_config");
  if (q && q->is_object()) {
    const Fields qc(top.path(), *q);
    const std::string method = qc.text({"quant_method"});
    const auto bits = qc.count({"bits", "w_bit"}, 1, 16);
    if (method == "fp8") return "FP8";
    if (method == "mxfp4") return "MXFP4-BF16";
    if (method == "awq") return "AWQ";
    if (method == "gptq" && (bits.value_or(4) == 4 || bits == 8)) {
      return "GPTQ-INT" + std::to_string(bits.value_or(4));
    }
    if (method == "bitsandbytes")
      return qc.boolean("load_in_8bit").value_or(false) ? "INT8" : "NF4";
    if (method == "compressed-tensors") {
      // config_groups.<group>.weights: {num_bits, type: "float" | "int"}.
      if (const json* groups = qc.find("config_groups"); groups && groups->is_object()) {
        for (const auto& [name, group] : groups->items()) {
          const auto w = group.find("weights");
          if (w == group.end() || !w->is_object()) continue;
          const Fields wf(top.path(), *w);
          const int n = wf.count({"num_bits"}, 1, 16).value_or(0);
          const std::string type = wf.text({"type"});
          if (n == 8) return type == "float" ? "FP8" : "INT8";
          if (n == 4) return type == "float" ? "NVFP4" : "INT4";
        }
      }
    }
    out.notes.push_back("quantization_config '" + method +
                        "' is not known: weights counted at the checkpoint's dtype");
  }
  const std::string dtype = top.text({"torch_dtype", "dtype"}).empty()
                                ? f.text({"torch_dtype", "dtype"})
                                : top.text({"torch_dtype", "dtype"});
  if (dtype == "float16") return "F16";
  if (dtype == "float32") return "F32";
  if (dtype != "bfloat16" && !dtype.empty()) {
    out.notes.push_back("torch_dtype '" + dtype + "' is not known: weights counted as BF16");
  } else if (dtype.empty()) {
    out.notes.push_back("no torch_dtype: weights counted as BF16");
  }
  return "BF16";
}

void read_experts(const Fields& f, const std::string& type, ModelShape& s) {
  ModelArch& a = s.arch;
  a.experts = f.count({"num_experts", "n_routed_experts", "num_local_experts", "moe_num_experts"},
                      0, 100'000)
                  .value_or(0);
  if (a.experts == 0) return;
  a.experts_active =
      f.count({"num_experts_per_tok", "num_experts_per_token", "experts_per_token", "moe_top_k"}, 1,
              a.experts)
          .value_or(0);
  if (a.experts_active == 0) f.fail("num_experts_per_tok", "missing (experts used per token)");
  s.moe_intermediate_size =
      f.count({"moe_intermediate_size", "expert_intermediate_size"}).value_or(0);
  s.shared_experts = f.count({"n_shared_experts", "num_shared_experts"}, 0, 1000).value_or(0);
  s.shared_expert_intermediate_size = f.count({"shared_expert_intermediate_size"}).value_or(0);
  s.dense_layers = f.count({"first_k_dense_replace"}, 0, a.layers).value_or(0);
  const int layers = a.layers;
  std::vector<bool> moe(static_cast<std::size_t>(layers), true);
  bool pattern = false;
  if (const auto step = f.count({"decoder_sparse_step", "interleave_moe_layer_step"}, 1, layers);
      step && *step > 1) {
    for (int l = 0; l < layers; ++l) moe[static_cast<std::size_t>(l)] = (l + 1) % *step == 0;
    pattern = true;
  }
  if (const auto period = f.count({"expert_layer_period"}, 1, layers); period) {  // Jamba
    const int offset = f.count({"expert_layer_offset"}, 0, layers).value_or(0);
    for (int l = 0; l < layers; ++l) moe[static_cast<std::size_t>(l)] = l % *period == offset;
    pattern = true;
  }
  for (const char* key : {"mlp_only_layers", "moe_layers"}) {
    if (!f.find(key)) continue;
    const std::vector<std::size_t> list = f.layer_list(key, layers);
    const bool listed_are_moe = std::string(key) == "moe_layers";
    if (listed_are_moe) std::fill(moe.begin(), moe.end(), false);
    for (const std::size_t l : list) moe[l] = listed_are_moe;
    pattern = true;
  }
  for (int l = 0; l < s.dense_layers; ++l) moe[static_cast<std::size_t>(l)] = false;
  if (pattern || s.dense_layers > 0) s.moe_layers = moe;
  if (starts_with(type, "llama4")) {
    // transformers' Llama4TextMoe: the routed experts and one shared expert are MLPs of
    // intermediate_size; the dense layers between MoE layers (Maverick) are MLPs of
    // intermediate_size_mlp (modeling_llama4.py, Llama4TextDecoderLayer).
    s.moe_intermediate_size = s.intermediate_size;
    s.shared_experts = 1;
    s.intermediate_size = f.count({"intermediate_size_mlp"}).value_or(s.intermediate_size);
  }
  if (type == "gpt_oss") s.expert_bias = true;
  s.router_bias = type == "deepseek_v3" || type == "kimi_k2" || type == "glm4_moe";
}

void read_attention_pattern(const Fields& f, const std::string& type, ModelShape& s,
                            HfConfig& out) {
  ModelArch& a = s.arch;
  const int layers = a.layers;
  s.mixers = layer_types(f, layers);
  const auto window = f.count({"sliding_window"}, 0, 100'000'000);
  if (s.mixers.empty()) {
    if (type == "gemma2" && window) {
      s.mixers = swa_pattern(layers, 2);
    } else if ((starts_with(type, "gemma3") || type == "cohere2") && window) {
      const int fallback = type == "cohere2" ? 4 : 6;
      s.mixers = swa_pattern(layers,
                             f.count({"sliding_window_pattern"}, 0, layers + 1).value_or(fallback));
    } else if (starts_with(type, "llama4")) {
      if (const auto chunk = f.count({"attention_chunk_size"}, 1); chunk) {
        a.swa_window = *chunk;
        s.mixers = swa_pattern(layers, 4);  // llama.cpp: chunked attention on 3 of 4 layers
      }
    } else if (window && *window > 0) {
      out.notes.push_back(fmt::format(
          "sliding_window = {} ignored: llama.cpp attends the whole context for model_type '{}'",
          *window, type));
    }
  }
  if (a.swa_window == 0 && window) a.swa_window = *window;
  const bool slides =
      std::find(s.mixers.begin(), s.mixers.end(), LayerMixer::sliding_attention) != s.mixers.end();
  if (slides && a.swa_window <= 0) f.fail("sliding_window", "missing (sliding layers need it)");
  if (!slides) a.swa_window = 0;
}

void read_hybrid(const Fields& f, const std::string& type, ModelShape& s) {
  ModelArch& a = s.arch;
  const int layers = a.layers;
  const auto mixers_all = [&](LayerMixer m) {
    s.mixers.assign(static_cast<std::size_t>(layers), m);
  };
  if (type == "qwen3_next" || starts_with(type, "qwen3_5")) {
    if (s.mixers.empty()) {
      const int interval =
          f.required({"full_attention_interval"}, "every how many layers attend", 1, layers);
      s.mixers.assign(static_cast<std::size_t>(layers), LayerMixer::linear_attention);
      for (int l = interval - 1; l < layers; l += interval) {
        s.mixers[static_cast<std::size_t>(l)] = LayerMixer::attention;
      }
    }
    s.gated_attention = true;
    s.linear_key_heads = f.required({"linear_num_key_heads"}, "Gated DeltaNet key heads");
    s.linear_value_heads = f.required({"linear_num_value_heads"}, "Gated DeltaNet value heads");
    s.linear_key_head_dim = f.required({"linear_key_head_dim"}, "Gated DeltaNet key head width");
    s.linear_value_head_dim =
        f.required({"linear_value_head_dim"}, "Gated DeltaNet value head width");
    s.linear_conv_kernel = f.required({"linear_conv_kernel_dim"}, "Gated DeltaNet conv kernel");
    return;
  }
  const int hidden = a.hidden;
  if (type == "jamba") {
    const int period = f.required({"attn_layer_period"}, "every how many layers attend", 1, layers);
    const int offset = f.count({"attn_layer_offset"}, 0, layers).value_or(0);
    s.mixers.assign(static_cast<std::size_t>(layers), LayerMixer::mamba);
    for (int l = 0; l < layers; ++l) {
      if (l % period == offset) s.mixers[static_cast<std::size_t>(l)] = LayerMixer::attention;
    }
    s.ssm_version = 1;
    s.ssm_state = f.required({"mamba_d_state"}, "the state size");
    s.ssm_conv = f.required({"mamba_d_conv"}, "the convolution kernel");
    s.ssm_inner = f.product(f.count({"mamba_expand"}, 1, 64).value_or(2), hidden,
                            "mamba_expand x " + f.name_used({"hidden_size", "n_embd", "d_model"}));
    s.ssm_dt_rank = f.count({"mamba_dt_rank"}, 1).value_or((hidden + 15) / 16);
    return;
  }
  if (type == "falcon_h1") {
    mixers_all(LayerMixer::attention_and_mamba);
    s.ssm_version = 2;
    s.ssm_state = f.required({"mamba_d_state"}, "the state size");
    s.ssm_conv = f.required({"mamba_d_conv"}, "the convolution kernel");
    s.ssm_groups = f.count({"mamba_n_groups"}, 1, 1024).value_or(1);
    s.ssm_heads = f.required({"mamba_n_heads"}, "the Mamba-2 heads");
    s.ssm_inner = f.count({"mamba_d_ssm"})
                      .value_or(f.product(f.count({"mamba_expand"}, 1, 64).value_or(2), hidden,
                                          "mamba_expand x hidden_size"));
    return;
  }
  if (type == "mamba" || type == "mamba2" || type == "falcon_mamba") {
    mixers_all(LayerMixer::mamba);
    s.mixer_layers_have_ffn = false;
    s.ssm_version = type == "mamba2" ? 2 : 1;
    s.ssm_state = f.required({"state_size"}, "the state size");
    s.ssm_conv = f.required({"conv_kernel"}, "the convolution kernel");
    s.ssm_inner = f.count({"intermediate_size"})
                      .value_or(f.product(f.count({"expand"}, 1, 64).value_or(2), hidden,
                                          "expand x " + f.name_used({"hidden_size", "d_model"})));
    s.intermediate_size = 0;  // a Mamba config's intermediate_size is d_inner, not an FFN
    if (s.ssm_version == 1) {
      // transformers' MambaConfig: time_step_rank "auto" is ceil(hidden / 16).
      const json* rank = f.find("time_step_rank");
      s.ssm_dt_rank = rank && rank->is_string()
                          ? (hidden + 15) / 16
                          : f.count({"time_step_rank"}, 1).value_or((hidden + 15) / 16);
    } else {
      s.ssm_groups = f.count({"n_groups"}, 1, 1024).value_or(1);
      s.ssm_heads = f.required({"num_heads"}, "the Mamba-2 heads");
    }
    return;
  }
  if (type == "nemotron_h") {
    const std::string pattern = f.text({"hybrid_override_pattern"});
    if (pattern.size() != static_cast<std::size_t>(layers)) {
      f.fail("hybrid_override_pattern",
             fmt::format("expected one character per layer ({}), got '{}'", layers, pattern));
    }
    for (const char c : pattern) {
      s.mixers.push_back(c == '*'   ? LayerMixer::attention
                         : c == 'M' ? LayerMixer::mamba
                                    : LayerMixer::mlp_only);
    }
    s.mixer_layers_have_ffn = false;
    s.gated_ffn = false;  // squared-ReLU MLP: up and down
    s.ssm_version = 2;
    s.ssm_state = f.required({"ssm_state_size"}, "the state size");
    s.ssm_conv = f.required({"conv_kernel"}, "the convolution kernel");
    s.ssm_groups = f.count({"n_groups"}, 1, 1024).value_or(1);
    s.ssm_heads = f.required({"mamba_num_heads"}, "the Mamba-2 heads");
    s.ssm_inner = f.product(s.ssm_heads, f.required({"mamba_head_dim"}, "the Mamba-2 head width"),
                            "mamba_num_heads x mamba_head_dim");
    return;
  }
  // Granite 4 and other layer_types hybrids with mamba layers.
  if (std::find(s.mixers.begin(), s.mixers.end(), LayerMixer::mamba) != s.mixers.end()) {
    s.ssm_version = 2;
    s.ssm_state = f.required({"mamba_d_state", "ssm_state_size"}, "the state size");
    s.ssm_conv = f.required({"mamba_d_conv", "conv_kernel"}, "the convolution kernel");
    s.ssm_groups = f.count({"mamba_n_groups", "n_groups"}, 1, 1024).value_or(1);
    s.ssm_heads = f.required({"mamba_n_heads", "mamba_num_heads"}, "the Mamba-2 heads");
    s.ssm_inner = f.count({"mamba_d_ssm"})
                      .value_or(f.product(
                          s.ssm_heads, f.count({"mamba_d_head", "mamba_head_dim"}).value_or(0),
                          f.name_used({"mamba_n_heads", "mamba_num_heads"}) + " x " +
                              f.name_used({"mamba_d_head", "mamba_head_dim"})));
    if (s.ssm_inner <= 0) {
      s.ssm_inner = f.product(f.count({"mamba_expand"}, 1, 64).value_or(2), hidden,
                              "mamba_expand x hidden_size");
    }
  }
}

void read_context(const Fields& f, const std::string& type, ModelArch& a, HfConfig& out) {
  const int fallback = starts_with(type, "gemma3") ? 131072 : 0;  // Gemma3TextConfig's default
  a.max_context = f.count({"max_position_embeddings", "n_positions", "max_sequence_length",
                           "seq_length", "n_ctx"},
                          1, 1'000'000'000)
                      .value_or(fallback);
  if (a.max_context == 0) out.notes.push_back("no max_position_embeddings: context not capped");
  std::string scaling_key;
  const json* scaling = f.first({"rope_scaling", "rope_parameters"}, &scaling_key);
  if (!scaling || !scaling->is_object()) return;
  const Fields r(f.path(), *scaling);
  const std::string rope_type = r.text({"rope_type", "type"});
  const auto factor = r.number({"factor"});
  // A RoPE factor multiplies the trained context: the published ones run from 2 to 64
  // (Llama 3.1: 8, Qwen2.5/3 YaRN: 4, DeepSeek-V3: 40). transformers warns below 1
  // (modeling_rope_utils, _check_received_keys / "factor field must be a float >= 1").
  constexpr double kMaxRopeFactor = 1024;
  if (factor && !(*factor > 0 && *factor <= kMaxRopeFactor)) {
    f.fail(scaling_key + ".factor",
           fmt::format("expected a RoPE scaling factor above 0 and at most {} (the multiple of the "
                       "trained context), got {}",
                       kMaxRopeFactor, r.find("factor")->dump()));
  }
  if (factor && *factor < 1) {
    out.notes.push_back(fmt::format(
        "{}.factor {:g} is below 1 (it would shorten the context): no RoPE scaling applied",
        scaling_key, *factor));
  }
  const auto original = r.count({"original_max_position_embeddings"}, 1, 1'000'000'000);
  if (!factor || !original || *factor <= 1) return;
  if (rope_type != "yarn" && rope_type != "linear" && rope_type != "dynamic" &&
      rope_type != "longrope") {
    return;
  }
  const double scaled = *factor * *original;
  if (scaled > a.max_context && scaled < 2e9) a.max_context_scaled = static_cast<int>(scaled);
}

// The config `top_json` read from `path` (a file, or what names the config in errors).
// The side of the image llama.cpp's mtmd warmup reserves for a dynamic-resolution encoder
// (the logs "warmup: warmup with image size = 1472 x 1472", Qwen3.5 and Qwen3.6 mmproj files).
constexpr int kWarmupImageSide = 1472;

// A multimodal config's vision tower (vision_config), as llama.cpp's mmproj holds it: the
// encoder's parameters (patch embedding, layers of attention 4 h^2 and an FFN of 2 or, gated
// (hidden_act silu), 3 x h x FFN, position embeddings) and the projector to the text model
// (a merger of spatial_merge_size^2 patches, h m -> h m -> text hidden, the widest of the
// families' projectors), at 16 bits (convert_hf_to_gguf.py --mmproj writes F16 or BF16). Checks:
// Qwen3.6-27B's mmproj-BF16 (1,152 wide, FFN 4,304, 27 layers, patches of 16, merge 2, no
// image_size) is 871.3 MiB by this count where llama.cpp logs "model size: 887.99 MiB" (-1.9 %);
// Mistral Small 3.1's (1,024, 4,096, 24 layers, silu, 1,540 / 14) 804.7 MiB against a logged
// 802.50 MiB (+0.3 %). nullopt without a vision_config or with one too sparse to size.
std::optional<VisionTower> read_vision(const Fields& top, int text_hidden) {
  const json* v = top.find("vision_config");
  if (v == nullptr || !v->is_object()) return std::nullopt;
  const Fields f(top.path(), *v);
  const auto hidden = f.count({"hidden_size", "embed_dim", "width"}, 1, 1'000'000);
  const auto ffn = f.count({"intermediate_size", "mlp_dim"}, 1, 10'000'000);
  const auto layers = f.count({"num_hidden_layers", "depth", "layers"}, 1, 10'000);
  const auto patch = f.count({"patch_size"}, 1, 10'000);
  if (!hidden || !ffn || !layers || !patch) return std::nullopt;  // not enough to size it
  const double h = *hidden, i = *ffn;
  const std::string act = f.text({"hidden_act", "hidden_activation"});
  const bool gated = act == "silu" || act == "swiglu";
  const double merge = f.count({"spatial_merge_size"}, 1, 64).value_or(1);
  const double m = h * merge * merge;
  const int image_side = f.count({"image_size"}, 1, 100'000).value_or(0);
  const double patches_per_side = static_cast<double>(image_side) / *patch;
  const double encoder = *layers * (4 * h * h + (gated ? 3 : 2) * h * i) +
                         3.0 * *patch * *patch * h + patches_per_side * patches_per_side * h;
  const double projector = m * m + m * text_hidden;
  VisionTower tower;
  tower.weights_bytes = 2.0 * (encoder + projector);
  tower.hidden = *hidden;
  tower.intermediate = *ffn;
  const double side = std::max(image_side, kWarmupImageSide);
  const double per_side = std::floor(side / *patch);
  tower.image_patches = static_cast<int>(per_side * per_side);
  return tower;
}

HfConfig read_config(const json& top_json, const std::string& path,
                     std::set<std::string>* keys_read) {
  if (!top_json.is_object()) throw ModelFileError(path, "expected a JSON object (a config.json)");
  const Fields top(path, top_json, keys_read);
  const Fields f(path, language_config(top_json), keys_read);
  HfConfig out;
  ModelShape& s = out.shape;
  ModelArch& a = s.arch;
  const std::string type = f.text({"model_type"});
  const fs::path folder = fs::path(path).parent_path();
  a.id = folder.filename().empty() ? fs::path(path).stem().string() : folder.filename().string();
  a.name = a.id;

  a.layers = f.required({"num_hidden_layers", "n_layer", "num_layers", "n_layers"},
                        "the layer count", 1, 100'000);
  a.hidden = f.required({"hidden_size", "n_embd", "d_model"}, "the hidden size");
  // Gemma 3's config.json leaves out what transformers' Gemma3TextConfig defaults.
  const bool gemma3 = starts_with(type, "gemma3");
  a.vocab_size = gemma3 ? f.count({"vocab_size"}, 1).value_or(262208)
                        : f.required({"vocab_size", "padded_vocab_size"}, "the vocabulary size");
  const bool ssm_only = type == "mamba" || type == "mamba2" || type == "falcon_mamba";
  a.heads = ssm_only ? 0
                     : f.required({"num_attention_heads", "n_head", "num_heads"},
                                  "the attention heads", 1, 100'000);
  if (f.boolean("multi_query").value_or(false)) {
    a.kv_heads = 1;
  } else {
    a.kv_heads =
        f.count({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, 1, 100'000).value_or(a.heads);
  }
  if (a.heads > 0 && a.kv_heads > a.heads) {
    f.fail("num_key_value_heads",
           fmt::format("{} is more than the {} attention heads", a.kv_heads, a.heads));
  }
  a.head_dim = f.count({"head_dim"}, 1, 100'000).value_or(0);
  s.intermediate_size = f.count({"intermediate_size", "ffn_hidden_size", "n_inner"}).value_or(0);
  // MLA: DeepSeek V2/V3, Kimi K2, GLM-4.7 Flash.
  if (const auto rank = f.count({"kv_lora_rank"}, 1, 1'000'000); rank) {
    a.mla_kv_lora_rank = *rank;
    a.mla_rope_dim = f.required({"qk_rope_head_dim"}, "the MLA RoPE key width");
    s.qk_nope_head_dim = f.required({"qk_nope_head_dim"}, "the MLA key width without RoPE");
    s.v_head_dim = f.required({"v_head_dim"}, "the MLA value width");
    s.q_lora_rank = f.count({"q_lora_rank"}, 0, 1'000'000).value_or(0);
    a.kv_heads = 0;
    a.head_dim = 0;
  }
  // Grouped-query attention gives every KV head the same number of query heads
  // (transformers' repeat_kv, llama.cpp's n_head / n_head_kv): a count that does not divide
  // is a broken config, not a model. MLA caches a latent instead of heads (checked above).
  if (!a.is_mla() && a.heads > 0 && a.kv_heads > 0 && a.heads % a.kv_heads != 0) {
    f.fail(f.name_used({"num_key_value_heads", "num_kv_heads", "n_head_kv"}),
           fmt::format("{} does not divide {} {} (grouped-query attention shares each "
                       "KV head among an equal number of attention heads)",
                       a.kv_heads, f.name_used({"num_attention_heads", "n_head", "num_heads"}),
                       a.heads));
  }
  // Without head_dim the head width is hidden / heads (transformers' default), which must
  // divide: a hidden size of 1 for 32 heads gave a head width of 0 and a KV cache of 0 GiB.
  if (!a.is_mla() && a.heads > 0 && a.head_dim == 0 && a.hidden % a.heads != 0) {
    f.fail(f.name_used({"hidden_size", "n_embd", "d_model"}),
           fmt::format("{} is not a multiple of {} {} (the head width is "
                       "hidden_size / heads unless head_dim is given)",
                       a.hidden, f.name_used({"num_attention_heads", "n_head", "num_heads"}),
                       a.heads));
  }
  read_experts(f, type, s);
  read_attention_pattern(f, type, s, out);
  read_hybrid(f, type, s);
  read_context(f, type, a, out);
  a.vision = read_vision(top, a.hidden);
  if (a.vision) {
    out.notes.push_back(fmt::format(
        "vision tower from vision_config: {:.2f} GiB of projector at 16 bits and an image buffer "
        "for {} patches on the first GPU (llama.cpp loads them with --mmproj; fit --no-mmproj "
        "leaves them out)",
        a.vision->weights_bytes / 1073741824.0, a.vision->image_patches));
  }

  // Family details of the count (transformers' implementations).
  const bool gemma = starts_with(type, "gemma");
  a.tied_embeddings = f.boolean("tie_word_embeddings").value_or(gemma || ssm_only);
  if (type == "gemma2" || starts_with(type, "gemma3")) s.norms_per_layer = 4;
  if (ssm_only) s.norms_per_layer = 1;
  s.qk_norm = type == "qwen3" || type == "qwen3_moe" || starts_with(type, "gemma3") ||
              type == "qwen3_next" || starts_with(type, "qwen3_5");
  s.attention_bias = f.boolean("attention_bias").value_or(false) || type == "qwen2" ||
                     type == "qwen2_moe" || type == "qwen2_vl";
  if (type == "gpt_oss") {
    s.output_bias = true;
    s.attention_sinks = true;
  }
  if (type == "gpt2" || type == "gpt_neox" || type == "falcon" || type == "phi" ||
      type == "bloom" || type == "opt" || type == "gptj" || type == "starcoder2" ||
      type == "gpt_bigcode") {
    s.gated_ffn = false;
  }
  out.native_format = native_format(top, f, out);

  if (const std::string missing = shape_problem(s); !missing.empty()) {
    throw ModelFileError(path, missing +
                                   ": missing (needed to count the parameters and size "
                                   "the cache)");
  }
  return out;
}

}  // namespace

HfConfig read_hf_config(const std::string& given_path) {
  std::string path = given_path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) path = (fs::path(path) / "config.json").string();
  return read_config(parse_file(path), path, nullptr);
}

HfConfig read_hf_config_text(const std::string& json_text, const std::string& where,
                             std::set<std::string>* keys_read) {
  json top_json;
  try {
    top_json = parse_json_bounded(json_text);
  } catch (const JsonTooDeep& e) {
    throw ModelFileError(where, std::string(e.what()) + " (a config.json has three or four)");
  } catch (const JsonDuplicateKey& e) {
    throw ModelFileError(where, e.what());
  } catch (const json::out_of_range& e) {
    throw ModelFileError(where, "out of range: " + json_problem(e));
  } catch (const json::parse_error& e) {
    throw ModelFileError(where, std::string("not JSON: ") + e.what());
  }
  return read_config(top_json, where, keys_read);
}

}  // namespace gputco
