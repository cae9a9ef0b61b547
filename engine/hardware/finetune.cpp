#include "engine/hardware/finetune.hpp"

#include <algorithm>

#include "engine/base/error.hpp"
#include "engine/hardware/model_bytes.hpp"

namespace gputco {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBillion = 1e9;
constexpr int kUnknownVocab = 128'256;  // Llama 3, as compute_buffer_bytes assumes
constexpr int kMaxAutoCount = 8;

// Bytes per parameter (see the file comment of finetune.hpp for the sources).
constexpr double kHalfBytes = 2;      // bf16/fp16 weights, gradients, activations
constexpr double kFp32Bytes = 4;      // master weights, adapters, adapter gradients
constexpr double kAdamBytes = 2 * 4;  // two fp32 moments
constexpr double kNf4Bits = 4.5;      // NF4 + one fp32 absmax per 64 weights
constexpr double kNf4DoubleQuantBits = 4.0 + 8.0 / 64 + 32.0 / (64 * 256);

void validate(const FinetuneRequest& r) {
  validate_model(r.model);
  GPUTCO_REQUIRE(r.sequence_tokens >= 1,
                 "fine-tune: sequence length must be at least 1 token, got " << r.sequence_tokens);
  GPUTCO_REQUIRE(r.micro_batch >= 1,
                 "fine-tune: micro-batch must be at least 1, got " << r.micro_batch);
  GPUTCO_REQUIRE(r.lora_rank >= 1, "fine-tune: LoRA rank must be at least 1, got " << r.lora_rank);
}

}  // namespace

std::string to_string(FinetuneMethod method) {
  switch (method) {
    case FinetuneMethod::full:
      return "full";
    case FinetuneMethod::lora:
      return "lora";
    case FinetuneMethod::qlora:
      return "qlora";
  }
  return "?";
}

std::optional<FinetuneMethod> parse_finetune_method(const std::string& text) {
  if (text == "full") return FinetuneMethod::full;
  if (text == "lora") return FinetuneMethod::lora;
  if (text == "qlora") return FinetuneMethod::qlora;
  return std::nullopt;
}

double lora_params_b(const ModelArch& model, int rank) {
  validate_model(model);
  GPUTCO_REQUIRE(rank >= 1, "LoRA rank must be at least 1, got " << rank);
  const ParamGroups groups = param_groups(model);
  const double h = model.hidden;
  const double per_layer = groups.other_b * kBillion / model.layers;
  double attention_adapter = 0, attention_params = 0;
  if (model.is_mla()) {
    attention_adapter = 4 * (h + h);
    attention_params = 4 * h * h;
  } else {
    const double q = static_cast<double>(model.heads) * effective_head_dim(model);
    const double kv = static_cast<double>(model.kv_heads) * effective_head_dim(model);
    attention_adapter = (h + q) + 2 * (h + kv) + (q + h);
    attention_params = h * q + 2 * h * kv + q * h;
  }
  const double ffn = std::max(0.0, (per_layer - attention_params - 2 * h) / (3 * h));
  const double mlp_adapter = ffn > 0 ? 3 * (h + ffn) : 0.0;
  return rank * (attention_adapter + mlp_adapter) * model.layers / kBillion;
}

double activation_bytes(const FinetuneRequest& r) {
  validate(r);
  const double s = r.sequence_tokens, b = r.micro_batch, h = r.model.hidden;
  const double a = r.model.heads;
  // Korthikanti et al. 2022, eq. (1): s b h (34 + 5 a s / h) bytes per layer.
  const double scores = r.flash_attention ? 0.0 : 5 * a * s / h;
  const double full_layer = s * b * h * (34 + scores);
  const double layers = r.gradient_checkpointing
                            ? 2 * s * b * h * r.model.layers + full_layer  // inputs + 1 recompute
                            : full_layer * r.model.layers;
  const double vocab = r.model.vocab_size > 0 ? r.model.vocab_size : kUnknownVocab;
  return layers + kFp32Bytes * s * b * vocab;
}

