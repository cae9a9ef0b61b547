// The serving model's efficiency constants (engine/serving/serving_profile.hpp ServingConstants),
// fitted on published serving measurements: MLPerf Inference results, TensorRT-LLM's
// performance overview, vLLM benchmark pages, InferenceX (tests/data/reference/
// serving_measured.csv with the configuration of each row in serving_configs.csv).
//
// The model is not linear in its constants (the larger of two roofs, a batch set by memory or
// by latency targets), so the fit is a small deterministic search: coordinate descent on the
// logarithm of each constant, halving a step that improves nothing, from fixed starting
// values, minimising the mean absolute log error of the rows' metric. scripts/calibrate-serving
// prints the in-sample, leave-one-out and held-out errors.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving.hpp"

namespace gputco {

/// What a measured row reports.
enum class ServingMetric {
  output_tokens_per_s,  ///< output tokens per second of the whole system (MLPerf, trtllm-bench)
  total_tokens_per_s_per_gpu,  ///< input + output tokens per second per GPU (InferenceX)
  per_user_tokens_per_s,       ///< 1 / mean TPOT
  ttft_ms                      ///< mean time to first token under load
};
/// "output_tokens_per_s", "total_tokens_per_s_per_gpu", "per_user_tokens_per_s", "ttft_ms".
std::string to_string(ServingMetric metric);
/// Parses the text forms above; throws EngineError on anything else.
ServingMetric parse_serving_metric(const std::string& text);

/// One measured row as the model estimates it.
struct ServingSample {
  std::string id;
  ServingRequest request;
  Device device;
  int count = 1;
  ServingLayout layout;
  ServingGoal goal;
  ServingMetric metric = ServingMetric::output_tokens_per_s;
  double measured = 0;
};

/// The model's figure for `sample`'s metric with `constants` (the engine's constants
/// replaced). Throws EngineError like serving_capacity.
double predict_serving(const ServingSample& sample, const ServingConstants& constants);

/// Mean absolute percentage error (fraction) of `constants` over `samples`:
/// mean |estimate / measured - 1|. Throws EngineError on an empty set.
double serving_mape(const std::vector<ServingSample>& samples, const ServingConstants& constants);

/// The result of a fit.
struct ServingFit {
  ServingConstants constants;
  double mape = 0;  ///< in-sample, fraction
  int rows = 0;
};

/// Fits bandwidth_efficiency, compute_efficiency, step_fixed_s, and each factor some row
/// identifies (amd_factor: an AMD row; moe_read_factor and moe_compute_factor: an MoE model;
/// tuned_factor: a tuned row; fp4_factor: a row computing in FP4; tp_factor: a dense model on
/// several GPUs), from `start` by the coordinate descent described above; efficiencies kept in
/// [0.05, 1.2], factors in [0.2, 1.5] (tuned [0.5, 3], TP [0.3, 1.2], MoE compute
/// [0.05, 1.5]), the fixed cost in [0, 50 ms]. Deterministic. Throws EngineError on fewer than
/// 6 rows.
ServingFit fit_serving_constants(const std::vector<ServingSample>& samples,
                                 const ServingConstants& start);

/// Leave-one-out MAPE (fraction): each row estimated with the constants fitted on the others,
/// each refit one descent from `start` (pass the whole set's fit: a warm start). Throws
/// EngineError like fit_serving_constants.
double serving_loo_mape(const std::vector<ServingSample>& samples, const ServingConstants& start);

}  // namespace gputco
