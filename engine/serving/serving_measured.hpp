// The user's measurements win: the serving model (engine/serving/serving.hpp) refitted to the
// serving benchmark runs a user measured (engine/serving/serving_run.hpp), and a run's own figures
// where a request has its shape.
//
// A run is estimated as the benchmark ran it: its box, its layout (TP x PP, the whole box as one
// replica where the run does not say), its mean prompt and output lengths, and its mean
// sequences decoding (decode_batch) spread over the replicas as the batch (at most what memory
// holds). The refit minimises the mean absolute log error of the
// runs' output throughput and, where measured, mean TPOT (a run's decode step) and prefill
// speed:
//   one or two runs: one factor k on the step's and the prefill's times (the efficiencies and
//     the fixed cost, together), the least-error k (a golden-section search over 1/20..20);
//   three or more runs (vLLM, SGLang, TensorRT-LLM): the bandwidth and compute efficiencies
//     and the fixed cost per step (engine/serving/serving_profile.hpp ServingConstants), by
//     coordinate descent from the scaled constants, in their published bounds;
//   llama.cpp (its decode constants are its backend's, engine/hardware/calibration.hpp): the factor
//   on
//     the decode step from its decode runs and one on prefill from its prefill runs.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving.hpp"
#include "engine/serving/serving_run.hpp"

