#include "engine/hardware/layer_split.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "engine/hardware/power_limit.hpp"

namespace gputco {

namespace {

Verdict verdict_of(double total_gib, double usable_gib, const MemoryPolicy& policy) {
  if (usable_gib <= 0 || total_gib > usable_gib) return Verdict::does_not_fit;
  return total_gib <= policy.fits_max_ratio * usable_gib ? Verdict::fits : Verdict::tight;
}

// The output matrix the output layer's device holds: the untied output matrix, or a copy of the
// tied embedding (llama.cpp's TENSOR_DUPLICATED).
double output_layer_bytes(const ModelArch& m, const Quant& q) {
  return m.tied_embeddings ? embedding_bytes(m, q) : output_bytes(m, q);
}

// The share of the model's repeating layers a GPU holds.
double layer_share(const GpuShare& g, const ModelArch& m) {
  return static_cast<double>(g.layers) / m.layers;
}

}  // namespace

double free_memory_gib(const Device& device, const MemoryPolicy& policy) {
  // usable = free - the runtime's margin on discrete devices; unified memory has no margin.
  const double usable = usable_memory_gib(device, 1, policy);
  if (device.kind == DeviceKind::unified) return usable;
  return usable + policy.runtime_margin_mib / kMiBPerGiB;
}

std::vector<double> layer_split_proportions(const std::vector<Device>& gpus,
                                            const std::vector<double>& tensor_split,
                                            const MemoryPolicy& policy) {
  GPUTCO_REQUIRE(!gpus.empty(), "a layer split needs at least one GPU");
  std::vector<double> weights;
  if (tensor_split.empty()) {
    for (const Device& d : gpus) weights.push_back(free_memory_gib(d, policy));
  } else {
    GPUTCO_REQUIRE(tensor_split.size() == gpus.size(),
                   "tensor split has " << tensor_split.size() << " weights for " << gpus.size()
                                       << " GPUs: give one per GPU, in the box's order");
    for (double w : tensor_split) {
      GPUTCO_REQUIRE(std::isfinite(w) && w >= 0,
                     "tensor split weights must not be negative, got " << w);
    }
    weights = tensor_split;
  }
  double sum = 0;
  for (double w : weights) sum += w;
  GPUTCO_REQUIRE(sum > 0, "tensor split weights must not all be 0");
  for (double& w : weights) w /= sum;
  return weights;
}

LayerSplitFit fit_layer_split(const FitRequest& request, const std::vector<Device>& gpus,
                              const std::vector<double>& tensor_split, const MemoryPolicy& policy) {
  const MemoryBreakdown whole = estimate_memory(request, 1);  // validates the request
  const ModelArch& m = request.model;
  LayerSplitFit out;
  out.proportions = layer_split_proportions(gpus, tensor_split, policy);
  out.proportions_given = !tensor_split.empty();
  out.host_embedding_gib = whole.host_embedding_gib;
  // llama.cpp's split points, in float as it computes them.
  std::vector<float> points(gpus.size());
  float running = 0;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    running += static_cast<float>(out.proportions[i]);
    points[i] = running;
  }
  for (float& p : points) p /= running;
  const int slots = m.layers + 1;  // the repeating layers and the output layer
  const auto device_of = [&](int il) {
    const float at = static_cast<float>(il) / static_cast<float>(slots);
    const auto it = std::upper_bound(points.begin(), points.end(), at);
    return static_cast<std::size_t>(std::min<std::ptrdiff_t>(
        it - points.begin(), static_cast<std::ptrdiff_t>(gpus.size()) - 1));
  };
  for (const Device& d : gpus) {
    GpuShare g;
    g.device = d;
    g.first_layer = -1;
    out.gpus.push_back(g);
  }
  for (int il = 0; il < m.layers; ++il) {
    GpuShare& g = out.gpus[device_of(il)];
    if (g.first_layer < 0) g.first_layer = il;
    ++g.layers;
  }
  out.gpus[device_of(m.layers)].output_layer = true;

