// Serving throughput as GPUs are really run: an engine (engine/serving/serving_profile.hpp) serves
// a model with continuous batching on a box of GPUs laid out as tensor parallel x pipeline
// parallel x replicas, at a batch set by memory, by the user, or by latency targets.
//
// The step model (DOMAIN "Serving at scale" V1-V7), per replica of TP x PP GPUs at batch B
// (sequences in flight), mean resident context c = input + output / 2 (V3); the efficiencies
// and factors are ServingConstants (engine/serving/serving_profile.hpp):
//   decode step  T(B) = T_gemm + T_attention + T_comm + T_fixed                           (V1)
//     both roofs for each kind of kernel, which run one after the other in a layer:
//     T_gemm    = max(weight bytes per GPU / bandwidth, B x matmul FLOPs / compute)      (V2)
//                 weights read for a micro-batch of B / PP sequences, / TP; an MoE model's
//                 dense GEMMs and routed experts' grouped GEMMs are two such terms, the
//                 experts' at the MoE factors' shares of the efficiencies (the experts that
//                 b tokens touch, E (1 - (1 - k / E)^b) per layer; with expert parallel each
//                 GPU reads its stage's dense weights whole, and 1 / TP of the experts)
//     T_attention = max(B x the KV cache of c tokens per GPU / bandwidth,
//                 B x attention FLOPs / 16-bit compute)
//                 (GQA heads and an MLA latent are replicated where TP exceeds them)
//     T_comm    = 2 all-reduces per layer of B / PP tokens' activations (dense TP)        (V5)
//                 or 2 all-to-alls per layer (MoE: experts split, attention data parallel;
//                 a token goes once to each GPU holding one of its experts,
//                 expected_remote_ranks),
//                 + PP sends of each micro-batch
//     T_fixed   = the engine's fixed cost per micro-batch pass (scheduling, launches, sampling)
//   prefill     t_p = (matmul FLOPs / compute + attention FLOPs at input / 2 / 16-bit
//                 compute) / (TP x PP) per prompt token (routed experts' FLOPs at the MoE
//                 factor's share), + under expert parallel the all-to-alls of a prompt
//                 token, in chunks of the step's token budget (a dense model's TP all-reduces
//                 in prefill are inside the fitted TP factor)
//   throughput  X = output / (output x T / B + input x t_p) per replica (chunked prefill of
//                 the requests replacing finished ones rides inside the steps)            (V4)
//   mean TPOT   = T + (B - 1) x input / output x t_p: a request's (latency - TTFT) /
//                 (output - 1), as MLPerf's LoadGen and vLLM's benchmark_serving define it;
//                 its own prompt is in its TTFT, so its steps carry the prefill of the B - 1
//                 others that turn over during its decode (the box's steps, B / X, carry all
//                 B); p99 TPOT = that average when the others' prompts prefilled during its
//                 decode are the 99th percentile of a Poisson count                      (V6)
//   TTFT        = own prefill (input x t_p + its chunks' steps) + the p99 wait for a batch
//                 slot (M/M/c, c = B, engine/serving/serving_queue.hpp) (V7)
// llama.cpp takes its calibrated decode constants instead (engine/hardware/calibration.hpp): the
// share of bandwidth and fixed cost of its backend, layer split stages working one at a time.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/hardware.hpp"
#include "engine/serving/serving_profile.hpp"
#include "engine/serving/serving_run.hpp"

