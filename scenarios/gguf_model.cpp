#include "scenarios/gguf_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>

#include "scenarios/gguf_file.hpp"
#include "scenarios/model_file_error.hpp"

namespace gputco {

namespace {

namespace fs = std::filesystem;

// The layers llama.cpp slides for an architecture (src/llama-model.cpp set_swa_pattern).
struct SwaRule {
  const char* arch;
  int pattern;       // layer il slides when il % pattern < pattern - 1
  int fixed_window;  // the window llama.cpp fixes for the architecture, 0 = from the file
};
constexpr std::array<SwaRule, 6> kSwaRules{{
    {"gemma2", 2, 0},
    {"gemma3", 6, 0},
    {"cohere2", 4, 0},
    {"gpt-oss", 2, 0},
    {"exaone4", 4, 0},
    {"llama4", 4, 8192},  // chunked attention over 8,192-token chunks
}};

// Reads the metadata of one GGUF with the names of the architecture's keys.
class Meta {
 public:
  Meta(const GgufFile& file, std::string arch) : file_(file), arch_(std::move(arch)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw ModelFileError(file_.path, key + ": " + problem);
  }

  std::string key(const std::string& suffix) const { return arch_ + "." + suffix; }

  const GgufValue* find(const std::string& suffix) const { return file_.find(key(suffix)); }

  /// A number of the file: NaN and infinity are refused here, once for every key, so that
  /// no comparison or conversion below ever sees one.
  std::optional<double> number(const std::string& suffix) const {
    const GgufValue* v = find(suffix);
    if (!v) return std::nullopt;
    if (v->kind != GgufValue::Kind::number) fail(key(suffix), "expected a number");
    if (!std::isfinite(v->number)) {
      fail(key(suffix), fmt::format("expected a finite number, got {}", v->number));
    }
    return v->number;
  }

  /// A whole number in 0..`most` (the widest published value is far below the default
  /// 10^8: a 256K vocabulary, a 73,728 FFN), checked before it becomes a 32-bit int.
  int count(const std::string& suffix, int fallback = 0, int most = kMaxCount) const {
    const auto v = number(suffix);
    if (!v) return fallback;
    return whole(*v, suffix, most);
  }

  int required(const std::string& suffix, const std::string& what, int most = kMaxCount) const {
    const int v = count(suffix, -1, most);
    if (v <= 0) fail(key(suffix), v < 0 ? "missing (" + what + ")" : "must be positive, got 0");
    return v;
  }

  // A value that is one number for every layer or an array of one per layer, each a whole
  // number in 0..`most` (a missing key: `fallback` for every layer).
  std::vector<double> per_layer(const std::string& suffix, int layers, double fallback,
                                int most = kMaxCount) const {
    const GgufValue* v = find(suffix);
    if (!v) return std::vector<double>(static_cast<std::size_t>(layers), fallback);
    if (v->kind == GgufValue::Kind::number) {
      return std::vector<double>(static_cast<std::size_t>(layers), count(suffix, 0, most));
    }
    if (v->kind != GgufValue::Kind::array || v->count != static_cast<std::uint64_t>(layers) ||
        v->numbers.size() != static_cast<std::size_t>(layers)) {
      fail(key(suffix), fmt::format("expected a number or one number per layer ({})", layers));
    }
    for (const double n : v->numbers) whole(n, suffix, most);
    return v->numbers;
  }

  /// The file's name, for messages of the model as a whole.
  const std::string& path() const { return file_.path; }

 private:
  // The widest count read: see count().
  static constexpr int kMaxCount = 100'000'000;

  int whole(double v, const std::string& suffix, int most) const {
    if (!std::isfinite(v) || v < 0 || v > most || std::floor(v) != v) {
      fail(key(suffix), fmt::format("expected a whole number between 0 and {}, got {}", most, v));
    }
    return static_cast<int>(v);
  }