  const double all = weights_bytes(m, request.quant);
  const double body = all - embedding_bytes(m, request.quant) - output_bytes(m, request.quant);
  const double output = output_layer_bytes(m, request.quant);
  const double kv_bytes =
      kv_cache_bytes(m, request.kv_cache, request.context_tokens, request.ubatch_tokens) *
      request.concurrent_streams;
  const double state_bytes = recurrent_state_bytes(m) * request.concurrent_streams;
  out.verdict = Verdict::fits;
  for (std::size_t i = 0; i < out.gpus.size(); ++i) {
    GpuShare& g = out.gpus[i];
    if (g.first_layer < 0) g.first_layer = 0;
    const double share = layer_share(g, m);
    const bool holds = g.layers > 0 || g.output_layer;
    g.weights_gib = bytes_to_gib(std::max(0.0, body) * share + (g.output_layer ? output : 0.0));
    g.kv_cache_gib = bytes_to_gib(kv_bytes * share);
    g.recurrent_state_gib = bytes_to_gib(state_bytes * share);
    g.compute_buffer_gib =
        holds ? bytes_to_gib(compute_buffer_bytes(request, g.output_layer)) : 0.0;
    if (i == 0) g.projector_gib = whole.projector_gib + whole.image_buffer_gib;
    g.total_gib = g.weights_gib + g.kv_cache_gib + g.recurrent_state_gib + g.compute_buffer_gib +
                  g.projector_gib;
    g.usable_gib = usable_memory_gib(g.device, 1, policy);
    g.headroom_gib = g.usable_gib - g.total_gib;
    g.verdict = verdict_of(g.total_gib, g.usable_gib, policy);
    out.verdict = std::max(out.verdict, g.verdict);
    out.total_gib += g.total_gib;
    out.usable_gib += g.usable_gib;
  }
  return out;
}

SpeedEstimate estimate_layer_split_speed(const SpeedRequest& request, const LayerSplitFit& split) {
  const FitRequest& f = request.fit;
  const ModelArch& m = f.model;
  GPUTCO_REQUIRE(!split.gpus.empty(), "a layer split needs at least one GPU");
  GPUTCO_REQUIRE(request.prompt_tokens >= 0,
                 "prompt_tokens must not be negative, got " << request.prompt_tokens);
  const int streams = f.concurrent_streams;
  const double kv_read =
      (kv_cache_read_bytes(m, f.kv_cache, f.context_tokens) + recurrent_state_bytes(m)) * streams;
  const double weights_read = weights_read_per_step_bytes(m, f.quant, streams);
  const double output_read = output_layer_bytes(m, f.quant);
  const DecodeConstants c = decode_constants(request.backend);
  const double fixed_s = decode_fixed_s(c, m);
  // Prefill FLOPs per token at the prompt's mean position (as estimate_speed counts them).
  const int prompt = std::max(request.prompt_tokens, 1);
  const double prefill_flops =
      matmul_flops_per_token(m) + attention_flops_per_token(m, prompt / 2.0);

  SpeedEstimate est;
  est.split_used = SplitMode::layer;
  double step_s = 0, prefill_s = 0, bytes = 0;
  bool prefill_known = true;
  int stages = 0;
  for (const GpuShare& g : split.gpus) {
    if (g.layers == 0 && !g.output_layer) continue;
    ++stages;
    const Device& d = g.device;
    GPUTCO_REQUIRE(
        std::isfinite(d.bandwidth_gbps) && d.bandwidth_gbps > 0,
        "device " << d.id << ": bandwidth must be positive, got " << d.bandwidth_gbps << " GB/s");
    if (const std::string why = backend_unsupported_reason(request.backend, d); !why.empty()) {
      throw EngineError(why);
    }
    const PowerLimitEffect power = power_limit_effect(d);
    if (!power.warning.empty()) est.note += (est.note.empty() ? "" : "; ") + power.warning;
    const double share = layer_share(g, m);
    const double stage_bytes = (weights_read - output_read) * share +
                               (g.output_layer ? output_read : 0.0) + kv_read * share;
    bytes += stage_bytes;
    step_s += stage_bytes / (decode_eta(c, d) * d.bandwidth_gbps * 1e9) +
              fixed_s * share / power.compute_share;
    if (d.fp16_tflops > 0) {
      prefill_s +=
          prefill_flops * share /
          (d.fp16_tflops * 1e12 * prefill_efficiency(request.backend) * power.compute_share);
    } else {
      prefill_known = false;
    }
  }
  step_s += (stages - 1) * layer_split_boundary_s(request.backend);
  est.bytes_per_token_gb = bytes / 1e9;
  est.decode_tokens_per_s = 1.0 / step_s;
  est.aggregate_tokens_per_s = streams / step_s;
  if (prefill_known && prefill_s > 0) {
    est.prefill_tokens_per_s = 1.0 / prefill_s;
    est.time_to_first_token_s = request.prompt_tokens * prefill_s;
  }
  return est;
}

std::string box_text(const std::vector<Device>& gpus) {
  std::string out;
  std::size_t i = 0;
  while (i < gpus.size()) {
    std::size_t j = i;
    while (j < gpus.size() && gpus[j].id == gpus[i].id) ++j;
    out += fmt::format("{}{}x {}", out.empty() ? "" : " + ", j - i, gpus[i].id);
    i = j;
  }
  return out;
}

}  // namespace gputco
