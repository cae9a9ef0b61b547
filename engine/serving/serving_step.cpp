// The step model of the serving engines (engine/serving/serving.hpp's file comment): one replica's
// memory per GPU, its decode step at a batch and its prefill per prompt token. The layout
// search, the batch choice and the box's figures are engine/serving/serving.cpp's and
// engine/serving/serving_batch.cpp's.
#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "engine/hardware/speed.hpp"
#include "engine/serving/serving.hpp"
#include "engine/serving/serving_measured.hpp"

namespace gputco {

namespace {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
constexpr double kActivationBytes = 2.0;  // 16-bit hidden state per token on the wire

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
/// The GEMMs' time for `tokens` tokens at the `part`'s FLOPs over the `gpus` GPUs' peak at the
/// plan's compute precision, no efficiency: the floor no engine beats.
double peak_matmul_s(const ReplicaSetup& s, double tokens, double gpus, Gemms part) {
  const double peak = flops_per_s(peak_tflops(s.device, s.compute));
  if (!(peak > 0)) return 0;
  const double all = matmul_flops_per_token(s.model);
  const double experts = expert_flops_per_token(s.model);
  const double flops = part == Gemms::all ? all : part == Gemms::experts ? experts : all - experts;
  return tokens * flops / (peak * gpus);
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
  // What no run can beat: every byte at the full bandwidth and every FLOP at the peak, each
  // kernel at the larger of the two (the model's roofs without its efficiencies).
  const double floor_s =
      std::max(dense_bytes / bandwidth, peak_matmul_s(s, batch, gpus, Gemms::dense)) +
      std::max(expert_bytes / bandwidth, peak_matmul_s(s, batch, gpus, Gemms::experts)) +
      std::max(kv_bytes / bandwidth, attention_s(s, batch, resident, gpus, 1.0));
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
  if (t.total_s < floor_s && t.total_s > 0) {
    // Runs at another layout (or contradictory ones) refitted the step below the hardware's
    // roofs: held at them, every part alike.
    const double up = floor_s / t.total_s;
    for (double* part : {&t.weights_s, &t.attention_s, &t.communication_s, &t.fixed_s,
                         &t.per_sequence_s, &t.memory_s, &t.compute_s, &t.total_s}) {
      *part *= up;
    }
    t.at_hardware_floor = true;
  }
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
  // No factor from measured runs takes a prompt token below the FLOPs at the GPUs' peak (the
  // stages of a pipeline working at once, as in the model; llama.cpp's layer split in turns).
  const double gpus = is_llama_cpp(s) ? s.tp : static_cast<double>(s.tp) * s.pp;
  const double floor_s = peak_matmul_s(s, 1.0, gpus, Gemms::all) +
                         attention_s(s, 1.0, s.input_tokens / 2.0, gpus, 1.0);
  return std::max(prefill_model_s_per_token(s) * s.prefill_time_factor, floor_s);
}

}  // namespace gputco
