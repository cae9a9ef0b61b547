// A benchmark file's runs resolved against the catalog and the command line into the measured
// runs the serving model calibrates on (engine/serving/serving_run.hpp): the model, weights,
// device, engine and box each from the file or, where it does not say, from the flags; a file and
// flags that disagree, a run of zero duration or none at all, and runs that contradict each other
// are refused, naming the file, the line and the field.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_run.hpp"
#include "pricing/catalog.hpp"
#include "scenarios/benchmark_file.hpp"

namespace gputco {

/// What the command line says of the runs (`gputco calibrate`'s flags); empty or 0: not said.
struct BenchmarkFlags {
  std::string model;           ///< catalog id or Hugging Face id
  std::string quant;           ///< catalog quant
  std::string gpu;             ///< catalog device id
  std::string engine;          ///< vllm | sglang | tensorrt-llm | llama.cpp
  std::string engine_version;  ///< as the engine names its release ("0.10.1", "1.0.0rc3")
  std::string kv_cache;        ///< f16 | fp8 | q8_0 | q4_0
  std::string measured_on;     ///< YYYY-MM-DD
  int gpu_count = 0;
  int tp = 0;
  int pp = 0;
};

/// The runs of a file, resolved, with what was assumed.
struct ResolvedBenchmark {
  std::vector<MeasuredServingRun> runs;
  /// One sentence each: a date taken from the file's modification time, a file name the
  /// catalog does not know taken as the flag's model, how a run's concurrency was had.
  std::vector<std::string> notes;
};

/// The chip of a catalog device id: the id up to and with its first part holding a digit
/// ("h100-sxm" -> "h100", "a100-80gb-sxm" -> "a100", "rtx-pro-6000-blackwell" ->
/// "rtx-pro-6000", "mi300x" -> "mi300x"). Two devices of one chip are the same GPU in another
/// form factor or memory size, which a benchmark file's GPU name does not tell apart. Never
/// throws.
std::string device_chip(const std::string& device_id);

/// Resolves `file`'s runs with `flags` against `catalog`. `file_date` (YYYY-MM-DD, the file's
/// modification day) dates runs whose file and flags state no date (noted). Each of model,
/// quant, device, engine, engine version, KV cache, GPU count, TP and PP is the file's where it
/// states it and the flag's otherwise. Throws BenchmarkFileError naming the file, the run's line
/// and the field, when:
///  - the file names another model than --model (a catalog model other than the flag's; for
///    llama-bench, a parameter count more than 10 % off the flag's model), another weight
///    format, engine, engine release, KV cache, GPU count, TP or PP than the flags;
///  - the file names a GPU of another chip than --gpu (device_chip), or one the catalog does not
///    know while --gpu is not given;
///  - neither file nor flags give the model, the weights, the GPU or the engine, or they name
///    none the catalog knows;
///  - a run lasted zero seconds, measured no output throughput, or its concurrency is below 1;
///  - the engine cannot serve the model on the box (the serving model's refusal: the format on
///    the device, a layout that does not divide the box, weights that do not fit).
ResolvedBenchmark resolve_benchmark(const BenchmarkFile& file, const BenchmarkFlags& flags,
                                    const Catalog& catalog, const std::string& file_date);

/// Pairs of runs that contradict each other: the same model, weights, device, GPU count,
/// layout and engine release, prompt and output lengths within 5 % and mean requests in flight
/// within 10 %, whose output throughput (or mean TPOT) differs by more than a factor of two.
/// Each of `fresh` is checked against the others of `fresh` and against `stored` (the user
/// catalog's); one problem per pair, "FILE: output_tokens_per_s: ... is 2.4 x ...", naming the
/// other run's file (and stored id). Never throws.
std::vector<std::string> disagreeing_runs(const std::vector<MeasuredServingRun>& fresh,
                                          const std::vector<MeasuredServingRun>& stored);

}  // namespace gputco
