#include "engine/serving/serving.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
#include "engine/hardware/model_bytes.hpp"
#include "engine/hardware/power_limit.hpp"
#include "engine/hardware/speed.hpp"
#include "engine/serving/serving_batch.hpp"
#include "engine/serving/serving_measured.hpp"

namespace gputco {

namespace {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
constexpr double kMs = 1000.0;
/// The most GPUs the "what would fit" search of an error message tries.
constexpr int kMaxGpusTried = 64;

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

namespace serving_detail {

ReplicaSetup make_setup(const ServingRequest& r, const Device& device, int tp, int pp,
                        ComputePrecision compute, const MeasuredCalibration* measured) {
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

}  // namespace serving_detail

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

/// The fewest GPUs of `device` (1..64) one replica needs to hold the weights, the runtime and
/// one sequence; 0 when even 64 do not.
int gpus_needed(const ServingRequest& r, const Device& device, ComputePrecision compute) {
  for (int g = 1; g <= kMaxGpusTried; ++g) {
    for (const auto& [tp, pp] :
         candidate_layouts(r.model, g, ServingLayout{}, r.engine != ServingEngine::llama_cpp)) {
      if (tp * pp != g) continue;
      if (replica_memory(serving_detail::make_setup(r, device, tp, pp, compute)).max_batch >= 1)
        return g;
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
  return serving_detail::make_setup(request, device, tp, pp, support.compute);
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

namespace {

/// The capacity of `count` GPUs as replicas of the layout of `s` at the batch `choice` took:
/// throughput of the box, per GPU and per user, latency, what bounds it, and a note when the
/// engine's default cap, not memory, limits the batch. cap: the batch cap (sequences per
/// replica); memory: the replica's (replica_memory). Throws nothing but std::bad_alloc.
ServingCapacity capacity_of_layout(const ServingRequest& request, const ReplicaSetup& s,
                                   const ReplicaMemory& memory, int cap, int count,
                                   const ServingGoal& goal, const FormatSupport& support,
                                   const serving_detail::Choice& choice) {
  const int tp = s.tp, pp = s.pp;
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
  if (goal.mode != ServingGoal::Mode::batch && s.profile.max_batch > 0 && cap < memory.max_batch &&
      c.batch_per_replica >= cap) {
    c.notes.push_back(fmt::format(
        "{}'s default cap of {} sequences per replica limits the batch (memory holds {})",
        display_name(request.engine), cap, memory.max_batch));
  }
  return c;
}

/// Throws EngineError saying why no layout of `count` GPUs serves `request`: a fixed batch the
/// KV cache does not hold (`fitting` layouts held the weights), or the GPUs one replica needs.
[[noreturn]] void throw_no_layout(const ServingRequest& request, const Device& device, int count,
                                  const ServingGoal& goal, const FormatSupport& support,
                                  const std::vector<std::pair<int, int>>& layouts, int fitting) {
  const ReplicaSetup one = serving_detail::make_setup(request, device, 1, 1, support.compute);
  const double weights_gib = weights_bytes(request.model, request.quant) / kBytesPerGib;
  if (goal.mode == ServingGoal::Mode::batch && fitting > 0) {
    int most = 0;
    for (const auto& [tp, pp] : layouts) {
      most = std::max(
          most, replica_memory(serving_detail::make_setup(request, device, tp, pp, support.compute))
                    .max_batch);
    }
    throw EngineError(fmt::format(
        "batch {} does not fit: the KV cache holds at most {} sequences of {} tokens per "
        "replica on {} x {} (use --max-batch, a smaller batch, or an fp8 KV cache)",
        goal.batch, most, static_cast<int>(std::ceil(one.input_tokens + one.output_tokens / 2.0)),
        count, device.id));
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

}  // namespace

namespace {

/// True when one of the user's runs `runs` ran TP `tp` x PP `pp`.
bool is_measured_layout(const std::vector<MeasuredServingRun>& runs, int tp, int pp) {
  return std::any_of(runs.begin(), runs.end(), [&](const MeasuredServingRun& run) {
    const ServingLayout l = run_layout(run);
    return l.tp == tp && l.pp == pp;
  });
}

/// Where the layout `result` took is none of the runs' (`runs`, not empty): says so in its
/// calibration summary with the layouts they ran, the refitted model's extrapolation.
void say_unmeasured_layout(ServingCapacity& result, const std::vector<MeasuredServingRun>& runs) {
  if (is_measured_layout(runs, result.tp, result.pp)) return;
  std::string layouts_measured;
  for (const MeasuredServingRun& run : runs) {
    const ServingLayout l = run_layout(run);
    const std::string text = fmt::format("TP{} x PP{}", l.tp, l.pp);
    if (layouts_measured.find(text) == std::string::npos) {
      layouts_measured += (layouts_measured.empty() ? "" : ", ") + text;
    }
  }
  result.calibration.unmeasured_layout = fmt::format("TP{} x PP{}", result.tp, result.pp);
  result.calibration.measured_layouts = layouts_measured;
}

}  // namespace

ServingCapacity serving_capacity(const ServingRequest& request, const Device& installed, int count,
                                 const ServingLayout& layout, const ServingGoal& goal) {
  // A power limit lowers the compute roofs (engine/hardware/power_limit.hpp); the rest sees the
  // roofs.
  const Device device = with_power_limit_applied(installed);
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
  bool best_measured = false;
  int fitting = 0;
  for (const auto& [tp, pp] : layouts) {
    const ReplicaSetup s =
        serving_detail::make_setup(request, device, tp, pp, support.compute, calibration);
    const ReplicaMemory memory = replica_memory(s);
    if (memory.max_batch < 1) continue;
    ++fitting;
    const int cap = s.profile.max_batch > 0 ? std::min(memory.max_batch, s.profile.max_batch)
                                            : memory.max_batch;
    if (goal.mode == ServingGoal::Mode::batch && goal.batch > memory.max_batch) continue;
    // A layout whose whole-batch throughput cannot beat the best one met needs no latency
    // search (the searches under a TTFT target are the expensive part).
    if (goal.ttft_p99_ms && best && best->target_met &&
        (best_measured || !is_measured_layout(runs, tp, pp)) &&
        serving_detail::evaluate(s, cap).output_per_s * (count / (tp * pp)) <= best_box) {
      continue;
    }
    const ServingCapacity c = capacity_of_layout(request, s, memory, cap, count, goal, support,
                                                 serving_detail::choose_batch(s, cap, goal));
    const double box = c.output_tokens_per_s;
    const bool measured_layout = is_measured_layout(runs, tp, pp);
    // Targets met first, then a layout the user's runs measured (measurements win over the
    // refitted model's extrapolation to another layout), then throughput; none met: the
    // nearest the targets. Ties keep the earlier (fewer GPUs, less PP).
    const bool both_met = c.target_met && best && best->target_met;
    const bool better =
        !best || (c.target_met && !best->target_met) ||
        (both_met && measured_layout && !best_measured) ||
        (both_met && measured_layout == best_measured && box > best_box * (1 + 1e-9)) ||
        (!c.target_met && !best->target_met && nearer_latency_target(c, *best));
    if (better) {
      best = c;
      best_box = box;
      best_measured = measured_layout;
    }
  }
  if (!best) throw_no_layout(request, device, count, goal, support, layouts, fitting);
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
    say_unmeasured_layout(result, runs);
    if (const MeasuredServingRun* run = run_of_shape(runs, request, result, count)) {
      use_measured_figures(result, *run);
    }
  }
  if (result.step.at_hardware_floor) {
    result.notes.push_back(
        "the refit to your runs would take the decode step below what the hardware allows: held "
        "at each kernel's bytes over the nameplate bandwidth or FLOPs over the peak");
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
