#include "reports/throughput_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/hardware/power_limit.hpp"
#include "reports/calibration_report.hpp"
#include "reports/grouped_number.hpp"
#include "reports/json_values.hpp"

namespace gputco {

namespace {

using json_values::number;
using json_values::optional_number;
using json_values::ordered;

std::string mode_name(ServingGoal::Mode mode) {
  switch (mode) {
    case ServingGoal::Mode::batch:
      return "batch";
    case ServingGoal::Mode::max_batch:
      return "max_batch";
    case ServingGoal::Mode::latency:
      return "latency";
  }
  return "unknown";
}

/// A count with thousands separators, halves rounded away from zero: 15220.5 -> "15,221".
std::string grouped(double x) {
  return grouped_number(std::round(x));
}

/// A duration in ms, or in s from 10 s on.
std::string duration(double ms) {
  return ms >= 10000 ? fmt::format("{:.1f} s", ms / 1000) : fmt::format("{:.1f} ms", ms);
}

std::string goal_text(const ServingGoal& g) {
  switch (g.mode) {
    case ServingGoal::Mode::batch:
      return fmt::format("batch fixed at {} sequences per replica", g.batch);
    case ServingGoal::Mode::max_batch:
      return "as many sequences as memory and the engine allow (offline throughput)";
    case ServingGoal::Mode::latency: {
      std::string t = "the largest batch meeting";
      if (g.tpot_p99_ms) t += fmt::format(" p99 TPOT <= {} ms", *g.tpot_p99_ms);
      if (g.ttft_p99_ms)
        t += fmt::format("{} p99 TTFT <= {} ms", g.tpot_p99_ms ? "," : "", *g.ttft_p99_ms);
      if (g.user_tokens_per_s) {
        t += fmt::format("{} >= {} tokens/s per user", g.tpot_p99_ms || g.ttft_p99_ms ? "," : "",
                         *g.user_tokens_per_s);
      }
      return t;
    }
  }
  return "";
}

}  // namespace

std::string throughput_text(const ThroughputQuery& q, const ServingCapacity& c) {
  const ServingRequest& r = q.request;
  std::string out;
  out += fmt::format("{} in {} ({} KV cache) on {} x {} with {} {}\n", r.model.id, r.quant.id,
                     to_string(r.kv_cache), q.count, q.device.id, display_name(c.engine),
                     c.engine_version);
  out += fmt::format("{} input / {} output tokens per request; {}\n", r.input_tokens,
                     r.output_tokens, goal_text(q.goal));
  if (q.device.power_limit_w > 0) {
    const PowerLimitEffect e = power_limit_effect(q.device);
    out += fmt::format(
        "power limit {:g} W per GPU ({:.0f} % of its {:g} W): tensor peaks x {:.3f} (modelled: "
        "engine/hardware/power_limit.hpp)\n",
        q.device.power_limit_w, 100 * e.fraction, q.device.board_power_w, e.compute_share);
  }
  out += fmt::format("layout TP{} x PP{}: {} replica(s) of {} GPU(s){}; compute in {}\n", c.tp,
                     c.pp, c.replicas, c.gpus_per_replica,
                     c.layout_chosen ? " (chosen)" : " (given)", to_string(c.compute));
  out += fmt::format("batch {} sequences per replica (at most {}{})\n", c.batch_per_replica,
                     c.max_batch_per_replica,
                     c.slot_utilization < 1 ? fmt::format(", {:.0f} % of slots busy on average",
                                                          100 * c.slot_utilization)
                                            : "");
  out += fmt::format("output tokens/s          {:>10} box  {:>10} per GPU\n",
                     grouped(c.output_tokens_per_s), grouped(c.output_tokens_per_s_per_gpu));
  out += fmt::format("input + output tokens/s  {:>10} box  {:>10} per GPU\n",
                     grouped(c.total_tokens_per_s_per_gpu * q.count),
                     grouped(c.total_tokens_per_s_per_gpu));
  if (!has_time_per_output_token(r.output_tokens)) {
    out +=
        "per user                 n/a (one output token per request: no time per output token)\n";
  } else {
    out += fmt::format("per user                 {:.1f} tokens/s (TPOT {} mean, {} p99)\n",
                       c.per_user_tokens_per_s, duration(c.tpot_ms), duration(c.tpot_p99_ms));
  }
  out += fmt::format("time to first token      {} mean, {} p99 ({})\n", duration(c.ttft_ms),
                     duration(c.ttft_p99_ms),
                     !c.ttft_includes_queueing
                         ? "prefill under load, not counting time queued for a slot"
                     : c.ttft_ms > c.ttft_p99_ms
                         ? "with queueing for a batch slot: fewer than 1 in 100 requests wait, "
                           "long enough to lift the mean above the p99"
                         : "with queueing for a batch slot");
  const std::string per_sequence =
      c.step.per_sequence_s > 0
          ? fmt::format(" + per sequence {:.2f}", c.step.per_sequence_s * 1000)
          : "";
  out += fmt::format(
      "step {} = GEMMs {:.2f} + attention {:.2f} + communication {:.2f} + fixed {:.2f}{} ms "
      "(roofs: memory {:.2f}, compute {:.2f} ms); prefill {:.4f} ms per prompt token\n",
      duration(c.step.total_s * 1000), c.step.weights_s * 1000, c.step.attention_s * 1000,
      c.step.communication_s * 1000, c.step.fixed_s * 1000, per_sequence, c.step.memory_s * 1000,
      c.step.compute_s * 1000, c.prefill_ms_per_token);
  out += fmt::format("bound: {}\n", to_string(c.bound));
  // A hybrid's sequences hold a recurrent state beside their KV cache, in the same budget.
  const std::string state =
      c.memory.recurrent_state_per_sequence_gib > 0
          ? fmt::format(" + recurrent state {:.3f}", c.memory.recurrent_state_per_sequence_gib)
          : "";
  out += fmt::format(
      "memory per GPU {:.1f} GiB: weights {:.1f}, runtime {:.1f}, KV cache budget {:.1f} ({:.3f}"
      "{} per sequence)\n",
      c.memory.device_gib, c.memory.weights_gib, c.memory.reserve_gib, c.memory.kv_budget_gib,
      c.memory.kv_per_sequence_gib, state);
  if (c.calibration.runs > 0) {
    // "extrapolated" where no run had the layout: the runs refit the model, not this figure.
    out += (c.calibration.unmeasured_layout.empty() ? "measured: " : "extrapolated: ") +
           calibration_sentence(c.calibration) + "\n";
  }
  for (const auto& note : c.notes) out += "note: " + note + "\n";
  return out;
}

std::string throughput_json(const ThroughputQuery& q, const ServingCapacity& c) {
  const ServingRequest& r = q.request;
  ordered j;
  j["mode"] = "throughput";
  j["model"] = r.model.id;
  j["quant"] = r.quant.id;
  j["kv_cache"] = to_string(r.kv_cache);
  j["gpu"] = q.device.id;
  j["count"] = q.count;
  j["power_limit_w"] =
      q.device.power_limit_w > 0 ? ordered(number(q.device.power_limit_w)) : ordered(nullptr);
  j["engine"] = to_string(c.engine);
  j["engine_version"] = c.engine_version;
  j["input_tokens"] = r.input_tokens;
  j["output_tokens"] = r.output_tokens;
  j["goal"] = {
      {"mode", mode_name(q.goal.mode)},
      {"batch", q.goal.mode == ServingGoal::Mode::batch ? ordered(q.goal.batch) : ordered(nullptr)},
      {"tpot_p99_ms", optional_number(q.goal.tpot_p99_ms)},
      {"ttft_p99_ms", optional_number(q.goal.ttft_p99_ms)},
      {"user_tokens_per_s", optional_number(q.goal.user_tokens_per_s)}};
  j["output_tokens_per_s"] = number(c.output_tokens_per_s);
  j["output_tokens_per_s_per_gpu"] = number(c.output_tokens_per_s_per_gpu);
  j["total_tokens_per_s_per_gpu"] = number(c.total_tokens_per_s_per_gpu);
  // One output token per request: no time per output token (null).
  const bool per_token = has_time_per_output_token(r.output_tokens);
  j["per_user_tokens_per_s"] = per_token ? number(c.per_user_tokens_per_s) : ordered(nullptr);
  j["tpot_ms"] = per_token ? number(c.tpot_ms) : ordered(nullptr);
  j["tpot_p99_ms"] = per_token ? number(c.tpot_p99_ms) : ordered(nullptr);
  j["ttft_ms"] = number(c.ttft_ms);
  j["ttft_p99_ms"] = number(c.ttft_p99_ms);
  j["ttft_includes_queueing"] = c.ttft_includes_queueing;
  j["batch_per_replica"] = c.batch_per_replica;
  j["max_batch_per_replica"] = c.max_batch_per_replica;
  j["replicas"] = c.replicas;
  j["tp"] = c.tp;
  j["pp"] = c.pp;
  j["gpus_per_replica"] = c.gpus_per_replica;
  j["layout_chosen"] = c.layout_chosen;
  j["compute_precision"] = to_string(c.compute);
  j["bound"] = to_string(c.bound);
  j["slot_utilization"] = number(c.slot_utilization);
  j["target_met"] = c.target_met;
  j["step"] = {{"total_ms", number(c.step.total_s * 1000)},
               {"weights_ms", number(c.step.weights_s * 1000)},
               {"attention_ms", number(c.step.attention_s * 1000)},
               {"communication_ms", number(c.step.communication_s * 1000)},
               {"fixed_ms", number(c.step.fixed_s * 1000)},
               {"per_sequence_ms", number(c.step.per_sequence_s * 1000)},
               {"memory_roof_ms", number(c.step.memory_s * 1000)},
               {"compute_roof_ms", number(c.step.compute_s * 1000)}};
  j["prefill_ms_per_token"] = number(c.prefill_ms_per_token);
  j["memory_per_gpu"] = {
      {"device_gib", number(c.memory.device_gib)},
      {"weights_gib", number(c.memory.weights_gib)},
      {"reserve_gib", number(c.memory.reserve_gib)},
      {"kv_budget_gib", number(c.memory.kv_budget_gib)},
      {"kv_per_sequence_gib", number(c.memory.kv_per_sequence_gib)},
      {"recurrent_state_per_sequence_gib", number(c.memory.recurrent_state_per_sequence_gib)}};
  j["calibration"] = c.calibration.runs == 0
                         ? ordered(nullptr)
                         : ordered{{"runs", c.calibration.runs},
                                   {"latest_measured_on", c.calibration.latest_measured_on},
                                   {"method", c.calibration.method},
                                   {"in_sample_error", number(c.calibration.in_sample_error)},
                                   {"run_ids", c.calibration.run_ids},
                                   {"measured_run", c.calibration.measured_run_id.empty()
                                                        ? ordered(nullptr)
                                                        : ordered(c.calibration.measured_run_id)}};
  j["tokens_counted"] = "output";
  j["notes"] = c.notes;
  return j.dump(2) + "\n";
}

}  // namespace gputco
