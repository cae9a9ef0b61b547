#include "engine/fleet/serving_capacity_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/serving/serving_measured.hpp"

namespace gputco {

namespace {

/// Whether the workload states any latency target (tpot, ttft or per-user speed).
bool has_latency_target(const WorkloadInputs& w) {
  return w.tpot_p99_ms || w.ttft_p99_ms || w.user_tokens_per_s;
}

/// A stated token count per request as serving_capacity takes it: rounded, at least 1.
int whole_tokens(double tokens) {
  return static_cast<int>(std::clamp(std::round(tokens), 1.0, 1e9));
}

/// A latency target that `capacity` misses: the sentence ("[workload] tpot_ms = 5 ... the
/// best achievable is ...") and the key it names.
struct MissedTarget {
  std::string text;  ///< "" when every target is met (as figures say)
  std::string key;   ///< the [workload] key of the missed target
};

/// The first target of `goal` that `capacity` misses, with the best figure; empty text when it
/// meets them all (as figures say; target_met is the serving model's verdict).
MissedTarget missed_target(const ServingGoal& goal, const ServingCapacity& capacity) {
  if (goal.tpot_p99_ms && capacity.tpot_p99_ms > *goal.tpot_p99_ms) {
    return {fmt::format("[workload] tpot_ms = {:g} (time per output token, p99) is met by no "
                        "batch and no layout: the best achievable is {:.2f} ms",
                        *goal.tpot_p99_ms, capacity.tpot_p99_ms),
            "tpot_ms"};
  }
  if (goal.ttft_p99_ms && capacity.ttft_p99_ms > *goal.ttft_p99_ms) {
    return {fmt::format("[workload] ttft_ms = {:g} (time to first token, p99) is met by no "
                        "batch and no layout: the best achievable is {:.1f} ms",
                        *goal.ttft_p99_ms, capacity.ttft_p99_ms),
            "ttft_ms"};
  }
  if (goal.user_tokens_per_s && capacity.per_user_tokens_per_s < *goal.user_tokens_per_s) {
    return {fmt::format("[workload] user_tokens_per_s = {:g} (per-user speed) is met by no "
                        "batch and no layout: the best achievable is {:.2f} tokens/s",
                        *goal.user_tokens_per_s, capacity.per_user_tokens_per_s),
            "user_tokens_per_s"};
  }
  return {};
}

}  // namespace

bool sized_by_serving_model(const OptionInputs& o, const WorkloadInputs& w) {
  if (o.kind == OptionKind::api) return false;
  return o.engine != ServingEngine::llama_cpp || has_latency_target(w);
}

ServingGoal plan_serving_goal(const WorkloadInputs& w) {
  ServingGoal goal;
  if (has_latency_target(w)) {
    goal.mode = ServingGoal::Mode::latency;
    goal.tpot_p99_ms = w.tpot_p99_ms;
    goal.ttft_p99_ms = w.ttft_p99_ms;
    goal.user_tokens_per_s = w.user_tokens_per_s;
  } else {
    goal.mode = ServingGoal::Mode::max_batch;
  }
  return goal;
}

ServingRequest plan_serving_request(const PlanInputs& in, const OptionInputs& o) {
  const WorkloadInputs& w = in.workload;
  GPUTCO_REQUIRE(w.prompt_tokens_per_request && w.output_tokens_per_request,
                 "option " << o.id << " (engine " << to_string(o.engine)
                           << "): the serving model batches requests: set [workload] "
                              "prompt_tokens_per_request and output_tokens_per_request");
  ServingRequest r;
  r.model = in.model;
  r.quant = o.quant.value_or(in.quant);
  const KvCacheType k = w.kv_cache.k;
  r.kv_cache = k == KvCacheType::f32 || k == KvCacheType::bf16 ? KvCacheType::f16 : k;
  r.engine = o.engine;
  r.backend = o.backend;
  r.input_tokens = whole_tokens(*w.prompt_tokens_per_request);
  r.output_tokens = whole_tokens(*w.output_tokens_per_request);
  r.memory_policy = in.memory_policy;
  r.measured_runs = in.measured_runs;
  return r;
}

std::string with_scenario_keys(const std::string& message, const std::string& option_id) {
  // The serving model's refusals name `gputco throughput`'s flags; a plan sets the same
  // choices with scenario keys (README, scenario-key table).
  static const std::regex flag(
      R"((--(engine|quant|kv-cache|count) ([A-Za-z0-9_.-]+(?: or [A-Za-z0-9_.-]+)?)))");
  std::string out;
  auto begin = std::sregex_iterator(message.begin(), message.end(), flag);
  size_t copied = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += message.substr(copied, static_cast<size_t>(m.position(0)) - copied);
    const std::string name = m[2].str();
    const std::string value = m[3].str();
    if (name == "kv-cache") {
      out += "kv_cache = " + value + " in [workload]";
    } else {
      out += name + " = " + value + " in [option:" + option_id + "]";
    }
    copied = static_cast<size_t>(m.position(0) + m.length(0));
  }
  return out + message.substr(copied);
}

