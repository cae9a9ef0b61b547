#include "engine/serving.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/calibration.hpp"
#include "engine/error.hpp"
#include "engine/model_bytes.hpp"
#include "engine/serving_batch.hpp"
#include "engine/serving_measured.hpp"
#include "engine/speed.hpp"

namespace gputco {

namespace {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
constexpr double kActivationBytes = 2.0;  // 16-bit hidden state per token on the wire
constexpr double kMs = 1000.0;
/// The most GPUs the "what would fit" search of an error message tries.
constexpr int kMaxGpusTried = 64;

bool is_llama_cpp(const ReplicaSetup& s) {
  return s.profile.engine == ServingEngine::llama_cpp;
}

/// Mean resident context of a sequence in flight: its prompt plus half its output (DOMAIN V3).
double resident_tokens(const ReplicaSetup& s) {
  return s.input_tokens + s.output_tokens / 2.0;
}

/// The model as the engine allocates its cache: sliding-window layers in full when the engine
/// reserves them so (vLLM, SGLang), else capped at the window (llama.cpp, TensorRT-LLM).
ModelArch cache_model(const ReplicaSetup& s) {
  ModelArch m = s.model;
  if (s.profile.sliding_window_in_full) {
    m.swa_layers = 0;
    m.swa_window = 0;
  }
  return m;
}

/// An engine serving an MoE model on TP GPUs splits the experts among them (expert parallel)
/// and runs attention data parallel: each GPU attends for its own share of the sequences with
/// the whole attention weights (TensorRT-LLM enable_attention_dp with --ep, SGLang
/// --enable-dp-attention, vLLM --enable-expert-parallel with data parallel attention).
bool expert_parallel(const ReplicaSetup& s) {
  return !is_llama_cpp(s) && s.model.is_moe() && s.tp > 1;
}

/// Share of a replica's KV cache one GPU holds: 1 / (tp x pp), except that TP beyond the KV
/// heads replicates them (each GPU keeps at least one head) and an MLA latent is replicated on
/// every TP rank; with data-parallel attention each GPU holds whole sequences: 1 / (tp x pp).
double kv_share_per_gpu(const ReplicaSetup& s) {
  const double per_stage = 1.0 / s.pp;
  if (expert_parallel(s)) return per_stage / s.tp;
  if (s.model.is_mla()) return per_stage;
  const double heads_share = std::max(1.0 / s.tp, 1.0 / s.model.kv_heads);
  return heads_share * per_stage;
}

/// The share of one sequence's recurrent state (a hybrid's linear-attention / state-space
/// layers) a GPU holds: its stage's layers and 1 / tp of the state, whose many heads split
/// over tensor parallelism as attention heads do (vLLM's MambaMixer2 and Qwen3-Next's
/// GatedDeltaNet shard their heads by TP; expert parallel: each GPU its own sequences).
double state_share_per_gpu(const ReplicaSetup& s) {
  return 1.0 / (static_cast<double>(s.tp) * s.pp);
}

/// Efficiency multiplier of the vendor (ROCm's share of the same peaks), of a tuned submission
/// and of dense tensor parallelism, engines only. The MoE factors are not in it: they slow the
/// routed experts' GEMMs alone (moe_read_efficiency, moe_compute_efficiency), not attention or
/// the KV-cache reads.
double efficiency_factor(const ReplicaSetup& s) {
  const ServingConstants& c = s.profile.constants;
  const double dense_tp =
      s.tp > 1 && !expert_parallel(s) ? std::pow(c.tp_factor, std::log2(s.tp)) : 1.0;
  return (s.device.vendor == Vendor::amd ? c.amd_factor : 1.0) * (s.tuned ? c.tuned_factor : 1.0) *
         dense_tp;
}

/// Share of the dense reads' bandwidth efficiency the routed experts' weight reads reach, and
/// of the dense GEMMs' compute efficiency their FLOPs reach (token routing and permutation,
/// grouped GEMMs of a few tokens per expert): the fitted MoE factors, engines only; 1 for a
/// dense model or llama.cpp.
double moe_read_efficiency(const ReplicaSetup& s) {
  return s.model.is_moe() && !is_llama_cpp(s) ? s.profile.constants.moe_read_factor : 1.0;
}
double moe_compute_efficiency(const ReplicaSetup& s) {
  return s.model.is_moe() && !is_llama_cpp(s) ? s.profile.constants.moe_compute_factor : 1.0;
}

/// FLOPs per token of the routed experts' GEMMs (k of the E experts); 0 for a dense model.
double expert_flops_per_token(const ModelArch& m) {
  if (!m.is_moe()) return 0;
  return 2.0 * param_groups(m).experts_b * m.experts_active / static_cast<double>(m.experts) * 1e9;
}

double flops_per_s(double tflops) {
  return tflops * 1e12;
}

/// Seconds of the matrix multiplications of `tokens` tokens at the compute precision, and of
/// their attention over `attended` cached tokens at 16 bits, on `gpus` GPUs at `efficiency`;
/// 0 when the peak is unknown. `part` picks the GEMMs: the dense ones (attention projections,
/// dense or shared FFN, output), the routed experts', or both.
enum class Gemms { dense, experts, all };
double matmul_s(const ReplicaSetup& s, double tokens, double gpus, double efficiency,
                Gemms part = Gemms::all) {
  const double peak = flops_per_s(peak_tflops(s.device, s.compute));
  if (s.compute == ComputePrecision::fp4 && !is_llama_cpp(s)) {
    efficiency *= s.profile.constants.fp4_factor;
  }
  if (!(peak > 0) || !(efficiency > 0)) return 0;
  const double all = matmul_flops_per_token(s.model);
  const double experts = expert_flops_per_token(s.model);
  const double flops = part == Gemms::all ? all : part == Gemms::experts ? experts : all - experts;
  return tokens * flops / (peak * gpus * efficiency);
}
double attention_s(const ReplicaSetup& s, double tokens, double attended, double gpus,
                   double efficiency) {
  const double peak = flops_per_s(s.device.fp16_tflops);
  if (!(peak > 0) || !(efficiency > 0)) return 0;
  return tokens * attention_flops_per_token(s.model, attended) / (peak * gpus * efficiency);
}

/// Weight bytes read in a step as non-expert + expert parts: read(b) = other + experts x
/// (1 - (1 - k / E)^b) (weights_read_per_step_bytes), solved from b = 1 and b = all.
struct WeightParts {
  double other = 0;    ///< read every step whatever the batch (attention, embeddings' output)
  double experts = 0;  ///< all routed experts
};
WeightParts weight_parts(const ReplicaSetup& s) {
  WeightParts w;
  const double one = weights_read_per_step_bytes(s.model, s.quant, 1);
  if (!s.model.is_moe()) {
    w.other = one;
    return w;
  }
  constexpr int kEveryExpert = 1'000'000;
  const double all = weights_read_per_step_bytes(s.model, s.quant, kEveryExpert);
  const double k_over_e = static_cast<double>(s.model.experts_active) / s.model.experts;
  w.experts = (all - one) / (1.0 - k_over_e);
  w.other = all - w.experts;
  return w;
}

/// Communication of one pass of `tokens` tokens through one pipeline stage's share of the
/// layers of a replica, seconds (engines): per layer two all-reduces of the tokens' hidden
/// states among the TP GPUs (dense, DOMAIN V5), or with expert parallel an all-to-all dispatch
/// and combine (each GPU sends its tokens / tp tokens once to each of the
/// expected_remote_ranks GPUs holding their experts); plus the send of the activations to the
/// next stage (calibration.hpp device_send_s: NVLink while the GPUs involved fit in one NVLink
/// domain). Decode steps pay it, and so do prompt tokens under expert parallel
/// (prefill_s_per_token).
double engine_communication_s(const ReplicaSetup& s, double tokens) {
  const double wire = kActivationBytes * s.model.hidden * tokens;
  const double layers = static_cast<double>(s.model.layers) / s.pp;
  double t = 0;
  if (expert_parallel(s)) {
    const double a2a =
        wire / s.tp * expected_remote_ranks(s.model.experts, s.model.experts_active, s.tp);
    t = 2.0 * layers * device_send_s(s.device, s.tp, a2a);
  } else {
    t = 2.0 * layers * tensor_parallel_allreduce_s(s.device, s.tp, wire);
  }
  // The stages of one replica hold tp x pp GPUs: a send crosses PCIe once they span domains.
  if (s.pp > 1) t += device_send_s(s.device, s.tp * s.pp, wire);
  return t;
}

}  // namespace

std::string to_string(ServingBound bound) {
  switch (bound) {
    case ServingBound::memory:
      return "memory";
    case ServingBound::compute:
      return "compute";
    case ServingBound::kv_capacity:
      return "kv_capacity";
    case ServingBound::latency_target:
      return "latency_target";
  }
  return "unknown";
}

bool has_time_per_output_token(int output_tokens) {
  return output_tokens >= 2;
}

double expected_experts_touched(int experts, int active, double tokens) {
  GPUTCO_REQUIRE(std::isfinite(tokens) && tokens >= 0,
                 "tokens must not be negative, got " << tokens);
  GPUTCO_REQUIRE(experts >= 0 && active >= 0 && active <= experts,
                 "active experts must be in 0.." << experts << ", got " << active);
  if (experts == 0) return 0;
  return experts * (1.0 - std::pow(1.0 - static_cast<double>(active) / experts, tokens));
}

double expected_remote_ranks(int experts, int active, int ranks) {
  GPUTCO_REQUIRE(experts >= 0 && active >= 0 && active <= experts,
                 "active experts must be in 0.." << experts << ", got " << active);
  GPUTCO_REQUIRE(ranks >= 1, "ranks must be at least 1, got " << ranks);
  if (ranks == 1 || experts == 0) return 0;
  // A given other GPU holds none of the token's k experts with probability
  // C(E - E / ranks, k) / C(E, k) = prod over i < k of (E - E / ranks - i) / (E - i).
  const double per_rank = static_cast<double>(experts) / ranks;
  double none = 1.0;
  for (int i = 0; i < active; ++i) {
    none *= std::max(0.0, (experts - per_rank - i) / (experts - i));
  }
  return (ranks - 1.0) * (1.0 - none);
}

ReplicaMemory replica_memory(const ReplicaSetup& s) {
  ReplicaMemory m;
  const double gpus = static_cast<double>(s.tp) * s.pp;
  const double stored = weights_bytes(s.model, s.quant);
  if (expert_parallel(s)) {
    // Every GPU keeps the non-expert weights; the experts are split.
    const double experts = weight_parts(s).experts;
    m.weights_gib = ((stored - experts) / s.pp + experts / gpus) / kBytesPerGib;
  } else {
    m.weights_gib = stored / gpus / kBytesPerGib;
  }
  const double resident = resident_tokens(s);
  if (is_llama_cpp(s)) {
    // llama.cpp: the usable memory of fit.hpp (headless: firmware, driver, 1 GiB margin) and
    // one compute buffer per GPU.
    m.device_gib = usable_memory_gib(s.device, 1, s.memory_policy);
    FitRequest request{s.model, s.quant, static_cast<int>(std::ceil(resident)), 1, s.kv_cache};
    m.reserve_gib = compute_buffer_bytes(request, true) / kBytesPerGib;
    m.kv_budget_gib = m.device_gib - m.weights_gib - m.reserve_gib;
  } else {
    const double nameplate = s.device.memory_nameplate_gb;
    m.device_gib = s.device.kind == DeviceKind::unified
                       ? nameplate * s.memory_policy.unified_usable_fraction
                       : nameplate * (1.0 - s.memory_policy.firmware_reserve_fraction);
    m.reserve_gib = s.profile.runtime_reserve_gib;
    m.kv_budget_gib = s.profile.share_of_free_memory
                          ? s.memory_share * (m.device_gib - m.weights_gib - m.reserve_gib)
                          : s.memory_share * m.device_gib - m.weights_gib - m.reserve_gib;
  }
  const int block = std::max(1, s.profile.kv_block_tokens);
  const double allocated = std::ceil(resident / block) * block;
  // llama.cpp allocates its own way (cells padded to 256, sliding layers window + micro-batch:
  // kv_cache_bytes); the engines' paged cache holds the tokens of whole blocks, per token as
  // llama.cpp's (kv_cache_read_bytes: sliding layers at most their window unless the engine
  // reserves them in full, cache_model).
  const ModelArch cached = cache_model(s);
  const int allocated_tokens = static_cast<int>(allocated);
  const double kv_sequence_bytes = is_llama_cpp(s)
                                       ? kv_cache_bytes(cached, s.kv_cache, allocated_tokens)
                                       : kv_cache_read_bytes(cached, s.kv_cache, allocated_tokens);
  m.kv_per_sequence_gib = kv_sequence_bytes * kv_share_per_gpu(s) / kBytesPerGib;
  m.recurrent_state_per_sequence_gib =
      recurrent_state_bytes(s.model) * state_share_per_gpu(s) / kBytesPerGib;
  const double per_sequence_gib = m.kv_per_sequence_gib + m.recurrent_state_per_sequence_gib;
  if (m.kv_budget_gib > 0 && per_sequence_gib > 0) {
    m.max_batch = static_cast<int>(std::min(std::floor(m.kv_budget_gib / per_sequence_gib), 1e6));
  }
  return m;
}

StepTime decode_step(const ReplicaSetup& s, double batch) {
  GPUTCO_REQUIRE(std::isfinite(batch) && batch >= 1, "batch must be at least 1, got " << batch);
  StepTime t;
  const bool llama = is_llama_cpp(s);
  // Engines run PP stages on micro-batches of batch / pp sequences at once; llama.cpp's layer
  // split stages take turns on the whole batch.
  const double micro_batch = llama ? batch : batch / s.pp;
  const int streams = std::max(1, static_cast<int>(std::ceil(micro_batch - 1e-9)));
  // Weight bytes a GPU reads per step, the dense part and the routed experts touched. A
  // step is pp micro-batch passes, each reading the GPU's stage once: per step a GPU reads
  // its share of every layer's weights, with the experts a micro-batch touches.
  double dense_bytes = weights_read_per_step_bytes(s.model, s.quant, streams) / s.tp;
  double expert_bytes = 0;
  if (!llama && s.model.is_moe()) {
    const WeightParts w = weight_parts(s);
    const double touched =
        expected_experts_touched(s.model.experts, s.model.experts_active, micro_batch) /
        s.model.experts;
    // Expert parallel: every GPU keeps the non-expert weights of its stage, the experts are
    // split among the TP GPUs; else both are split.
    dense_bytes = expert_parallel(s) ? w.other : w.other / s.tp;
    expert_bytes = w.experts * touched / s.tp;
  }
  const double resident = resident_tokens(s);
  // Attention reads the tokens held, not the cells allocated.
  const double kv_read =
      kv_cache_read_bytes(s.model, s.kv_cache, static_cast<int>(std::ceil(resident)));
  // A hybrid's recurrent state is read once a step per sequence, as for one stream
  // (speed.cpp).
  const double state_read = recurrent_state_bytes(s.model) * state_share_per_gpu(s);
  const double kv_bytes = batch * (kv_read * kv_share_per_gpu(s) + state_read) * (llama ? s.pp : 1);
  const double bandwidth = s.device.bandwidth_gbps * 1e9;
  // The GEMMs (weights) and the attention kernels (KV cache) of a layer run one after the
  // other: each takes the larger of its bytes over bandwidth and its FLOPs over compute.
  double weights_bw = 0, kv_bw = 0, compute_eff = 0, gemm_eff = 0, gpus = 1;
  double message = kActivationBytes * s.model.hidden * micro_batch;
  if (llama) {
    const DecodeConstants c = decode_constants(s.backend);
    weights_bw = kv_bw = decode_eta(c, s.device) * bandwidth;
    compute_eff = gemm_eff = prefill_efficiency(s.backend);
    gpus = s.tp;  // layer-split stages take turns
    t.fixed_s = decode_fixed_s(c, s.model) + (s.pp - 1) * layer_split_boundary_s(s.backend);
    t.communication_s = 2.0 * s.model.layers * tensor_parallel_allreduce_s(s.device, s.tp, message);
  } else {
    const ServingConstants& c = s.profile.constants;
    const double factor = efficiency_factor(s);
    weights_bw = kv_bw = c.bandwidth_efficiency * factor * bandwidth;
    compute_eff = gemm_eff = c.compute_efficiency * factor;
    gpus = static_cast<double>(s.tp) * s.pp;
    t.fixed_s = c.step_fixed_s * s.pp;  // once per micro-batch pass
    t.per_sequence_s = c.step_per_sequence_s * batch;
    t.communication_s = engine_communication_s(s, micro_batch) * s.pp;
  }
  // The dense GEMMs and the routed experts' grouped GEMMs are separate kernels, each with its
  // roofs; the experts' reach the MoE factors' shares of the dense kernels' efficiencies.
  const double dense_memory = dense_bytes / weights_bw;
  // llama.cpp's calibrated model keeps one roof over all its GEMMs.
  const double dense_compute =
      matmul_s(s, batch, gpus, gemm_eff, llama ? Gemms::all : Gemms::dense);
  const double expert_memory = expert_bytes / (weights_bw * moe_read_efficiency(s));
  const double expert_compute =
      llama ? 0.0 : matmul_s(s, batch, gpus, gemm_eff * moe_compute_efficiency(s), Gemms::experts);
  const double kv_memory = kv_bytes / kv_bw;
  const double attention_compute = attention_s(s, batch, resident, gpus, compute_eff);
  t.memory_s = dense_memory + expert_memory + kv_memory;
  t.compute_s = dense_compute + expert_compute + attention_compute;
  t.weights_s = std::max(dense_memory, dense_compute) + std::max(expert_memory, expert_compute);
  t.attention_s = std::max(kv_memory, attention_compute);
  double measured = s.step_time_factor;
  if (!s.step_corrections.empty()) {
    const double model_s =
        measured * (t.weights_s + t.attention_s + t.communication_s + t.fixed_s + t.per_sequence_s);
    measured *= step_correction(s.step_corrections, batch, model_s);
  }
  if (measured != 1.0) {
    // The user's runs measured the step slower or faster than the model: every part alike.
    for (double* part : {&t.weights_s, &t.attention_s, &t.communication_s, &t.fixed_s,
                         &t.per_sequence_s, &t.memory_s, &t.compute_s}) {
      *part *= measured;
    }
  }
  t.total_s = t.weights_s + t.attention_s + t.communication_s + t.fixed_s + t.per_sequence_s;
  return t;
}

namespace {

/// The model's prefill time per prompt token, before the measured runs' factor.
double prefill_model_s_per_token(const ReplicaSetup& s) {
  const double attended = s.input_tokens / 2.0;
  if (is_llama_cpp(s)) {
    // llama.cpp: layer split stages take turns; a tensor split works together (speed.hpp).
    const double e = prefill_efficiency(s.backend);
    return matmul_s(s, 1.0, s.tp, e) + attention_s(s, 1.0, attended, s.tp, e);
  }
  const ServingConstants& c = s.profile.constants;
  const double gpus = static_cast<double>(s.tp) * s.pp;
  const double e = c.compute_efficiency * efficiency_factor(s);
  // Under expert parallel a prompt token passes the all-to-alls as a decoded one does, in
  // chunks of the step's token budget (the links' latency once per chunk; the stages work at
  // once, as for the FLOPs). A dense model's TP all-reduces in prefill stay inside the fitted
  // tp_factor, which slows prefill's efficiency per doubling of TP (serving_profile.hpp).
  const double chunk = std::max(1, s.profile.step_token_budget);
  const double all_to_all = expert_parallel(s) ? engine_communication_s(s, chunk) / chunk : 0.0;
  return matmul_s(s, 1.0, gpus, e, Gemms::dense) +
         matmul_s(s, 1.0, gpus, e * moe_compute_efficiency(s), Gemms::experts) +
         attention_s(s, 1.0, attended, gpus, e) + all_to_all;
}

}  // namespace

double prefill_s_per_token(const ReplicaSetup& s) {
  return prefill_model_s_per_token(s) * s.prefill_time_factor;
}

namespace {

/// Layouts TP x PP of one replica that `count` GPUs hold a whole number of times.
std::vector<std::pair<int, int>> candidate_layouts(const ModelArch& model, int count,
                                                   const ServingLayout& fixed,
                                                   bool expert_parallel_engine) {
  std::vector<std::pair<int, int>> out;
  for (int tp = 1; tp <= count; ++tp) {
    if (count % tp != 0 || (fixed.tp > 0 && tp != fixed.tp)) continue;
    // Engines split an MoE model's experts (attention data parallel), a dense model's heads.
    if (expert_parallel_engine && model.is_moe()) {
      if (model.experts % tp != 0) continue;
    } else {
      if (model.heads % tp != 0) continue;
      if (!model.is_mla() && model.kv_heads % tp != 0 && tp % model.kv_heads != 0) continue;
    }
    for (int pp = 1; tp * pp <= count; ++pp) {
      if (count % (tp * pp) != 0 || (fixed.pp > 0 && pp != fixed.pp)) continue;
      if (pp > model.layers) continue;
      out.emplace_back(tp, pp);
    }
  }
  return out;
}

ReplicaSetup make_setup(const ServingRequest& r, const Device& device, int tp, int pp,
                        ComputePrecision compute, const MeasuredCalibration* measured = nullptr) {
  ReplicaSetup s;
  s.model = r.model;
  s.quant = r.quant;
  s.kv_cache = r.kv_cache;
  s.device = device;
  s.profile = engine_profile(r.engine, device.memory_nameplate_gb);
  if (r.constants && r.engine != ServingEngine::llama_cpp) s.profile.constants = *r.constants;
  if (r.max_batch) s.profile.max_batch = *r.max_batch;
  s.backend = r.engine == ServingEngine::llama_cpp ? r.backend : default_backend(device);
  s.compute = compute;
  s.tp = tp;
  s.pp = pp;
  s.input_tokens = r.input_tokens;
  s.output_tokens = r.output_tokens;
  s.memory_share = r.memory_share.value_or(s.profile.memory_share);
  s.tuned = r.tuned;
  s.memory_policy = r.memory_policy;
  if (measured != nullptr) {
    if (r.engine != ServingEngine::llama_cpp) s.profile.constants = measured->constants;
    s.step_time_factor = measured->step_time_factor;
    s.prefill_time_factor = measured->prefill_time_factor;
    s.step_corrections = step_corrections_for(*measured, tp, pp, r.input_tokens, r.output_tokens);
  }
  return s;
}

/// The fewest GPUs of `device` (1..64) one replica needs to hold the weights, the runtime and
/// one sequence; 0 when even 64 do not.
int gpus_needed(const ServingRequest& r, const Device& device, ComputePrecision compute) {
  for (int g = 1; g <= kMaxGpusTried; ++g) {
    for (const auto& [tp, pp] :
         candidate_layouts(r.model, g, ServingLayout{}, r.engine != ServingEngine::llama_cpp)) {
      if (tp * pp != g) continue;
      if (replica_memory(make_setup(r, device, tp, pp, compute)).max_batch >= 1) return g;
    }
  }
  return 0;
}

std::string layout_name(const ServingCapacity& c) {
  return fmt::format("TP{} x PP{}", c.tp, c.pp);
}

/// The best figure of a box that misses its target, as a phrase: "a p99 TPOT of 17.1 ms (58.4
/// tokens/s per user) at batch 1" or "a p99 TTFT of 950 ms (batch 1, no queue)".
std::string reached_figure(const ServingCapacity& c) {
  if (c.missed == LatencyMiss::ttft) {
    return fmt::format("a p99 TTFT of {:.0f} ms (batch 1, no queue)", c.ttft_p99_ms);
  }
  return fmt::format("a p99 TPOT of {:.1f} ms ({:.1f} tokens/s per user) at batch 1", c.tpot_p99_ms,
                     c.per_user_tokens_per_s);
}

/// The note of a box whose layouts searched all miss the latency targets: the best figure, the
/// layout reaching it (`best`, the nearest of the `fitting` layouts that hold the model) and
/// which layouts were searched; where the caller fixed TP or PP, what the layouts not searched
/// reach (a second search over them all).
std::string missed_target_note(const ServingRequest& request, const Device& device, int count,
                               const ServingLayout& layout, const ServingGoal& goal,
                               const ServingCapacity& best, int fitting) {
  const std::string figure =
      best.missed == LatencyMiss::ttft
          ? fmt::format("the p99 TTFT is at least {:.0f} ms (batch 1, no queue)", best.ttft_p99_ms)
          : fmt::format("at batch 1 the p99 TPOT is {:.1f} ms ({:.1f} tokens/s per user)",
                        best.tpot_p99_ms, best.per_user_tokens_per_s);
  const std::string head =
      fmt::format("no batch meets the target: {} with {}, ", figure, layout_name(best));
  const std::string box = fmt::format("{} x {}", count, device.id);
  if (layout.tp == 0 && layout.pp == 0) {
    return head + (fitting > 1 ? fmt::format("the best any layout reaches on {} ({} layouts hold "
                                             "the model)",
                                             box, fitting)
                               : fmt::format("the only layout that holds the model on {}", box));
  }
  std::string searched;
  if (layout.tp > 0 && layout.pp > 0) {
    searched =
        fmt::format("the best this layout reaches on {}; the other layouts were not searched", box);
  } else {
    const bool tp = layout.tp > 0;
    searched = fmt::format(
        "the best any layout with {}{} reaches on {} ({} of them hold the model); layouts with "
        "another {} were not searched",
        tp ? "TP" : "PP", tp ? layout.tp : layout.pp, box, fitting, tp ? "TP" : "PP");
  }
  // Every layout: a superset of those searched, so one holds the model and it does not throw
  // on that account.
  const ServingCapacity any = serving_capacity(request, device, count, ServingLayout{}, goal);
  const std::string others =
      any.target_met ? fmt::format("{} meets the target", layout_name(any))
      : nearer_latency_target(any, best)
          ? fmt::format("{} reaches {}", layout_name(any), reached_figure(any))
          : std::string("none does better");
  return head + searched + ": " + others;
}

/// The figures of `c` replaced by `run`'s own, measured at its shape (run_of_shape): the box's
/// throughput, the mean TPOT and TTFT and their 99th percentiles where the run measured them.
void use_measured_figures(ServingCapacity& c, const MeasuredServingRun& run) {
  c.output_tokens_per_s = run.output_tokens_per_s;
  c.output_tokens_per_s_per_replica = run.output_tokens_per_s / c.replicas;
  const double gpus = static_cast<double>(c.replicas) * c.gpus_per_replica;
  c.output_tokens_per_s_per_gpu = run.output_tokens_per_s / gpus;
  c.total_tokens_per_s_per_gpu =
      c.output_tokens_per_s_per_gpu * (1.0 + run.input_tokens / run.output_tokens);
  if (run.mean_tpot_ms > 0) {
    c.tpot_ms = run.mean_tpot_ms;
    c.per_user_tokens_per_s = kMs / run.mean_tpot_ms;
    c.tpot_p99_ms = run.p99_tpot_ms > 0 ? run.p99_tpot_ms : std::max(c.tpot_p99_ms, c.tpot_ms);
  }
  if (run.mean_ttft_ms > 0) {
    c.ttft_ms = run.mean_ttft_ms;
    c.ttft_p99_ms = run.p99_ttft_ms > 0 ? run.p99_ttft_ms : std::max(c.ttft_p99_ms, c.ttft_ms);
    c.ttft_includes_queueing = true;  // the benchmark's TTFT counts the engine's queue
  }
  c.calibration.measured_run_id = run.id;
  c.calibration.measured_run_file = run.file_name;
}

void check_request(const ServingRequest& r, const Device& device, int count,
                   const ServingGoal& goal) {
  validate_model(r.model);
  validate_quant(r.quant);
  GPUTCO_REQUIRE(count >= 1 && count <= 4096, "count must be between 1 and 4096, got " << count);
  GPUTCO_REQUIRE(r.input_tokens >= 1 && r.input_tokens <= 10'000'000,
                 "input tokens must be between 1 and 10,000,000, got " << r.input_tokens);
  GPUTCO_REQUIRE(r.output_tokens >= 1 && r.output_tokens <= 10'000'000,
                 "output tokens must be between 1 and 10,000,000, got " << r.output_tokens);
  const std::string beyond = context_beyond_model_reason(r.model, r.input_tokens + r.output_tokens);
  GPUTCO_REQUIRE(beyond.empty(), "input + output tokens: " << beyond);
  GPUTCO_REQUIRE(std::isfinite(device.bandwidth_gbps) && device.bandwidth_gbps > 0,
                 "device " << device.id << ": bandwidth must be positive");
  GPUTCO_REQUIRE(!r.memory_share || (*r.memory_share > 0 && *r.memory_share <= 1),
                 "memory share must be in (0, 1]");
  if (goal.mode == ServingGoal::Mode::batch) {
    GPUTCO_REQUIRE(goal.batch >= 1, "batch must be at least 1, got " << goal.batch);
  }
  if (goal.mode == ServingGoal::Mode::latency) {
    GPUTCO_REQUIRE(goal.tpot_p99_ms || goal.ttft_p99_ms || goal.user_tokens_per_s,
                   "a latency goal needs a TPOT or TTFT target or a per-user speed");
    for (const auto& target : {goal.tpot_p99_ms, goal.ttft_p99_ms, goal.user_tokens_per_s}) {
      GPUTCO_REQUIRE(!target || (std::isfinite(*target) && *target > 0),
                     "latency targets must be positive numbers");
    }
  }
}

}  // namespace

ReplicaSetup replica_setup(const ServingRequest& request, const Device& device, int tp, int pp) {
  const FormatSupport support =
      format_support(request.engine, request.quant.id, request.kv_cache, device);
  GPUTCO_REQUIRE(support.refusal.empty(), support.refusal);
  GPUTCO_REQUIRE(tp >= 1 && pp >= 1, "tp and pp must be at least 1, got " << tp << " and " << pp);
  return make_setup(request, device, tp, pp, support.compute);
}

bool nearer_latency_target(const ServingCapacity& a, const ServingCapacity& b) {
  // Missing only the TTFT is nearer than missing a per-token target.
  const auto rank = [](LatencyMiss m) {
    return m == LatencyMiss::none ? 0 : m == LatencyMiss::ttft ? 1 : 2;
  };
  if (rank(a.missed) != rank(b.missed)) return rank(a.missed) < rank(b.missed);
  constexpr double kTie = 1e-9;
  if (a.missed == LatencyMiss::ttft) return a.ttft_p99_ms < b.ttft_p99_ms * (1 - kTie);
  return a.tpot_p99_ms < b.tpot_p99_ms * (1 - kTie);
}

ServingCapacity serving_capacity(const ServingRequest& request, const Device& device, int count,
                                 const ServingLayout& layout, const ServingGoal& goal) {
  check_request(request, device, count, goal);
  const FormatSupport support =
      format_support(request.engine, request.quant.id, request.kv_cache, device);
  GPUTCO_REQUIRE(support.refusal.empty(), support.refusal);
  GPUTCO_REQUIRE(layout.tp >= 0 && layout.pp >= 0, "tp and pp must not be negative");
  GPUTCO_REQUIRE(layout.tp == 0 || layout.pp == 0 || count % (layout.tp * layout.pp) == 0,
                 "TP " << layout.tp << " x PP " << layout.pp << " = " << layout.tp * layout.pp
                       << " GPUs per replica does not divide the box of " << count << " GPUs");
  const auto layouts =
      candidate_layouts(request.model, count, layout, request.engine != ServingEngine::llama_cpp);
  GPUTCO_REQUIRE(!layouts.empty(), "no layout of "
                                       << count << " GPUs fits the fixed TP/PP: TP must divide "
                                       << count << " and the " << request.model.heads
                                       << " attention heads (and divide or be divided by the "
                                       << request.model.kv_heads << " KV heads), PP at most "
                                       << request.model.layers << " layers");
  // The user's runs of this model on this device and engine refit the constants.
  std::vector<MeasuredServingRun> runs;
  std::optional<MeasuredCalibration> measured;
  if (!request.measured_runs.empty()) {
    runs = runs_for(request, device, request.measured_runs);
    if (!runs.empty()) measured = calibrate_to_runs(request, device, runs);
  }
  const MeasuredCalibration* calibration = measured ? &*measured : nullptr;
  std::optional<ServingCapacity> best;
  double best_box = -1;
  int fitting = 0;
  for (const auto& [tp, pp] : layouts) {
    const ReplicaSetup s = make_setup(request, device, tp, pp, support.compute, calibration);
    const ReplicaMemory memory = replica_memory(s);
    if (memory.max_batch < 1) continue;
    ++fitting;
    const int cap = s.profile.max_batch > 0 ? std::min(memory.max_batch, s.profile.max_batch)
                                            : memory.max_batch;
    if (goal.mode == ServingGoal::Mode::batch && goal.batch > memory.max_batch) continue;
    // A layout whose whole-batch throughput cannot beat the best one met needs no latency
    // search (the searches under a TTFT target are the expensive part).
    if (goal.ttft_p99_ms && best && best->target_met &&
        serving_detail::evaluate(s, cap).output_per_s * (count / (tp * pp)) <= best_box) {
      continue;
    }
    const serving_detail::Choice choice = serving_detail::choose_batch(s, cap, goal);
    ServingCapacity c;
    c.engine = request.engine;
    c.engine_version = s.profile.version;
    c.tp = tp;
    c.pp = pp;
    c.gpus_per_replica = tp * pp;
    c.replicas = count / (tp * pp);
    c.compute = support.compute;
    c.memory = memory;
    c.max_batch_per_replica = cap;
    const serving_detail::Point& p = choice.point;
    c.batch_per_replica = static_cast<int>(std::lround(p.batch));
    c.step = p.step;
    c.prefill_ms_per_token = p.prefill_s * kMs;
    c.slot_utilization = p.utilization;
    c.output_tokens_per_s_per_replica = p.output_per_s;
    c.output_tokens_per_s = p.output_per_s * c.replicas;
    c.output_tokens_per_s_per_gpu = c.output_tokens_per_s / count;
    c.total_tokens_per_s_per_gpu =
        c.output_tokens_per_s_per_gpu *
        (1.0 + static_cast<double>(request.input_tokens) / request.output_tokens);
    c.per_user_tokens_per_s = 1.0 / p.tpot_s;
    c.tpot_ms = p.tpot_s * kMs;
    c.tpot_p99_ms = p.tpot_p99_s * kMs;
    c.ttft_ms = p.ttft_s * kMs;
    c.ttft_p99_ms = p.ttft_p99_s * kMs;
    c.ttft_includes_queueing = p.queued;
    c.target_met = choice.target_met;
    c.missed = choice.missed;
    if (choice.latency_capped && choice.target_met) {
      c.bound = ServingBound::latency_target;
    } else if (goal.mode != ServingGoal::Mode::batch && c.batch_per_replica >= memory.max_batch) {
      c.bound = ServingBound::kv_capacity;
    } else {
      c.bound = p.step.memory_s >= p.step.compute_s ? ServingBound::memory : ServingBound::compute;
    }
    if (goal.mode != ServingGoal::Mode::batch && s.profile.max_batch > 0 &&
        cap < memory.max_batch && c.batch_per_replica >= cap) {
      c.notes.push_back(fmt::format(
          "{}'s default cap of {} sequences per replica limits the batch (memory holds {})",
          display_name(request.engine), cap, memory.max_batch));
    }
    const double box = c.output_tokens_per_s;
    // Targets met first, then throughput; none met: the nearest the targets. Ties keep the
    // earlier (fewer GPUs, less PP).
    const bool better = !best || (c.target_met && !best->target_met) ||
                        (c.target_met && best->target_met && box > best_box * (1 + 1e-9)) ||
                        (!c.target_met && !best->target_met && nearer_latency_target(c, *best));
    if (better) {
      best = c;
      best_box = box;
    }
  }
  if (!best) {
    const ReplicaSetup one = make_setup(request, device, 1, 1, support.compute);
    const double weights_gib = weights_bytes(request.model, request.quant) / kBytesPerGib;
    if (goal.mode == ServingGoal::Mode::batch && fitting > 0) {
      int most = 0;
      for (const auto& [tp, pp] : layouts) {
        most = std::max(
            most, replica_memory(make_setup(request, device, tp, pp, support.compute)).max_batch);
      }
      throw EngineError(fmt::format(
          "batch {} does not fit: the KV cache holds at most {} sequences of {} tokens per "
          "replica on {} x {} (use --max-batch, a smaller batch, or an fp8 KV cache)",
          goal.batch, most, static_cast<int>(std::ceil(resident_tokens(one))), count, device.id));
    }
    const int needed = gpus_needed(request, device, support.compute);
    throw EngineError(fmt::format(
        "{} in {} ({:.1f} GiB of weights) fits no layout on {} x {} with {}: {}", request.model.id,
        request.quant.id, weights_gib, count, device.id, display_name(request.engine),
        needed > count
            ? fmt::format("one replica needs at least {} GPUs of this kind for its weights, "
                          "runtime and one sequence's KV cache (--count {}), or lower-bit weights",
                          needed, needed)
        : needed > 0 ? fmt::format("{} GPUs would hold it, but no TP x PP layout of {} divides the "
                                   "model's heads and layers",
                                   needed, count)
                     : fmt::format("even {} GPUs of this kind do not hold it", kMaxGpusTried)));
  }
  ServingCapacity result = *best;
  result.layout_chosen = layout.tp == 0 || layout.pp == 0;
  if (!result.target_met) {
    result.notes.insert(result.notes.begin(),
                        missed_target_note(request, device, count, layout, goal, result, fitting));
  }
  if (result.layout_chosen && layouts.size() > 1) {
    result.notes.insert(
        result.notes.begin(),
        fmt::format("layout chosen for {}: TP{} x PP{}, {} replica(s) of {} GPU(s) ({} of {} "
                    "layouts hold the model)",
                    result.target_met ? "the highest throughput at the goal"
                                      : "the lowest latency (no layout meets the target)",
                    result.tp, result.pp, result.replicas, result.gpus_per_replica, fitting,
                    layouts.size()));
  }
  if (measured) {
    result.calibration = measured->summary;
    if (const MeasuredServingRun* run = run_of_shape(runs, request, result, count)) {
      use_measured_figures(result, *run);
    }
  }
  if (!support.fallback.empty()) result.notes.push_back(support.fallback);
  if (!(peak_tflops(device, support.compute) > 0) || !(device.fp16_tflops > 0)) {
    result.notes.push_back("compute peak of " + device.id +
                           " unknown: memory roof only, prefill "
                           "not counted");
  }
  return result;
}

}  // namespace gputco
