#include "engine/hardware/fit.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"

namespace gputco {

namespace {

constexpr double kF32Bytes = 4.0;
constexpr int kFallbackVocab = 128256;  // Llama 3's; current models range 32k..262k
constexpr int kKvPadTokens = 256;       // llama.cpp pads the used KV cells to 256

void validate_request(const FitRequest& r) {
  GPUTCO_REQUIRE(r.context_tokens > 0, "context_tokens must be positive, got " << r.context_tokens);
  GPUTCO_REQUIRE(r.concurrent_streams > 0,
                 "concurrent_streams must be positive, got " << r.concurrent_streams);
  GPUTCO_REQUIRE(r.ubatch_tokens > 0, "ubatch_tokens must be positive, got " << r.ubatch_tokens);
  validate_model(r.model);
  validate_quant(r.quant);
}

void validate_policy(const MemoryPolicy& p) {
  GPUTCO_REQUIRE(p.unified_usable_fraction > 0 && p.unified_usable_fraction <= 1,
                 "unified_usable_fraction must be in (0, 1], got " << p.unified_usable_fraction);
  GPUTCO_REQUIRE(p.fits_max_ratio > 0 && p.fits_max_ratio <= 1,
                 "fits_max_ratio must be in (0, 1], got " << p.fits_max_ratio);
  GPUTCO_REQUIRE(std::isfinite(p.driver_reserve_mib) && p.driver_reserve_mib >= 0,
                 "driver_reserve_mib must not be negative, got " << p.driver_reserve_mib);
  GPUTCO_REQUIRE(
      p.firmware_reserve_fraction >= 0 && p.firmware_reserve_fraction < 1,
      "firmware_reserve_fraction must be in [0, 1), got " << p.firmware_reserve_fraction);
  GPUTCO_REQUIRE(std::isfinite(p.runtime_margin_mib) && p.runtime_margin_mib >= 0,
                 "runtime_margin_mib must not be negative, got " << p.runtime_margin_mib);
}

}  // namespace

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::fits:
      return "fits";
    case Verdict::tight:
      return "tight";
    case Verdict::does_not_fit:
      return "does_not_fit";
  }
  return "unknown";
}

double compute_buffer_bytes(const FitRequest& r, bool with_logits) {
  validate_request(r);
  const ModelArch& m = r.model;
  const double vocab = m.vocab_size > 0 ? m.vocab_size : kFallbackVocab;
  double attention = 0;
  if (r.flash_attention) {
    attention = static_cast<double>(m.heads) * effective_head_dim(m);
  } else {
    // Scores over every cached cell of the widest layer: a full-attention layer, or the
    // window when every layer slides.
    double cells = static_cast<double>(r.context_tokens) * r.concurrent_streams;
    if (m.swa_layers == m.layers && m.swa_window > 0) {
      cells = std::min(cells, static_cast<double>(m.swa_window) * r.concurrent_streams);
    }
    cells = std::ceil(cells / kKvPadTokens) * kKvPadTokens;
    attention = m.heads * cells;
  }
  const double largest = std::max(with_logits ? vocab : 0.0, attention);
  return kF32Bytes * r.ubatch_tokens * (largest + 4.0 * m.hidden);
}

int default_context_tokens(const ModelArch& model, int requested) {
  return model.max_context > 0 ? std::min(requested, model.max_context) : requested;
}

std::string context_beyond_model_reason(const ModelArch& model, int context_tokens) {
  const int limit = std::max(model.max_context, model.max_context_scaled);
  if (model.max_context <= 0 || context_tokens <= limit) return "";
  if (model.max_context_scaled > model.max_context) {
    return std::to_string(context_tokens) + " is beyond " + model.id + "'s maximum context of " +
           std::to_string(model.max_context) + " tokens, " +
           std::to_string(model.max_context_scaled) + " with its RoPE scaling";
  }
  return std::to_string(context_tokens) + " is beyond " + model.id + "'s maximum context of " +
         std::to_string(model.max_context) + " tokens";
}

std::string context_scaling_warning(const ModelArch& model, int context_tokens) {
  if (model.max_context <= 0 || context_tokens <= model.max_context ||
      context_tokens > model.max_context_scaled) {
    return "";
  }
  return "context of " + std::to_string(context_tokens) + " tokens is beyond " + model.id +
         "'s trained maximum of " + std::to_string(model.max_context) +
         " tokens, within its RoPE scaling (up to " + std::to_string(model.max_context_scaled) +
         "): answers may degrade at the longest contexts";
}

