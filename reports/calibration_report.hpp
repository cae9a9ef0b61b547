// What the user's measured serving runs (engine/serving/serving_run.hpp) say, as every output shows
// it: one line per run, the line that says a serving estimate rests on them ("calibrated on 4 runs
// of yours, 2026-12-04"), and the list of `gputco calibrate --list` as text and JSON. It
// formats, never computes.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_measured.hpp"
#include "engine/serving/serving_run.hpp"

namespace gputco {

/// One run: "run-3  deepseek-r1 FP8 on 8 x h200-sxm, SGLang 0.4.3.post2, TP8: 3,200 in / 800
/// out, 31.3 in flight: 405.5 output tokens/s, TPOT 63.6 ms, TTFT 10,992 ms (2025-03-18,
/// dstack.jsonl run 3)". Never throws.
std::string measured_run_line(const MeasuredServingRun& run);

/// `gputco calibrate --list`: one measured_run_line per run, or a sentence saying there is
/// none. Never throws.
std::string serving_runs_text(const std::vector<MeasuredServingRun>& runs);

/// The same as JSON: { runs: [ { id, model, quant, kv_cache, gpu, gpu_count, tp, pp, engine,
/// engine_version, input_tokens, output_tokens, concurrency, output_tokens_per_s,
/// mean_tpot_ms, mean_ttft_ms, p99_tpot_ms, p99_ttft_ms, prefill_tokens_per_s, duration_s,
/// requests, measured_on, file, sha256, format, run_in_file } ] }; figures not measured are
/// null. Never throws.
std::string serving_runs_json(const std::vector<MeasuredServingRun>& runs);

}  // namespace gputco