  const GgufFile& file_;
  std::string arch_;
};

// Bounds of what a GGUF may state (a config.json's, hf_config.cpp): 100,000 layers, heads
// and experts; a vocabulary of 10^8 tokens; a RoPE factor of 1,024.
constexpr int kMaxLayers = 100'000;
constexpr int kMaxHeads = 100'000;
constexpr int kMaxExperts = 100'000;
constexpr std::uint64_t kMaxVocabulary = 100'000'000;
constexpr double kMaxRopeFactor = 1024;

// A vocabulary counted from the file (the embedding's columns, the tokenizer's tokens).
int vocabulary(const Meta& meta, std::uint64_t tokens) {
  if (tokens > kMaxVocabulary) {
    meta.fail(meta.key("vocab_size"),
              fmt::format("{} tokens, more than the {} of any model", tokens, kMaxVocabulary));
  }
  return static_cast<int>(tokens);
}

// The tensor table's blocks ("blk.N.") agree with block_count: none beyond it, and none
// missing at the end (llama.cpp's loader fails on a missing layer's tensors). A table
// without blocks (a header-only file) says nothing.
void check_blocks_in_table(const Meta& meta, const std::vector<GgufTensor>& tensors, int layers) {
  long long highest = -1;
  for (const GgufTensor& t : tensors) {
    if (t.name.rfind("blk.", 0) != 0) continue;
    long long n = 0;
    std::size_t i = 4;
    for (; i < t.name.size() && i < 12 && std::isdigit(static_cast<unsigned char>(t.name[i]));
         ++i) {
      n = n * 10 + (t.name[i] - '0');
    }
    if (i > 4) highest = std::max(highest, n);
  }
  if (highest < 0) return;
  const int nextn = meta.count("nextn_predict_layers", 0, kMaxLayers);
  if (highest >= layers || highest + 1 + nextn < layers) {
    meta.fail(meta.key("block_count"),
              fmt::format("{} layers, but the tensor table holds blocks 0 to {}", layers, highest));
  }
}

// Grouped-query attention gives each KV head an equal share of the query heads (llama.cpp's
// n_gqa = n_head / n_head_kv, transformers' repeat_kv): per layer, KV heads at most the heads
// and dividing them. `kv` < 0: as many as the heads.
void check_grouped_query(const Meta& meta, const std::vector<double>& heads,
                         const std::vector<double>& kv) {
  for (std::size_t l = 0; l < heads.size(); ++l) {
    const auto h = static_cast<long long>(heads[l]);
    const auto k = kv[l] < 0 ? h : static_cast<long long>(kv[l]);
    if (h <= 0 || k <= 0) continue;
    if (k > h || h % k != 0) {
      meta.fail(
          meta.key("attention.head_count_kv"),
          fmt::format("{} {} {} (layer {}): grouped-query attention shares each KV head "
                      "among an equal number of attention heads",
                      k, k > h ? "is more than the attention heads," : "does not divide", h, l));
    }
  }
}

std::string text_value(const GgufFile& file, const std::string& key) {
  const GgufValue* v = file.find(key);
  if (!v) return "";
  if (v->kind != GgufValue::Kind::string)
    throw ModelFileError(file.path, key + ": expected a string");
  return v->text;
}

// Every part of a split model (gguf-split's "PREFIX-00001-of-00003.gguf"), else the file.
std::vector<std::string> parts_of(const std::string& path, const GgufFile& first) {
  const GgufValue* count = first.find("split.count");
  if (!count) return {path};
  // gguf-split numbers parts with five digits: 1 to 99,999.
  if (count->kind != GgufValue::Kind::number || !std::isfinite(count->number) ||
      count->number < 0 || count->number > 99999 || std::floor(count->number) != count->number) {
    throw ModelFileError(path, "split.count: expected the number of parts, 1 to 99999");
  }
  if (count->number <= 1) return {path};
  static const std::regex kSplitName(R"((.*)-(\d{5})-of-(\d{5})\.gguf)");
  std::smatch m;
  const std::string name = fs::path(path).filename().string();
  if (!std::regex_match(name, m, kSplitName)) {
    throw ModelFileError(path, fmt::format("split.count: part of a model split in {} files, but "
                                           "the name is not gguf-split's NAME-00001-of-{:05}.gguf",
                                           count->number, static_cast<int>(count->number)));
  }
  const int total = std::stoi(m[3].str());
  if (total != static_cast<int>(count->number)) {
    throw ModelFileError(
        path, fmt::format("split.count: {} parts, the name says {}", count->number, total));
  }
  std::vector<std::string> parts;
  for (int i = 1; i <= total; ++i) {
    parts.push_back(
        (fs::path(path).parent_path() / fmt::format("{}-{:05}-of-{:05}.gguf", m[1].str(), i, total))
            .string());
  }
  return parts;
}

bool contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

// The name of a file's weight format: general.file_type's, else its commonest 2-D type.
std::string weight_format(const GgufFile& file, const std::vector<GgufTensor>& tensors,
                          std::vector<std::string>& notes) {
  std::string why = "no general.file_type";
  if (const GgufValue* t = file.find("general.file_type")) {
    // llama.cpp's llama_ftype: a small whole number (0 to 39 today; 1024 is its "guessed"
    // flag). Checked before the conversion: 1e30 as a uint32 is undefined.
    if (t->kind != GgufValue::Kind::number || !std::isfinite(t->number) || t->number < 0 ||
        t->number > 65535 || std::floor(t->number) != t->number) {
      throw ModelFileError(file.path, fmt::format("general.file_type: expected llama.cpp's file "
                                                  "type, a whole number from 0, got {}",
                                                  t->kind == GgufValue::Kind::number
                                                      ? fmt::format("{}", t->number)
                                                      : std::string("text or a list")));
    }
    const auto id = static_cast<std::uint32_t>(t->number);
    const std::string name = llama_file_type_name(id);
    if (!name.empty()) return name;
    why = fmt::format("general.file_type {} is not known to this program", id);
  }
  std::map<std::uint32_t, std::uint64_t> elements_by_type;
  for (const GgufTensor& t : tensors) {
    if (t.dims.size() >= 2) elements_by_type[t.type] += t.elements;
  }
  const auto commonest =
      std::max_element(elements_by_type.begin(), elements_by_type.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  const std::string name =
      commonest == elements_by_type.end() ? "F32" : ggml_type_info(commonest->first)->name;
  notes.push_back(why + ": the weight format is named after the commonest tensor type, " + name);
  return name;
}

}  // namespace

GgufModel read_gguf_model(const std::string& path) {
  GgufModel out;
  const GgufFile first = read_gguf_header(path);
  out.files = parts_of(path, first);
  std::vector<GgufTensor> tensors;
  const GgufFile* head = nullptr;
  GgufFile part_one;
  for (const std::string& part : out.files) {
    std::error_code ec;
    if (!fs::exists(part, ec)) {
      throw ModelFileError(part, "missing: the split model " + fs::path(path).filename().string() +
                                     " needs every part in the same folder");
    }
    GgufFile file = part == path ? first : read_gguf_header(part);
    for (GgufTensor& t : file.tensors) tensors.push_back(std::move(t));
    if (part == out.files.front()) part_one = std::move(file);
  }
  head = out.files.size() == 1 ? &first : &part_one;

  const std::string arch_name = text_value(*head, "general.architecture");
  if (arch_name.empty()) {
    throw ModelFileError(head->path, "general.architecture: missing (the model's architecture)");
  }
  const Meta meta(*head, arch_name);
  ModelArch& a = out.arch;
  a.name = text_value(*head, "general.name");
  a.id = fs::path(out.files.front()).stem().string();
  if (a.name.empty()) a.name = a.id;
  // Counts that size what is allocated per layer are bounded before anything is: the layers
  // as a config.json's (100,000), and by the tensor table when it has blocks.
  a.layers = meta.required("block_count", "the layer count", kMaxLayers);
  check_blocks_in_table(meta, tensors, a.layers);
  a.hidden = meta.required("embedding_length", "the hidden size");
  const int layers = a.layers;

  // Attention heads, possibly per layer.
  const auto heads = meta.per_layer("attention.head_count", layers, 0, kMaxHeads);
  const auto kv = meta.per_layer("attention.head_count_kv", layers, -1, kMaxHeads);
  const auto ffn = meta.per_layer("feed_forward_length", layers, -1);
  check_grouped_query(meta, heads, kv);
  a.heads = static_cast<int>(*std::max_element(heads.begin(), heads.end()));
  int kv_max = 0;
  std::vector<bool> has_kv(static_cast<std::size_t>(layers), true);
  for (int l = 0; l < layers; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const double k = kv[i] < 0 ? heads[i] : kv[i];  // absent: as many as the query heads
    has_kv[i] = k > 0;
    kv_max = std::max(kv_max, static_cast<int>(k));
  }
  a.kv_heads = kv_max;
  if (std::any_of(kv.begin(), kv.end(), [&](double k) { return k > 0 && k != kv_max; })) {
    out.notes.push_back(
        fmt::format("KV heads differ between layers: every attending layer "
                    "counted with the most, {}",
                    kv_max));
  }
  const int key_length = meta.count("attention.key_length");
  const int value_length = meta.count("attention.value_length");
  a.head_dim = key_length;
  if (value_length > 0 && value_length != key_length) a.head_dim_v = value_length;

  // MLA (deepseek2 and its kin): the latent and the RoPE key are cached.
  if (const int rank = meta.count("attention.kv_lora_rank"); rank > 0) {
    a.mla_kv_lora_rank = rank;
    a.mla_rope_dim = meta.required("rope.dimension_count", "the MLA RoPE key width");
    a.kv_heads = 0;
    a.head_dim = 0;
    a.head_dim_v = 0;
  }

  a.experts = meta.count("expert_count", 0, kMaxExperts);
  a.experts_active = meta.count("expert_used_count", 0, kMaxExperts);
  if (a.experts > 0 && a.experts_active <= 0) {
    meta.fail(meta.key("expert_used_count"), "missing (experts used per token)");
  }
  if (a.experts_active > a.experts) {
    meta.fail(meta.key("expert_used_count"),
              fmt::format("{} experts used per token, more than the {} of {}", a.experts_active,
                          a.experts, meta.key("expert_count")));
  }

  // Layers without KV and with a recurrent state.
  std::vector<bool> recurrent(static_cast<std::size_t>(layers), false);
  const bool mamba_keys = meta.find("ssm.inner_size") != nullptr;
  const bool rwkv = meta.find("wkv.head_size") != nullptr;
  const bool shortconv = meta.find("shortconv.l_cache") != nullptr;
  if (arch_name == "falcon-h1") {
    std::fill(recurrent.begin(), recurrent.end(), true);
  } else if (rwkv || arch_name == "mamba" || arch_name == "mamba2") {
    std::fill(recurrent.begin(), recurrent.end(), true);
    std::fill(has_kv.begin(), has_kv.end(), false);
  } else if (const int interval = meta.count("full_attention_interval"); interval > 0) {
    for (int l = 0; l < layers; ++l) {
      const bool attends = (l + 1) % interval == 0;
      has_kv[static_cast<std::size_t>(l)] = attends;
      recurrent[static_cast<std::size_t>(l)] = !attends;
    }
  } else if (mamba_keys || shortconv) {
    for (int l = 0; l < layers; ++l) {
      const auto i = static_cast<std::size_t>(l);
      // Nemotron-H's layers without KV are Mamba (no FFN) or MLP-only (an FFN).
      recurrent[i] = !has_kv[i] && (arch_name != "nemotron_h" || ffn[i] <= 0);
    }
  }
  a.layers_without_kv = static_cast<int>(std::count(has_kv.begin(), has_kv.end(), false));
  a.recurrent_layers = static_cast<int>(std::count(recurrent.begin(), recurrent.end(), true));
  if (a.recurrent_layers > 0) {
    // llama.cpp's n_embd_r + n_embd_s (src/llama-hparams.cpp).
    const double n_embd = a.hidden;
    double r = 0;
    double s = 0;
    if (rwkv) {
      r = meta.count("token_shift_count", 2) * n_embd;
      s = n_embd * meta.required("wkv.head_size", "the RWKV head size");
    } else if (shortconv) {
      r = n_embd * (meta.required("shortconv.l_cache", "the short convolution length") - 1);
    } else {
      const double conv = meta.required("ssm.conv_kernel", "the convolution kernel");
      const double inner = meta.required("ssm.inner_size", "the state-space inner size");
      const double state = meta.required("ssm.state_size", "the state size");
      const double groups = meta.count("ssm.group_count");
      r = (conv - 1) * (inner + 2 * groups * state);
      s = state * inner;
    }
    a.recurrent_state_elements = r + s;
  }
  if (a.layers_without_kv == layers) {
    a.heads = 0;
    a.kv_heads = 0;
  } else if (a.heads <= 0) {
    meta.fail(meta.key("attention.head_count"), "missing (the attention heads)");
  }
  // MTP (next-token prediction) layers are stored but hold no cache in llama.cpp.
  if (const int nextn = meta.count("nextn_predict_layers"); nextn > 0 && nextn < layers) {
    a.layers_without_kv = std::min(layers, a.layers_without_kv + nextn);
  }

  // Sliding windows.
  const int window = meta.count("attention.sliding_window");
  const GgufValue* pattern = meta.find("attention.sliding_window_pattern");
  int swa = 0;
  for (const SwaRule& rule : kSwaRules) {
    if (arch_name != rule.arch) continue;
    const int p = pattern && pattern->kind == GgufValue::Kind::number
                      ? meta.count("attention.sliding_window_pattern", 0, kMaxLayers)
                      : rule.pattern;
    for (int l = 0; l < layers; ++l) swa += p == 0 || l % p < p - 1 ? 1 : 0;
    a.swa_window = window > 0 ? window : rule.fixed_window;
  }
  if (pattern && pattern->kind == GgufValue::Kind::array) {
    // One flag per layer (llama.cpp's swa_layers array): each 0 or 1.
    const auto flags = meta.per_layer("attention.sliding_window_pattern", layers, 0, 1);
    swa = static_cast<int>(std::count(flags.begin(), flags.end(), 1.0));
    a.swa_window = window;
  }
  if (swa > 0 && a.swa_window <= 0) {
    meta.fail(meta.key("attention.sliding_window"), "missing (the sliding layers' window)");
  }
  if (swa == 0 && window > 0) {
    out.notes.push_back(
        fmt::format("{} = {} ignored: llama.cpp attends the whole context for "
                    "architecture '{}'",
                    meta.key("attention.sliding_window"), window, arch_name));
  }
  a.swa_layers = std::min(swa, layers - a.layers_without_kv);
  if (a.swa_layers == 0) a.swa_window = 0;

  // Context and RoPE scaling.
  a.max_context = meta.count("context_length");
  const auto factor = meta.number("rope.scaling.factor");
  // As for a config.json's rope_scaling.factor (hf_config.cpp): the published ones run from
  // 2 to 64; 0, a negative or an absurd factor is a broken file.
  if (factor && !(*factor > 0 && *factor <= kMaxRopeFactor)) {
    meta.fail(meta.key("rope.scaling.factor"),
              fmt::format("expected a RoPE scaling factor above 0 and at most {} (the multiple "
                          "of the trained context), got {}",
                          kMaxRopeFactor, *factor));
  }
  const int original = meta.count("rope.scaling.original_context_length");
  const std::string scaling = text_value(*head, meta.key("rope.scaling.type"));
  if (factor && *factor > 1 && original > 0 && scaling != "none") {
    const double scaled = *factor * original;
    if (scaled > a.max_context && scaled < 2e9) a.max_context_scaled = static_cast<int>(scaled);
  }

  // Weights by group, parameters from the tensors' elements.
  FileWeights w;
  double elements = 0;
  double embedding_elements = 0;
  double expert_elements = 0;
  bool has_output = false;
  for (const GgufTensor& t : tensors) {
    const auto bytes = static_cast<double>(t.bytes);
    const auto n = static_cast<double>(t.elements);
    elements += n;
    if (t.name == "token_embd.weight") {
      w.embedding_bytes += bytes;
      embedding_elements += n;
      if (t.dims.size() == 2 && t.dims[0] != static_cast<std::uint64_t>(a.hidden)) {
        meta.fail(meta.key("embedding_length"),
                  fmt::format("{} does not match token_embd.weight's rows of {} values", a.hidden,
                              t.dims[0]));
      }
      if (a.vocab_size == 0 && t.dims.size() == 2) a.vocab_size = vocabulary(meta, t.dims[1]);
    } else if (t.name == "output.weight") {
      w.output_bytes += bytes;
      has_output = true;
    } else if (contains(t.name, "_exps")) {
      w.experts_bytes += bytes;
      expert_elements += n;
    } else {
      w.other_bytes += bytes;
    }
  }
  if (tensors.empty()) throw ModelFileError(path, "the file holds no tensors (a vocabulary only?)");
  if (const int vocab = meta.count("vocab_size", 0, kMaxVocabulary); vocab > 0) {
    a.vocab_size = vocab;
  }
  if (a.vocab_size == 0) {
    if (const GgufValue* tokens = head->find("tokenizer.ggml.tokens")) {
      a.vocab_size = vocabulary(meta, tokens->count);
    }
  }
  a.tied_embeddings = !has_output;
  w.quant = weight_format(*head, tensors, out.notes);
  a.params_b = elements / 1e9;
  const double unused =
      a.experts > 0 ? 1.0 - static_cast<double>(a.experts_active) / a.experts : 0.0;
  a.active_params_b =
      (elements - (a.tied_embeddings ? 0 : embedding_elements) - expert_elements * unused) / 1e9;
  a.file_weights = w;
  return out;
}

}  // namespace gputco