MemoryBreakdown estimate_memory(const FitRequest& request, int device_count) {
  validate_request(request);
  GPUTCO_REQUIRE(device_count > 0, "device_count must be positive, got " << device_count);
  MemoryBreakdown mb;
  const double all_weights = weights_bytes(request.model, request.quant);
  const double host =
      request.embeddings_on_host ? embedding_bytes(request.model, request.quant) : 0;
  // A tied embedding is also the output matrix: llama.cpp duplicates it onto the output
  // layer's device, so the devices keep every weight and the host holds a second copy.
  const double off_device = request.model.tied_embeddings ? 0.0 : host;
  mb.weights_gib = bytes_to_gib(all_weights - off_device);
  mb.host_embedding_gib = bytes_to_gib(host);
  if (request.model.vision) {
    mb.projector_gib = bytes_to_gib(request.model.vision->weights_bytes);
    mb.image_buffer_gib = bytes_to_gib(image_buffer_bytes(request.model));
  }
  mb.kv_cache_gib = bytes_to_gib(kv_cache_bytes(request.model, request.kv_cache,
                                                request.context_tokens, request.ubatch_tokens) *
                                 request.concurrent_streams);
  mb.recurrent_state_gib =
      bytes_to_gib(recurrent_state_bytes(request.model) * request.concurrent_streams);
  mb.overhead_gib = bytes_to_gib(compute_buffer_bytes(request, true) +
                                 (device_count - 1) * compute_buffer_bytes(request, false));
  mb.total_gib = mb.weights_gib + mb.kv_cache_gib + mb.recurrent_state_gib + mb.overhead_gib +
                 mb.projector_gib + mb.image_buffer_gib;
  return mb;
}

double image_buffer_bytes(const ModelArch& model) {
  if (!model.vision) return 0;
  const VisionTower& v = *model.vision;
  return kF32Bytes * std::max(v.image_patches, 0) *
         (std::max(v.intermediate, 0) + 3.0 * std::max(v.hidden, 0));
}

double usable_memory_gib(const Device& device, int count, const MemoryPolicy& policy) {
  validate_policy(policy);
  GPUTCO_REQUIRE(count > 0, "device count must be positive, got " << count);
  GPUTCO_REQUIRE(std::isfinite(device.memory_nameplate_gb) && device.memory_nameplate_gb > 0,
                 "device " << device.id << ": memory must be positive, got "
                           << device.memory_nameplate_gb << " GB");
  // Memory chips are binary-sized: the nameplate "GB" is GiB (DOMAIN "Units").
  const double installed_gib = device.memory_nameplate_gb;
  double per_device_gib = 0;
  if (device.kind == DeviceKind::unified) {
    per_device_gib = installed_gib * policy.unified_usable_fraction;
  } else {
    const double reserve_gib = installed_gib * policy.firmware_reserve_fraction +
                               (policy.driver_reserve_mib + policy.runtime_margin_mib) / kMiBPerGiB;
    per_device_gib = std::max(0.0, installed_gib - reserve_gib);
  }
  return per_device_gib * count;
}

FitResult fit(const FitRequest& request, const Device& device, int count,
              const MemoryPolicy& policy) {
  FitResult result;
  result.memory = estimate_memory(request, count);
  result.usable_gib = usable_memory_gib(device, count, policy);
  result.headroom_gib = result.usable_gib - result.memory.total_gib;
  if (result.usable_gib <= 0 || result.memory.total_gib > result.usable_gib) {
    result.verdict = Verdict::does_not_fit;
  } else if (result.memory.total_gib <= policy.fits_max_ratio * result.usable_gib) {
    result.verdict = Verdict::fits;
  } else {
    result.verdict = Verdict::tight;
  }
  return result;
}

int devices_needed(const FitRequest& request, const Device& device, int max_count,
                   const MemoryPolicy& policy) {
  GPUTCO_REQUIRE(max_count > 0, "max_count must be positive, got " << max_count);
  for (int n = 1; n <= max_count; ++n) {
    if (fit(request, device, n, policy).verdict != Verdict::does_not_fit) return n;
  }
  return 0;
}

}  // namespace gputco
