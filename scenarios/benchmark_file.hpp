// Serving benchmark files as the benchmark tools write them, read into records whose names
// (model, device, engine) are still the file's own: `vllm bench serve --save-result` (vLLM's
// vllm/benchmarks/serve.py: one JSON object, or one per line with --append-result), SGLang's
// `python -m sglang.bench_serving --output-file` (python/sglang/bench_serving.py: one JSON
// object per line, appended), `trtllm-bench ... --report_json`
// (tensorrt_llm/bench/dataclasses/reporting.py get_statistics_dict), NVIDIA genai-perf's
// profile_export_genai_perf.json and AIPerf's profile_export_aiperf.json
// (aiperf/common/models/export_models.py JsonExportData: each metric an object of unit, avg and
// percentiles, and the input_config), `llama-bench -o json` (tools/llama-bench: an array of
// tests), and gputco's own CSV (docs/calibrate.md) for anything else. scenarios/benchmark_runs
// resolves the records against the catalog and the command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace gputco {

/// A benchmark file that cannot be read as one: what() is "FILE[:LINE]: field: problem" (a
/// ScenarioError, so every command reports it as bad input, exit 2).
class BenchmarkFileError : public ScenarioError {
 public:
  BenchmarkFileError(const std::string& file, int line, const std::string& field,
                     const std::string& problem)
      : ScenarioError(file, line, field, problem) {}
};

/// The benchmark tools whose files are read.
enum class BenchmarkFormat {
  vllm_bench_serve,      ///< `vllm bench serve --save-result` (and benchmark_serving.py)
  sglang_bench_serving,  ///< `python -m sglang.bench_serving --output-file` (JSONL)
  trtllm_bench,          ///< `trtllm-bench throughput|latency --report_json`
  genai_perf,            ///< genai-perf / AIPerf profile export JSON
  llama_bench,           ///< `llama-bench -o json`
  csv                    ///< gputco's own CSV (docs/calibrate.md)
};
/// "vllm-bench-serve", "sglang-bench-serving", "trtllm-bench", "genai-perf", "llama-bench",
/// "csv". Never throws.
std::string to_string(BenchmarkFormat format);
/// Parses the text forms of to_string (and "vllm", "sglang", "trtllm", "aiperf"); nullopt
/// otherwise.
std::optional<BenchmarkFormat> parse_benchmark_format(const std::string& text);

/// A text the file states, with the field it came from (for messages); empty when the file
/// does not say.
struct StatedText {
  std::string value;
  std::string field;  ///< e.g. "model_id", "engine.model", "input_config.endpoint.model_names"
};

/// One run as the file states it. Numbers the file does not give are 0 (`requests`,
/// `duration_s` and the times) or a stated fallback (see read_benchmark_text).
struct BenchmarkRecord {
  int index = 0;      ///< 0-based: which run of the file
  int line = 0;       ///< the physical line of a JSONL line or a CSV row; 0 for one JSON document
  StatedText model;   ///< a Hugging Face id, a path or a catalog id
  StatedText quant;   ///< a weight format as the tool names it ("FP8", "Q4_K - Medium")
  StatedText device;  ///< a GPU name ("NVIDIA GeForce RTX 4090", "h100-sxm")
  StatedText engine;  ///< "vllm", "sglang", "tensorrt-llm", "llama.cpp" (also the tools' names)
  StatedText engine_version;
  StatedText kv_cache;        ///< "fp8", "f16", "q8_0", ...
  int gpu_count = 0;          ///< 0: not stated
  int tp = 0;                 ///< 0: not stated
  int pp = 0;                 ///< 0: not stated
  double model_params_b = 0;  ///< llama-bench's model_n_params / 1e9; 0 not stated
  double input_tokens = 0;    ///< mean prompt tokens per request
  double output_tokens = 0;   ///< mean generated tokens per request
  /// Mean requests in flight (benchmark_runs: Little's law where the file gives the latency).
  double concurrency = 0;
  std::string concurrency_basis;  ///< how `concurrency` was had, for the record's note
  double output_tokens_per_s = 0;
  double mean_tpot_ms = 0;
  double mean_ttft_ms = 0;
  double p99_tpot_ms = 0;
  double p99_ttft_ms = 0;
  double prefill_tokens_per_s = 0;  ///< llama-bench pp tests
  double duration_s = 0;
  std::string duration_field;  ///< the field `duration_s` was read from, for its refusal
  int requests = 0;
  StatedText measured_on;  ///< YYYY-MM-DD
};

/// A benchmark file read.
struct BenchmarkFile {
  std::string path;       ///< as given
  std::string file_name;  ///< without its folder
  std::string sha256;     ///< of the file's bytes, 64 lowercase hex digits
  BenchmarkFormat format = BenchmarkFormat::csv;
  std::vector<BenchmarkRecord> records;
};

/// SHA-256 of `bytes` (FIPS 180-4, Nettle's implementation), 64 lowercase hex digits. Never
/// throws.
std::string sha256_hex(const std::string& bytes);

/// Reads the benchmark text `text` of the file `path` (only named in messages and records),
/// in `format` or, when nullopt, the format its content shows: a JSON array of objects with
/// avg_ts (llama-bench), an object with world_info and performance (trtllm-bench), with
/// input_config or metrics as {unit, avg, ...} objects (genai-perf, AIPerf), with
/// total_output_tokens_retokenized or mean_e2e_latency_ms (SGLang), with output_throughput and
/// num_prompts, endpoint_type or date (vLLM); one object per line is JSONL; a first line naming
/// our CSV's columns is our CSV. Python's Infinity and NaN (SGLang writes request_rate inf so)
/// are read as absent. Throws BenchmarkFileError naming the file, the line where it has one,
/// and the field: not a benchmark file of a known tool, not JSON, a run without the figure the
/// calibration needs (output_throughput, the token counts, the duration), a field of the
/// wrong type or a negative number.
BenchmarkFile read_benchmark_text(const std::string& text, const std::string& path,
                                  std::optional<BenchmarkFormat> format);

/// The same from the file at `path` (a regular file of at most 64 MiB), with its SHA-256.
/// Throws BenchmarkFileError when it cannot be read, as above otherwise.
BenchmarkFile read_benchmark_file(const std::string& path, std::optional<BenchmarkFormat> format);

}  // namespace gputco