namespace gputco {

/// What is served and how: model, weights, cache, engine, and the request shape.
struct ServingRequest {
  ModelArch model;
  Quant quant;  ///< the weight format (catalog quant: BF16, FP8, NVFP4, MXFP4, INT4-AWQ, GGUF)
  KvCacheType kv_cache = KvCacheType::f16;
  ServingEngine engine = ServingEngine::vllm;
  /// llama.cpp's backend (its calibrated constants); the other engines ignore it.
  Backend backend = Backend::cuda;
  int input_tokens = 1000;   ///< mean prompt tokens per request
  int output_tokens = 1000;  ///< mean generated tokens per request
  /// The engine's memory share if not its default (vLLM --gpu-memory-utilization 0.95,
  /// TensorRT-LLM --kv_cache_free_gpu_mem_fraction 0.95); nullopt: the profile's.
  std::optional<double> memory_share;
  /// The engine's cap on sequences per replica if not its default; nullopt: the profile's.
  std::optional<int> max_batch;
  /// The step model's constants if not the profile's (calibration refits them); nullopt: the
  /// profile's. Ignored for llama.cpp, whose constants are its backend's.
  std::optional<ServingConstants> constants;
  /// A vendor-tuned benchmark submission (MLPerf closed), not the released engine with its
  /// defaults: the efficiencies take ServingConstants::tuned_factor.
  bool tuned = false;
  /// Usable memory of llama.cpp (fit.hpp) and the firmware's share of every GPU's memory.
  MemoryPolicy memory_policy;
  /// The engine release whose profile serves the request ("0.10", "0.5.6"); "" = the newest the
  /// data supports (engine_profile).
  std::string engine_version;
  /// The user's measured runs of this model (engine/serving/serving_run.hpp): those of the device
  /// and engine asked (engine/serving/serving_measured.hpp runs_for) refit the constants and, where
  /// the request has a run's shape, give the figures (ServingCapacity::calibration says which).
  std::vector<MeasuredServingRun> measured_runs;
};

/// How the GPUs of a box are laid out: tensor parallel x pipeline parallel GPUs per replica;
/// a box of N GPUs runs N / (tp x pp) replicas. 0 = chosen for the goal.
struct ServingLayout {
  int tp = 0;
  int pp = 0;
};

/// What sets the batch (sequences in flight per replica).
struct ServingGoal {
  enum class Mode {
    batch,      ///< `batch` sequences (capped by memory: a larger one is refused)
    max_batch,  ///< as many as memory and the engine's cap allow (offline throughput)
    latency     ///< the largest that meets the targets below at the 99th percentile
  };
  Mode mode = Mode::max_batch;
  int batch = 0;
  std::optional<double> tpot_p99_ms;        ///< time per output token, 99th percentile
  std::optional<double> ttft_p99_ms;        ///< time to first token under load, 99th percentile
  std::optional<double> user_tokens_per_s;  ///< per-user speed (1 / mean TPOT) at least this
};

/// What limits the throughput at the chosen batch.
enum class ServingBound {
  memory,         ///< the step is bound by bytes over bandwidth
  compute,        ///< the step is bound by FLOPs over the tensor peak
  kv_capacity,    ///< the KV cache caps the batch (V3)
  latency_target  ///< a latency target caps the batch (V6)
};
/// "memory", "compute", "kv_capacity", "latency_target". Never throws.
std::string to_string(ServingBound bound);

/// Which latency target a box misses when no batch of any layout searched meets them.
enum class LatencyMiss {
  none,  ///< the targets are met (or none was asked)
  tpot,  ///< the p99 TPOT or per-user speed target: even one sequence at a time misses it
  ttft   ///< the per-token targets are met, the p99 TTFT target not even with no queue
};

/// One decode step's time and its parts, seconds (see the file comment). total = weights +
/// attention + communication + fixed + per sequence; memory and compute are the two roofs summed
/// over the GEMMs and the attention (what bounds the step: the larger).
struct StepTime {
  double weights_s = 0;    ///< the GEMMs: max(weight bytes / bandwidth, FLOPs / compute)
  double attention_s = 0;  ///< attention: max(KV bytes / bandwidth, FLOPs / 16-bit compute)
  double communication_s = 0;
  double fixed_s = 0;
  double per_sequence_s = 0;  ///< the engine's host-side cost of the batch's sequences
  double total_s = 0;
  double memory_s = 0;   ///< weight bytes / bandwidth + KV bytes / bandwidth
  double compute_s = 0;  ///< GEMM FLOPs / compute + attention FLOPs / 16-bit compute
  /// The measured runs' factors would have taken the step below what the hardware allows
  /// (every byte at the nameplate bandwidth, every FLOP at the peak): held at that floor.
  bool at_hardware_floor = false;
};

/// Everything the step model needs for one replica, resolved (see resolve_replica).
struct ReplicaSetup {
  ModelArch model;
  Quant quant;
  KvCacheType kv_cache = KvCacheType::f16;
  Device device;
  EngineProfile profile;
  Backend backend = Backend::cuda;
  ComputePrecision compute = ComputePrecision::fp16;
  int tp = 1;
  int pp = 1;
  int input_tokens = 1000;
  int output_tokens = 1000;
  double memory_share = 0.9;
  bool tuned = false;  ///< ServingRequest::tuned
  MemoryPolicy memory_policy;
  /// Factors on every decode step's time and on the prefill time per prompt token, from the
  /// user's measured runs (engine/serving/serving_measured.hpp); 1 = none.
  double step_time_factor = 1;
  double prefill_time_factor = 1;
  /// The steps the measured runs of this replica's shape imply (engine/serving/serving_measured.hpp
  /// StepCorrection), in increasing batch; empty = none (step_correction applies them).
  std::vector<MeasuredStepPoint> step_corrections;
};

/// Memory of one GPU of a replica, GiB, and the batch it holds.
struct ReplicaMemory {
  double device_gib = 0;     ///< what the runtime sees (nameplate less the firmware's share)
  double weights_gib = 0;    ///< weights per GPU (all weights / (tp x pp))
  double reserve_gib = 0;    ///< activations, graphs, workspaces (engine profile)
  double kv_budget_gib = 0;  ///< left for the KV cache (negative: the weights do not fit)
  /// KV cache one sequence holds at the mean resident context (input + output / 2), in whole
  /// blocks, on one GPU.
  double kv_per_sequence_gib = 0;
  /// Recurrent state one sequence holds on one GPU (the linear-attention / state-space layers
  /// of a hybrid, recurrent_state_bytes: f32, whatever the context), beside its KV cache in
  /// the same budget; 0 for a transformer.
  double recurrent_state_per_sequence_gib = 0;
  /// Sequences the budget holds, KV cache and recurrent state (0: none), before the engine's
  /// cap.
  int max_batch = 0;
};

/// Whether a request of `output_tokens` output tokens has a time per output token (TPOT) and a
/// per-user speed: at least two tokens; a single one is its first token, timed by the TTFT
/// alone. Never throws.
bool has_time_per_output_token(int output_tokens);

/// Expected distinct experts a step touches per MoE layer when `tokens` tokens each pick
/// `active` of `experts` uniformly: experts x (1 - (1 - active / experts)^tokens). 0 for a
/// dense model (experts 0). Throws EngineError on negative tokens or active > experts.
double expected_experts_touched(int experts, int active, double tokens);

/// Expected GPUs other than its own that one token's hidden state is sent to under expert
/// parallelism over `ranks` GPUs holding experts / ranks of the `experts` each, when the token
/// picks `active` experts uniformly: (ranks - 1) x (1 - C(E - E / ranks, k) / C(E, k)). The
/// dispatch sends a token once to every GPU holding at least one of its k experts and the
/// combine brings one partial sum back from each (TensorRT-LLM's and DeepEP's all-to-all), so
/// a step moves far fewer copies than k per token when the GPUs are few: with 128 experts and
/// 8 active, 1.0 remote GPU of 2, 2.7 of 4, 4.7 of 8. 0 for one rank or a dense model. Throws
/// EngineError on ranks < 1 or active > experts.
double expected_remote_ranks(int experts, int active, int ranks);

/// The replica `request` runs as on TP x PP GPUs of `device`: its engine's profile (at the
/// request's version), the compute precision format_support gives, the request's overrides.
/// The measured runs are not applied (serving_capacity applies them). Throws EngineError when
/// the engine cannot run the weight format or KV cache on the device (format_support's refusal).
ReplicaSetup replica_setup(const ServingRequest& request, const Device& device, int tp, int pp);

/// Memory of one GPU of `setup`'s replica. Throws EngineError on an invalid model or quant.
ReplicaMemory replica_memory(const ReplicaSetup& setup);

/// One decode step of `setup`'s replica at `batch` sequences (>= 1, may be fractional: the
/// mean of a batch), seconds. Never below the hardware's floor (each kernel at the larger of
/// its bytes over the nameplate bandwidth and its FLOPs over the peak), whatever factor the
/// measured runs refitted (StepTime::at_hardware_floor). Throws EngineError on a batch below 1.
StepTime decode_step(const ReplicaSetup& setup, double batch);

/// Replica time per prompt token of prefill, seconds (the whole replica works on it); never
/// below the token's FLOPs at the replica's peak, whatever factor the measured runs refitted.
double prefill_s_per_token(const ReplicaSetup& setup);

/// The capacity of a box, what `gputco throughput` prints and plans are sized from.
struct ServingCapacity {
  ServingEngine engine = ServingEngine::vllm;
  std::string engine_version;  ///< the version the profile's defaults and constants are for
  int tp = 1;
  int pp = 1;
  int gpus_per_replica = 1;
  int replicas = 1;
  bool layout_chosen = false;  ///< the layout was chosen for the goal (not fixed by the user)
  ComputePrecision compute = ComputePrecision::fp16;
  int batch_per_replica = 0;       ///< sequences in flight per replica at the operating point
  int max_batch_per_replica = 0;   ///< the most memory and the engine's cap allow
  double output_tokens_per_s = 0;  ///< the whole box
  double output_tokens_per_s_per_replica = 0;
  double output_tokens_per_s_per_gpu = 0;
  double total_tokens_per_s_per_gpu = 0;  ///< input + output (InferenceX's count, V9)
  double per_user_tokens_per_s = 0;       ///< 1 / mean TPOT
  double tpot_ms = 0;                     ///< mean time per output token
  double tpot_p99_ms = 0;
  double ttft_ms = 0;      ///< mean time to first token (with queueing under a TTFT target)
  double ttft_p99_ms = 0;  ///< 99th percentile
  bool ttft_includes_queueing = false;  ///< false: prefill alone (offline: all queued at once)
  double slot_utilization = 1;          ///< share of batch slots busy at the operating point
  StepTime step;                        ///< at batch_per_replica
  double prefill_ms_per_token = 0;      ///< replica time per prompt token
  ServingBound bound = ServingBound::memory;
  ReplicaMemory memory;  ///< per GPU
  /// A latency target was asked and no batch of any layout searched meets it: the figures are
  /// the best reachable (batch 1) of the layout that comes nearest (nearer_latency_target), and
  /// `notes` says so, naming it, and (for a layout fixed by the caller) what the others reach.
  bool target_met = true;
  /// The target missed when target_met is false (none when met).
  LatencyMiss missed = LatencyMiss::none;
  /// What was assumed, chosen or fell back, one sentence each (layout chosen, FP8 weight-only,
  /// the engine's batch cap, ...).
  std::vector<std::string> notes;
  /// Which figures rest on the user's measured runs (runs == 0: none, the published constants).
  ServingCalibrationSummary calibration;
};

/// Whether `a` comes nearer the latency targets than `b`, both missing them (target_met
/// false): meeting the per-token targets and missing only the TTFT (LatencyMiss::ttft) is
/// nearer than missing a per-token one (tpot); then the lower p99 TPOT at batch 1 (the same
/// order as the higher per-user speed: one sequence at a time has no other prompt in its
/// steps), or the lower p99 TTFT with no queue. False on a tie. Never throws.
bool nearer_latency_target(const ServingCapacity& a, const ServingCapacity& b);

/// Serving capacity of `request` on `count` GPUs of `device` with `engine`'s profile.
/// Layout: the one given, else every TP x PP dividing `count` (TP dividing the attention heads
/// and dividing or divided by the KV heads, PP at most the layers), keeping the one with the
/// highest box throughput at the goal (ties: fewer GPUs per replica, then less PP); when no
/// layout meets the latency targets, the one nearest them (nearer_latency_target), its note
/// "no batch meets the target: ..." naming it and the layouts searched.
/// Batch: ServingGoal. Throws EngineError when the engine cannot run the format on the device
/// (format_support's refusal), when a fixed layout is invalid, when the model fits no layout
/// (naming how many GPUs of the device would hold it), when a fixed batch exceeds what memory
/// holds, and on invalid inputs (tokens < 1, count < 1, a model or quant out of domain). A
/// latency target no batch meets is not an error: target_met is false and notes say why.
/// A device with a power limit is served as with_power_limit_applied sees it (tensor peaks x
/// the compute share; engine/hardware/power_limit.hpp), and a limit it refuses throws.
ServingCapacity serving_capacity(const ServingRequest& request, const Device& device, int count,
                                 const ServingLayout& layout, const ServingGoal& goal);

}  // namespace gputco