FinetuneMemory estimate_finetune_memory(const FinetuneRequest& r) {
  validate(r);
  const double params = r.model.params_b * kBillion;
  FinetuneMemory m;
  if (r.method == FinetuneMethod::full) {
    m.trainable_params_b = r.model.params_b;
    m.weights_gib = kHalfBytes * params / kGiB;
    m.gradients_gib = kHalfBytes * params / kGiB;
    m.master_weights_gib = kFp32Bytes * params / kGiB;
    m.optimizer_state_gib = kAdamBytes * params / kGiB;
  } else {
    const double adapter = lora_params_b(r.model, r.lora_rank) * kBillion;
    m.trainable_params_b = adapter / kBillion;
    if (r.method == FinetuneMethod::lora) {
      m.weights_gib = kHalfBytes * params / kGiB;
    } else {
      const ParamGroups g = param_groups(r.model);
      const double sixteen_bit = (g.embedding_b + g.output_b) * kBillion;
      const double bits = r.double_quant ? kNf4DoubleQuantBits : kNf4Bits;
      m.weights_gib = ((params - sixteen_bit) * bits / 8 + sixteen_bit * kHalfBytes) / kGiB;
    }
    m.adapters_gib = kFp32Bytes * adapter / kGiB;
    m.gradients_gib = kFp32Bytes * adapter / kGiB;
    m.optimizer_state_gib = kAdamBytes * adapter / kGiB;
  }
  m.activations_gib = activation_bytes(r) / kGiB;
  m.states_gib = m.weights_gib + m.gradients_gib + m.master_weights_gib + m.optimizer_state_gib +
                 m.adapters_gib;
  m.total_gib = m.states_gib + m.activations_gib;
  return m;
}

double training_to_inference_ratio(const FinetuneMemory& training,
                                   const MemoryBreakdown& inference) {
  GPUTCO_REQUIRE(inference.total_gib > 0,
                 "fine-tune: inference memory must be positive, got " << inference.total_gib);
  return training.total_gib / inference.total_gib;
}

FinetuneFit fit_finetune(const FinetuneMemory& memory, const Device& device, int count,
                         const MemoryPolicy& policy) {
  GPUTCO_REQUIRE(count >= 1, "fine-tune: device count must be at least 1, got " << count);
  FinetuneFit f;
  f.device = device;
  f.count = count;
  f.per_device_gib = memory.states_gib / count + memory.activations_gib;
  f.usable_gib = usable_memory_gib(device, 1, policy);
  f.headroom_gib = f.usable_gib - f.per_device_gib;
  const double ratio = f.per_device_gib / f.usable_gib;
  f.verdict = ratio <= policy.fits_max_ratio ? Verdict::fits
              : ratio <= 1.0                 ? Verdict::tight
                                             : Verdict::does_not_fit;
  return f;
}

std::vector<FinetuneFit> rank_finetune(const FinetuneMemory& memory,
                                       const std::vector<Device>& devices, int count,
                                       const MemoryPolicy& policy) {
  std::vector<FinetuneFit> rows;
  rows.reserve(devices.size());
  for (const auto& device : devices) {
    if (count > 0) {
      rows.push_back(fit_finetune(memory, device, count, policy));
      continue;
    }
    FinetuneFit best = fit_finetune(memory, device, 1, policy);
    const int max_count = device.kind == DeviceKind::unified ? 1 : kMaxAutoCount;
    for (int n = 2; n <= max_count && best.verdict == Verdict::does_not_fit; ++n) {
      const FinetuneFit next = fit_finetune(memory, device, n, policy);
      if (next.verdict != Verdict::does_not_fit) best = next;
    }
    rows.push_back(best);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FinetuneFit& a, const FinetuneFit& b) {
    if (a.verdict != b.verdict) return a.verdict < b.verdict;
    if (a.count != b.count) return a.count < b.count;
    if (a.device.fp16_tflops != b.device.fp16_tflops) {
      return a.device.fp16_tflops > b.device.fp16_tflops;
    }
    return a.device.id < b.device.id;
  });
  return rows;
}

}  // namespace gputco