void size_with_serving_model(const PlanInputs& in, OptionInputs& o) {
  const ServingRequest request = plan_serving_request(in, o);
  const ServingGoal goal = plan_serving_goal(in.workload);
  const std::string head = fmt::format("option {} ({} on {} x {}): ", o.id, display_name(o.engine),
                                       o.count, o.device.id);
  // A format the engine does not run is the scenario's mistake (exit 2); a box that holds no
  // replica, or misses a target, is an option that cannot serve the demand (issue #43).
  const FormatSupport support =
      format_support(request.engine, request.quant.id, request.kv_cache, o.device);
  if (!support.refusal.empty()) {
    throw EngineError(head + with_scenario_keys(support.refusal, o.id));
  }
  ServingCapacity capacity;
  try {
    capacity = serving_capacity(request, o.device, o.count, ServingLayout{}, goal);
  } catch (const EngineError& e) {
    o.unservable_reason = "does not fit: " + with_scenario_keys(e.what(), o.id);
    return;
  }
  if (!capacity.target_met) {
    MissedTarget why = missed_target(goal, capacity);
    if (why.text.empty()) why.text = "the latency targets are met by no batch and no layout";
    o.unservable_reason = fmt::format(
        "cannot meet the targets: {} (batch 1, TP{} x PP{} of {} x {}); relax the target, or "
        "use more or faster GPUs",
        why.text, capacity.tp, capacity.pp, o.count, o.device.id);
    return;
  }
  GPUTCO_REQUIRE(std::isfinite(capacity.output_tokens_per_s) && capacity.output_tokens_per_s > 0,
                 "option " << o.id << ": the serving model found no throughput");
  o.capacity_tokens_per_hour = capacity.output_tokens_per_s * kSecondsPerHour;
  o.prefill_tokens_per_s = 0;
  o.gpus_per_replica = capacity.gpus_per_replica;
  o.replicas = capacity.replicas;
  o.layout_note = fmt::format(
      "{} instance(s) of {} GPU(s) (TP{} x PP{}), {} by the {} serving model for {}",
      capacity.replicas, capacity.gpus_per_replica, capacity.tp, capacity.pp,
      capacity.layout_chosen ? "chosen" : "fixed", display_name(o.engine),
      goal.mode == ServingGoal::Mode::latency ? "the latency targets" : "the most throughput");
  o.serving_note = serving_note(capacity);
  o.serving = std::move(capacity);
}

std::string serving_note(const ServingCapacity& c) {
  const std::string measured =
      c.calibration.runs > 0 ? "; " + calibration_sentence(c.calibration) : "";
  return fmt::format(
             "{} {}: batch {} per replica (memory and the engine's cap allow {}), {} replica(s) of "
             "TP{} x PP{}, {:.0f} output tokens/s per unit; TPOT p99 {:.1f} ms, TTFT p99 {:.0f} "
             "ms, "
             "{:.1f} tokens/s per user; bound: {}",
             display_name(c.engine), c.engine_version, c.batch_per_replica, c.max_batch_per_replica,
             c.replicas, c.tp, c.pp, c.output_tokens_per_s, c.tpot_p99_ms, c.ttft_p99_ms,
             c.per_user_tokens_per_s, to_string(c.bound)) +
         measured;
}

}  // namespace gputco