namespace gputco {

/// The runs of `runs` that speak for `request` on `device`: the same model id, weight format
/// and device (ids compared without case) and engine; where the request names an engine version
/// and the run states one, the same release (engine_version_matches). In the order given.
/// Never throws.
std::vector<MeasuredServingRun> runs_for(const ServingRequest& request, const Device& device,
                                         const std::vector<MeasuredServingRun>& runs);

/// Whether a run's stated engine version `run_version` is the release `wanted` names: equal, or
/// `wanted` a prefix of it ending at a dot ("0.10" matches "0.10.1" and "0.10.1.dev3", not
/// "0.101"); "v" before a number is ignored. An empty side matches anything. Never throws.
bool engine_version_matches(const std::string& wanted, const std::string& run_version);

/// The mean sequences decoding on a run's box: its requests in flight less those waiting for
/// their first token, by Little's law on the decode phase: concurrency x (output - 1) x TPOT /
/// (TTFT + (output - 1) x TPOT) where the run measured both times, else its concurrency; at
/// least 1. (A closed-loop benchmark at a concurrency the engine does not admit at once shows
/// it as a long TTFT: dstack's DeepSeek-R1 on 8 x H200 with vLLM at 128 in flight waited 67 s
/// for a first token and decoded about 53 at a time.) Never throws.
double decode_batch(const MeasuredServingRun& run);

/// The layout a run ran as: its TP and PP, or the whole box as one replica (tp = gpu_count,
/// pp = 1) where it does not say. Never throws.
ServingLayout run_layout(const MeasuredServingRun& run);

/// The model's figures for one run, as the benchmark measured them.
struct RunEstimate {
  int tp = 1;
  int pp = 1;
  double batch_per_replica = 1;    ///< the run's mean in flight per replica, capped by memory
  double output_tokens_per_s = 0;  ///< the box
  double mean_tpot_ms = 0;
  double mean_ttft_ms = 0;          ///< own prefill under load (the engine's queue not counted)
  double prefill_tokens_per_s = 0;  ///< a replica's prompt tokens per second, times replicas
  double step_s = 0;                ///< the decode step at the batch
  double cycle_s = 0;  ///< the step plus the prefill of the requests replacing finished ones
};

/// The steps the runs of one shape imply: at each run's decode batch per replica, its mean TPOT
/// less the refitted model's share of the others' prefill in it (or, where a run measured no
/// TPOT, the refitted step times estimated over measured throughput), and that step over the
/// refitted model's. A replica of this shape takes them as step_correction says: the estimate
/// goes through every run and, between two runs, the step runs straight from one to the other
/// (a step is close to linear in the batch over such a span: fixed costs plus a cost per
/// sequence; dstack's DeepSeek-R1 runs on 8 x H200 fall within 1 % of the chord).
struct StepCorrection {
  int tp = 1;
  int pp = 1;
  double input_tokens = 0;                ///< the runs' mean prompt length
  double output_tokens = 0;               ///< the runs' mean output length
  std::vector<MeasuredStepPoint> points;  ///< in increasing batch
};

/// The step model's constants (and, for llama.cpp, its time factors) refitted to a user's runs.
struct MeasuredCalibration {
  ServingConstants constants;      ///< the engines' step model; llama.cpp ignores them
  double step_time_factor = 1;     ///< on every decode step's time (1: none)
  double prefill_time_factor = 1;  ///< on the prefill time per prompt token (1: none)
  /// Per shape of the runs (layout, prompt and output lengths within 5 %), the residuals.
  std::vector<StepCorrection> corrections;
  ServingCalibrationSummary summary;
};

/// The model's figures for `run` with `calibration` applied (`request`'s model and weights,
/// the run's engine, box, layout and token counts; the step points included, so a run's own
/// TPOT comes back where it measured one). Throws EngineError when the engine cannot run the
/// format on the device, the layout does not divide the box, or the model does not fit it.
RunEstimate estimate_run(const ServingRequest& request, const Device& device,
                         const MeasuredServingRun& run, const MeasuredCalibration& calibration);

/// `request`'s constants (request.constants, else its engine's published ones) refitted to
/// `runs` (at least one; runs_for's), as the file comment describes, with the step points of
/// each shape. Deterministic; the same inputs are answered from memory after the first time
/// (the finder and sweeps ask many times). Throws EngineError when `runs` is empty or a run
/// cannot be estimated (estimate_run).
MeasuredCalibration calibrate_to_runs(const ServingRequest& request, const Device& device,
                                      const std::vector<MeasuredServingRun>& runs);

/// The step points of `calibration` for a replica of TP x PP serving `input_tokens` /
/// `output_tokens`: those of the runs of that layout whose prompt and output lengths are within
/// 25 % of these (the nearest such shape); empty when none. Never throws.
std::vector<MeasuredStepPoint> step_corrections_for(const MeasuredCalibration& calibration, int tp,
                                                    int pp, double input_tokens,
                                                    double output_tokens);

/// The factor on a step of `batch` sequences whose model time is `model_step_s`: between two
/// points, the step interpolated linearly in the batch over `model_step_s`; below the first or
/// above the last point, that point's factor (the model's shape, scaled to the nearest run); 1
/// when there are none. Never throws.
double step_correction(const std::vector<MeasuredStepPoint>& points, double batch,
                       double model_step_s);

/// The sentence a serving estimate carries when it rests on the user's runs: "calibrated on 4
/// runs of yours, 2026-12-04 (refit: ...; the refitted model is 3.1 % off them on average, and
/// goes through them at their shapes)" and, where the figures are a run's own, "; these
/// figures are your run run-3 (bench.json), measured", or where no run had the estimate's
/// layout, "; none of them ran TP2 x PP1 (they ran TP4 x PP1): its figures extrapolate the
/// refitted model"; "" when `summary` has no runs. Never throws.
std::string calibration_sentence(const ServingCalibrationSummary& summary);

/// The run of `runs` whose shape `capacity` has, for its figures to be the run's own: the same
/// GPU count and layout, prompt and output lengths within 5 %, and a mean in flight on the box
/// (batch x replicas x the slots' utilization) within 5 % (or half a request) of the run's;
/// nullptr when none. Never throws.
const MeasuredServingRun* run_of_shape(const std::vector<MeasuredServingRun>& runs,
                                       const ServingRequest& request,
                                       const ServingCapacity& capacity, int count);

}  // namespace gputco
