// Internal to engine/: the operating point of one replica of the serving model
// (engine/serving/serving.hpp): its figures at a batch and a load, and the batch a goal sets (a
// fixed batch, the most memory holds, or the largest meeting latency targets), with which target it
// misses when none is met. serving_capacity searches the layouts with it.
#pragma once

#include <optional>

#include "engine/serving/serving.hpp"
#include "engine/serving/serving_measured.hpp"

namespace gputco::serving_detail {

/// The replica of `request` on `device` laid out as `tp` x `pp` with `compute`: the engine's
/// profile (its constants, cap and memory share unless the request replaces them) and the
/// request's shape; with `measured` (the user's runs refitted,
/// engine/serving/serving_measured.hpp), its constants and step corrections. Throws nothing but
/// std::bad_alloc.
ReplicaSetup make_setup(const ServingRequest& request, const Device& device, int tp, int pp,
                        ComputePrecision compute, const MeasuredCalibration* measured = nullptr);

/// The figures of one replica at `batch` sequences with a share `utilization` of them busy.
struct Point {
  double batch = 1;
  double utilization = 1;
  StepTime step;
  double prefill_s = 0;  ///< per prompt token
  /// The replica's mean time per step: the decode step + the prefill of the batch / output
  /// requests that replace finished ones each step (all of them: the GPU does them all).
  double cycle_s = 0;
  /// A request's mean time per output token: the step + the prefill of the batch - 1 other
  /// requests that arrive during its decode (its own prompt is in its TTFT).
  double tpot_s = 0;
  double tpot_p99_s = 0;  ///< the p99 count of the others' prompts during its decode
  double ttft_own_s = 0;  ///< own prefill under load
  double ttft_s = 0;      ///< mean, with the wait when queued
  double ttft_p99_s = 0;
  double output_per_s = 0;  ///< replica
  bool queued = false;
};

/// The figures of one replica of `s` at `batch` sequences (>= 1), all slots busy, no queue.
/// Throws EngineError on a batch below 1 (decode_step).
Point evaluate(const ReplicaSetup& s, double batch);

/// `base` (evaluate) with a share `utilization` of the slots busy; with `queue`, the time to
/// first token adds the wait for a free slot (M/M/c with c = the batch, service = a request's
/// whole decode). Throws EngineError on a utilization outside [0, 1] (serving_queue.hpp).
Point at_load(const ReplicaSetup& s, const Point& base, double utilization, bool queue);

/// The operating point of one replica for a goal, with whether the target was met.
struct Choice {
  Point point;
  bool target_met = true;
  bool latency_capped = false;  ///< a latency target, not memory or the cap, set the batch
  /// The target missed when target_met is false: tpot (the point is batch 1, the lowest TPOT
  /// and highest per-user speed) or ttft (the point is batch 1 with no queue, the lowest TTFT).
  LatencyMiss missed = LatencyMiss::none;
};

/// The operating point of `s` for `goal` with at most `max_batch` sequences (>= 1): the
/// goal's batch, max_batch, or the largest batch meeting the latency targets (under a TTFT
/// target, the batch and load with the most throughput meeting it). Throws EngineError on a
/// batch below 1.
Choice choose_batch(const ReplicaSetup& s, int max_batch, const ServingGoal& goal);

}  // namespace gputco::serving_detail
