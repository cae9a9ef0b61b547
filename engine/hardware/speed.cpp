#include "engine/hardware/speed.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "engine/hardware/power_limit.hpp"

namespace gputco {

namespace {

constexpr double kActivationBytes = 2.0;  // all-reduce payload: f16 hidden state per token

// FLOPs to prefill one token of a prompt of `prompt` tokens (positions averaged: prompt / 2).
double prefill_flops_per_token(const ModelArch& m, int prompt) {
  return matmul_flops_per_token(m) + attention_flops_per_token(m, prompt / 2.0);
}

}  // namespace

double matmul_flops_per_token(const ModelArch& m) {
  const ParamGroups g = param_groups(m);
  // Every weight a token multiplies: the body, the output matrix (a tied embedding is the
  // output matrix), and the share k / E of the routed experts. The embedding lookup reads one
  // row and multiplies nothing.
  const double output_b = m.tied_embeddings ? g.embedding_b : g.output_b;
  const double experts_b =
      m.is_moe() ? g.experts_b * m.experts_active / static_cast<double>(m.experts) : 0.0;
  return 2.0 * (g.other_b + output_b + experts_b) * 1e9;
}

double attention_flops_per_token(const ModelArch& m, double attended_tokens) {
  GPUTCO_REQUIRE(std::isfinite(attended_tokens) && attended_tokens >= 0,
                 "attended tokens must not be negative, got " << attended_tokens);
  // Layers without a KV cache (a hybrid's linear-attention / state-space layers) attend
  // nothing: their recurrent update is counted in the matmuls.
  const double full_layers = m.layers - m.layers_without_kv - m.swa_layers;
  const double swa_attended = std::min(attended_tokens, static_cast<double>(m.swa_window));
  const double attended_layer_tokens = full_layers * attended_tokens + m.swa_layers * swa_attended;
  return 4.0 * m.heads * effective_head_dim(m) * attended_layer_tokens;
}

SpeedEstimate estimate_speed(const SpeedRequest& request, const Device& device) {
  const FitRequest& f = request.fit;
  // Validates the fit request (model, quant, context, streams).
  const double kv_per_stream =
      kv_cache_read_bytes(f.model, f.kv_cache, f.context_tokens) + recurrent_state_bytes(f.model);
  GPUTCO_REQUIRE(f.context_tokens > 0, "context_tokens must be positive, got " << f.context_tokens);
  GPUTCO_REQUIRE(f.concurrent_streams > 0,
                 "concurrent_streams must be positive, got " << f.concurrent_streams);
  GPUTCO_REQUIRE(request.device_count > 0,
                 "device_count must be positive, got " << request.device_count);
  GPUTCO_REQUIRE(request.prompt_tokens >= 0,
                 "prompt_tokens must not be negative, got " << request.prompt_tokens);
  GPUTCO_REQUIRE(std::isfinite(device.bandwidth_gbps) && device.bandwidth_gbps > 0,
                 "device " << device.id << ": bandwidth must be positive, got "
                           << device.bandwidth_gbps << " GB/s");
  GPUTCO_REQUIRE(
      std::isfinite(device.fp16_tflops) && device.fp16_tflops >= 0,
      "device " << device.id << ": fp16_tflops must not be negative, got " << device.fp16_tflops);

  const int n = request.device_count;
  const int streams = f.concurrent_streams;
  SpeedEstimate est;
  est.split_used = request.split;
  if (n > 1 && request.split == SplitMode::tensor && f.model.heads % n != 0) {
    est.split_used = SplitMode::layer;
    est.note = "tensor parallel needs a device count dividing the " +
               std::to_string(f.model.heads) + " attention heads; estimated as a layer split";
  }

  const double step_bytes =
      weights_read_per_step_bytes(f.model, f.quant, streams) + streams * kv_per_stream;
  est.bytes_per_token_gb = step_bytes / 1e9;

  const DecodeConstants c = decode_constants(request.backend);
  const double bandwidth_bytes_per_s = decode_eta(c, device) * device.bandwidth_gbps * 1e9;
  // A power limit slows the core, not the memory: the fixed part runs at the compute share.
  const PowerLimitEffect power = power_limit_effect(device);
  if (!power.warning.empty()) est.note += (est.note.empty() ? "" : "; ") + power.warning;
  const double fixed_s = decode_fixed_s(c, f.model) / power.compute_share;
  double step_s = 0;
  if (n == 1 || est.split_used == SplitMode::layer) {
    step_s = step_bytes / bandwidth_bytes_per_s + fixed_s +
             (n - 1) * layer_split_boundary_s(request.backend);
  } else {
    const double message_bytes = kActivationBytes * f.model.hidden * streams;
    step_s = step_bytes / (n * bandwidth_bytes_per_s) + fixed_s +
             2.0 * f.model.layers * tensor_parallel_allreduce_s(device, n, message_bytes);
  }
  est.decode_tokens_per_s = 1.0 / step_s;
  est.aggregate_tokens_per_s = streams / step_s;

  if (device.fp16_tflops > 0) {
    const int prompt = std::max(request.prompt_tokens, 1);
    const double working_devices = est.split_used == SplitMode::tensor ? n : 1;
    const double flops_per_s = device.fp16_tflops * 1e12 * prefill_efficiency(request.backend) *
                               working_devices * power.compute_share;
    est.prefill_tokens_per_s = flops_per_s / prefill_flops_per_token(f.model, prompt);
    est.time_to_first_token_s = request.prompt_tokens / est.prefill_tokens_per_s;
  }
  return est;
}

double demand_streams_tokens_per_s(int concurrent_streams, const SpeedEstimate& speed) {
  const double streams = concurrent_streams * speed.decode_tokens_per_s;
  const double unit = speed.aggregate_tokens_per_s;
  if (!(std::isfinite(streams) && streams > 0 && std::isfinite(unit) && unit > 0)) return 0;
  return std::min(streams, unit);
}

}  // namespace gputco
