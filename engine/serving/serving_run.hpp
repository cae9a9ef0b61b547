// A serving benchmark run the user measured (`vllm bench serve`, SGLang's bench_serving,
// `trtllm-bench`, genai-perf / AIPerf, `llama-bench`, or our CSV; scenarios/benchmark_file.hpp
// reads them, pricing/ stores them in the user catalog): what was served, on what, and what it
// measured. Plain data: the serving model (engine/serving/serving_measured.hpp) refits its
// constants to these runs and reports their figures where a request has a run's shape.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_profile.hpp"

namespace gputco {

/// One measured serving run: a fixed number of requests of a mean prompt and output length,
/// served by `engine` on `gpu_count` GPUs of `device_id` with `concurrency` of them in flight on
/// average. Figures are the benchmark's own (means over the run's requests).
struct MeasuredServingRun {
  std::string id;        ///< the user catalog's id ("run-12"); "" before it is stored
  std::string model_id;  ///< catalog model id
  std::string quant;     ///< weight format as the catalog names it ("FP8", "BF16", "Q4_K_M")
  /// KV cache type as the CLI names it ("f16", "fp8", "q8_0"); "" when the file and the flags
  /// do not say (the engine's default for the checkpoint).
  std::string kv_cache;
  std::string device_id;  ///< catalog device id
  int gpu_count = 1;      ///< GPUs of the box the engine served on
  int tp = 0;             ///< tensor parallel GPUs per replica; 0: not stated (the whole box)
  int pp = 0;             ///< pipeline stages per replica; 0: not stated (1)
  ServingEngine engine = ServingEngine::vllm;
  std::string engine_version;  ///< the engine's version as the run states it; "" not stated
  double input_tokens = 0;     ///< mean prompt tokens per request (> 0)
  double output_tokens = 0;    ///< mean generated tokens per request (>= 1)
  /// Mean requests in flight on the box over the run (Little's law: requests per second x mean
  /// end-to-end latency, or the benchmark's own figure; its concurrency cap where neither is
  /// known), at least 1.
  double concurrency = 1;
  double output_tokens_per_s = 0;  ///< output tokens per second of the whole box (> 0)
  /// Mean time per output token after the first, (latency - TTFT) / (output - 1), ms; 0: not
  /// measured.
  double mean_tpot_ms = 0;
  double mean_ttft_ms = 0;  ///< mean time to first token, ms; 0: not measured
  double p99_tpot_ms = 0;   ///< 0: not measured
  double p99_ttft_ms = 0;   ///< 0: not measured
  /// Prompt tokens per second of a prefill-only run (llama-bench's pp tests); 0 otherwise.
  double prefill_tokens_per_s = 0;
  double duration_s = 0;    ///< the run's wall time, seconds (> 0)
  int requests = 0;         ///< requests completed
  std::string measured_on;  ///< YYYY-MM-DD, the day the benchmark ran (or the file says)
  std::string file_name;    ///< the benchmark file's name, without its folder
  std::string file_sha256;  ///< SHA-256 of the file's bytes, 64 lowercase hex digits
  /// The benchmark format ("vllm-bench-serve", "sglang-bench-serving", "trtllm-bench",
  /// "genai-perf", "llama-bench", "csv").
  std::string format;
  int index_in_file = 0;  ///< 0-based: which run of the file (a JSONL line, a CSV row)
};

/// A decode step the user's runs imply: at `batch` sequences per replica, a step of `step_s`
/// seconds (the run's mean TPOT less the model's share of the others' prefill in it), `factor`
/// times the refitted model's step at that batch (engine/serving/serving_measured.hpp
/// StepCorrection).
struct MeasuredStepPoint {
  double batch = 1;
  double step_s = 0;
  double factor = 1;
};

/// Which of a request's figures rest on the user's measured runs, for every output to say so.
struct ServingCalibrationSummary {
  /// Runs of the user's of this model, weights, device and engine the constants were refitted
  /// to; 0 when none (the published constants).
  int runs = 0;
  std::string latest_measured_on;  ///< the most recent run's date
  /// How the constants were refitted: "scale" (one or two runs: one factor on the step's
  /// efficiencies and fixed costs) or "refit" (three or more: the efficiencies and the fixed
  /// cost per step).
  std::string method;
  /// Mean |estimate / measured - 1| of the refitted model over the runs' throughputs (and TPOTs
  /// where measured), in-sample.
  double in_sample_error = 0;
  /// The figures are a run's own (the request had its shape: same box, layout, tokens and
  /// batch): its id and date; "" when they are the refitted model's.
  std::string measured_run_id;
  std::string measured_run_file;
  std::vector<std::string> run_ids;  ///< the runs used, in the catalog's order
  /// The estimate's layout when no run measured it ("TP2 x PP1"), and the runs' layouts
  /// ("TP4 x PP1"): its figures extrapolate the refitted model to a layout none of the runs
  /// had. Empty when a run had the layout.
  std::string unmeasured_layout;
  std::string measured_layouts;
};

}  // namespace gputco
