-- gputco catalog schema: migration 8 -> 9.
--
-- Applied after 0008 to every new catalog, and to an older catalog file when it is written to
-- (a user price book) or read (in memory; the file stays untouched). The runner
-- (pricing/catalog_schema.cpp) wraps it in one transaction and sets PRAGMA user_version = 9.
--
-- The user's measured serving runs (issue #36, `gputco calibrate`): one row per run of a
-- serving benchmark file (vllm bench serve, SGLang bench_serving, trtllm-bench, genai-perf /
-- AIPerf, llama-bench, gputco's CSV), as scenarios/benchmark_runs.hpp resolves it. The serving
-- model refits its constants to a model's runs on a device and engine (engine/serving/serving_measured.hpp).
-- Only a user database holds rows; the built-in catalog's table stays empty. Columns:
--   file_name, file_sha256  the benchmark file's name and the SHA-256 of its bytes: the source
--   run_index               which run of the file (0-based); (file_sha256, run_index) is unique,
--                           so importing a file again stores nothing new
--   format                  vllm-bench-serve | sglang-bench-serving | trtllm-bench | genai-perf |
--                           llama-bench | csv
--   model_id, quant, kv_cache ('' = the engine's default), device_id, gpu_count, tp, pp (0 = not
--   stated), engine, engine_version ('' = not stated)
--   input_tokens, output_tokens   mean tokens per request
--   concurrency             mean requests in flight on the box
--   output_tokens_per_s     the box's output throughput (0 for a prefill-only run)
--   mean_tpot_ms, mean_ttft_ms, p99_tpot_ms, p99_ttft_ms, prefill_tokens_per_s (0 = not measured)
--   duration_s, requests, measured_on (the run's day), imported_on (the day it was stored)

CREATE TABLE serving_runs (
  id INTEGER PRIMARY KEY,
  file_name TEXT NOT NULL CHECK (file_name <> ''),
  file_sha256 TEXT NOT NULL CHECK (length(file_sha256) = 64),
  run_index INTEGER NOT NULL CHECK (run_index >= 0),
  format TEXT NOT NULL CHECK (format IN ('vllm-bench-serve', 'sglang-bench-serving',
                                         'trtllm-bench', 'genai-perf', 'llama-bench', 'csv')),
  model_id TEXT NOT NULL CHECK (model_id <> ''),
  quant TEXT NOT NULL CHECK (quant <> ''),
  kv_cache TEXT NOT NULL DEFAULT '',
  device_id TEXT NOT NULL CHECK (device_id <> ''),
  gpu_count INTEGER NOT NULL CHECK (gpu_count >= 1),
  tp INTEGER NOT NULL DEFAULT 0 CHECK (tp >= 0),
  pp INTEGER NOT NULL DEFAULT 0 CHECK (pp >= 0),
  engine TEXT NOT NULL CHECK (engine IN ('llama.cpp', 'vllm', 'sglang', 'tensorrt-llm')),
  engine_version TEXT NOT NULL DEFAULT '',
  input_tokens REAL NOT NULL CHECK (input_tokens > 0),
  output_tokens REAL NOT NULL CHECK (output_tokens >= 1),
  concurrency REAL NOT NULL CHECK (concurrency >= 1),
  output_tokens_per_s REAL NOT NULL CHECK (output_tokens_per_s >= 0),
  mean_tpot_ms REAL NOT NULL DEFAULT 0 CHECK (mean_tpot_ms >= 0),
  mean_ttft_ms REAL NOT NULL DEFAULT 0 CHECK (mean_ttft_ms >= 0),
  p99_tpot_ms REAL NOT NULL DEFAULT 0 CHECK (p99_tpot_ms >= 0),
  p99_ttft_ms REAL NOT NULL DEFAULT 0 CHECK (p99_ttft_ms >= 0),
  prefill_tokens_per_s REAL NOT NULL DEFAULT 0 CHECK (prefill_tokens_per_s >= 0),
  duration_s REAL NOT NULL CHECK (duration_s > 0),
  requests INTEGER NOT NULL DEFAULT 0 CHECK (requests >= 0),
  measured_on TEXT NOT NULL CHECK (measured_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  imported_on TEXT NOT NULL CHECK (imported_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  UNIQUE (file_sha256, run_index)
);
CREATE INDEX serving_runs_by_model ON serving_runs (lower(model_id), lower(device_id), engine);
